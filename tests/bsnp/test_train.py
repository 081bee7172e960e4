"""lib/bsnp/train.py: arms, the data arm equals BSNP at zero weights, smoke training (T7, T8)."""
import math

import numpy as np
import pytest
import torch

from lib.bsnp import batches, evaluate, model, poisson, train

SIZES = model.Sizes(channels=(8,), latent=3, hidden=8)


def test_bad_arm_refused():
    with pytest.raises(ValueError, match="n_r"):
        train.Arm("bsnp", n_r=1)
    with pytest.raises(ValueError, match="arm"):
        train.Arm("pinn")


def test_data_arm_equals_bsnp_at_zero_weights():
    tasks = poisson.make_tasks(6, 0)
    b = batches.sample_batch(tasks, np.arange(4), np.random.default_rng(0), 3, 5, 0.05, 7)
    torch.manual_seed(0)
    net = model.BSNP(SIZES)
    xr = torch.rand(4, 3)
    la, _ = train.loss(net, b, train.Arm("data", 0.0, 0.0), xr, torch.Generator().manual_seed(1))
    lb, _ = train.loss(net, b, train.Arm("bsnp", 0.0, 0.0), xr, torch.Generator().manual_seed(1))
    assert torch.equal(la, lb)


def test_smoke_training_and_prediction():
    tasks = poisson.make_tasks(16, 0)
    net, hist = train.fit(tasks, train.Arm("sample", n_r=4), SIZES,
                          train.Schedule(steps=5, batch=4), 0)
    assert all(math.isfinite(h["loss"]) for h in hist)
    b = evaluate.test_batch(tasks, evaluate.Setting(), 0)
    mu, var = evaluate.predict(net, b, 3, torch.Generator().manual_seed(0))
    assert mu.shape == var.shape == b.yt.shape and bool((var > 0).all())


def test_gradient_cosines_near_one():
    tasks = poisson.make_tasks(16, 0)
    cos = train.physics_gradient_cosines(model.BSNP(SIZES), tasks,
                                         train.Schedule(steps=1, batch=4), 4, 256, 1, 0)
    assert cos[0] >= 0.99


def test_initial_model_ignores_earlier_draws():
    torch.manual_seed(3)
    model.BSNP(SIZES)
    want = model.BSNP(SIZES).state_dict()       # the second model drawn after seed 3
    torch.rand(7)                               # a stream moved on by something else
    got = train.initial_model(SIZES, 3, draw=1).state_dict()
    assert all(torch.equal(want[k], got[k]) for k in want)
    assert not torch.equal(got["phi_y.weight"],
                           train.initial_model(SIZES, 3).state_dict()["phi_y.weight"])


def test_fit_run_restores_the_trained_model_exactly():
    tasks = poisson.make_tasks(16, 0)
    run = train.Run(train.Arm("bsnp", n_r=4), SIZES, train.Schedule(steps=3, batch=4), 1)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)                    # as fit_run: the thread count changes the floats
    try:
        net, hist = train.fit(tasks, run.arm, run.sizes, run.schedule, run.seed)
    finally:
        torch.set_num_threads(threads)
    fitted = train.fit_run(tasks, run)
    again = train.restore(run, fitted).state_dict()
    assert fitted.history == hist
    assert all(torch.equal(v, again[k]) for k, v in net.state_dict().items())
