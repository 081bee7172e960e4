"""The paper profile's code path at smoke size (issue 45): notebook 02's seeds as sweep runs on
local subprocesses, as `executor: local` in the paper profile sends them, equal bit for bit the
same runs in the kernel; notebook 03's four arms, run at its paper profile and joined, give the
five-net ensemble with feasible CAffNet outputs. So the paper profile cannot rot unseen. (One
grid goes through processes: each costs seconds of process start, the same engine path.)"""
import numpy as np
import torch

from lib.caffnet import problems, train
from lib.companion import params, paths, sweep

PWC = "caffnet/02_piecewise_fit"
OPT = "caffnet/03_optimisation_proxy"
TINY_PWC = {"seeds": 2, "width": 8, "epochs": 3, "log_every": 1, "n_train": 8, "n_grid": 10}
TINY_OPT = {"n_train": 8, "n_eval": 8, "width": 8, "epochs": 3, "log_every": 1,
            "general_inputs": 2, "ref_starts": 1}


def test_pwc_paper_profile_seeds_on_local_processes_equal_inline(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    cfg = params.resolve(PWC, "paper", TINY_PWC)
    assert (cfg.executor, cfg.workers, cfg.lr, cfg.jobs()) == ("local", 2, 1e-4, 2)  # paper lr
    x = np.linspace(-2, 2, cfg.n_train)
    setup = train.PwcSetup(cfg.width, cfg.epochs, cfg.lr, cfg.seed, cfg.log_every,
                           cfg.penalty_weight, cfg.penalty_reduction, x_train=x,
                           x_grid=np.linspace(-2, 2, cfg.n_grid), seeds=cfg.seeds)
    grid = [(setup, (s,)) for s in range(cfg.seeds)]
    local = sweep.run_params(train.train_pwc, grid, cfg, PWC, progress=False)
    inline = sweep.run(train.train_pwc, grid, tmp_path / "inline", "inline", progress=False)
    for a, b in zip(local, inline):
        for name in ("raw", "out", "outside", "log_epochs"):
            assert getattr(a, name).tobytes() == getattr(b, name).tobytes(), name
    assert train.joined_seeds(local).raw.shape == (3, 2, cfg.n_grid)


def test_opt_paper_profile_arms_join_into_a_feasible_ensemble(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    cfg = params.resolve(OPT, "paper", TINY_OPT)
    assert (cfg.executor, cfg.lr, cfg.jobs()) == ("local", 1e-4, len(train.OPT_ARMS))
    rng = np.random.default_rng(cfg.seed)
    x = rng.uniform(-1, 1, (cfg.n_train, 3))
    setup = train.OptSetup(cfg.width, cfg.epochs, cfg.lr, cfg.seed, cfg.log_every,
                           cfg.penalty_weight, cfg.penalty_reduction,
                           inst=problems.make_instance(cfg.instance_seed), x_train=x)
    runs = sweep.run(train.train_opt_arm, [(setup, arm) for arm in train.OPT_ARMS],
                     tmp_path / "inline", "inline", progress=False)
    net, curves = train.joined_arms(runs)
    assert net.members == len(train.OPT_NETS) and net.W[0].shape == (5, 3, cfg.width)
    assert [list(c) for c in curves[:1]] == [["epoch", "nn", "hardnet", "caffnet", "fixed"]]
    assert [c["epoch"] for c in curves] == list(range(cfg.epochs))       # log_every 1
    model = train.OptModel(setup.inst)
    xe = torch.as_tensor(rng.uniform(-1, 1, (cfg.n_eval, 3)))
    with torch.no_grad():
        out = model.outputs(net(xe), xe)
    for m in ("caffnet", "fixed"):
        ineq, eq = problems.residuals(setup.inst, out[m].numpy(), xe.numpy())
        assert ineq.max() <= 1e-10 and eq.max() <= 1e-10, m
