"""The rules deciding linear_rnns's statistical and qualitative claims (spec §1.1, §6.5, §7.3).

Each function takes the measured numbers a notebook computed and returns whether the claim
holds; thresholds are arguments whose defaults are the named constants below, each with its
source. Nothing here draws, trains or reads files, so each rule is tested on hand-built inputs
(tests/linear_rnns/test_decisions.py) and can be seen to fail.

`seeds_needed` and `ordering_holds` restate the rule behind `train.seeds_needed` and the `holds`
column of `train.ordering_checks`: train.py is part of the checkpoints' code digest, so it is not
edited to call them, and a test pins that the two agree.
"""
from __future__ import annotations

from collections.abc import Sequence

SEED_FRACTION = (2, 3)       # "in >= 2 of 3 seeds" (spec §7.3 soft checks)
RNN_HIGH = 0.9               # T1: "nonlinear RNN >= 0.9 on all bins" (spec §7.3 table)
LEARNED_MARGIN = 0.05        # beat the majority baseline by 5 points (reconstructed; §6.5 [I])
NEAR_PERFECT_PERCENT = 95.0  # "near-perfect" in Figure 2a (reconstructed; RNN 96.5-100%)


def seeds_needed(n_seeds: int) -> int:
    """Seeds that must agree out of n: ceil(2n/3), spec §7.3's "2 of 3" generalised."""
    num, den = SEED_FRACTION
    return -(-num * n_seeds // den)


def _in_enough_seeds(hits: Sequence[bool]) -> bool:
    """At least seeds_needed of the per-seed outcomes hold; no seeds at all is an error."""
    if not hits:
        raise ValueError("no seeds to decide on: a claim over zero seeds cannot fail")
    return sum(hits) >= seeds_needed(len(hits))


def classes_separated(upper: Sequence[str], lower: Sequence[str], chain: Sequence[str]) -> bool:
    """Every `upper` class strictly precedes every `lower` class in the chain (spec §1.1)."""
    pos = {c: i for i, c in enumerate(chain)}
    return max(pos[c] for c in upper) < min(pos[c] for c in lower)


def ordering_holds(gaps: Sequence[float], margin: float) -> bool:
    """Winner - loser >= margin (spec §7.3: 0.15, or 0 for ">=") in seeds_needed of the seeds."""
    return _in_enough_seeds([g >= margin for g in gaps])


def high_in_enough_seeds(min_acc_per_seed: Sequence[float], threshold: float = RNN_HIGH) -> bool:
    """Worst-bin accuracy >= threshold (spec §7.3 T1: 0.9) in seeds_needed of the seeds."""
    return _in_enough_seeds([a >= threshold for a in min_acc_per_seed])


def beats_majority(gap: float, margin: float = LEARNED_MARGIN) -> bool:
    """Accuracy - majority baseline >= margin (reconstructed 0.05; spec §6.5 [I] baselines)."""
    return gap >= margin


def only_first_stays_high(first: Sequence[float], others_last_bin: Sequence[float],
                          floor: float = NEAR_PERFECT_PERCENT) -> bool:
    """First model >= floor in every bin, others below its worst in the last (Fig. 2a, §6.5)."""
    worst = min(first)
    return worst >= floor and all(v < worst for v in others_last_bin)
