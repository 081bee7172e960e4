"""The paper profile's code path at smoke size (issue 45): notebook 02's training runs as sweep
runs on local subprocesses, as `executor: local` in the paper profile sends them, give the models
and loss histories the same runs give in the kernel; so the paper profile cannot rot unseen."""
from lib.bsnp import poisson, train
from lib.companion import params, paths

NOTEBOOK = "bsnp/02_ablation"
TINY = {"n_train": 8, "n_test": 4, "steps": 3, "batch": 2, "channels": [4], "latent": 2,
        "hidden": 4, "n_r": 4, "z_samples": 2, "n_seeds": 1, "stress_steps": 2}


def test_paper_profile_grid_on_local_processes_equals_inline(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    cfg = params.resolve(NOTEBOOK, "paper", TINY)
    # the release's per-task context split: the paper profile's own data path
    assert (cfg.executor, cfg.workers, cfg.fresh_splits, cfg.jobs()) == ("local", 2, False, 6)
    tasks = poisson.make_tasks(cfg.n_train, 42)
    sizes, sched = train.sizes_of(cfg), train.schedule_of(cfg)
    runs = {"data_0": train.Run(train.Arm("data", 0.0, 0.0, cfg.n_r), sizes, sched, cfg.seed),
            "bsnp_0": train.Run(train.Arm("bsnp", cfg.beta, cfg.beta0, cfg.n_r), sizes, sched,
                                cfg.seed)}
    local = train.fit_runs(tasks, runs, cfg, NOTEBOOK)
    inline = train.fit_runs(tasks, runs, cfg.model_copy(update={"executor": "inline"}), NOTEBOOK)
    assert list(local[0]) == list(local[1]) == ["data_0", "bsnp_0"]
    assert local[1] == inline[1] and [len(h) for h in local[1].values()] == [3, 3]
    for name in runs:
        a, b = local[0][name].state_dict(), inline[0][name].state_dict()
        assert list(a) == list(b)
        assert all(a[k].numpy().tobytes() == b[k].numpy().tobytes() for k in a), name


def test_sparsity_paper_profile_sends_its_two_arms_to_local_processes():
    cfg = params.resolve("bsnp/03_sparsity_noise", "paper", {})
    assert (cfg.executor, cfg.workers, cfg.jobs(), cfg.steps) == ("local", 2, 2, 20000)
