"""The rules deciding spike_htr's statistical claims, with the spec's thresholds (spec §3),
fixed before the run. Pure functions of measured numbers; tests/spike_htr/test_decisions.py
shows each both ways."""
from __future__ import annotations

from collections.abc import Sequence

CTC_ATOL = 1e-9            # ctc.loss_matches_naive: |torch - recursion| in float64
ANN_CER = 0.40             # train.ann_learns: same-font CER after the default budget
SNN_CER_400 = 0.90         # train.snn_learns: after 400 steps ...
SNN_CER_800 = 0.65         # ... after 800 steps (the spec's two budgets)
EMPTY_CER = 1.0            # the CER of always predicting the empty string
LEARNED_CER = 0.5          # the reducer's claims need a recognizer that learned (CER <= 0.5)
BLANK_FRACTION = 0.5       # reducer.blank_dominated: share of blank argmax positions
SMALL_COST = 0.05          # reducer.small_cost: CER(r = 0.5) - CER(r = 1)
THRESHOLD_TAU = 0.9        # reducer.threshold: at tau_b = 0.9 ...
THRESHOLD_KEPT = 0.7       # ... the mean kept length <= 0.7 L ...
THRESHOLD_COST = 0.05      # ... and the CER rises by <= 0.05
PAPER_CER = {"IAM": 5.4, "LAM": 2.5, "READ2016": 3.9}    # abstract, per cent, no LM, T = 2


def snn_threshold(steps: int) -> float | None:
    """The spec's SNN CER threshold for a training budget: 0.65 from 800 steps, 0.90 from 400,
    none below 400 (the CTC plateau: no threshold means anything there)."""
    if steps >= 800:
        return SNN_CER_800
    if steps >= 400:
        return SNN_CER_400
    return None


def pooled_cer(edits, lengths) -> float:
    """Σ edits / Σ label lengths over lines (the CER of spec §1.4, from per-line counts)."""
    total = float(sum(lengths))
    if total == 0:
        raise ValueError("pooled_cer: the lines hold no characters")
    return float(sum(edits)) / total


def learns(cer: float, threshold: float) -> bool:
    """CER at most the threshold and below the empty prediction's 1.0."""
    return cer <= threshold and cer < EMPTY_CER


def small_rise(cer_reduced: float, cer_full: float, margin: float) -> bool:
    """Reduction raises the CER by at most margin."""
    return cer_reduced - cer_full <= margin


def threshold_ok(kept_mean: float, L: int, cer_reduced: float, cer_full: float) -> bool:
    """The threshold rule keeps <= 0.7 L positions on average at a CER rise <= 0.05."""
    return kept_mean <= THRESHOLD_KEPT * L and small_rise(cer_reduced, cer_full, THRESHOLD_COST)


def coarse_helps(cer_static: Sequence[float], cer_coarse: Sequence[float]) -> bool:
    """P2: the mean over seeds of CER(static) - CER(coarse-to-fine) is positive."""
    if len(cer_static) != len(cer_coarse) or not cer_static:
        raise ValueError("coarse_helps: one CER per seed for each stream")
    diff = [s - c for s, c in zip(cer_static, cer_coarse)]
    return sum(diff) / len(diff) > 0
