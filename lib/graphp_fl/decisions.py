"""Where the spec is open (spec §7), the choices this miniature makes, one swappable function
each, and the rules deciding its statistical claims (spec §3 NB2), fixed before the run. Pure
functions of measured numbers; tests/graphp_fl/test_decisions.py shows each rule both ways."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch

SE_FACTOR = 2.0        # topology.acc: the fitted slope must clear 2 standard errors


def fisher_scale(fisher: tuple[torch.Tensor, ...]) -> tuple[torch.Tensor, ...]:
    """Open question 1 (spec §7): the Fisher's scale is arbitrary, so FRPA's lambda is set
    against a Fisher divided by its mean over all of a model's coordinates (lambda = 1: the
    average coordinate moves halfway to the global model)."""
    total = sum(f.flatten(1).sum(1) for f in fisher)             # (M,)
    count = sum(f[0].numel() for f in fisher)
    mean = (total / count).clamp_min(1e-30)
    return tuple(f / mean.view(-1, *[1] * (f.dim() - 1)) for f in fisher)


def denoises(prec_rect: Sequence[float], prec_obs: Sequence[float]) -> bool:
    """topology.denoise: on every noise level r > 0, the mean edge precision of A~ exceeds A's."""
    return bool(np.all(np.asarray(prec_rect) > np.asarray(prec_obs)))


def slope_and_se(x: Sequence[float], y: Sequence[float]) -> tuple[float, float]:
    """Least-squares slope of y on x and its standard error (needs >= 3 points, 2 x values)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    if len(x) < 3 or len(set(x)) < 2:
        raise ValueError("a slope and its error need at least 3 points and 2 distinct x")
    slope, icept = np.polyfit(x, y, 1)
    resid = y - (slope * x + icept)
    se = np.sqrt(resid @ resid / (len(x) - 2) / np.sum((x - x.mean()) ** 2))
    return float(slope), float(se)


def gain_rises(slope: float, se: float) -> bool:
    """topology.acc: the gain from rectification rises with r_k (slope > 2 se)."""
    return slope > SE_FACTOR * se


def forgets_less(frpa: Sequence[float], fedavg: Sequence[float]) -> bool:
    """frpa.forgetting: FRPA's mean forgetting below FedAvg's (spec §3: FRPA < FedAvg)."""
    return float(np.mean(frpa)) < float(np.mean(fedavg))


def at_least(frpa: Sequence[float], fedprox: Sequence[float]) -> bool:
    """frpa.acc: FRPA's mean personalised accuracy >= FedProx's (spec §3)."""
    return float(np.mean(frpa)) >= float(np.mean(fedprox))


