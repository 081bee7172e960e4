"""The arms of the ablation (spec §3 NB1): what each trains and how its band is read off.

vanilla: MSE regressor, absolute residual. cqr: two pinball quantiles (a/2, 1 - a/2), the CQR
score. The NIG arms: blind (no prior anywhere), p0 (prior as a feature), p1 (p0 + the monotone
floor), p2 (no feature, prior-modulated evidence), p1_cal (p1 + the calibration surrogate).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Arm:
    """One training recipe: loss family, whether d~ is a feature, which prior terms it adds."""

    name: str
    loss: str                     # "mse" | "pinball" | "nig"
    prior_feature: bool
    floor: bool = False
    modulate: bool = False
    surrogate: bool = False

    @property
    def outputs(self) -> int:
        return {"mse": 1, "pinball": 2, "nig": 4}[self.loss]


ARMS = {a.name: a for a in (
    Arm("vanilla", "mse", True),
    Arm("cqr", "pinball", True),
    Arm("blind", "nig", False),
    Arm("p0", "nig", True),
    Arm("p1", "nig", True, floor=True),
    Arm("p2", "nig", False, modulate=True),
    Arm("p1_cal", "nig", True, floor=True, surrogate=True),
)}
NAMES = tuple(ARMS)
