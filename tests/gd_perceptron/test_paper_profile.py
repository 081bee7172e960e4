"""The paper profile's code path at smoke size (issue 45): notebook 07's per-model runs as sweep
runs on local subprocesses, as `executor: local` sends them, give the histories the same runs give
in the kernel, byte for byte; so the paper profile cannot rot unseen."""
from lib.companion import params, paths, sweep
from lib.gd_perceptron import real_data

NOTEBOOK = "gd_perceptron/07_real_data"
TINY = {"per_class": 10, "width": 3, "linear_steps": 10, "two_layer_steps": 10}


def test_paper_profile_grid_on_local_processes_equals_inline(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    cfg = params.resolve(NOTEBOOK, "paper", TINY)
    assert (cfg.executor, cfg.workers) == ("local", 2)
    assert cfg.relu_gammas == [0.001, 0.01, 0.1, 1.0, 10.0, 100.0]     # every linear step size
    grid = [(cfg, "linear"), (cfg, "relu")]
    local = sweep.run_params(real_data.run_model, grid, cfg, NOTEBOOK, progress=False)
    inline = sweep.run_params(real_data.run_model, grid,
                              cfg.model_copy(update={"executor": "inline"}), NOTEBOOK,
                              progress=False)
    assert [len(h.methods) for h in local] == [len(cfg.linear_gammas) + 1
                                               + len(cfg.normalized_gammas), 6]
    assert local[1].accuracy.shape[1] == 6 and local[1].accuracy.shape[0] >= 2
    for a, b in zip(local, inline):
        assert a.methods == b.methods
        for key in ("accuracy", "loss", "grad_norm", "solved_at"):
            x, y = getattr(a, key), getattr(b, key)
            assert (x.dtype, x.shape, x.tobytes()) == (y.dtype, y.shape, y.tobytes())
