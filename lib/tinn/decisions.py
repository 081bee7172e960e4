"""The rules deciding tinn's statistical and qualitative claims (spec §3.3), fixed before the
run. Pure functions of measured numbers; tests/tinn/test_decisions.py shows each both ways."""
from __future__ import annotations

from collections.abc import Sequence

TINN_ERROR_MAX = 1e-3        # spec §3.3 tinn.burgers.tinn_lm_error: final relative L2 <= 1e-3
PINN_OVER_TINN_MIN = 4.0     # spec §3.3 tinn_vs_pinn_lm: PINN/TINN >= 4 (the abstract's "4x")
ADAM_OVER_LM_MIN = 10.0      # spec §3.3 lm_vs_adam: Adam error >= 10 x LM error
SPEEDUP_MIN = 3.0            # spec §3.3's time_to_1e-2 (LM steps here): TINN >= 3x faster
TARGET_ERROR = 1e-2          # spec §3.3: first step with relative L2 <= 1e-2
CONVERGENCE_FACTOR_MIN = 100.0  # spectral: each doubling cuts the error >= 100x (derived)


def below(value: float, limit: float = TINN_ERROR_MAX) -> bool:
    """value <= limit."""
    return value <= limit


def ratio_at_least(worse: float, better: float, factor: float) -> bool:
    """worse / better >= factor (better > 0)."""
    if better <= 0:
        raise ValueError(f"better = {better!r}: a ratio needs a positive denominator")
    return worse / better >= factor


def first_reach(steps: Sequence[int], errors: Sequence[float],
                target: float = TARGET_ERROR) -> int | None:
    """The first logged step whose error is <= target, or None."""
    for s, e in zip(steps, errors):
        if e <= target:
            return int(s)
    return None


def faster(tinn_step: int | None, pinn_step: int | None, total_steps: int,
           factor: float = SPEEDUP_MIN) -> bool:
    """TINN reaches the target >= factor x sooner. If PINN never reaches it within total_steps,
    TINN must reach it within total_steps / factor (spec §3.3)."""
    if tinn_step is None:
        return False
    if pinn_step is None:
        return tinn_step * factor <= total_steps
    return pinn_step >= factor * max(tinn_step, 1)


def converging(errors: Sequence[float], factor: float = CONVERGENCE_FACTOR_MIN) -> bool:
    """Each error is at most 1/factor of the one before (spectral convergence under doubling)."""
    if len(errors) < 2:
        raise ValueError("convergence needs at least two resolutions")
    return all(b * factor <= a for a, b in zip(errors, errors[1:]))


def trained(curve: Sequence[float], share: float = 0.25, rel: float = 0.05) -> bool:
    """An arm has trained when its error curve has stopped falling over its last quarter
    (lib.companion.rules.converged); a curve too short to tell (fewer than 4 tail points, a
    smoke run) has not."""
    from lib.companion import rules
    if len(rules.tail(curve, share)) < 4:
        return False
    return rules.converged(curve, share, rel)


def tail_ratio(pairs, factor: float) -> bool:
    """Rows (worse arm's error, better arm's error) over the last quarter: the ratio of their
    medians is at least `factor` (a noisy curve's final value is its tail's median)."""
    import numpy as np
    pairs = np.asarray(pairs, dtype=float)
    return ratio_at_least(float(np.median(pairs[:, 0])), float(np.median(pairs[:, 1])), factor)
