"""lib/caffnet/train.py: ensemble members are independent, a sweep run of some members trains
them exactly as the whole ensemble does; the opt model's layers are feasible."""
import numpy as np
import torch

from lib.caffnet import problems, train


def test_ensemble_members_independent():
    # the gradient of member 0's output never reaches member 1's weights
    net = train.EnsembleMLP.drawn(2, 3, 2, 8, 2, torch.Generator().manual_seed(0))
    net(torch.ones(4, 3, dtype=torch.float64))[0].sum().backward()
    assert all(float(W.grad[1].abs().max()) == 0.0 for W in net.W)
    assert any(float(W.grad[0].abs().max()) > 0.0 for W in net.W)


def test_kept_members_compute_as_in_the_whole_ensemble():
    # a run's members start from, and compute, the whole ensemble's rows; state() gives them
    whole = train.EnsembleMLP.drawn(5, 3, 2, 8, 2, torch.Generator().manual_seed(3))
    part = train.EnsembleMLP.drawn(5, 3, 2, 8, 2, torch.Generator().manual_seed(3), keep=(1, 4))
    x = torch.randn(6, 3, dtype=torch.float64, generator=torch.Generator().manual_seed(4))
    with torch.no_grad():
        assert torch.equal(part(x), whole(x)[[1, 4]])
    assert all(np.array_equal(a, w.detach().numpy()[[1, 4]])
               for a, w in zip(part.state()[0], whole.W))
    joined = train.EnsembleMLP.joined([whole.state(), part.state()])
    assert joined.members == 7 and torch.equal(joined.W[0][5:], whole.W[0][[1, 4]])


def test_pwc_seeds_run_apart_equal_the_whole_ensemble():
    # what the sweep relies on: seeds trained one run each, joined, are the three-seed ensemble
    # bit for bit (the notebook's numbers do not depend on how the seeds were split)
    x = np.linspace(-2, 2, 12)
    setup = train.PwcSetup(width=8, epochs=40, lr=1e-2, seed=0, log_every=10, x_train=x, x_grid=x,
                           seeds=3)
    whole = train.train_pwc(setup)
    apart = train.joined_seeds([train.train_pwc(setup, (s,)) for s in range(3)])
    for name in ("raw", "out", "outside", "log_epochs"):
        assert getattr(whole, name).tobytes() == getattr(apart, name).tobytes(), name
    assert whole.raw.shape == (3, 3, 12)


def test_pwc_smoke_run_feasible():
    x = np.linspace(-2, 2, 12)
    res = train.train_pwc(train.PwcSetup(width=8, epochs=3, lr=1e-3, seed=0, log_every=1,
                                         x_train=x, x_grid=x, seeds=1))
    B = problems.pwc_bounds(x)
    assert problems.pwc_violation(res.out[2][0], B).max() <= 1e-12
    np.testing.assert_allclose(res.out[2][0], np.clip(res.raw[2][0], B[:, :2].max(1),
                                                      B[:, 2:].min(1)), atol=1e-12)


def test_opt_arm_outputs_match_the_five_net_outputs():
    # each arm's own output equals the matching entry of the five-net `outputs`
    model = train.OptModel(problems.make_instance(1))
    x = torch.as_tensor(np.random.default_rng(0).uniform(-1, 1, (16, 3)))
    raw = 3 * torch.randn(5, 16, 5, dtype=torch.float64, generator=torch.Generator().manual_seed(1))
    out = model.outputs(raw, x)
    for arm, nets in train.OPT_ARMS.items():
        assert torch.equal(model.arm_output(arm, raw[list(nets)], x), out[arm]), arm


def test_opt_outputs_feasible():
    model = train.OptModel(problems.make_instance(1))
    x = torch.as_tensor(np.random.default_rng(0).uniform(-1, 1, (16, 3)))
    raw = 3 * torch.randn(5, 16, 5, dtype=torch.float64, generator=torch.Generator().manual_seed(1))
    out = model.outputs(raw, x)
    for m in ("caffnet", "fixed"):
        ineq, eq = problems.residuals(model.inst, out[m].numpy(), x.numpy())
        assert ineq.max() <= 1e-10 and eq.max() <= 1e-10
