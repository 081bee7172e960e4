"""Training and prediction of one ablation arm (spec §1.5, §1.7, §3).

Objective (Eq. 19-23): -[mean log-likelihood of the targets under z ~ q(z | C u T) - KL(q(z | C u
T) || q(z | C))] + beta J_phys + beta0 J_bnd, where the physics terms use z ~ q(z | C). Arms:
`data` (beta = beta0 = 0), `fixed` (mean-field residual on n_r fixed equispaced points in [0.02,
0.98]), `sample` (fresh points, the expected squared residual of predictive samples mu + eps sigma
in closed form, plus sigma at the boundary), `bsnp` (fresh points, mean field only).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from lib.bsnp import physics
from lib.bsnp.batches import Batch, sample_batch
from lib.bsnp.model import BSNP, Sizes
from lib.bsnp.poisson import Tasks
from lib.companion import rules, sweep

ARMS = ("data", "fixed", "sample", "bsnp")


@dataclass(frozen=True)
class Arm:
    """One ablation arm: which physics term, at what weight, on which points."""

    name: str
    beta: float = 0.3
    beta0: float = 0.05
    n_r: int = 32

    def __post_init__(self):
        if self.name not in ARMS:
            raise ValueError(f"arm {self.name!r}: allowed: {ARMS}")
        if self.n_r < 2:
            raise ValueError(f"arm {self.name}: n_r = {self.n_r}; allowed: >= 2 collocation "
                             "points")

    @property
    def physics(self) -> bool:
        return self.name != "data" and (self.beta > 0 or self.beta0 > 0)


@dataclass(frozen=True)
class Schedule:
    """Optimiser and data stream of one run (spec §3 default model)."""

    steps: int
    batch: int
    lr: float = 1e-3
    clip: float = 1.0
    nc_low: int = 10
    nc_high: int = 50
    noise: float = 0.05
    n_target: int = 100
    fresh: bool = True


def fixed_points(n_r: int) -> torch.Tensor:
    """The fixed arm's collocation grid: n_r equispaced points in [0.02, 0.98]."""
    return torch.linspace(0.02, 0.98, n_r)


def _gauss(mu: torch.Tensor, logvar: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    return mu + (0.5 * logvar).exp() * torch.randn(mu.shape, generator=gen, dtype=mu.dtype)


def kl_diag(mq: torch.Tensor, lq: torch.Tensor, mp: torch.Tensor, lp: torch.Tensor
            ) -> torch.Tensor:
    """KL(N(mq, e^lq) || N(mp, e^lp)) summed over the latent axis: (B,)."""
    return 0.5 * (lp - lq + (lq.exp() + (mq - mp).square()) / lp.exp() - 1.0).sum(-1)


def physics_terms(model: BSNP, g: torch.Tensor, z: torch.Tensor, xr: torch.Tensor,
                  lam: torch.Tensor, sample_level: bool) -> tuple[torch.Tensor, torch.Tensor]:
    """Mean squared residual at xr (B, Nr) and mean squared boundary value (scalars)."""
    f = model.field_derivatives(g, z, xr, sigma=sample_level)
    sq = physics.sample_level_exact(f, xr, lam) if sample_level else \
        physics.residual(f["mu1"], f["mu2"], xr, lam).square()
    ends = torch.tensor([[0.0, 1.0]], dtype=xr.dtype).expand(len(lam), 2)
    mu_b, sd_b = model.decode(g, z, ends)
    bnd = mu_b.square() + (sd_b.square() if sample_level else 0.0)
    return sq.mean(), bnd.mean()


def loss(model: BSNP, batch: Batch, arm: Arm, xr: torch.Tensor, gen: torch.Generator
         ) -> tuple[torch.Tensor, dict[str, float]]:
    """The training objective of `arm` on one batch; xr (B, Nr) collocation points."""
    g, mc, lc = model.encode(batch.xc, batch.yc, batch.mc, batch.lam)
    _, mt, lt = model.encode(*batch.union(), batch.lam)
    mu, sd = model.decode(g, _gauss(mt, lt, gen), batch.xt)
    loglik = torch.distributions.Normal(mu, sd).log_prob(batch.yt).mean(-1)     # (B,)
    kl = kl_diag(mt, lt, mc, lc)
    total = -(loglik - kl).mean()
    parts = {"nll": float(-loglik.mean().detach()), "kl": float(kl.mean().detach())}
    if arm.physics:
        jr, jb = physics_terms(model, g, _gauss(mc, lc, gen), xr, batch.lam,
                               arm.name == "sample")
        total = total + arm.beta * jr + arm.beta0 * jb
        parts.update(phys=float(jr.detach()), bnd=float(jb.detach()))
    return total, parts


def fit(tasks: Tasks, arm: Arm, sizes: Sizes, sched: Schedule, seed: int
        ) -> tuple[BSNP, list[dict[str, float]]]:
    """Train one arm; data stream seeded by `seed` alone, so arms of one seed see the same
    batches. Adam, lr x0.1 at 75% and 90% of the steps, gradient clipping."""
    torch.manual_seed(seed)
    model = BSNP(sizes)
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=sched.lr)
    milestones = [int(0.75 * sched.steps), int(0.9 * sched.steps)]
    lr_sched = torch.optim.lr_scheduler.MultiStepLR(opt, milestones, 0.1)
    data_rng = np.random.default_rng([seed, 1])
    point_rng = np.random.default_rng([seed, 2])
    gen = torch.Generator().manual_seed(seed)
    fixed = fixed_points(arm.n_r)
    history = []
    for _ in range(sched.steps):
        idx = data_rng.integers(0, len(tasks.lam), sched.batch)
        batch = sample_batch(tasks, idx, data_rng, sched.nc_low, sched.nc_high, sched.noise,
                             sched.n_target, sched.fresh, split_seed=seed)
        xr = fixed.expand(sched.batch, -1) if arm.name == "fixed" else \
            torch.as_tensor(point_rng.random((sched.batch, arm.n_r)), dtype=torch.float32)
        total, parts = loss(model, batch, arm, xr, gen)
        opt.zero_grad()
        total.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), sched.clip)
        opt.step()
        lr_sched.step()
        history.append({"loss": float(total.detach()), **parts})
    return model, history


def sizes_of(cfg, decoder_rho: float | None = None) -> Sizes:
    """Network sizes from a notebook's parameters."""
    return Sizes(grid=cfg.grid, channels=tuple(cfg.channels), latent=cfg.latent,
                 hidden=cfg.hidden, rho0=cfg.rho0, decoder_rho=decoder_rho)


def schedule_of(cfg, steps: int | None = None) -> Schedule:
    """Optimiser and data stream from a notebook's parameters."""
    return Schedule(steps=steps or cfg.steps, batch=cfg.batch, lr=cfg.lr, nc_low=cfg.nc_low,
                    nc_high=cfg.nc_high, noise=cfg.noise, fresh=cfg.fresh_splits)


@dataclass(frozen=True)
class Run:
    """One training run: arm, sizes, schedule, seed."""

    arm: Arm
    sizes: Sizes
    schedule: Schedule
    seed: int


@dataclass(frozen=True)
class Fitted:
    """One trained run as plain values: the model's state (numpy arrays) and its loss history."""

    state: dict[str, np.ndarray]
    history: list[dict[str, float]]


def fit_run(tasks: Tasks, run: Run) -> Fitted:
    """Train one run on one torch thread (a sweep run): deterministic in its seed alone."""
    model, history = fit(tasks, run.arm, run.sizes, run.schedule, run.seed)
    return Fitted({k: v.detach().numpy().copy() for k, v in model.state_dict().items()}, history)


def restore(run: Run, fitted: Fitted) -> BSNP:
    """The trained model of a run, rebuilt from its plain state (the values exactly)."""
    model = BSNP(run.sizes)
    model.load_state_dict({k: torch.as_tensor(v) for k, v in fitted.state.items()})
    return model


def fit_runs(tasks: Tasks, runs: dict[str, Run], cfg: sweep.SweepParams, notebook: str
             ) -> tuple[dict[str, BSNP], dict[str, list]]:
    """Train every named run, one sweep run each on the notebook's `executor` (`workers` at
    once): the models and histories by name, the same whichever executor ran them."""
    done = sweep.run_params(fit_run, [(tasks, run) for run in runs.values()], cfg, notebook,
                            labels=list(runs))
    return ({name: restore(run, f) for (name, run), f in zip(runs.items(), done)},
            {name: f.history for name, f in zip(runs, done)})


def loss_tail(history: list[dict[str, float]]) -> list[float]:
    """The last quarter of a run's training loss: what its convergence is decided on (a noisy
    curve's final value is a statistic of its tail, never its last point)."""
    return rules.tail([h["loss"] for h in history]).tolist()


def initial_model(sizes: Sizes, seed: int, draw: int = 0) -> BSNP:
    """The `draw`-th model initialised after torch seed `seed` (draw 0 is the one `fit` trains):
    it depends on its arguments alone, never on what ran in this process before."""
    torch.manual_seed(seed)
    for _ in range(draw):
        BSNP(sizes)
    return BSNP(sizes)


def physics_gradient_cosines(model: BSNP, tasks: Tasks, sched: Schedule, n_r: int,
                             n_eps: int, n_checks: int, seed: int) -> list[float]:
    """Cosine between the parameter gradients of the sample-level residual term in closed form
    and by Monte Carlo over n_eps sample paths, on n_checks batches (same z, same points)."""
    rng = np.random.default_rng([seed, 3])
    gen = torch.Generator().manual_seed(seed)
    params = [p for p in model.parameters() if p.requires_grad]
    out = []
    for _ in range(n_checks):
        batch = sample_batch(tasks, rng.integers(0, len(tasks.lam), sched.batch), rng,
                             sched.nc_low, sched.nc_high, sched.noise, sched.n_target)
        xr = torch.as_tensor(rng.random((sched.batch, n_r)), dtype=torch.float32)
        eps = torch.randn(n_eps, generator=gen)
        g, mc, lc = model.encode(batch.xc, batch.yc, batch.mc, batch.lam)
        z = _gauss(mc, lc, gen)
        grads = []
        for mc_form in (False, True):
            f = model.field_derivatives(g, z, xr, sigma=True)
            term = physics.sample_level_mc(f, xr, batch.lam, eps) if mc_form else \
                physics.sample_level_exact(f, xr, batch.lam)
            found = torch.autograd.grad(term.mean(), params, retain_graph=True,
                                        allow_unused=True)     # mu_head.bias drops out of r
            grads.append(torch.cat([(torch.zeros_like(p) if v is None else v).flatten()
                                    for p, v in zip(params, found)]))
        out.append(float(torch.nn.functional.cosine_similarity(*grads, dim=0)))
    return out
