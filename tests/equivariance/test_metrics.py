"""Lenc–Vedaldi metric, signed-permutation projection, bypass pairs (spec §5.6, §6 bypass)."""
import numpy as np

from lib.equivariance import construct, metrics, mlp, naive
from lib.equivariance import groups as G
from tests.conftest import assert_close


def test_lv_zero_on_planted_and_matches_naive():
    rng = np.random.default_rng(0)
    group = G.mirror_grid(4)
    theta = construct.planted_mlp(group, [2, 1], rng)
    Xf, Xe = rng.normal(size=(800, 16)), rng.normal(size=(300, 16))
    errs = metrics.lv_errors(theta, "tanh", group.mats[1], Xf, Xe)
    assert errs.max() < 1e-10                    # an exact permutation action exists
    ctrl = metrics.lv_errors(theta, "tanh", G.mirror_grid(4, "ud").mats[1], Xf, Xe)
    assert ctrl.min() > 0.05                     # up-down mirror is not a symmetry
    _, H = mlp.forward(theta, Xf, "tanh", return_hidden=True)
    _, Hg = mlp.forward(theta, Xf @ G.mirror_grid(4, "ud").mats[1].T, "tanh", return_hidden=True)
    _, E = mlp.forward(theta, Xe, "tanh", return_hidden=True)
    _, Eg = mlp.forward(theta, Xe @ G.mirror_grid(4, "ud").mats[1].T, "tanh", return_hidden=True)
    # lstsq vs normal equations on a well-conditioned problem: 1e-8 relative
    assert_close("lv", naive.lv_error(H[0], Hg[0], E[0], Eg[0]),
                 metrics.lv_error_from_features(H[0], Hg[0], E[0], Eg[0]), rtol=1e-8, atol=0)


def test_fitted_map_is_the_planted_permutation():
    rng = np.random.default_rng(1)
    group = G.mirror_grid(4)
    theta = construct.planted_mlp(group, [2, 1], rng)
    M = metrics.fitted_map(theta, "tanh", group.mats[1], rng.normal(size=(800, 16)), 0)
    fit = metrics.nearest_signed_perm(M)
    assert fit.off_support < 1e-20
    assert_close("M", fit.dense(), M, rtol=0, atol=1e-10)


def test_bypass_pairs_and_relu_identity():
    rng = np.random.default_rng(2)
    n, m = 6, 10
    r = rng.normal(size=(m, n))
    r /= np.linalg.norm(r, axis=1, keepdims=True)
    c = np.linalg.pinv(r)                         # sum_k c_k r_k^T = I (m >= n)
    W1 = np.vstack([r, -r])
    W2 = np.hstack([c, -c])
    theta = [(W1, np.zeros(2 * m)), (W2, np.zeros(n))]
    X = rng.normal(size=(200, n))
    # relu(z) - relu(-z) = z: the network is the identity map exactly
    assert_close("identity", X, mlp.forward(theta, X, "relu"), rtol=0, atol=1e-12)
    assert metrics.bypass_pairs(theta, 0) == m
    P = G.mirror_1d(n).mats[1]
    err = metrics.lv_errors(theta, "relu", P, rng.normal(size=(2000, n)), rng.normal(size=(500, n)))
    assert err[0] > 0.1                           # spec §3.3: ~0.4 for random directions
