"""GD / GP / BP dynamics: batched kernel against the plain-loop reference; counting rules."""
import numpy as np
import pytest
import torch

from lib.gd_perceptron import datasets, dynamics, models, naive
from tests.conftest import assert_close


@pytest.mark.parametrize("rule", ["gd", "gp", "bp"])
@pytest.mark.parametrize("kind", ["linear", "two_layer"])
def test_step_equals_naive(rule, kind):
    rng = np.random.default_rng(42)
    B, y = datasets.random_separable(11, 5, rng)
    shape = (3, 5) if kind == "linear" else (3, 2, 5)
    theta = rng.standard_normal(shape)
    eta = np.array([0.5, 1.0, 7.0])
    model = models.make_model(kind, 2)
    got = dynamics.step(model, torch.as_tensor(theta), torch.as_tensor(B),
                        torch.as_tensor(y, dtype=torch.float64), torch.as_tensor(eta), rule).numpy()
    ref = np.stack([naive.step(kind, theta[r], B, y, eta[r], rule) for r in range(3)])
    assert_close(f"{kind} {rule} step", ref, got, rtol=1e-12, atol=1e-12)  # float64 sums of 11


def test_iterations_equal_naive_per_run():
    rng = np.random.default_rng(7)
    B, y = datasets.random_separable(30, 4, rng)
    theta = rng.standard_normal((5, 2, 4))
    model = models.make_model("two_layer", 2)
    got = dynamics.iterations(model, torch.as_tensor(B), torch.as_tensor(y, dtype=torch.float64),
                              torch.as_tensor(theta), 0.05, rule="gp", max_iter=400)
    ref = [naive.iterations("two_layer", theta[r], B, y, 0.05, "gp", 400) for r in range(5)]
    assert got.iterations.tolist() == ref
    assert got.capped.tolist() == [t == 400 for t in ref]


def test_tie_weights():
    z = torch.tensor([-1.0, 0.0, 2.0], dtype=torch.float64)
    assert dynamics.weights(z, "gp").tolist() == [1.0, 0.5, 0.0]
    assert dynamics.weights(z, "bp").tolist() == [1.0, 1.0, 0.0]
    assert dynamics.weights(z, "bp", first=True).tolist() == [1.0, 0.5, 0.0]
    assert dynamics.weights(torch.zeros(1, dtype=torch.float64), "gd").item() == 0.5  # S(0) = 1/2


def test_logistic_loss_is_stable_at_large_margins():
    z = torch.tensor([[-1e5, 1e5]], dtype=torch.float64)
    assert_close("loss", [1e5 / 2], dynamics.logistic_loss(z), rtol=1e-15, atol=0)


def test_capped_runs_are_reported():
    B, y = datasets.dataset_a(64)
    res = dynamics.iterations(models.Linear(), torch.as_tensor(B, dtype=torch.float64),
                              torch.as_tensor(y, dtype=torch.float64),
                              torch.zeros(1, 64, dtype=torch.float64), 1.0, rule="gp", max_iter=10)
    assert res.capped.tolist() == [True] and res.iterations.tolist() == [10]


def test_unknown_rule_rejected():
    with pytest.raises(ValueError, match="rule = 'sgd'"):
        dynamics.trajectory(models.Linear(), torch.zeros(1, 1), torch.ones(1), torch.zeros(1, 1),
                            1.0, 1, rule="sgd")
