"""Where the spec leaves frog open (spec §7), the one swappable function each, and the rules that
decide the statistical claims (spec §3 NB1), fixed before the run. Pure functions of measured
numbers; tests/frog/test_decisions.py shows each rule both ways."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch
from scipy import stats

LEARNED_MIN = 0.6          # precondition: the best mode beats chance (0.5) on the task
CI_LEVEL = 0.95            # frog.roles.copurchase: two-sided t interval of the paired mean
GATE_EDGE = 0.5            # frog.gate.selects: the gate ends on the edge side


def fd_residual(predicted: torch.Tensor, h_tx: torch.Tensor) -> torch.Tensor:
    """(R,) mean over tx rows of ||g([h_user, h_item]) - h_tx||^2 (spec §1.1's reading of the
    functional-dependency constraint, open question §7 Q3): the tx state must be recoverable from
    the two entities it references."""
    return ((predicted - h_tx) ** 2).sum(-1).mean(-1)


def paired_interval(diff: Sequence[float]) -> tuple[float, float, float]:
    """Mean of paired differences over seeds and its two-sided CI_LEVEL t interval (nan bounds
    for a single seed)."""
    d = np.asarray(diff, float)
    mean = float(d.mean())
    if len(d) < 2:
        return mean, float("nan"), float("nan")
    half = float(stats.t.ppf(0.5 + CI_LEVEL / 2, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d)))
    return mean, mean - half, mean + half


def above_zero(diff: Sequence[float]) -> bool:
    """frog.roles.copurchase: mean paired difference > 0 with its CI above 0 (needs 2 seeds)."""
    if len(diff) < 2:
        raise ValueError("a confidence interval needs at least two seeds")
    mean, low, _ = paired_interval(diff)
    return mean > 0 and low > 0


def learned(accuracies: Sequence[float]) -> bool:
    """Precondition: some mode's mean test accuracy reaches LEARNED_MIN."""
    return max(accuracies) >= LEARNED_MIN


def catches_up(gap_deep: float, gap_shallow: float) -> bool:
    """frog.roles.depth: the edge-minus-node gap at K = 4 is smaller than at K = 2."""
    return gap_deep < gap_shallow


def gate_selects(p_final: float, acc_gate: float, acc_node: float) -> bool:
    """frog.gate.selects: the gate ends at p > 0.5 and the gated model is at least as accurate as
    the fixed node role (means over seeds)."""
    return p_final > GATE_EDGE and acc_gate >= acc_node


def role_matters_more(gap_far: float, gap_near: float) -> bool:
    """frog.roles.contrast: the role gap is larger on the 4-hop task than on the 2-hop one."""
    return gap_far > gap_near


def fd_consistent(r2_with: Sequence[float], r2_without: Sequence[float]) -> bool:
    """frog.fd.ablation: with L_FD the tx state is more recoverable from its entities (linear
    R^2) than without, on every replica."""
    return bool(np.all(np.asarray(r2_with) > np.asarray(r2_without)))


