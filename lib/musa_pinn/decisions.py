"""Where the spec is open (spec §7), one swappable function each, and the rules that decide the
statistical claims of NB2, fixed before the run (tests/musa_pinn/test_decisions.py shows each
both ways)."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

TRAINED_MAX = 0.5       # precondition: an arm's rel L2(u) below 0.5 (it learned the flow at all)
PATHOLOGY_MIN = 0.05    # D1: the strong form "fails" when its rel L2(u) is at least 5%
SE_FACTOR = 2.0         # a paired difference counts when its mean exceeds 2 standard errors


def momentum_weight(step: int, steps: int, two_stage: bool, switch: float, early: float
                    ) -> float:
    """Spec §7 Q5, the continuity-first schedule: momentum weight `early` for the first `switch`
    fraction of the steps, then 1; single-stage arms weight it 1 throughout."""
    return early if two_stage and step < switch * steps else 1.0


def scale_counts(counts: dict[str, int], keep: Sequence[str]) -> dict[str, int]:
    """Spec §3 ablations: drop the scales not in `keep` and share their discs among the kept
    ones in proportion, so that every weak arm integrates the same number of discs per step."""
    total = sum(counts.values())
    kept = {k: counts[k] for k in keep}
    share = {k: round(total * v / sum(kept.values())) for k, v in kept.items()}
    first = next(iter(share))
    share[first] += total - sum(share.values())                      # rounding goes to one scale
    return share


def paired_gain(worse: Sequence[float], better: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of the per-seed differences worse - better (se 0 for one seed)."""
    d = np.asarray(worse, float) - np.asarray(better, float)
    se = float(d.std(ddof=1) / np.sqrt(len(d))) if len(d) > 1 else 0.0
    return float(d.mean()), se


def lower_paired(candidate: Sequence[float], baseline: Sequence[float]) -> bool:
    """M2/M3: candidate below baseline, seed-paired: mean(baseline - candidate) > 2 se, with
    at least two seeds (one seed has no spread to judge by)."""
    if len(candidate) < 2:
        return False
    mean, se = paired_gain(baseline, candidate)
    return mean > SE_FACTOR * se


def not_lower(candidate: Sequence[float], baseline: Sequence[float]) -> bool:
    """The deviation's evidence: the candidate is not below the baseline on the seed mean."""
    return float(np.mean(candidate)) >= float(np.mean(baseline))


def strong_fails(err_u_strong: Sequence[float]) -> bool:
    """M1 / D1: the strong-form PINN shows the pathology (seed-mean rel L2(u) >= 5%)."""
    return float(np.mean(err_u_strong)) >= PATHOLOGY_MIN


def trained(err_u: Sequence[float]) -> bool:
    """An arm learned the flow at all (every seed's rel L2(u) below 0.5)."""
    return bool(np.all(np.asarray(err_u) < TRAINED_MAX))
