"""The reconstructed released DGC generator (spec §6.1a) and the landscape constants (§1.1)."""
import numpy as np
import pytest

from lib.linear_rnns import graphs, landscape, released


@pytest.mark.parametrize("N", [1, 2, 7, 50])
def test_labels_are_reachability_and_targets_sinks(N):
    rng = np.random.default_rng(N)
    for bug in (True, False):
        for label in (0, 1):
            edges, lab = released.generate(N, label, rng, released_bug=bug)
            succ = released.to_succ(edges, N)
            assert graphs.bfs_reachable(succ, 1, N + 1) == bool(lab)
            assert succ[N + 1] == 0 and all(a < b for a, b in edges)


def test_shortcut_perfect_under_bug_only():
    rng = np.random.default_rng(0)
    bug = released.dataset(400, 5, 40, rng, True)
    fixed = released.dataset(400, 5, 40, rng, False)
    assert all(released.shortcut(e, N) == l for N, e, l in bug)
    # repaired: negatives almost always have both endpoint edges, so accuracy is near 1/2
    assert np.mean([released.shortcut(e, N) == l for N, e, l in fixed]) < 0.6


def test_serialise_binary_ids():
    assert released.serialise([(0, 2), (2, 5)], 5) == "0;0-10;10-101;101"


def test_landscape_consistent():
    for _model, lo, up, _a, _s in landscape.MODELS:
        assert up in landscape.CHAIN and (lo is None
                                          or landscape.CHAIN.index(lo) <= landscape.CHAIN.index(up))
