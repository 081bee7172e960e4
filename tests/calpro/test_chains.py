"""lib/calpro/chains.py: the generator's structure against its definition (spec §1.6)."""
import numpy as np
import pytest

from lib.calpro import chains
from lib.calpro.chains import Regime
from tests.conftest import assert_close

REGIME = Regime(0.3, 0.6, 1.0)


def draw(n=7, regime=REGIME, seed=3, radius=0.0):
    return chains.sample_chains(n, regime, np.random.default_rng(seed), radius)


def test_sizes_edges_and_ranges():
    c = draw()
    L = np.bincount(c.chain)
    assert len(L) == 7 and L.min() >= chains.LENGTH[0] and L.max() < chains.LENGTH[1]
    assert (c.chain[c.src] == c.chain[c.dst]).all() and (np.abs(c.src - c.dst) == 1).all()
    assert len(c.src) == 2 * (c.n - 7)                       # both directions, L - 1 per chain
    assert ((c.d >= 0) & (c.d <= 1)).all() and ((c.d_obs >= 0) & (c.d_obs <= 1)).all()
    ordered = c.d < 0.3
    assert ((c.d[~ordered] >= 0.6) & (c.d[~ordered] <= 1.0)).all()


def test_disorder_is_piecewise_constant_in_segments_of_5_to_20():
    c = draw(20)
    for k in range(20):
        d = c.d[c.chain == k]
        cuts = np.flatnonzero(np.diff(d) != 0) + 1
        runs = np.diff(np.concatenate([[0], cuts, [len(d)]]))
        assert (runs[:-1] >= 5).all() and (runs[:-1] <= 20).all()   # the last may be cut short
        assert runs[-1] <= 20


def test_smoothing_matches_a_loop():
    g = np.random.default_rng(0).standard_normal((9, 3))
    chain = np.array([0, 0, 0, 0, 1, 1, 1, 2, 2])
    src, dst = chains.chain_edges(chain)
    ref = g.copy()
    for i in range(9):
        for j in (i - 1, i + 1):
            if 0 <= j < 9 and chain[j] == chain[i]:
                ref[i] += 0.5 * g[j]
    assert_close("smoothed", ref, chains.smooth(g, src, dst), rtol=0, atol=1e-15)  # same sums


def test_target_follows_mean_and_scale():
    c = draw()
    mu, sigma = chains.mean_and_scale(c.f, c.d)
    assert_close("mu", mu, c.mu, rtol=0, atol=0)
    assert_close("sigma", 0.25 + 1.5 * c.d ** 2 + 0.1 * np.abs(c.f[:, 2]), sigma, rtol=0,
                 atol=1e-15)                                  # one rounding


def test_same_seed_same_chains_and_disorder_share():
    a, b = draw(seed=5), draw(seed=5)
    assert np.array_equal(a.y, b.y) and np.array_equal(a.src, b.src)
    big = draw(400, Regime(0.45, 0.6, 1.0), seed=1)
    assert abs(big.disordered.mean() - 0.45) < 0.03          # ~2 200 segments: SE ~0.011


def test_contacts_are_symmetric_and_nonlocal():
    c = draw(3, radius=8.0)
    chain_e = 2 * (c.n - 3)
    cs, cd = c.src[chain_e:], c.dst[chain_e:]
    assert len(cs) > 0 and (np.abs(cs - cd) >= 3).all() and (c.chain[cs] == c.chain[cd]).all()
    assert set(zip(cs.tolist(), cd.tolist())) == set(zip(cd.tolist(), cs.tolist()))


@pytest.mark.parametrize("design, lo", [("extrapolate", 0.3), ("interpolate", 0.6)])
def test_regimes(design, lo):
    base, shifted = chains.regimes(design, 0.08, 0.45)
    assert (base.p, base.lo, shifted.p, shifted.lo, shifted.hi) == (0.08, lo, 0.45, 0.6, 1.0)
