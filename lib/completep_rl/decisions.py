"""The rules deciding the claims, fixed before the run, and the choices where the spec is open:
the coordinate check (spec §3 NB1; expected slopes from the scaling argument of §1.3, not from
a measurement) and the PPO LR-transfer sweep (spec §3 NB2)."""
from __future__ import annotations

import pandas as pd
import torch

CP_SLOPE_MAX = 0.15                  # |slope| <= 0.15 for CompleteP (width and depth)
NTK_DEPTH_SLOPE_MIN = 0.15           # NTK: Delta f grows with L
MIN_SWEEP = 4                        # a slope over fewer sizes is not the asymptotic one


def ntk_width_bounds(ntk_variant: str) -> dict[str, tuple[float, float]]:
    """Spec thresholds on NTK's width slopes of Delta h/h and Delta f. Under `adam_lazy` every
    entry moves eta / sqrt(m_N), so both predicted slopes drop by one half (spec §1.2, §1.3)."""
    shift = 0.0 if ntk_variant == "adam_fixed_lr" else -0.5
    return {"dh": (0.35 + shift, 0.65 + shift), "df": (0.4 + shift, 1.2 + shift)}


def slope_checkable(sizes: list[int]) -> bool:
    """A sweep has enough sizes (MIN_SWEEP) for its fitted slope to be held to spec §3's bounds;
    the smoke profile's two-point sweeps run the code path only."""
    return len(sizes) >= MIN_SWEEP

# --- 02_lr_transfer_ppo (spec §3 NB2) ---
PAIR_RATIO = 4                       # consistency compares agents at N and 4N (spec §3 NB2)
MIN_TRANSFER_SIZES = 3               # a spread over two sizes says little about a trend
MIN_RL_ITERATIONS = 20               # below this no agent has learned enough to rank LRs
PROBE_HALF_WIDTHS = (2.4, 2.0, 0.21, 2.0)   # x, x_dot, theta, theta_dot of the probe box


def probe_states(count: int, gen: torch.Generator) -> torch.Tensor:
    """The fixed probe set (spec §3 NB2, §7 Q3 open): `count` states uniform in the box of
    PROBE_HALF_WIDTHS (the termination limits for x and theta), float64 (count, 4)."""
    u = torch.rand(count, 4, generator=gen, dtype=torch.float64)
    return (2 * u - 1) * torch.tensor(PROBE_HALF_WIDTHS, dtype=torch.float64)


def consistency_exponent(scores: pd.DataFrame, arm: str, n: int, depth: int,
                         rule: str) -> float:
    """The log10 eta of the agents the consistency claims compare (spec §3 NB2: 'each arm's
    own best eta', open). `per_width`: the argmax of the seed-mean score for that arm and
    shape; `per_arm`: one eta per arm, the argmax of its score averaged over seeds and over
    the widths of the sweep at this depth."""
    part = scores[(scores.arm == arm) & (scores.L == depth)]
    if rule == "per_width":
        part = part[part.N == n]
    elif rule != "per_arm":
        raise ValueError(f"consistency_eta = {rule!r}; allowed: per_width, per_arm")
    return float(part.groupby("lr_exp")["score"].mean().idxmax())


def pairs(widths: list[int]) -> list[tuple[int, int]]:
    """The (N, PAIR_RATIO N) pairs within the width sweep."""
    return [(n, PAIR_RATIO * n) for n in widths if PAIR_RATIO * n in widths]


def transfers_better(cp_spread: float, ntk_spread: float) -> bool:
    """Spec §3 NB2's rule for transfer.*: CompleteP's best-LR spread is smaller than NTK's."""
    return cp_spread < ntk_spread


def rl_checkable(sizes: int, min_sizes: int, iterations: int, seeds: int) -> str:
    """Why a sweep cannot decide an RL claim ('' when it can): fewer than min_sizes sizes (or
    N-vs-4N pairs), too few iterations or a single seed (the smoke profile runs the code path
    only)."""
    if sizes < min_sizes:
        return f"{sizes} sizes (or pairs) < {min_sizes}"
    if iterations < MIN_RL_ITERATIONS:
        return f"{iterations} iterations < {MIN_RL_ITERATIONS}"
    return "" if seeds >= 2 else "1 seed: no seed noise to judge the best eta against"
