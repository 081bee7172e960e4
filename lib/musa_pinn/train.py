"""Training of one arm, all seeds at once (spec §1.4, §3 NB2).

Loss per seed: mean continuity residual^2 + w_m * mean momentum residual^2 + bc_weight * mean
|(u, v) - g|^2 on boundary points, where the residuals are pointwise (strong arm, fresh
collocation points each step) or disc fluxes (weak arms, discs drawn each step from per-seed
pools of pool_factor x the per-step count of each scale). w_m follows
`decisions.momentum_weight`. Adam, step decay (x gamma at the milestones). The loss is a sum over
seeds, so each seed's net trains as it would alone.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import torch
from tqdm.auto import tqdm

from lib.musa_pinn import decisions, geometry, kovasznay, metrics, residuals
from lib.musa_pinn.model import SeedMLP

SCALES = ("large", "meso", "small")


@dataclass(frozen=True)
class Arm:
    """One arm: strong or weak form, one or two stages, which disc scales."""

    name: str
    form: str                                    # "strong" | "weak"
    two_stage: bool = False
    scales: tuple[str, ...] = SCALES

    def __post_init__(self):
        if self.form not in ("strong", "weak"):
            raise ValueError(f"arm {self.name}: form {self.form!r}; allowed: strong, weak")
        if not set(self.scales) <= set(SCALES) or not self.scales:
            raise ValueError(f"arm {self.name}: scales {self.scales}; allowed: a non-empty "
                             f"subset of {SCALES}")


@dataclass(frozen=True)
class Setup:
    """Everything an arm's run needs besides the arm (built from the notebook's parameters)."""

    re: float
    width: int
    depth: int
    steps: int
    lr: float
    milestones: tuple[float, ...]
    gamma: float
    bc_weight: float
    n_boundary: int
    n_colloc: int
    quad: int
    counts: dict[str, int] = field(default_factory=dict)   # discs per step of each scale
    r_large: float = 0.12
    r_small: float = 0.02
    meso_power: float = 4.0
    meso_fraction: float = 0.8
    meso_r_min: float = 0.01
    pool_factor: int = 20
    stage_switch: float = 0.3
    stage_weight: float = 0.1
    eval_every: int = 50

    @property
    def nu(self) -> float:
        return 1.0 / self.re


def disc_pools(domain: geometry.Domain, setup: Setup, counts: dict[str, int],
               rng: np.random.Generator) -> dict[str, geometry.Discs]:
    """One seed's pre-sampled pools, pool_factor x the per-step count of each scale."""
    pools = {}
    for scale, n in counts.items():
        size = setup.pool_factor * n
        if scale == "large":
            pools[scale] = geometry.fixed_radius_discs(domain, size, setup.r_large, rng)
        elif scale == "small":
            pools[scale] = geometry.fixed_radius_discs(domain, size, setup.r_small, rng)
        else:
            pools[scale] = geometry.meso_discs(domain, size, setup.meso_power,
                                               setup.meso_fraction, setup.meso_r_min, rng)
    return pools


def draw_discs(pools: dict[str, geometry.Discs], counts: dict[str, int],
               rng: np.random.Generator) -> geometry.Discs:
    """One step's discs from one seed's pools, without replacement within a scale."""
    return geometry.Discs.join([pools[s].take(rng.choice(len(pools[s]), counts[s], replace=False))
                                for s in counts])


def _stack(arrays: list[np.ndarray], dtype: torch.dtype) -> torch.Tensor:
    return torch.as_tensor(np.stack(arrays), dtype=dtype)


def physics_loss(net: SeedMLP, form: str, setup: Setup, domain: geometry.Domain,
                 rngs: list[np.random.Generator], pools: list[dict], counts: list[dict],
                 w_m: torch.Tensor) -> torch.Tensor:
    """Per-member continuity + w_m momentum mean squared residual of one step: (S,)."""
    dtype = net.centre.dtype
    if form == "strong":
        xy = _stack([geometry.sample_interior(domain, setup.n_colloc, r) for r in rngs], dtype)
        res = residuals.strong_residual(net, xy, setup.nu)                  # (S, n, 3)
    else:
        discs = [draw_discs(p, c, r) for p, c, r in zip(pools, counts, rngs)]
        res = residuals.weak_residual(net, _stack([d.centres for d in discs], dtype),
                                      _stack([d.radii for d in discs], dtype), setup.quad,
                                      setup.nu)                             # (S, m, 3)
    sq = res.square().mean(-2)                                              # (S, 3)
    return sq[:, 0] + w_m * (sq[:, 1] + sq[:, 2])


def boundary_loss(net: SeedMLP, setup: Setup, domain: geometry.Domain,
                  rngs: list[np.random.Generator]) -> torch.Tensor:
    """Per-member mean squared Dirichlet misfit of (u, v) on fresh boundary points: (S,)."""
    xy = _stack([geometry.sample_boundary(domain, setup.n_boundary, r) for r in rngs],
                net.centre.dtype)
    g = kovasznay.velocity_pressure(xy.double(), setup.re)[..., :2].to(xy.dtype)
    return (net(xy)[..., :2] - g).square().sum(-1).mean(-1)


def fit(arms: list[Arm], setup: Setup, domain: geometry.Domain, seeds: list[int],
        curve_points: np.ndarray) -> tuple[SeedMLP, list[tuple[str, int]], pd.DataFrame]:
    """Train every (arm, seed) member at once (arms of one form: the same tensor shapes); return
    the batched nets, the members in net order and a history (arm, step, seed, loss, err_u) with
    rel L2(u) on `curve_points` every eval_every steps. A seed's member starts from the same
    weights and draws from the same stream in every arm (paired comparisons)."""
    forms = {a.form for a in arms}
    if len(forms) != 1:
        raise ValueError(f"fit trains arms of one form at a time; got {sorted(forms)}")
    form = forms.pop()
    members = [(a, s) for a in arms for s in seeds]
    net = SeedMLP([s for _, s in members], setup.width, setup.depth, domain.box)
    rngs = [np.random.default_rng([s, 7]) for _, s in members]
    counts = [decisions.scale_counts(setup.counts, a.scales) for a, _ in members]
    pools = [disc_pools(domain, setup, c, r) for c, r in zip(counts, rngs)] \
        if form == "weak" else []
    opt = torch.optim.Adam(net.parameters(), lr=setup.lr)
    sched = torch.optim.lr_scheduler.MultiStepLR(
        opt, [int(m * setup.steps) for m in setup.milestones], gamma=setup.gamma)
    rows = []
    label = "+".join(a.name for a in arms)
    for step in tqdm(range(setup.steps), desc=label, leave=False, mininterval=2.0):
        w_m = torch.tensor([decisions.momentum_weight(step, setup.steps, a.two_stage,
                                                      setup.stage_switch, setup.stage_weight)
                            for a, _ in members], dtype=net.centre.dtype)
        loss = physics_loss(net, form, setup, domain, rngs, pools, counts, w_m) + \
            setup.bc_weight * boundary_loss(net, setup, domain, rngs)       # (S,)
        opt.zero_grad()
        loss.sum().backward()
        opt.step()
        sched.step()
        if (step + 1) % setup.eval_every == 0 or step + 1 == setup.steps:
            err = metrics.field_errors(net, curve_points, setup.re)[:, 0]
            rows += [{"arm": a.name, "step": step + 1, "seed": s, "loss": float(l_),
                      "err_u": float(e)} for (a, s), l_, e in zip(members, loss.tolist(), err)]
    return net, [(a.name, s) for a, s in members], pd.DataFrame(rows)
