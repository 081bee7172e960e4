"""Latent symmetries preserve the function; matching recovers them (spec §6 bullets 2-3)."""
import numpy as np
import pytest

from lib.equivariance import canon, match, mlp, naive, sym
from tests.conftest import assert_close

CASES = [("tanh", "signed_perm"), ("relu", "pos_monomial"), ("gelu", "perm")]


@pytest.mark.parametrize("act, kind", CASES)
@pytest.mark.parametrize("widths", [[3, 1, 2], [5, 7, 6, 3], [4, 9, 1]], ids=["w1", "w7-6", "w9-1"])
def test_apply_K_preserves_function(act, kind, widths):
    rng = np.random.default_rng(1)
    theta = mlp.random_mlp(widths, rng)
    ks = sym.random_K(theta, kind, rng)
    X = rng.normal(size=(33, widths[0]))
    # float64, a handful of roundings per entry: 1e-12 relative (spec §6)
    assert mlp.same_function(theta, sym.apply_K(theta, ks), X, act) < 1e-12


@pytest.mark.parametrize("kind", ["signed_perm", "pos_monomial", "perm"])
def test_apply_K_matches_dense_reference(kind):
    rng = np.random.default_rng(2)
    theta = mlp.random_mlp([4, 5, 3, 2], rng)
    ks = sym.random_K(theta, kind, rng)
    fast = sym.apply_K(theta, ks)
    ref = naive.apply_K(theta, [k.dense() for k in ks])
    for (W, b), (Wr, br) in zip(fast, ref):
        # same products, different order: a few ulps
        assert_close("W", Wr, W, rtol=1e-13, atol=1e-14)
        assert_close("b", br, b, rtol=1e-13, atol=1e-14)


def test_monomial_algebra():
    rng = np.random.default_rng(3)
    a, b = sym.random_element(7, "pos_monomial", rng), sym.random_element(7, "pos_monomial", rng)
    # composition and inverse agree with dense matrix algebra (one rounding per entry)
    assert_close("compose", a.dense() @ b.dense(), a.compose(b).dense(), rtol=1e-15, atol=0)
    assert_close("inverse", np.linalg.inv(a.dense()), a.inverse().dense(), rtol=1e-14, atol=1e-15)
    M = rng.normal(size=(3, 7))
    assert_close("right", M @ a.dense(), a.right(M), rtol=1e-15, atol=0)
    assert_close("right_inv", M @ np.linalg.inv(a.dense()), a.right_inv(M), rtol=1e-14, atol=1e-15)


@pytest.mark.parametrize("kind", ["signed_perm", "pos_monomial", "perm"])
def test_match_rows_agrees_with_bruteforce(kind):
    rng = np.random.default_rng(4)
    B = rng.normal(size=(5, 4))
    k = sym.random_element(5, kind, rng)
    A = k.left(B) + 1e-3 * rng.normal(size=B.shape)         # noisy: the optimum is still k
    got, res, gap = match.match_rows(A, B, kind)
    ref, res_ref = naive.match_rows(A, B, kind)
    assert np.array_equal(got.dense() != 0, ref != 0)       # same assignment
    assert_close("residual", res_ref, res, rtol=1e-2, atol=1e-6)  # scale estimates differ slightly
    assert gap > 0


@pytest.mark.parametrize("act, kind", CASES)
def test_relate_recovers_planted_k(act, kind):
    rng = np.random.default_rng(5)
    theta = mlp.random_mlp([6, 9, 5, 2], rng)
    ks = sym.random_K(theta, kind, rng)
    rel = match.relate(theta, sym.apply_K(theta, ks), kind)
    assert all(np.array_equal(a.perm, b.perm) for a, b in zip(rel.ks, ks))
    for a, b in zip(rel.ks, ks):
        # signs are exact; ReLU scales are ratios of norms: 1e-12
        assert_close("scale", b.scale, a.scale, rtol=1e-12, atol=0)
    assert rel.max_residual < 1e-12


def test_stabilizer_shows_as_zero_gap():
    rng = np.random.default_rng(6)
    theta = mlp.random_mlp([4, 5, 2], rng)
    W, b = theta[0]
    W[1], b[1] = W[0], b[0]                                  # duplicate neuron: swap is a symmetry
    rel = match.relate(theta, theta, "signed_perm")
    assert rel.gaps[0] == 0.0


@pytest.mark.parametrize("act, kind", CASES)
def test_canonical_form_invariant(act, kind):
    rng = np.random.default_rng(7)
    theta = mlp.random_mlp([5, 8, 6, 3], rng)
    base, _ = canon.canonicalize(theta, kind)
    for _ in range(5):
        other = sym.apply_K(theta, sym.random_K(theta, kind, rng))
        # same canonical form up to rounding of the normalisations
        assert canon.canonical_distance(theta, other, kind) < 1e-12
    tc, ks = canon.canonicalize(theta, kind)
    assert mlp.same_function(theta, tc, rng.normal(size=(20, 5)), act) < 1e-12
    different = mlp.random_mlp([5, 8, 6, 3], rng)
    assert canon.canonical_distance(theta, different, kind) > 0.1


@pytest.mark.parametrize("widths", [[4, 6, 5, 2], [3, 1, 2]], ids=["w6-5", "w1"])
def test_sigmoid_sign_flip_needs_bias_fix(widths):
    # sigma(-z) = 1 - sigma(z): signed permutations preserve a sigmoid net only with the
    # next-layer bias correction (spec §2.1 table, §6 "incl. sigmoid bias fix")
    rng = np.random.default_rng(8)
    theta = mlp.random_mlp(widths, rng)
    ks = [sym.Monomial(k.perm, -np.ones(k.dim)) for k in sym.random_K(theta, "perm", rng)]
    X = rng.normal(size=(25, widths[0]))
    assert mlp.same_function(theta, sym.apply_K(theta, ks, act="sigmoid"), X, "sigmoid") < 1e-12
    assert mlp.same_function(theta, sym.apply_K(theta, ks), X, "sigmoid") > 1e-3
