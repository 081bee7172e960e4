"""Jacobian-rank fibre dimensions (spec §2.2, §6)."""
import numpy as np
import pytest

from lib.equivariance import dimension as D
from lib.equivariance import naive


def test_tanh_fibre_is_discrete():
    rng = np.random.default_rng(0)
    w = [3, 4, 3, 2]
    assert D.count_params(w) == 39                # spec §2.2 table
    dims = D.fibre_dimensions(w, "tanh", D.random_params(w, 3, rng), rng.normal(size=(300, 3)))
    assert dims.tolist() == [0, 0, 0]


@pytest.mark.parametrize("n, r, m", [(5, 3, 4), (3, 1, 2), (4, 4, 7)], ids=["r3", "r1", "r4"])
def test_linear_no_bias_fibre_is_gl_r(n, r, m):
    # f = W2 W1 with r <= min(n, m): fibre = GL(r) orbit, dimension r^2 (spec §6)
    rng = np.random.default_rng(1)
    w = [n, r, m]
    P = D.random_params(w, 2, rng, bias=False)
    assert D.fibre_dimensions(w, "linear", P, rng.normal(size=(40, n)),
                              bias=False).tolist() == [r * r] * 2


def test_relu_fibre_at_least_hidden_count():
    rng = np.random.default_rng(2)
    w = [3, 4, 3, 2]
    dims = D.fibre_dimensions(w, "relu", D.random_params(w, 4, rng), 2 * rng.normal(size=(400, 3)))
    assert (dims >= 7).all()                      # 7 = #hidden neurons (positive scalings)


@pytest.mark.parametrize("act", ["tanh", "relu", "gelu", "cube", "linear"])
def test_jacobian_matches_autograd(act):
    import torch

    rng = np.random.default_rng(3)
    w = [3, 4, 1, 2]                               # width-1 bottleneck included
    P = D.random_params(w, 2, rng)
    X = rng.normal(size=(7, 3))
    J = D.jacobian(w, act, P, X)
    for p, Jd in zip(P, J):
        ref = torch.autograd.functional.jacobian(
            lambda q: _torch_forward(w, act, q, X), torch.as_tensor(p)).numpy()
        # both exact derivatives in float64: agreement to rounding
        np.testing.assert_allclose(Jd, ref, rtol=1e-10, atol=1e-12)
    assert (D.fibre_dimensions(w, act, P, X).tolist()
            == naive.fibre_dimensions(w, act, P, X).tolist())


def _torch_forward(w, act, q, X):
    import torch
    acts = {"tanh": torch.tanh, "relu": torch.relu, "gelu": torch.nn.functional.gelu,
            "cube": lambda z: z ** 3, "linear": lambda z: z}
    pos, H = 0, torch.as_tensor(X)
    pairs = list(zip(w[:-1], w[1:]))
    for i, (a, b) in enumerate(pairs):
        W = q[pos:pos + a * b].reshape(b, a)
        pos += a * b
        bb = q[pos:pos + b]
        pos += b
        H = H @ W.T + bb
        if i < len(pairs) - 1:
            H = acts[act](H)
    return H.reshape(-1)
