"""The paper profile's code path at smoke size (issue 45): notebook 06's two task runs, and a
run of notebook 04's and of 05's teacher–student grids (each run training its models in one
batched program), as sweep runs on local subprocesses, as `executor: local` in the paper
profile sends them, give the same parameters and curves, byte for byte, as the same runs in the
kernel; so the paper profile cannot rot unseen."""
import numpy as np

from lib.companion import params, paths, sweep
from lib.equivariance import construct, experiments, groups, mirror, mlp

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


def test_teacher_student_runs_on_local_processes_equal_inline(tmp_path, monkeypatch):
    """Notebooks 04 and 05 at smoke size: a condition run of 04 (tanh, anisotropic law, soft
    penalty) and an (activation, target) run of 05 (GELU, a stand-in target), each batching
    its seeds' students, give the same curves, parameters and reports, byte for byte, on local
    subprocesses (the paper profile's executor) as in the kernel."""
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    tiny = {"n_seeds": 2, "steps": 4, "log_every": 2, "batch": 16, "n_train": 64, "n_test": 100,
            "n_fit": 100}
    cfg = params.resolve("equivariance/04_training_emergence", "paper", tiny)
    cfg5 = params.resolve("equivariance/05_activation_comparison", "paper", tiny)
    assert (cfg.executor, cfg.workers, cfg.jobs()) == ("local", 2, 4 + 4 + 1)   # 4 penalty weights
    assert (cfg5.executor, cfg5.workers, cfg5.jobs()) == ("local", 2, 6)
    D4 = groups.d4_grid(cfg.grid)
    rng = np.random.default_rng(0)
    teacher = construct.planted_mlp(D4, cfg.teacher_channels, rng)
    widths = [16, 16, 8, 16]
    targets = [lambda Z: mlp.forward(teacher, Z, "tanh"), np.tanh]      # 04's teacher, a stand-in
    runs = experiments.draw_runs(
        lambda m, Z: targets[m](Z), D4, ["tanh", "gelu"], [("aniso", False), ("iso", True)], [0, 1],
        cfg.n_train, cfg.n_test, cfg.n_fit, rng, ["aniso+penalty1", "gelu/generic"], [1.0, 0.0])
    controls = {"random_perm": groups.control_permutation(16, rng)}
    grid = [(r, D4, widths, cfg.steps, cfg.lr, cfg.batch, cfg.log_every, controls) for r in runs]
    local = sweep.run_params(experiments.train_run, grid, cfg, "equivariance/04_training_emergence",
                             progress=False)
    inline = sweep.run(experiments.train_run, grid, tmp_path / "inline", "inline", progress=False)
    for (h_a, th_a, rep_a), (h_b, th_b, rep_b) in zip(local, inline):
        assert h_a.steps == [0, 2, 4] and len(th_a) == 2 and rep_a == rep_b
        for key in ("rel_mse", "equiv", "lv1"):
            assert np.stack(getattr(h_a, key)).tobytes() == np.stack(getattr(h_b, key)).tobytes()
        for model_a, model_b in zip(th_a, th_b):
            for (Wa, ba), (Wb, bb) in zip(model_a, model_b):
                assert Wa.tobytes() == Wb.tobytes() and ba.tobytes() == bb.tobytes()
