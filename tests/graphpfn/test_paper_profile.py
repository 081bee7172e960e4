"""The paper profile's code path at smoke size (issue 45): notebook 02's two arms as one sweep run
each on local subprocesses, as `executor: local` in the paper profile sends them, give the losses
and trained weights that both arms trained side by side in one run in the kernel give (the
default profile's path); and one run per arm trains each PFN exactly as the single loop over
both does, both models stepping on each episode in turn. So the paper profile cannot rot
unseen."""
import numpy as np

from lib.companion import params, paths, sweep
from lib.graphpfn import experiment, tiny_pfn, train

NOTEBOOK = "graphpfn/02_tiny_pfn"
TINY = {"steps": 2, "warmup": 1, "min_nodes": 20, "max_nodes": 40}


def test_paper_profile_arms_on_local_processes_equal_inline(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    cfg = params.resolve(NOTEBOOK, "paper", TINY)
    assert (cfg.executor, cfg.workers, cfg.depth, cfg.jobs()) == ("local", 2, 6, 2)  # 6 layers
    assert experiment.arm_runs(cfg) == [(arm,) for arm in experiment.ARMS]
    local = experiment.run_arms(cfg, NOTEBOOK)
    (inline,) = sweep.run(experiment.train_arms, [(cfg, experiment.ARMS)], tmp_path / "inline",
                          "inline", progress=False)
    for arm in experiment.ARMS:
        a, b = local[arm], inline[arm]
        assert len(a.losses) == cfg.steps and a.losses == b.losses, arm
        assert list(a.weights) == list(b.weights)
        assert all(a.weights[k].tobytes() == b.weights[k].tobytes() for k in a.weights), arm


def test_one_run_per_arm_equals_both_arms_in_one_loop(tmp_path):
    cfg = params.resolve(NOTEBOOK, "smoke", {"steps": 3, "warmup": 1, "d": 16, "depth": 1})
    tab, graph = tiny_pfn.pair(cfg.n_features, cfg.classes[1], cfg.d, cfg.depth, cfg.heads,
                               cfg.seed)
    grid, sizes = experiment.prior(cfg)
    rng = np.random.default_rng([cfg.seed, 2])
    losses, _ = train.train_side_by_side(
        {"graph_pfn": graph, "tab_pfn": tab},
        lambda: train.episode(grid, rng, rng.uniform(*cfg.train_frac), **sizes),
        cfg.steps, cfg.lr, cfg.warmup, cfg.clip)
    assert experiment.arm_runs(cfg) == [experiment.ARMS] and cfg.jobs() == 1   # inline
    for arm, model in (("graph_pfn", graph), ("tab_pfn", tab)):
        (run,) = experiment.train_arms(cfg, (arm,)).values()
        assert run.losses == losses[arm], arm
        assert all(run.weights[k].tobytes() == v.detach().numpy().tobytes()
                   for k, v in model.state_dict().items()), arm
