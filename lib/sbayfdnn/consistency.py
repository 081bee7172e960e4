"""Notebook 03's experiment (spec §3 NB3): sBayFDNN-MAP for each SNR and training size n, its
region against R, its PIPs and the coverage of its Laplace predictive interval. Each (n, SNR) is
one sweep run (`run_setting`): the networks of its replications and restarts are one
`vmap`-batched fit (spec §6), each starting where it starts in one draw for every SNR at its n,
so a run's numbers do not depend on which other runs run, or where."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch
from scipy.stats import norm

from lib.sbayfdnn import basis, data, laplace, metrics, model, selection
from lib.sbayfdnn.comparison import prior_spec
from lib.sbayfdnn.schema import Consistency


@dataclass(frozen=True)
class Outcome:
    """One row per (snr, n, rep); the PIPs (snrs, ns, reps, J)."""

    table: pd.DataFrame
    pips: np.ndarray


@dataclass(frozen=True)
class Cell:
    """One (n, SNR, replication) cell's row and its PIPs (J,)."""

    row: dict
    pip: np.ndarray


def sweep_grid(cfg: Consistency) -> list[tuple[Consistency, int, int]]:
    """The sweep's runs in table order: (cfg, n index, SNR index) for every (n, SNR)."""
    return [(cfg, ni, si) for ni in range(len(cfg.ns)) for si in range(len(cfg.snrs))]


def run_setting(cfg: Consistency, ni: int, si: int) -> list[Cell]:
    """One (n, SNR)'s replications, a sweep run: their data from their own seeds, their restarts
    from their offsets in the initial draw of every replication of every SNR at this n
    (SNR-major), and each best restart's region, PIPs and Laplace interval."""
    dtype, n, R = getattr(torch, cfg.dtype), cfg.ns[ni], cfg.restarts
    support, spec = (cfg.support_min, cfg.support_max), prior_spec(cfg)
    reps = [data.replication(n, cfg.n_test, data.seed_rng(cfg.seed, si, ni, rep), cfg.link,
                             support, cfg.snrs[si], cfg.T, cfg.K, cfg.J, cfg.degree)
            for rep in range(cfg.reps)]
    B, first = cfg.reps * R, si * cfg.reps * R           # this SNR's models among all at n
    init = model.init_members(len(cfg.snrs) * B, range(first, first + B), cfg.J, cfg.width,
                              cfg.hidden, cfg.seed * 1000 + ni, dtype)
    Z = torch.tensor(np.stack([r.Z for r in reps for _ in range(R)]), dtype=dtype)  # (B, n, J)
    y = torch.tensor(np.stack([r.y for r in reps for _ in range(R)]), dtype=dtype)  # (B, n)
    fit = model.fit_map(Z, y, ["ss"] * B, init, spec, cfg.steps, cfg.lr)
    best, pick = model.best_restart(fit, R)
    knots, grid = basis.clamped_knots(cfg.J, cfg.degree), np.linspace(0, 1, cfg.metric_grid)
    z = float(norm.ppf(0.5 + cfg.level / 2))
    out = []
    for rep, r in enumerate(reps):
        p = {k: v[rep].double() for k, v in best.items()}
        q, mask = selection.by_pip(p["W1"].numpy(), cfg.lam, cfg.s0, cfg.s1, cfg.pip_cut)
        m = metrics.region_metrics(basis.basis_support_intervals(np.flatnonzero(mask), knots,
                                                                 cfg.degree), support, grid)
        Ztr, Zte = torch.tensor(r.Z), torch.tensor(r.Z_test)
        H = laplace.curvature(p, Ztr, spec)
        mean, var_f = laplace.predictive(p, H, Zte)
        resid = float(((model.forward(p, Ztr).detach() - torch.tensor(r.y)) ** 2).mean())
        noise = resid if cfg.interval_noise == "residual" else spec.s2
        cover, half = laplace.interval_coverage(mean, var_f, noise, torch.tensor(r.y_test), z)
        out.append(Cell({"snr": cfg.snrs[si], "n": n, "rep": rep,
                         "mse": float(((mean.numpy() - r.g_test) ** 2).mean()),
                         **{k: float(v) for k, v in m.items()}, "covers": bool(m["tpr"] == 1.0),
                         "n_selected": int(mask.sum()), "coverage": cover, "half_width": half,
                         "restart_kept": int(pick[rep])}, q))
    return out


def collect(cfg: Consistency, runs: list[list[Cell]]) -> Outcome:
    """The sweep's table and PIPs (snrs, ns, reps, J) from its runs' results in `sweep_grid`
    order."""
    pips = np.full((len(cfg.snrs), len(cfg.ns), cfg.reps, cfg.J), np.nan)
    for (_, ni, si), run in zip(sweep_grid(cfg), runs):
        for rep, cell in enumerate(run):
            pips[si, ni, rep] = cell.pip
    assert np.isfinite(pips).all(), "a run of the sweep left no PIPs"
    return Outcome(pd.DataFrame([cell.row for run in runs for cell in run]), pips)
