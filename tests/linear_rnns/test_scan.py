"""Scans = the plain recurrence (exactly for Fractions), and their round/combine counts
(spec §5)."""
from fractions import Fraction

import numpy as np
import pytest
import torch

from lib.linear_rnns import naive, scan
from lib.linear_rnns.circuits import clog2
from tests.conftest import assert_close

SIZES = [(1, 1), (2, 1), (3, 2), (7, 3), (16, 5), (33, 2)]   # (T, d): 1, odd, non-powers of two


def _h0(d, exact):
    return np.array([Fraction(1, k + 1) for k in range(d)], dtype=object) if exact else \
        np.linspace(-1.0, 1.0, d)


@pytest.mark.parametrize("kind", scan.KINDS)
@pytest.mark.parametrize("T,d", SIZES, ids=[f"T{T}-d{d}" for T, d in SIZES])
@pytest.mark.parametrize("algo", sorted(scan.SCANS))
def test_scan_exact_equals_recurrence(kind, T, d, algo):
    rng = np.random.default_rng(1000 * T + d)
    x = scan.random_pairs(kind, T, d, rng, exact=True)
    h0 = _h0(d, True)
    prefix, _ = scan.SCANS[algo](x)
    got = scan.apply(prefix, h0)                                     # (T, d) object
    ref = naive.recurrence(kind, x.a, x.b, h0, x.perm)
    assert [list(r) for r in got] == ref                            # exact Fractions


@pytest.mark.parametrize("kind", scan.KINDS)
def test_tree_reduce_exact_final(kind):
    rng = np.random.default_rng(7)
    for T in (1, 2, 5, 12):
        x = scan.random_pairs(kind, T, 3, rng, exact=True)
        total, counts = scan.reduce_tree(x)
        ref = naive.recurrence(kind, x.a, x.b, _h0(3, True), x.perm)[-1]
        assert list(scan.apply(total, _h0(3, True))[0]) == ref
        assert counts == scan.Counts(clog2(T), T - 1)               # spec §5 table


@pytest.mark.parametrize("kind", scan.KINDS)
@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_scan_float_matches_exact(kind, backend):
    rng = np.random.default_rng(3)
    x = scan.random_pairs(kind, 37, 4, rng)
    ref = naive.recurrence(kind, x.a, x.b, _h0(4, False), x.perm)
    xb = scan.to_torch(x) if backend == "torch" else x
    h0 = torch.as_tensor(_h0(4, False)) if backend == "torch" else _h0(4, False)
    for algo in scan.SCANS:
        got = scan.apply(scan.SCANS[algo](xb)[0], h0)
        got = got.numpy() if backend == "torch" else got
        # 37 contractive float64 steps: a few hundred roundings of O(1) values
        assert_close(f"{backend}-{kind}-{algo}", np.array(ref, dtype=float), got,
                     rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("T", [1, 2, 3, 4, 5, 8, 9, 100, 1024, 1025])
def test_counts(T):
    x = scan.random_pairs("diagonal", T, 1, np.random.default_rng(T))
    hs = scan.scan_hillis_steele(x)[1]
    # spec §5 [V]: HS rounds = ceil(log2 T), combines = sum_k (T - 2^k)
    assert hs == scan.Counts(clog2(T), sum(T - 2 ** k for k in range(clog2(T))))
    bl = scan.scan_blelloch(x)[1]
    assert bl.combines <= 2 * max(T - 1, 0) and bl.rounds <= 2 * clog2(T)
    assert scan.scan_sequential(x)[1] == scan.Counts(T - 1, T - 1)


def test_pd_closure_and_dense_agree():
    rng = np.random.default_rng(11)
    x = scan.random_pairs("pd", 20, 5, rng, exact=True)
    pd_prefix, _ = scan.scan_hillis_steele(x)
    dense_prefix, _ = scan.scan_hillis_steele(scan.to_dense(x))
    assert (scan.to_dense(pd_prefix).a == dense_prefix.a).all()
    # column one-hot: every column of every prefix has at most one non-zero entry
    assert ((dense_prefix.a != 0).sum(axis=-2) <= 1).all()


def test_identity_padding_is_neutral():
    x = scan.random_pairs("dense", 3, 2, np.random.default_rng(5), exact=True)
    e = scan.identity_like(x, 3)
    left, right = scan.combine(e, x), scan.combine(x, e)
    assert (left.a == x.a).all() and (left.b == x.b).all()
    assert (right.a == x.a).all() and (right.b == x.b).all()


def test_reversed_order_is_wrong():
    """Negative control: composing earlier-on-the-left does not give the recurrence."""
    x = scan.random_pairs("dense", 6, 3, np.random.default_rng(2), exact=True)
    rev = scan.Pairs("dense", x.a[::-1].copy(), x.b[::-1].copy())
    assert not (scan.reduce_tree(rev)[0].a == scan.reduce_tree(x)[0].a).all()


@pytest.mark.parametrize("kind", scan.KINDS)
@pytest.mark.parametrize("algo", sorted(scan.SCANS))
def test_scan_exact_on_python_ints(kind, algo):
    # integer pairs: Python ints (never np.int64, which would wrap), scans equal the naive loop
    rng = np.random.default_rng(11)
    x = scan.random_pairs(kind, 33, 3, rng, exact=True, integer=True)
    assert all(type(v) is int for v in x.a.flat) and all(type(v) is int for v in x.b.flat)
    h0 = np.array([1, -2, 3], dtype=object)
    got = scan.apply(scan.SCANS[algo](x)[0], h0)
    assert [list(r) for r in got] == naive.recurrence(kind, x.a, x.b, h0, x.perm)


def test_integer_products_outgrow_float64():
    # 64 dense 5x5 products over [-3, 3] exceed 2^53, so a float conversion would show as an error
    rng = np.random.default_rng(3)
    x = scan.random_pairs("dense", 64, 5, rng, exact=True, integer=True)
    assert max(abs(v) for v in scan.scan_sequential(x)[0].a[-1].flat) > 2 ** 53


def test_integer_pairs_need_exact():
    with pytest.raises(ValueError):
        scan.random_pairs("dense", 2, 2, np.random.default_rng(0), integer=True)
