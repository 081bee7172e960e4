"""The rules deciding ann2snn_cka's statistical claims, with the spec's thresholds (spec §3),
fixed before the run. Pure functions of measured numbers; tests/ann2snn_cka/test_decisions.py
shows each both ways."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

GAP_T4 = 0.30              # gap.low_T: acc_ANN - acc_SNN(T = 4, v0 = 0) >= 0.30 ...
GAP_T8 = 0.02              # ... and (T = 8) >= 0.02
HIGH_T_RATIO = 0.99        # gap.high_T: acc_SNN(32) / acc_ANN >= 0.99 without fine-tuning
CLOSES_GAP = 0.30          # ft.closes_gap: KL + CKA at T_ft = 4 gains >= 0.30 on every seed
FIDELITY_LOW = 0.80        # ft.fidelity_at_Tft: acc / acc_ANN >= 0.80 at T_ft < 8 ...
FIDELITY_HIGH = 0.99       # ... and >= 0.99 at T_ft >= 8 (the abstract's "> 99 %")
NOISE_MARGIN = 0.01        # noise.converted_high_T: acc_conv(16, 0.3) >= acc_ANN(0.3) - 0.01
RELATIVE_MARGIN = 0.03     # noise.finetuned_relative: degradation >= the ANN's - 0.03
PAPER_CIFAR = {"ResNet-18, SNN at T = 32": 96.38, "ResNet-18, source ANN": 96.39}   # abstract


def gap_at_low_T(acc_ann: float, acc_t4: float, acc_t8: float) -> bool:
    """The open-loop SNN loses >= 0.30 at T = 4 and >= 0.02 at T = 8 (P1)."""
    return acc_ann - acc_t4 >= GAP_T4 and acc_ann - acc_t8 >= GAP_T8


def ratio_at_least(acc: float, acc_ann: float, ratio: float) -> bool:
    """acc / acc_ANN >= ratio."""
    return acc >= ratio * acc_ann


def fidelity_threshold(T_ft: int) -> float:
    """The spec's fidelity ratio for fine-tuning at T_ft: 0.80 below T = 8, 0.99 from it."""
    return FIDELITY_LOW if T_ft < 8 else FIDELITY_HIGH


def gains_every_seed(after: Sequence[float], before: float, margin: float) -> bool:
    """Every seed's accuracy after fine-tuning exceeds the open-loop one by >= margin."""
    return len(after) > 0 and all(a - before >= margin for a in after)


def mean_difference(a: Sequence[float], b: Sequence[float]) -> float:
    """Mean over seeds of a - b (paired by seed)."""
    return float(np.mean(np.asarray(a) - np.asarray(b)))


def relative_degradation(acc_noisy: float, acc_clean: float) -> float:
    """acc(sigma) / acc(0): robustness apart from the clean accuracy."""
    return acc_noisy / acc_clean if acc_clean > 0 else float("nan")


def at_least_everywhere(a: Sequence[float], b: Sequence[float]) -> bool:
    """a >= b at every noise level."""
    return all(x >= y for x, y in zip(a, b, strict=True))


def cv(values: Sequence[float]) -> float:
    """Coefficient of variation std / mean (population std): the spread of a gradient norm."""
    v = np.asarray(values, dtype=np.float64)
    return float(v.std() / v.mean()) if v.mean() > 0 else float("nan")


