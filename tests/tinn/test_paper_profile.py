"""The paper profile's code path at smoke size (issue 45): notebook 02's arms as sweep runs on
local subprocesses, as `executor: local` in the paper profile sends them, give the parameters and
histories the same arms give in the kernel; so the paper profile cannot rot unseen."""
import numpy as np

from lib.companion import params, paths
from lib.tinn import experiment

NOTEBOOK = "tinn/02_burgers_tinn_vs_pinn"
TINY = {"n_col": 40, "n_ic": 10, "n_bc": 4, "lm_steps": 5, "adam_steps": 12, "eval_every": 1,
        "n_x": 16, "n_t": 6}


def test_paper_profile_grid_on_local_processes_equals_inline(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    cfg = params.resolve(NOTEBOOK, "paper", TINY)
    tinn = experiment.arm_model(cfg, "TINN+LM")
    assert (cfg.executor, cfg.workers, cfg.jobs(), tinn.size) == ("local", 2, 3, 1145)  # paper's
    x, t = experiment.eval_grid(cfg)
    u_ref = np.broadcast_to(-np.sin(np.pi * x), (len(t), len(x))).copy()   # the initial condition
    arms = ("TINN+LM", "PINN+Adam")                  # one LM and the Adam arm: both trainers
    local = experiment.run_arms(cfg, u_ref, NOTEBOOK, arms)
    inline = experiment.run_arms(cfg.model_copy(update={"executor": "inline"}), u_ref, NOTEBOOK,
                                 arms)
    assert list(local) == list(arms) and local["TINN+LM"].theta.shape == (1145,)
    assert local["TINN+LM"].hist.step == list(range(6))
    for a, b in zip(local.values(), inline.values()):
        assert a.theta.tobytes() == b.theta.tobytes()
        for key in ("step", "loss", "error", "mu"):
            assert np.array(getattr(a.hist, key)).tobytes() == \
                np.array(getattr(b.hist, key)).tobytes(), key
        assert a.hist.resamples == b.hist.resamples
