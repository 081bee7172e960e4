"""The rules deciding graphp_fl's statistical claims (spec §3 NB2), fixed before the run. The
claims stage applies them (notebooks/graphp_fl/claims.yaml names each claim's rule); their
thresholds are the constants here, the one place each is written. Each rule takes the evidence a
notebook recorded by name, one seed per row, so the ledger can resample the seeds;
tests/graphp_fl/test_decisions.py checks each both ways."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from lib.companion import rules

SE_FACTOR = 2.0          # topology.acc: the fitted slope must clear 2 standard errors
LEARNED_MARGIN = 0.2     # precondition: local-only accuracy at least chance + 0.2
OPPOSITE_SE = 2.0        # frpa.acc: FRPA below FedProx by more than 2 s.e. ...
OPPOSITE_SEEDS = 3       # ... over at least 3 seeds shows the paper's opposite


def denoises(prec_rect: np.ndarray, prec_obs: np.ndarray) -> bool:
    """topology.denoise: at every noise level r > 0 (columns), the mean edge precision over seeds
    (rows) of A~ exceeds A's."""
    return bool(np.all(np.mean(prec_rect, 0) > np.mean(prec_obs, 0)))


def slope_and_se(x: Sequence[float], y: Sequence[float]) -> tuple[float, float]:
    """Least-squares slope of y on x and its standard error (needs >= 3 points, 2 x values)."""
    x, y = np.asarray(x, float).ravel(), np.asarray(y, float).ravel()
    if len(x) < 3 or len(set(x)) < 2:
        raise ValueError("a slope and its error need at least 3 points and 2 distinct x")
    slope, icept = np.polyfit(x, y, 1)
    resid = y - (slope * x + icept)
    se = np.sqrt(resid @ resid / (len(x) - 2) / np.sum((x - x.mean()) ** 2))
    return float(slope), float(se)


def slope_defined(noise: np.ndarray, gain: np.ndarray) -> bool:
    """Precondition of topology.acc: two seeds or more (rows), three (seed, client) points or
    more and two noise levels or more."""
    x = np.asarray(noise, float)
    return x.shape[0] >= 2 and x.size >= 3 and len(set(x.ravel())) >= 2


def gain_rises(noise: np.ndarray, gain: np.ndarray, k: float = SE_FACTOR) -> bool:
    """topology.acc: the gain from rectification rises with r_k, fitted over every (seed,
    client) point: slope > k standard errors (False where no slope is defined)."""
    x = np.ravel(noise)
    if x.size < 3 or len(set(x)) < 2:
        return False
    slope, se = slope_and_se(noise, gain)
    return slope > k * se


def local_learned(local: Sequence[float], n_comm: int, margin: float = LEARNED_MARGIN) -> bool:
    """Precondition of the FRPA comparisons: the local-only arm's mean accuracy (over seeds and
    clients) at least chance (1 / n_comm) + `margin`."""
    return float(np.mean(local)) >= 1 / n_comm + margin


def forgets_less(frpa: Sequence[float], fedavg: Sequence[float]) -> bool:
    """frpa.forgetting: FRPA's mean forgetting below FedAvg's (spec §3: FRPA < FedAvg)."""
    return float(np.mean(frpa)) < float(np.mean(fedavg))


def at_least(frpa: Sequence[float], fedprox: Sequence[float]) -> bool:
    """frpa.acc: FRPA's mean personalised accuracy >= FedProx's (spec §3)."""
    return float(np.mean(frpa)) >= float(np.mean(fedprox))


def below_beyond(frpa: Sequence[float], fedprox: Sequence[float], k: float = OPPOSITE_SE,
                 min_n: int = OPPOSITE_SEEDS) -> bool:
    """frpa.acc's opposite: per-seed FRPA minus FedProx more than k s.e. below zero over at least
    min_n seeds (rules.opposite_beyond)."""
    return rules.opposite_beyond(np.asarray(frpa, float) - np.asarray(fedprox, float), k, min_n)
