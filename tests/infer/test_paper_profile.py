"""The paper profile's code path at smoke size (issue 45): notebook 02's arm runs (seeds batched) as
sweep runs on local subprocesses, as `executor: local` in the paper profile sends them, give the
spectra and losses the same runs give in the kernel; so the paper profile cannot rot unseen."""
import numpy as np

from lib.companion import params, paths, sweep
from lib.infer import scene, train

NOTEBOOK = "infer/02_field_comparison"
TINY = {"grid": 4, "n_train": 8, "n_show": 2, "n_seeds": 1, "steps": 3, "width": 8,
        "features": 4, "kk_points": 4}


def test_paper_profile_grid_on_local_processes_equals_inline(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    cfg = params.resolve(NOTEBOOK, "paper", TINY)
    assert (cfg.executor, cfg.n_fft, cfg.kk_lambdas) == ("local", 2048, [0.1, 1.0, 10.0])
    assert cfg.jobs() == 6                    # T, F, three F+KK lambdas, F+KK+W
    cab = scene.build(cfg)
    tr, _ = scene.split(cfg.grid ** 2, cfg.n_train, np.random.default_rng(cfg.seed))
    by_name = {a.name: a for a in train.arms(cfg.kk_lambdas, cfg.kk_lambda)}
    d = train.data(cab, tr, cfg.n_fft)
    grid = [(cfg, d, by_name["T"], [cfg.seed]), (cfg, d, by_name["F+KK λ=0.1"], [cfg.seed])]
    local = sweep.run_params(train.fit, grid, cfg, NOTEBOOK, progress=False)
    inline = sweep.run(train.fit, grid, tmp_path / "inline", "inline", progress=False)
    assert [f.spectra.shape for f in local] == [(1, cfg.grid ** 2, cfg.n_fft // 2 + 1)] * 2
    for a, b in zip(local, inline):
        assert a.spectra.tobytes() == b.spectra.tobytes() and a.loss.tobytes() == b.loss.tobytes()
