"""Notebook 03's experiment (spec §3 NB3): sBayFDNN-MAP for each SNR and training size n, its
region against R, its PIPs and the coverage of its Laplace predictive interval. Each n is one
`vmap`-batched fit of every SNR, replication and restart."""
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


def run(cfg: Consistency) -> Outcome:
    """Every cell of the sweep, one batched fit per n."""
    dtype = getattr(torch, cfg.dtype)
    support, spec = (cfg.support_min, cfg.support_max), prior_spec(cfg)
    knots, grid = basis.clamped_knots(cfg.J, cfg.degree), np.linspace(0, 1, cfg.metric_grid)
    z = float(norm.ppf(0.5 + cfg.level / 2))
    rows, pips = [], np.full((len(cfg.snrs), len(cfg.ns), cfg.reps, cfg.J), np.nan)
    for ni, n in enumerate(cfg.ns):
        cells = [(si, rep) for si in range(len(cfg.snrs)) for rep in range(cfg.reps)]
        reps = [data.replication(n, cfg.n_test, data.seed_rng(cfg.seed, si, ni, rep), cfg.link,
                                 support, cfg.snrs[si], cfg.T, cfg.K, cfg.J, cfg.degree)
                for si, rep in cells]
        Z = torch.tensor(np.stack([reps[c].Z for c in range(len(cells))
                                   for _ in range(cfg.restarts)]), dtype=dtype)  # (B, n, J)
        y = torch.tensor(np.stack([reps[c].y for c in range(len(cells))
                                   for _ in range(cfg.restarts)]), dtype=dtype)  # (B, n)
        gen = torch.Generator().manual_seed(cfg.seed * 1000 + ni)
        init = model.init_params(Z.shape[0], cfg.J, cfg.width, cfg.hidden, gen, dtype)
        fit = model.fit_map(Z, y, ["ss"] * Z.shape[0], init, spec, cfg.steps, cfg.lr)
        best, pick = model.best_restart(fit, cfg.restarts)
        for c, (si, rep) in enumerate(cells):
            r = reps[c]
            p = {k: v[c].double() for k, v in best.items()}
            q, mask = selection.by_pip(p["W1"].numpy(), cfg.lam, cfg.s0, cfg.s1, cfg.pip_cut)
            pips[si, ni, rep] = q
            m = metrics.region_metrics(basis.basis_support_intervals(np.flatnonzero(mask), knots,
                                                                     cfg.degree), support, grid)
            Ztr, Zte = torch.tensor(r.Z), torch.tensor(r.Z_test)
            H = laplace.curvature(p, Ztr, spec)
            mean, var_f = laplace.predictive(p, H, Zte)
            resid = float(((model.forward(p, Ztr).detach() - torch.tensor(r.y)) ** 2).mean())
            noise = resid if cfg.interval_noise == "residual" else spec.s2
            cover, half = laplace.interval_coverage(mean, var_f, noise, torch.tensor(r.y_test), z)
            rows.append({"snr": cfg.snrs[si], "n": n, "rep": rep,
                         "mse": float(((mean.numpy() - r.g_test) ** 2).mean()),
                         **{k: float(v) for k, v in m.items()}, "covers": bool(m["tpr"] == 1.0),
                         "n_selected": int(mask.sum()), "coverage": cover, "half_width": half,
                         "restart_kept": int(pick[c])})
    return Outcome(pd.DataFrame(rows), pips)
