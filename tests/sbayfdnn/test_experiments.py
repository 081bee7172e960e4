"""lib/sbayfdnn/comparison.py and consistency.py on tiny configurations: shapes, methods,
determinism, and that the sweep's runs (one per link, one per (n, SNR)) fit what one batched fit
of the whole grid fits: each run's models start at their own offsets in the grid's initial draw."""
import numpy as np
import torch

from lib.sbayfdnn import comparison, consistency, data, model, schema
from tests.conftest import assert_close

TINY = dict(n_train=30, n_test=20, reps=2, links=["sin", "square"], steps=5, restarts=2,
            width=8, hidden=4, lasso_cv=3)
TINY_NS = dict(snrs=[1.0, 5.0], ns=[30, 60], reps=2, n_test=20, steps=5, restarts=2, width=8,
               hidden=4)


def _comparison(cfg) -> comparison.Outcome:
    return comparison.collect(cfg, [comparison.run_link(*a) for a in comparison.sweep_grid(cfg)])


def _consistency(cfg) -> consistency.Outcome:
    return consistency.collect(cfg, [consistency.run_setting(*a)
                                     for a in consistency.sweep_grid(cfg)])


def _whole_grid_fit(cfg, Zs: list[np.ndarray], ys: list[np.ndarray], priors: list[str],
                    seed: int) -> model.Fit:
    """One batched fit of every model of a grid, from one draw (the layout before the sweep)."""
    dtype = getattr(torch, cfg.dtype)
    init = model.init_params(len(priors), cfg.J, cfg.width, cfg.hidden,
                             torch.Generator().manual_seed(seed), dtype)
    return model.fit_map(torch.tensor(np.stack(Zs), dtype=dtype),
                         torch.tensor(np.stack(ys), dtype=dtype), priors, init,
                         comparison.prior_spec(cfg), cfg.steps, cfg.lr)


def test_comparison_tables():
    cfg = schema.Comparison(**TINY)
    out = _comparison(cfg)
    assert len(out.table) == 2 * 2 * 3 and cfg.jobs() == 2
    assert set(out.table.method) == {"FLM + lasso", "FDNN", "sBayFDNN"}
    assert out.pips.shape == (2, 2, 24) and out.W1.shape == (2, 2, 8, 24)
    assert np.isfinite(out.table[["mse", "tpr", "fpr", "iou"]].to_numpy()).all()
    assert out.table.equals(_comparison(cfg).table)


def test_comparison_runs_fit_what_the_whole_grid_fits():
    cfg = schema.Comparison(**TINY)
    cells = [(li, rep) for li in range(len(cfg.links)) for rep in range(cfg.reps)]
    reps = [data.replication(cfg.n_train, cfg.n_test, data.seed_rng(cfg.seed, li, rep),
                             cfg.links[li], (cfg.support_min, cfg.support_max), cfg.snr, cfg.T,
                             cfg.K, cfg.J, cfg.degree) for li, rep in cells]
    # every cell's sBayFDNN restarts, then every cell's FDNN fit (fdnn_restarts = 1)
    order = [c for c in range(len(cells)) for _ in range(cfg.restarts)] + list(range(len(cells)))
    priors = ["ss"] * (len(cells) * cfg.restarts) + ["gauss"] * len(cells)
    fit = _whole_grid_fit(cfg, [reps[c].Z for c in order], [reps[c].y for c in order], priors,
                          cfg.seed)
    n_ss = len(cells) * cfg.restarts
    ss, _ = model.best_restart(model.Fit({k: v[:n_ss] for k, v in fit.params.items()},
                                         fit.train_mse[:n_ss]), cfg.restarts)
    out = _comparison(cfg)
    assert_close("W1", ss["W1"].double().numpy().reshape(out.W1.shape), out.W1, rtol=0,
                 atol=1e-6)


def test_consistency_tables():
    cfg = schema.Consistency(**TINY_NS)
    out = _consistency(cfg)
    assert len(out.table) == 2 * 2 * 2 and out.pips.shape == (2, 2, 2, 24) and cfg.jobs() == 4
    assert list(zip(out.table.n, out.table.snr))[::2] == [(30, 1.0), (30, 5.0), (60, 1.0),
                                                          (60, 5.0)]
    assert not np.isnan(out.pips).any()
    assert out.table.coverage.between(0, 1).all() and (out.table.half_width > 0).all()


def test_consistency_runs_fit_what_one_fit_per_n_fits():
    cfg = schema.Consistency(**TINY_NS)
    out = _consistency(cfg)
    for ni, n in enumerate(cfg.ns):
        cells = [(si, rep) for si in range(len(cfg.snrs)) for rep in range(cfg.reps)]
        reps = [data.replication(n, cfg.n_test, data.seed_rng(cfg.seed, si, ni, rep), cfg.link,
                                 (cfg.support_min, cfg.support_max), cfg.snrs[si], cfg.T, cfg.K,
                                 cfg.J, cfg.degree) for si, rep in cells]
        order = [c for c in range(len(cells)) for _ in range(cfg.restarts)]
        fit = _whole_grid_fit(cfg, [reps[c].Z for c in order], [reps[c].y for c in order],
                              ["ss"] * len(order), cfg.seed * 1000 + ni)
        best, pick = model.best_restart(fit, cfg.restarts)
        rows = out.table[out.table.n == n]
        assert rows.restart_kept.tolist() == pick.tolist()
        mse = [float(((model.forward({k: v[c].double() for k, v in best.items()},
                                     torch.tensor(reps[c].Z_test)) - torch.tensor(reps[c].g_test))
                      ** 2).mean()) for c in range(len(cells))]
        assert_close(f"test mse at n {n}", np.array(mse), rows.mse.to_numpy(), rtol=1e-6,
                     atol=0)
