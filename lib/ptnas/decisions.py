"""The rules deciding ptnas's claims, thresholds fixed in advance from the spec (§3, §5).

Pure functions of measured numbers; tests/ptnas/test_decisions.py shows each both ways.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

F64_REL_MAX = 1e-8          # spec X1: float64 implementation vs closed form
F32_REL_MAX = 5e-3          # spec X1: float32 (finite-difference cancellation in τ)
LOGIT_ATOL = 1e-5           # spec B1: masked vs separate logits after one epoch (float32),
#                             relative to max(1, max |logit|) (rounding is relative)
SPEARMAN_MIN = 0.999        # spec X3: ranking at B against B = 32
# derived: the batch identity with a repeated δ row is exact in exact arithmetic; in float64 the
# finite difference a(x+δ) − a(x) (ε = 1e-5 against activations of order 1e1-1e3) keeps about
# 8-10 digits, so two scores at different B agree to ~1e-8-1e-7 (measured max 9e-8 on the 39 nets of
# the default profile); 1e-6 bounds that and stays 4 orders below a fresh row per batch row (~1e-2)
SCALING_F64_MAX = 1e-6
RATIO_REL_MAX = 1e-4        # spec X3: median score(B)/score(32) within 1e-4 (relative) of B/32
FIDELITY_TAU_MIN = 0.5      # spec B2: τ(val@9, val@27) on digits
RANGE_MIN = 0.05            # spec B4: range of an accuracy / AUC ground truth
CV_MIN = 0.1                # spec B4: coefficient of variation of a log-loss ground truth
PTPROXY_TAU_MIN = {"digits": 0.35, "synthetic": 0.2, "breast_cancer": 0.2}   # spec X4
ABLATION_MARGIN = 0.03      # spec X6: τ(traj_width) − max(τ(traj), τ(width))
SIZE_PARTIAL_MAX = 0.05     # spec X7: partial τ given log #params at or below: a size measure
SMALL_BUDGETS = (5.0, 30.0)  # spec S3: budgets (epoch units) where pTNAS should lead
SPEEDUP_MIN = 2.0           # spec S4: best speed-up over data sets vs RS and vs RE
FILTER_MARGIN = 0.001       # S5 (decision): mean regret gap, size filter minus proxy filter


def rel_gap_at_most(gaps: Sequence[float], limit: float) -> bool:
    """Every relative gap is finite and at most `limit`."""
    arr = np.asarray(gaps, dtype=float)
    return bool(arr.size and np.isfinite(arr).all() and (arr <= limit).all())


def increasing(values: Sequence[float]) -> bool:
    """Strictly increasing."""
    return all(b > a for a, b in zip(values, values[1:]))


def non_increasing(values: Sequence[float]) -> bool:
    """Never rising (equal steps allowed)."""
    return all(b <= a for a, b in zip(values, values[1:]))


def not_saturated(values: Sequence[float], metric: str) -> tuple[float, bool]:
    """(spread, holds): range ≥ RANGE_MIN for accuracy / AUC, coefficient of variation ≥ CV_MIN
    for a (negated) log-loss."""
    arr = np.asarray(values, dtype=float)
    if metric == "neg_log_loss":
        spread = float(arr.std() / abs(arr.mean()))
        return spread, spread >= CV_MIN
    spread = float(arr.max() - arr.min())
    return spread, spread >= RANGE_MIN


def ranks_first(taus: Mapping[str, float], name: str) -> tuple[bool, float]:
    """(name has the highest τ, its gap to the best other proxy; positive when it leads)."""
    others = max(v for k, v in taus.items() if k != name)
    return taus[name] > others, taus[name] - others


def beats_all(method: float, baselines: Mapping[str, float]) -> bool:
    """The method's mean regret is below every baseline's."""
    return all(method < v for v in baselines.values())


def speedup(t_baseline: float, t_method: float) -> float:
    """t_baseline / t_method; 0 when the method never reaches the target, inf when only it does."""
    if not np.isfinite(t_method):
        return 0.0
    return float(t_baseline / t_method) if t_method > 0 else float("inf")


def median_ratio_within(ratios: np.ndarray, limit: float) -> bool:
    """Rows: nets, columns: batch sizes, entries score(B)/score(ref) ÷ (B/ref). The median over
    nets is within `limit` (relative) of 1 at every batch size."""
    return bool((np.abs(np.median(np.asarray(ratios, dtype=float), axis=0) - 1) <= limit).all())


def ranking_kept(scores: np.ndarray, ref: int, rho_min: float) -> bool:
    """Rows: nets, columns: batch sizes. The Spearman ρ of every column with column `ref` is at
    least `rho_min`."""
    from lib.ptnas.stats import spearman
    arr = np.asarray(scores, dtype=float)
    return all(spearman(arr[:, i], arr[:, ref]) >= rho_min for i in range(arr.shape[1]))
