"""The paper profile's code path at smoke size (issue 45): notebook 02's (form, seed) runs as
sweep runs on local subprocesses, as `executor: local` in the paper profile sends them, give the
nets and history the same runs give in the kernel; so the paper profile cannot rot unseen."""
import numpy as np

from lib.companion import params, paths
from lib.musa_pinn import experiment, geometry, train

NOTEBOOK = "musa_pinn/02_strong_vs_weak"
TINY = {"n_seeds": 1, "steps": 10, "eval_every": 5, "n_boundary": 16, "n_colloc": 16,
        "n_large": 2, "n_meso": 2, "n_small": 2, "pool_factor": 2}


def test_paper_profile_grid_on_local_processes_equals_inline(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    cfg = params.resolve(NOTEBOOK, "paper", TINY)
    assert (cfg.executor, cfg.workers, cfg.width, cfg.jobs()) == ("local", 2, 64, 2)
    dom = geometry.Domain()
    setup = train.Setup(re=cfg.re, width=cfg.width, depth=cfg.depth, steps=cfg.steps, lr=cfg.lr,
                        milestones=tuple(cfg.decay_at), gamma=cfg.gamma,
                        bc_weight=cfg.bc_weight, n_boundary=cfg.n_boundary,
                        n_colloc=cfg.n_colloc, quad=cfg.quad,
                        counts={"large": cfg.n_large, "meso": cfg.n_meso, "small": cfg.n_small},
                        pool_factor=cfg.pool_factor, eval_every=cfg.eval_every)
    groups = {"strong": [train.Arm("strong", "strong")],
              "weak": [train.Arm("weak", "weak"), train.Arm("weak2", "weak", True)]}
    pts = geometry.sample_interior(dom, 20, np.random.default_rng(0))
    local = experiment.train_forms(groups, setup, dom, [cfg.seed], pts, cfg, NOTEBOOK)
    inline = experiment.train_forms(groups, setup, dom, [cfg.seed], pts,
                                    cfg.model_copy(update={"executor": "inline"}), NOTEBOOK)
    assert local[1] == inline[1] == {"strong": [("strong", 0)], "weak": [("weak", 0), ("weak2", 0)]}
    for name in groups:
        for a, b in zip(local[0][name].parameters(), inline[0][name].parameters()):
            assert a.detach().numpy().tobytes() == b.detach().numpy().tobytes(), name
    assert local[2].equals(inline[2]) and list(local[2].step.unique()) == [5, 10]
