"""Notebook 02's experiment (spec §3): for each link and replication, FLM + lasso, a plain FDNN
and sBayFDNN-MAP on the same data. Each link is one sweep run (`run_link`): the networks of its
replications and restarts are one `vmap`-batched fit (model.fit_map; spec §6), each model
starting where it starts in one draw for the whole grid, so a link's numbers do not depend on
which other links run, or where."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from lib.sbayfdnn import baselines, basis, data, metrics, model, selection
from lib.sbayfdnn.schema import Comparison


@dataclass(frozen=True)
class Outcome:
    """Per (link, rep, method): metrics and the selected bases; sBayFDNN's PIPs (links, reps, J)
    and first layers (links, reps, W, J)."""

    table: pd.DataFrame
    pips: np.ndarray
    W1: np.ndarray


@dataclass(frozen=True)
class Cell:
    """One (link, replication) cell's rows (FLM + lasso, FDNN, sBayFDNN), sBayFDNN's PIPs (J,)
    and first layer (W, J)."""

    rows: list[dict]
    pip: np.ndarray
    W1: np.ndarray


def prior_spec(cfg) -> model.PriorSpec:
    """The prior of a config (gauss_var falls back to the slab when the config has none)."""
    return model.PriorSpec(cfg.lam, cfg.s0, cfg.s1, getattr(cfg, "gauss_var", cfg.s1))


def _row(link: str, rep: int, method: str, mask: np.ndarray, pred: np.ndarray,
         r: data.Replication, knots: np.ndarray, cfg: Comparison, grid: np.ndarray) -> dict:
    sel = np.flatnonzero(mask)
    m = metrics.region_metrics(basis.basis_support_intervals(sel, knots, cfg.degree),
                               (cfg.support_min, cfg.support_max), grid)
    return {"link": link, "rep": rep, "method": method,
            "mse": float(((pred - r.g_test) ** 2).mean()), **{k: float(v) for k, v in m.items()},
            "n_selected": int(sel.size), "selected": " ".join(map(str, sel))}


def sweep_grid(cfg: Comparison) -> list[tuple[Comparison, int]]:
    """The sweep's runs in table order: (cfg, link index) for every link."""
    return [(cfg, li) for li in range(len(cfg.links))]


def run_link(cfg: Comparison, li: int) -> list[Cell]:
    """One link's replications, a sweep run: their data from their own seeds, their networks
    from their offsets in the whole grid's initial draw (every cell's sBayFDNN restarts, then
    every cell's FDNN fits, cells link-major), and each cell's three rows."""
    dtype, link = getattr(torch, cfg.dtype), cfg.links[li]
    R, F, cells, own = cfg.restarts, cfg.fdnn_restarts, len(cfg.links) * cfg.reps, range(cfg.reps)
    reps = [data.replication(cfg.n_train, cfg.n_test, data.seed_rng(cfg.seed, li, rep), link,
                             (cfg.support_min, cfg.support_max), cfg.snr, cfg.T, cfg.K, cfg.J,
                             cfg.degree) for rep in own]
    order = [(rep, "ss") for rep in own for _ in range(R)] + \
            [(rep, "gauss") for rep in own for _ in range(F)]
    c0 = li * cfg.reps                                   # the link's first cell in the grid
    members = [(c0 + rep) * R + k for rep in own for k in range(R)] + \
              [cells * R + (c0 + rep) * F + k for rep in own for k in range(F)]
    init = model.init_members(cells * (R + F), members, cfg.J, cfg.width, cfg.hidden, cfg.seed,
                              dtype)
    Z = torch.tensor(np.stack([reps[i].Z for i, _ in order]), dtype=dtype)       # (B, n, J)
    y = torch.tensor(np.stack([reps[i].y for i, _ in order]), dtype=dtype)       # (B, n)
    fit = model.fit_map(Z, y, [p for _, p in order], init, prior_spec(cfg), cfg.steps, cfg.lr)
    n_ss = cfg.reps * R
    ss, _ = model.best_restart(model.Fit({k: v[:n_ss] for k, v in fit.params.items()},
                                         fit.train_mse[:n_ss]), R)
    gauss, _ = model.best_restart(model.Fit({k: v[n_ss:] for k, v in fit.params.items()},
                                            fit.train_mse[n_ss:]), F)
    # both methods predict in one batch: a batch of one model takes another matmul kernel and
    # rounds differently, and a fit of the whole grid predicts all its cells at once
    both = {k: torch.cat([ss[k], gauss[k]]) for k in ss}                        # (2 reps, ...)
    Zt = torch.tensor(np.stack([r.Z_test for r in reps] * 2), dtype=dtype)       # (2 reps, nt, J)
    pred = model.predict(both, Zt).double().numpy()                              # (2 reps, nt)
    W1_ss, W1_g = ss["W1"].double().numpy(), gauss["W1"].double().numpy()       # (reps, W, J)
    knots, grid = basis.clamped_knots(cfg.J, cfg.degree), np.linspace(0, 1, cfg.metric_grid)
    out = []
    for rep, r in enumerate(reps):
        coef, pred_flm = baselines.flm_lasso(r.Z, r.y, r.Z_test, cfg.lasso_cv, cfg.lasso_alphas)
        q, mask = selection.by_pip(W1_ss[rep], cfg.lam, cfg.s0, cfg.s1, cfg.pip_cut)
        rows = [_row(link, rep, "FLM + lasso", selection.by_nonzero(coef), pred_flm, r, knots,
                     cfg, grid),
                _row(link, rep, "FDNN", selection.by_share_of_max(W1_g[rep], cfg.fdnn_rel),
                     pred[cfg.reps + rep], r, knots, cfg, grid),
                _row(link, rep, "sBayFDNN", mask, pred[rep], r, knots, cfg, grid)]
        out.append(Cell(rows, q, W1_ss[rep]))
    return out


def collect(cfg: Comparison, runs: list[list[Cell]]) -> Outcome:
    """The comparison's table and arrays from its runs' results in `sweep_grid` order."""
    cells = [cell for run in runs for cell in run]
    shape = (len(cfg.links), cfg.reps)
    return Outcome(pd.DataFrame([row for cell in cells for row in cell.rows]),
                   np.array([cell.pip for cell in cells]).reshape(*shape, cfg.J),
                   np.array([cell.W1 for cell in cells]).reshape(*shape, cfg.width, cfg.J))
