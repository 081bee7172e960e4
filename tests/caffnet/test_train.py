"""lib/caffnet/train.py: ensemble members are independent; the opt model's layers are feasible."""
import numpy as np
import torch

from lib.caffnet import problems, train


def test_ensemble_members_independent():
    # the gradient of member 0's output never reaches member 1's weights
    net = train.EnsembleMLP(2, 3, 2, 8, 2, torch.Generator().manual_seed(0))
    net(torch.ones(4, 3, dtype=torch.float64))[0].sum().backward()
    assert all(float(W.grad[1].abs().max()) == 0.0 for W in net.W)
    assert any(float(W.grad[0].abs().max()) > 0.0 for W in net.W)


def test_pwc_smoke_run_feasible():
    x = np.linspace(-2, 2, 12)
    res = train.train_pwc(x, x, seeds=1, width=8, epochs=3, lr=1e-3, seed=0, log_every=1)
    B = problems.pwc_bounds(x)
    assert problems.pwc_violation(res.out[2][0], B).max() <= 1e-12
    np.testing.assert_allclose(res.out[2][0], np.clip(res.raw[2][0], B[:, :2].max(1),
                                                      B[:, 2:].min(1)), atol=1e-12)


def test_opt_outputs_feasible():
    model = train.OptModel(problems.make_instance(1))
    x = torch.as_tensor(np.random.default_rng(0).uniform(-1, 1, (16, 3)))
    raw = 3 * torch.randn(5, 16, 5, dtype=torch.float64, generator=torch.Generator().manual_seed(1))
    out = model.outputs(raw, x)
    for m in ("caffnet", "fixed"):
        ineq, eq = problems.residuals(model.inst, out[m].numpy(), x.numpy())
        assert ineq.max() <= 1e-10 and eq.max() <= 1e-10
