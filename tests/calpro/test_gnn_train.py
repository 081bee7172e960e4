"""lib/calpro/gnn.py and train.py: message passing against the per-residue loop; every arm
trains, deterministically, and gives bands of the right family."""
import numpy as np
import pytest
import torch

from lib.calpro import arms, chains, gnn, naive, train
from tests.conftest import assert_close

RECIPE = train.Recipe(hidden=8, rounds=2, epochs=3, lr=1e-2, a=0.1, lam_ev=0.01, lam_prior=1.0,
                      kappa=4.0, lam_cal=1.0, temperature=0.1)


@pytest.fixture(scope="module")
def small():
    return chains.sample_chains(3, chains.Regime(0.3, 0.6, 1.0), np.random.default_rng(0), 8.0)


def test_mean_neighbours_matches_loop(small):
    h = np.random.default_rng(1).standard_normal((small.n, 5))
    g = gnn.graph(small.features(True), small.src, small.dst)
    got = gnn.mean_neighbours(torch.as_tensor(h, dtype=torch.float32), g).numpy()
    assert_close("mean", naive.mean_neighbours_loop(h, small.src, small.dst), got,
                 rtol=1e-6, atol=1e-6)                         # float32 sums of a few terms


def test_forward_matches_loop(small):
    net = gnn.ChainGNN(4, 7, 3, 2, torch.Generator().manual_seed(0))
    g = gnn.graph(small.features(True), small.src, small.dst)
    with torch.no_grad():
        got = net(g).numpy()
    ref = naive.gnn_forward_loop(net, small.features(True), small.src, small.dst)
    assert_close("forward", ref, got, rtol=1e-5, atol=1e-5)    # float32 against float64


@pytest.mark.parametrize("name", arms.NAMES)
def test_every_arm_trains_and_bands(small, name):
    arm = arms.ARMS[name]
    a, b = train.fit(arm, RECIPE, small, 0), train.fit(arm, RECIPE, small, 0)
    assert a.losses == b.losses and all(np.isfinite(a.losses))
    band = train.band(a, small)
    assert (band.lo <= band.hi).all() and (band.scale > 0).all()
    if arm.loss == "mse":
        assert (band.scale == 1).all() and np.array_equal(band.lo, band.hi)
    if name == "p2":
        assert a.log_k.requires_grad and float(a.log_k.detach()) != 0.0
