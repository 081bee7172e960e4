"""The paper profile's code path at smoke size (issue 45): notebook 02's (depth, role) runs as
sweep runs on local subprocesses, as `executor: local` in the paper profile sends them, give the
table the same runs give in the kernel; so the paper profile cannot rot unseen."""
import pandas as pd

from lib.companion import params, paths
from lib.frog import experiment as ex
from lib.frog import train

NOTEBOOK = "frog/02_depth_sweep"
TINY = {"n_users": 50, "n_items": 20, "n_tx": 300, "epochs": 5, "n_seeds": 2,
        "depths": [1, 2, 4]}


def test_paper_profile_grid_on_local_processes_equals_inline(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    cfg = params.resolve(NOTEBOOK, "paper", TINY)
    assert (cfg.executor, cfg.workers, cfg.jobs()) == ("local", 2, 6)
    st, reps = ex.replicas(cfg)
    plan = [(f"{mode}-K{k}", mode, train.Setup(depth=k, hidden=cfg.hidden, epochs=cfg.epochs,
                                                 lr=cfg.lr, gate_lr=cfg.lr, fd_weight=0.0))
            for k, mode in zip(cfg.depths[1:], ("node", "edge"))]  # two of the six: one each
    local, _ = ex.run_grid(st, reps, plan, cfg, NOTEBOOK)
    inline, _ = ex.run_grid(st, reps, plan, cfg.model_copy(update={"executor": "inline"}),
                            NOTEBOOK)
    assert local.run.tolist()[::len(reps)] == ["node-K2", "edge-K4"]
    pd.testing.assert_frame_equal(local, inline, check_exact=True)
