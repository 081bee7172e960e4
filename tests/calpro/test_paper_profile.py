"""The paper profile's code path at smoke size (issue 45): notebook 01's (arm, seed) jobs as sweep
runs on local subprocesses, as `executor: local` sends them, give the bands and losses the same
jobs give in the kernel; so the paper profile cannot rot unseen."""
import numpy as np

from lib.calpro import chains, experiment, train
from lib.companion import params, paths

NOTEBOOK = "calpro/01_shift_coverage"
TINY = {"n_train": 10, "n_cal": 10, "n_test": 10, "epochs": 3, "seeds": 1, "hidden": 8}


def test_paper_profile_grid_on_local_processes_equals_inline(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    cfg = params.resolve(NOTEBOOK, "paper", TINY)
    assert (cfg.executor, cfg.contact_radius) == ("local", 8.0)      # the paper's contact edges
    base, shifted = chains.regimes(cfg.design, cfg.p_train, cfg.p_shift)
    design = experiment.Design({"train": cfg.n_train, "cal": cfg.n_cal, "id": cfg.n_test,
                                "shift": cfg.n_test}, base, shifted, cfg.contact_radius)
    recipe = train.Recipe(cfg.hidden, cfg.rounds, cfg.epochs, cfg.lr, cfg.a, cfg.lam_ev,
                          cfg.lam_prior, cfg.kappa, cfg.lam_cal, cfg.temperature)
    jobs = [experiment.Job(arm, cfg.seed, design, recipe) for arm in ("vanilla", "p1")]
    local = experiment.run_jobs(jobs, cfg, NOTEBOOK)
    inline = experiment.run_jobs(jobs, cfg.model_copy(update={"executor": "inline"}), NOTEBOOK)
    assert [r.arm for r in local] == ["vanilla", "p1"]
    for a, b in zip(local, inline):
        assert a.losses == b.losses and a.head.tobytes() == b.head.tobytes()
        assert all(np.array_equal(np.stack(a.bands[k]), np.stack(b.bands[k])) for k in a.bands)
