"""The paper profile's code path at smoke size (issue 45): notebook 02's links as sweep runs on
local subprocesses, as `executor: local` in the paper profile sends them, equal bit for bit to the
same runs in the kernel; notebook 03's (n, SNR) runs at its paper profile, in the kernel, fill
its table and PIPs. So the paper profile cannot rot unseen. (One grid goes through processes:
each costs seconds of process start, the same engine path.)"""
import numpy as np

from lib.companion import params, paths, sweep
from lib.sbayfdnn import comparison, consistency

SIM = "sbayfdnn/02_simulation"
CONS = "sbayfdnn/03_consistency"
TINY = {"reps": 2, "n_test": 20, "steps": 3, "width": 8, "hidden": 4}


def test_simulation_paper_profile_links_on_local_processes_equal_inline(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    cfg = params.resolve(SIM, "paper", {**TINY, "n_train": 30, "links": ["sin", "exp"],
                                        "lasso_cv": 3})
    assert (cfg.executor, cfg.workers, cfg.restarts, cfg.dtype, cfg.jobs()) == \
        ("local", 2, 5, "float64", 2)                  # the paper profile's restarts, float64
    grid = comparison.sweep_grid(cfg)
    local = sweep.run_params(comparison.run_link, grid, cfg, SIM, progress=False)
    inline = sweep.run(comparison.run_link, grid, tmp_path / "inline", "inline", progress=False)
    a, b = comparison.collect(cfg, local), comparison.collect(cfg, inline)
    assert a.table.to_csv() == b.table.to_csv()
    assert a.pips.tobytes() == b.pips.tobytes() and a.W1.tobytes() == b.W1.tobytes()
    assert a.W1.shape == (2, 2, 8, cfg.J) and set(a.table.link) == {"sin", "exp"}


def test_consistency_paper_profile_runs_fill_the_table(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    cfg = params.resolve(CONS, "paper", {**TINY, "ns": [20, 30]})
    assert (cfg.executor, cfg.restarts, cfg.jobs()) == ("local", 5, 4)   # 2 n x 2 SNR
    runs = sweep.run(consistency.run_setting, consistency.sweep_grid(cfg), tmp_path / "inline",
                     "inline", progress=False)
    out = consistency.collect(cfg, runs)
    assert len(out.table) == 2 * 2 * 2 and out.pips.shape == (2, 2, 2, cfg.J)
    assert out.table.restart_kept.between(0, 4).all() and np.isfinite(out.table.mse).all()
