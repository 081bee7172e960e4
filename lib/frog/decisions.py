"""The rules deciding frog's statistical and qualitative claims (spec §3 NB1), fixed before the
run. The claims stage applies them (notebooks/frog/claims.yaml names each claim's rule); their
thresholds are the constants here, the one place each is written. Each rule takes the evidence a
notebook recorded by name, one replicate per row (a seed, or a (seed, task) replica), so the
ledger can resample the rows; tests/frog/test_decisions.py checks each both ways."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy import stats

LEARNED_MIN = 0.6          # precondition: the best arm beats chance (0.5) on the task
CI_LEVEL = 0.95            # a paired difference shown: its two-sided t interval above 0
GATE_EDGE = 0.5            # frog.gate.selects: the gate ends on the edge side


def _interval_low(diff: Sequence[float], level: float) -> float:
    """The lower end of the two-sided `level` t interval of the mean of paired differences."""
    d = np.asarray(diff, float)
    half = stats.t.ppf(0.5 + level / 2, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d))
    return float(d.mean() - half)


def above_zero(diff: Sequence[float], level: float = CI_LEVEL) -> bool:
    """Mean of paired differences > 0 with its `level` t interval above 0; one seed cannot show
    it (False: the precondition of two seeds makes such a claim inconclusive)."""
    if len(diff) < 2:
        return False
    return float(np.mean(diff)) > 0 and _interval_low(diff, level) > 0


def learned(accuracy: np.ndarray, least: float = LEARNED_MIN) -> bool:
    """Precondition: two seeds or more (rows), and some arm's (column's) mean test accuracy
    reaches `least`."""
    acc = np.atleast_2d(accuracy)
    return acc.shape[0] >= 2 and float(acc.mean(0).max()) >= least


def both_learned(accuracy_far: np.ndarray, accuracy_near: np.ndarray,
                 least: float = LEARNED_MIN) -> bool:
    """Precondition of frog.roles.contrast: both tasks learned (see `learned`)."""
    return learned(accuracy_far, least) and learned(accuracy_near, least)


def edge_beats_node(edge: Sequence[float], node: Sequence[float],
                    level: float = CI_LEVEL) -> bool:
    """frog.roles.copurchase, frog.roles.direct_k1: the edge role's test accuracy above the node
    role's, paired over seeds (`above_zero` of the differences)."""
    return above_zero(np.asarray(edge, float) - np.asarray(node, float), level)


def rises(gain: Sequence[float], level: float = CI_LEVEL) -> bool:
    """frog.roles.node_catches_up: the node role's own accuracy gain from K = 2 to K = 4,
    paired over seeds, shown above 0."""
    return above_zero(gain, level)


def catches_up(gap_deep: Sequence[float], gap_shallow: Sequence[float]) -> bool:
    """frog.roles.depth: the mean edge-minus-node gap at K = 4 is smaller than at K = 2."""
    return float(np.mean(gap_deep)) < float(np.mean(gap_shallow))


def role_matters_more(gap_far: Sequence[float], gap_near: Sequence[float]) -> bool:
    """frog.roles.contrast: the mean role gap is larger on the 4-hop task than on the 2-hop one."""
    return float(np.mean(gap_far)) > float(np.mean(gap_near))


def gate_selects(p_final: Sequence[float], gate: Sequence[float], node: Sequence[float],
                 edge_side: float = GATE_EDGE) -> bool:
    """frog.gate.selects: the gate ends past `edge_side` and the gated model is at least as
    accurate as the fixed node role (means over seeds)."""
    return float(np.mean(p_final)) > edge_side and float(np.mean(gate)) >= float(np.mean(node))


def fd_consistent(r2_with: Sequence[float], r2_without: Sequence[float]) -> bool:
    """frog.fd.ablation: with L_FD the tx state is more recoverable from its entities (linear
    R^2) than without, on every replica."""
    return bool(np.all(np.asarray(r2_with) > np.asarray(r2_without)))
