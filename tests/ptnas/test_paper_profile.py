"""The paper profile's code path at smoke size (issue 45): notebook 02's per-data-set bench
trainings as sweep runs on local subprocesses, as `executor: local` in the paper profile sends
them, equal the same runs in the kernel byte for byte; so the paper profile cannot rot unseen."""
from lib.companion import params, paths, sweep
from lib.ptnas import bench, data, space

NOTEBOOK = "ptnas/02_minibench"
TINY = {"datasets": ["digits", "breast_cancer"], "n_rows": 100, "depth_max": 1,
        "epochs": [1, 2], "gt_epoch": 2, "fidelity_epoch": 1}


def test_paper_profile_grid_on_local_processes_equals_inline(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    cfg = params.resolve(NOTEBOOK, "paper", TINY)
    assert (cfg.executor, cfg.workers, cfg.jobs()) == ("local", 2, 2)
    assert cfg.widths == [8, 16, 32, 64, 128, 256]                     # the paper's larger space
    archs = space.enumerate_space(cfg.widths, cfg.depth_min, cfg.depth_max)
    grid = [(archs, data.load_split(name, cfg.seed, cfg.n_rows), cfg.seed, cfg.epochs, cfg.batch,
             cfg.lr, cfg.pad_widths) for name in cfg.datasets]
    local = sweep.run_params(bench.train_masked, grid, cfg, NOTEBOOK, progress=False)
    inline = sweep.run(bench.train_masked, grid, tmp_path / "inline", "inline", progress=False)
    assert [r.test_logits.shape[-1] for r in local] == [10, 2]         # grid order kept
    for a, b in zip(local, inline):
        assert a.epochs == b.epochs == (1, 2)
        assert a.val.tobytes() == b.val.tobytes() and a.test.tobytes() == b.test.tobytes()
        assert a.test_logits.numpy().tobytes() == b.test_logits.numpy().tobytes()
