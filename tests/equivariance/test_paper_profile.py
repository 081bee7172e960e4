"""The paper profile's code path at smoke size (issue 45): notebook 06's two task runs (each
training its models in one batched program) as sweep runs on local subprocesses, as
`executor: local` in the paper profile sends them, give the same parameters and loss curves,
byte for byte, as the same runs in the kernel; so the paper profile cannot rot unseen."""
import numpy as np

from lib.companion import params, paths, sweep
from lib.equivariance import groups, mirror

NOTEBOOK = "equivariance/06_mirror_fashion_mnist"
TINY = {"n_seeds": 1, "steps": 2, "batch": 16}


def test_paper_profile_grid_on_local_processes_equals_inline(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    cfg = params.resolve(NOTEBOOK, "paper", TINY)
    assert (cfg.executor, cfg.workers, cfg.n_train, cfg.jobs()) == ("local", 2, 20000, 2)
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(64, 196)), rng.integers(0, 10, size=64)      # stand-in images
    first = ["tanh", "gelu"] * cfg.n_seeds
    LR = groups.mirror_grid(14, "lr").mats[1]
    widths = {"autoencoder": [196, 8, 4, 8, 196], "classifier": [196, 8, 4, 10]}
    grid = [(task, X, y, first, w, cfg.steps, cfg.lr, cfg.batch, cfg.lam, cfg.seed, LR)
            for task, w in widths.items()]
    local = sweep.run_params(mirror.train_run, grid, cfg, NOTEBOOK, progress=False)
    inline = sweep.run(mirror.train_run, grid, tmp_path / "inline", "inline", progress=False)
    for (th_a, curve_a), (th_b, curve_b), w in zip(local, inline, widths.values()):
        assert len(th_a) == len(first) and th_a[0][0][0].shape == (w[1], w[0])
        assert curve_a.tobytes() == curve_b.tobytes()
        for model_a, model_b in zip(th_a, th_b):
            for (Wa, ba), (Wb, bb) in zip(model_a, model_b):
                assert Wa.tobytes() == Wb.tobytes() and ba.tobytes() == bb.tobytes()
