"""Notebook 02's experiment (spec §3): for each link and replication, FLM + lasso, a plain FDNN
and sBayFDNN-MAP on the same data; every network of every replication and restart trained in
one `vmap`-batched fit (model.fit_map)."""
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


def run(cfg: Comparison) -> Outcome:
    """The whole comparison of one profile."""
    dtype = getattr(torch, cfg.dtype)
    support = (cfg.support_min, cfg.support_max)
    cells = [(li, link, rep) for li, link in enumerate(cfg.links) for rep in range(cfg.reps)]
    reps = [data.replication(cfg.n_train, cfg.n_test, data.seed_rng(cfg.seed, li, rep), link,
                             support, cfg.snr, cfg.T, cfg.K, cfg.J, cfg.degree)
            for li, link, rep in cells]
    # batch: every cell's sBayFDNN restarts, then every cell's FDNN restarts
    order = [(c, "ss") for c in range(len(cells)) for _ in range(cfg.restarts)] + \
            [(c, "gauss") for c in range(len(cells)) for _ in range(cfg.fdnn_restarts)]
    Z = torch.tensor(np.stack([reps[c].Z for c, _ in order]), dtype=dtype)        # (B, n, J)
    y = torch.tensor(np.stack([reps[c].y for c, _ in order]), dtype=dtype)        # (B, n)
    gen = torch.Generator().manual_seed(cfg.seed)
    init = model.init_params(len(order), cfg.J, cfg.width, cfg.hidden, gen, dtype)
    fit = model.fit_map(Z, y, [p for _, p in order], init, prior_spec(cfg), cfg.steps, cfg.lr)
    n_ss = len(cells) * cfg.restarts
    ss_fit = model.Fit({k: v[:n_ss] for k, v in fit.params.items()}, fit.train_mse[:n_ss])
    g_fit = model.Fit({k: v[n_ss:] for k, v in fit.params.items()}, fit.train_mse[n_ss:])
    ss, _ = model.best_restart(ss_fit, cfg.restarts)
    gauss, _ = model.best_restart(g_fit, cfg.fdnn_restarts)
    Zt = torch.tensor(np.stack([r.Z_test for r in reps]), dtype=dtype)           # (cells, nt, J)
    pred_ss = model.predict(ss, Zt).double().numpy()                              # (cells, nt)
    pred_g = model.predict(gauss, Zt).double().numpy()
    W1_ss, W1_g = ss["W1"].double().numpy(), gauss["W1"].double().numpy()       # (cells, W, J)
    knots, grid = basis.clamped_knots(cfg.J, cfg.degree), np.linspace(0, 1, cfg.metric_grid)
    rows, pips = [], []
    for c, (li, link, rep) in enumerate(cells):
        r = reps[c]
        coef, pred_flm = baselines.flm_lasso(r.Z, r.y, r.Z_test, cfg.lasso_cv, cfg.lasso_alphas)
        q, mask = selection.by_pip(W1_ss[c], cfg.lam, cfg.s0, cfg.s1, cfg.pip_cut)
        pips.append(q)
        rows += [_row(link, rep, "FLM + lasso", selection.by_nonzero(coef), pred_flm, r, knots,
                      cfg, grid),
                 _row(link, rep, "FDNN", selection.by_share_of_max(W1_g[c], cfg.fdnn_rel),
                      pred_g[c], r, knots, cfg, grid),
                 _row(link, rep, "sBayFDNN", mask, pred_ss[c], r, knots, cfg, grid)]
    shape = (len(cfg.links), cfg.reps)
    return Outcome(pd.DataFrame(rows), np.array(pips).reshape(*shape, cfg.J),
                   W1_ss.reshape(*shape, cfg.width, cfg.J))
