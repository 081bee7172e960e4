"""The rules deciding the coordinate-check claims (spec §3 NB1), fixed before the run. The
expected slopes come from the one-step scaling argument of spec §1.3, not from a measurement."""
from __future__ import annotations

CP_SLOPE_MAX = 0.15                  # |slope| <= 0.15 for CompleteP (width and depth)
NTK_DEPTH_SLOPE_MIN = 0.15           # NTK: Delta f grows with L
MIN_SWEEP = 4                        # a slope over fewer sizes is not the asymptotic one


def ntk_width_bounds(ntk_variant: str) -> dict[str, tuple[float, float]]:
    """Spec thresholds on NTK's width slopes of Delta h/h and Delta f. Under `adam_lazy` every
    entry moves eta / sqrt(m_N), so both predicted slopes drop by one half (spec §1.2, §1.3)."""
    shift = 0.0 if ntk_variant == "adam_fixed_lr" else -0.5
    return {"dh": (0.35 + shift, 0.65 + shift), "df": (0.4 + shift, 1.2 + shift)}


def within(value: float, bounds: tuple[float, float]) -> bool:
    """lower <= value <= upper."""
    return bounds[0] <= value <= bounds[1]


def slope_checkable(sizes: list[int]) -> bool:
    """A sweep has enough sizes (MIN_SWEEP) for its fitted slope to be held to spec §3's bounds;
    the smoke profile's two-point sweeps run the code path only."""
    return len(sizes) >= MIN_SWEEP
