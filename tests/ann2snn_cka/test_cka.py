"""lib/ann2snn_cka/cka.py against naive.py and closed forms (spec §5 items 3, 4, 5; claims D2, D3).

Tolerances: everything is float64 on matrices of at most 16 x 16, so sums of a few hundred
products carry rounding near 1e-15 relative; 1e-12 leaves three orders of headroom and still
catches any wrong term (a wrong factor or a missing centring moves values by > 1e-3).
"""
from __future__ import annotations

import numpy as np
import pytest
import torch

from lib.ann2snn_cka import cka, naive
from tests.conftest import assert_close

torch.set_num_threads(1)
D = torch.float64


def features(seed: int, n: int = 16, dx: int = 6, dy: int = 5) -> tuple[torch.Tensor, torch.Tensor]:
    """Correlated features X (n, dx), Y (n, dy) with non-zero means, so centring matters."""
    g = torch.Generator().manual_seed(seed)
    X = torch.randn(n, dx, generator=g, dtype=D) + 0.7
    Y = X[:, :3] @ torch.randn(3, dy, generator=g, dtype=D) \
        + 0.5 * torch.randn(n, dy, generator=g, dtype=D) - 0.3
    return X, Y


def np_centred_gram(X: torch.Tensor) -> np.ndarray:
    """H X X^T H with an explicit H, in numpy: the closed-form gradients' K~."""
    a = X.detach().numpy().reshape(X.shape[0], -1)
    H = np.eye(a.shape[0]) - 1.0 / a.shape[0]
    return H @ a @ a.T @ H


# --- linear CKA: value ---------------------------------------------------------------------------

@pytest.mark.parametrize("grad", cka.CKA_GRADS)
def test_invariant_to_orthogonal_transforms(grad):
    X, Y = features(0)
    g = torch.Generator().manual_seed(1)
    Qx = torch.linalg.qr(torch.randn(6, 6, generator=g, dtype=D))[0]
    Qy = torch.linalg.qr(torch.randn(5, 5, generator=g, dtype=D))[0]
    ref = cka.linear_cka(X, Y, grad).item()
    assert_close("CKA(XQ, Y)", ref, cka.linear_cka(X @ Qx, Y, grad).item(), rtol=1e-12, atol=0)
    assert_close("CKA(XQ, YQ')", ref, cka.linear_cka(X @ Qx, Y @ Qy, grad).item(),
                 rtol=1e-12, atol=0)


@pytest.mark.parametrize("grad", cka.CKA_GRADS)
def test_invariant_to_isotropic_scaling_but_not_to_anisotropic(grad):
    X, Y = features(2)
    ref = cka.linear_cka(X, Y, grad).item()
    for c in (1e-3, 0.5, 7.5, 1e3):
        assert_close(f"CKA({c} X, Y)", ref, cka.linear_cka(c * X, Y, grad).item(),
                     rtol=1e-12, atol=0)
    # the check has teeth: stretching one feature axis does change linear CKA
    stretch = torch.ones(6, dtype=D)
    stretch[0] = 10.0
    assert abs(cka.linear_cka(X * stretch, Y, grad).item() - ref) > 1e-3


@pytest.mark.parametrize("grad", cka.CKA_GRADS)
def test_self_similarity_is_one(grad):
    X, _ = features(3)
    assert_close("CKA(X, X)", 1.0, cka.linear_cka(X, X, grad).item(), rtol=0, atol=1e-12)


@pytest.mark.parametrize("grad", cka.CKA_GRADS)
@pytest.mark.parametrize("seed", [4, 5])
def test_linear_cka_equals_the_naive_reference(grad, seed):
    g = torch.Generator().manual_seed(seed)
    X = torch.randn(10, 3, 2, 2, generator=g, dtype=D) + 1.0        # flattened per sample
    Y = X.reshape(10, -1)[:, :7] ** 2 + torch.randn(10, 7, generator=g, dtype=D)
    assert_close("linear_cka", naive.linear_cka_naive(X, Y), cka.linear_cka(X, Y, grad).item(),
                 rtol=1e-12, atol=0)


def test_center_equals_h_k_h():
    X, _ = features(6)
    K = cka.gram(X)
    H = torch.eye(16, dtype=D) - 1.0 / 16
    assert_close("center(K)", (H @ K @ H).numpy(), cka.center(K).numpy(), rtol=0, atol=1e-12)


def test_full_and_detached_norm_agree_in_value():
    for seed in range(7, 11):
        X, Y = features(seed)
        assert_close(f"full vs detached_norm (seed {seed})", cka.linear_cka(X, Y, "full").item(),
                     cka.linear_cka(X, Y, "detached_norm").item(), rtol=1e-12, atol=0)


# --- linear CKA: gradient (claim D3) -------------------------------------------------------------

def grad_x(X: torch.Tensor, Y: torch.Tensor, grad: str) -> tuple[float, torch.Tensor]:
    """CKA(X, Y) and its gradient with respect to X."""
    X = X.clone().requires_grad_(True)
    value = cka.linear_cka(X, Y, grad)
    (g,) = torch.autograd.grad(value, X)
    return value.item(), g


def test_full_gradient_is_scale_invariant_and_detached_norm_is_not():
    # CKA(cX, Y) = CKA(X, Y), so d/dc at c = 1 gives <grad_X CKA, X> = 0 for the full gradient.
    # The detached-norm objective <K~_X, K~_Y>/const is homogeneous of degree 2 in X, so Euler's
    # identity gives <grad_X, X> = 2 CKA: it rewards scaling the features up.
    X, Y = features(11)
    value, g_full = grad_x(X, Y, "full")
    assert abs(torch.sum(g_full * X).item()) <= 1e-9
    _, g_det = grad_x(X, Y, "detached_norm")
    euler = torch.sum(g_det * X).item()
    assert value > 0.2 and euler > 0.4                                   # clearly non-zero
    assert_close("<grad_detached, X> = 2 CKA", 2.0 * value, euler, rtol=1e-12, atol=0)


def test_detached_norm_gradient_is_the_inner_products_over_constant_norms():
    # <K~_X, K~_Y> = tr(X^T H K~_Y H X) = tr(X^T K~_Y X), so its gradient is 2 K~_Y X, and
    # grad_X CKA_detached = 2 K~_Y X / (||K~_X|| ||K~_Y||): factor 1 on grad <K~_X, K~_Y> / norms
    # (spec §5 item 3 writes 1/2; that factor is wrong, the test pins 1).
    X, Y = features(12)
    _, g_det = grad_x(X, Y, "detached_norm")
    kx, ky = np_centred_gram(X), np_centred_gram(Y)
    norms = float(np.linalg.norm(kx) * np.linalg.norm(ky))
    closed_form = 2.0 * ky @ X.numpy() / norms
    assert_close("grad detached_norm vs 2 K~_Y X / norms", closed_form, g_det.numpy(),
                 rtol=1e-12, atol=1e-14)
    # the same by autograd on the inner product alone, divided by the norms as Python floats
    Xr = X.clone().requires_grad_(True)
    inner = (cka.center(cka.gram(Xr)) * cka.center(cka.gram(Y))).sum() / norms
    (g_inner,) = torch.autograd.grad(inner, Xr)
    assert_close("grad detached_norm vs autograd(<K~_X, K~_Y>) / norms", g_inner.numpy(),
                 g_det.numpy(), rtol=1e-12, atol=1e-14)


def test_full_gradient_matches_its_closed_form():
    # With a = ||K~_X||, b = ||K~_Y||, s = <K~_X, K~_Y>: grad a^2 = 4 K~_X X, so
    # grad CKA = 2 K~_Y X / (a b) - 2 s K~_X X / (a^3 b).
    X, Y = features(13)
    _, g_full = grad_x(X, Y, "full")
    kx, ky = np_centred_gram(X), np_centred_gram(Y)
    a, b, s = np.linalg.norm(kx), np.linalg.norm(ky), np.sum(kx * ky)
    x = X.numpy()
    closed_form = 2.0 * ky @ x / (a * b) - 2.0 * s * kx @ x / (a ** 3 * b)
    assert_close("grad full vs closed form", closed_form, g_full.numpy(), rtol=1e-10, atol=1e-14)


def test_unknown_cka_grad_is_refused_before_any_compute():
    with pytest.raises(ValueError, match=r"cka_grad = 'half'.*allowed.*'full'.*'detached_norm'"):
        cka.linear_cka(None, None, "half")                  # None: any compute would fail first


def test_mismatched_batches_are_refused():
    X, Y = features(14)
    with pytest.raises(ValueError, match="samples"):
        cka.linear_cka(X, Y[:-1])


# --- unbiased HSIC (spec §5 item 4) ------------------------------------------------------------

def kernels(seed: int, n: int) -> tuple[torch.Tensor, torch.Tensor]:
    """A linear K and a Gaussian-RBF L on dependent samples: two generic symmetric kernels."""
    g = torch.Generator().manual_seed(seed)
    X = torch.randn(n, 3, generator=g, dtype=D) + 0.4
    Y = X[:, :2] + 0.6 * torch.randn(n, 2, generator=g, dtype=D)
    return X @ X.T, torch.exp(-0.5 * torch.cdist(Y, Y) ** 2)


@pytest.mark.parametrize("n", [7, 12])
def test_hsic_unbiased_equals_the_u_statistic(n):
    K, L = kernels(n, n)
    for name, A, B in (("K, L", K, L), ("K, K", K, K), ("L, L", L, L)):
        assert_close(f"hsic_unbiased({name}), n = {n}", naive.hsic_unbiased_naive(A, B),
                     cka.hsic_unbiased(A, B).item(), rtol=1e-10, atol=0)


def test_cka_unbiased_is_the_normalised_u_statistic():
    K, L = kernels(20, 7)
    ref = naive.hsic_unbiased_naive(K, L) / np.sqrt(
        naive.hsic_unbiased_naive(K, K) * naive.hsic_unbiased_naive(L, L))
    assert_close("cka_unbiased", ref, cka.cka_unbiased(K, L).item(), rtol=1e-10, atol=0)


def test_hsic_unbiased_is_unbiased_by_monte_carlo():
    # Joint Gaussian (x, y) = mu + A g, linear kernels. Population HSIC
    # E k(x,x')l(y,y') + E k E l - 2 E[E_x' k(x,x') E_y' l(y,y')] = ||Cov(x, y)||_F^2 (closed form).
    # Draws of n = 6 are small enough that the biased estimator tr(K H L H)/n^2 is visibly off;
    # the unbiased mean must sit within 3 standard errors of the truth, the biased one must not.
    draws, n, dx = 40_000, 6, 3
    g = torch.Generator().manual_seed(21)
    A = torch.randn(5, 5, generator=g, dtype=D)
    mu = torch.tensor([1.0, -0.5, 2.0, 0.3, -1.2], dtype=D)
    truth = torch.sum((A @ A.T)[:dx, dx:] ** 2).item()
    z = mu + torch.randn(draws, n, 5, generator=g, dtype=D) @ A.T
    x, y = z[..., :dx], z[..., dx:]
    K, L = x @ x.transpose(-2, -1), y @ y.transpose(-2, -1)
    for name, est in (("unbiased", cka.hsic_unbiased(K, L)),
                      ("biased", (cka.center(K) * cka.center(L)).sum(dim=(-2, -1)) / n ** 2)):
        se = est.std().item() / draws ** 0.5
        off = abs(est.mean().item() - truth)
        if name == "unbiased":
            assert off <= 3 * se, f"unbiased HSIC mean off by {off / se:.1f} SE (truth {truth})"
        else:
            assert off > 10 * se, f"biased HSIC only {off / se:.1f} SE off: the check lacks power"


@pytest.mark.parametrize("n", [2, 3])
def test_hsic_needs_four_samples(n):
    K, L = kernels(0, 4)
    with pytest.raises(ValueError, match=f"n >= 4.*n = {n}"):
        cka.hsic_unbiased(K[:n, :n], L[:n, :n])
    with pytest.raises(ValueError, match=f"n >= 4.*n = {n}"):
        naive.hsic_unbiased_naive(K[:n, :n], L[:n, :n])


def test_hsic_refuses_mismatched_kernels():
    K, L = kernels(0, 5)
    with pytest.raises(ValueError, match="same"):
        cka.hsic_unbiased(K, L[:4, :4])


# --- layer weights, eq. (9) (spec §5 item 5, claim D2) -------------------------------------------

def test_layer_weights_sum_to_one_and_follow_the_conversion_gap():
    c0 = [0.95, 0.62, 0.80, 0.31, 0.99]
    w = cka.layer_weights(c0)
    assert w.dtype == np.float64 and w.shape == (5,)
    assert_close("sum w", 1.0, w.sum(), rtol=0, atol=1e-12)
    gap = 1.0 - np.asarray(c0)
    assert_close("w / (1 - CKA0)", np.full(5, 1.0 / gap.sum()), w / gap, rtol=1e-12, atol=0)
    assert list(np.argsort(w)) == list(np.argsort(-np.asarray(c0)))     # worse aligned, heavier
    assert_close("tensor input", w, cka.layer_weights(torch.tensor(c0, dtype=D)),
                 rtol=0, atol=0)


@pytest.mark.parametrize("c0", [[1.0, 1.0, 1.0], [1.0, 1.0 + 3e-7, 1.0 + 1e-9]])
def test_layer_weights_uniform_when_every_layer_is_aligned(c0):
    assert_close("uniform w", np.full(3, 1.0 / 3), cka.layer_weights(c0), rtol=0, atol=1e-15)


def test_layer_weights_clip_an_unbiased_cka_above_one():
    w = cka.layer_weights([0.6, 1.0 + 2e-6, 0.8])
    assert_close("clipped w", [2.0 / 3, 0.0, 1.0 / 3], w, rtol=1e-12, atol=0)


@pytest.mark.parametrize("c0", [[], [0.5, float("nan")], [float("inf")], [[0.1, 0.2]], ["a"]])
def test_bad_cka0_is_refused(c0):
    with pytest.raises(ValueError, match="cka0"):
        cka.layer_weights(c0)
