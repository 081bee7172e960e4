"""Models: explicit gradients against autograd and the plain-loop reference."""
import numpy as np
import pytest
import torch

from lib.gd_perceptron import models, naive
from tests.conftest import assert_close


@pytest.mark.parametrize("kind, act", [("linear", None), ("two_layer", "quadratic"),
                                       ("two_layer", "relu")])
@pytest.mark.parametrize("R, n, d, m", [(1, 1, 1, 2), (3, 5, 7, 3), (2, 33, 10, 4)],
                         ids=["r1-n1-d1", "r3-n5-d7", "r2-n33-d10"])
def test_direction_equals_autograd(kind, act, R, n, d, m):
    gen = torch.Generator().manual_seed(42)
    model = models.make_model(kind, m, act or "quadratic")
    shape = (R, d) if kind == "linear" else (R, m, d)
    theta = torch.randn(*shape, generator=gen, dtype=torch.float64, requires_grad=True)
    B = torch.randn(n, d, generator=gen, dtype=torch.float64)
    coef = torch.randn(R, n, generator=gen, dtype=torch.float64)
    (model.output(theta, B) * coef).sum().backward()
    # float64, a handful of products: 1e-12 leaves room for summation order only
    assert_close("direction", theta.grad, model.direction(theta.detach(), B, coef), rtol=1e-12,
                 atol=1e-12)


def test_per_run_data_equals_shared_data():
    gen = torch.Generator().manual_seed(42)
    model = models.make_model("two_layer", 3)
    theta = torch.randn(4, 3, 6, generator=gen, dtype=torch.float64)
    B = torch.randn(5, 6, generator=gen, dtype=torch.float64)
    coef = torch.randn(4, 5, generator=gen, dtype=torch.float64)
    per_run = B.expand(4, 5, 6)
    assert_close("output", model.output(theta, B), model.output(theta, per_run), rtol=1e-14, atol=0)
    assert_close("direction", model.direction(theta, B, coef),
                 model.direction(theta, per_run, coef), rtol=1e-14, atol=1e-15)


def test_outputs_match_naive():
    rng = np.random.default_rng(42)
    W = rng.standard_normal((2, 7))
    B = rng.standard_normal((5, 7))
    for act in ("quadratic", "relu"):
        model = models.make_model("two_layer", 2, act)
        got = model.output(torch.as_tensor(W)[None], torch.as_tensor(B))[0].numpy()
        ref = [naive.output("two_layer", W, b, activation=act) for b in B]
        assert_close(f"h {act}", ref, got, rtol=1e-13, atol=1e-13)  # 7-term sums in float64


def test_gram_model_matches_linear_from_zero():
    # u = sum_i a_i b_i, so B u = G a: the Gram model's outputs are the linear model's
    rng = np.random.default_rng(42)
    B = torch.as_tensor(rng.standard_normal((3, 9)))
    a = torch.as_tensor(rng.standard_normal((2, 3)))
    assert_close("G a", models.Linear().output(a @ B, B), models.LinearGram().output(a, B @ B.T),
                 rtol=1e-13, atol=1e-13)


def test_bad_model_arguments_rejected():
    with pytest.raises(ValueError, match="activation = 'tanh'"):
        models.TwoLayer(activation="tanh")
    with pytest.raises(ValueError, match="kind = 'deep'"):
        models.make_model("deep")


def test_gram_model_keeps_dataset_a_tie_exact_issue12():
    # data set A (d = 64): G = [[64, 63], [63, 63]]; after the first GD step a = (g/4, -g/4), so
    # point 2's output 63 g/4 - 63 g/4 is exactly 0 for every g (a matmul with FMA gave +-1e-19)
    G = torch.tensor([[64.0, 63.0], [63.0, 63.0]], dtype=torch.float64)
    g = torch.logspace(-4, 6, 41, dtype=torch.float64)
    a = torch.stack([g / 4, -g / 4], dim=1)                                     # (R, n)
    out = models.LinearGram().output(a, G)
    assert bool((out[:, 1] == 0).all())
    assert bool((models.LinearGram().output(a, G.expand(41, 2, 2))[:, 1] == 0).all())
