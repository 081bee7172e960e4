"""Graph statistics on hand-made graphs, parameters refused by key, each decision both ways."""
import numpy as np
import pytest
from pydantic import ValidationError

from lib.graphpfn import decisions, graph_stats, prior_scm
from lib.graphpfn.prior_structure import Graph
from lib.graphpfn.schema import Prior, TinyPfn

TRI = Graph(4, np.array([[0, 1], [1, 2], [0, 2], [2, 3]]), np.zeros(4, int), None,
            np.zeros(4, bool))


def test_homophily_and_clustering_by_hand():
    y = np.array([0, 0, 1, 1])
    assert graph_stats.edge_homophily(TRI, y) == 0.5       # (0,1), (2,3) of 4 edges
    # degrees 2, 2, 3, 1: p = (4/8, 4/8), chance 1/2, so adjusted (0.5 - 0.5) / 0.5 = 0
    assert graph_stats.adjusted_homophily(TRI, y) == 0.0
    # local clustering 1, 1, 1/3, 0
    assert abs(graph_stats.clustering(prior_scm.adjacency(TRI)) - (7 / 3) / 4) < 1e-12


def test_bfs_reach_and_tail_slope():
    two = Graph(5, np.array([[0, 1], [1, 2], [3, 4]]), np.zeros(5, int), None,
                np.zeros(5, bool))
    assert graph_stats.bfs_reach(two) == 3 and graph_stats.bfs_reach(TRI) == 4
    # degrees with P(D >= k) = 1/k exactly on k = 1..64 (counts 64/k - 64/(k+1) scaled)
    k = np.arange(1, 65)
    counts = np.round(1e6 * (1 / k - np.r_[1 / k[1:], 0])).astype(int)
    slope = graph_stats.tail_slope(np.repeat(k, counts), 2)
    assert abs(slope + 1) < 0.01


@pytest.mark.parametrize("cls, key, value", [(Prior, "classes", [4, 2]),
                                              (Prior, "scale", 0.0),
                                              (Prior, "divisors", [1.0, 1.0]),
                                              (Prior, "n_examples", 501),
                                              (TinyPfn, "train_frac", [0.5, 0.1]),
                                              (TinyPfn, "eval_frac", 1.0),
                                              (TinyPfn, "heads", 5),
                                              (TinyPfn, "min_nodes", 400)])
def test_bad_parameters_are_refused_by_key(cls, key, value):
    with pytest.raises(ValidationError, match=key):
        cls(**{key: value})


def test_bad_family_is_refused():
    with pytest.raises(ValidationError, match="group_families"):
        Prior(group_families=[[5, 2, 1, 3]])


def test_decisions_both_ways():
    assert decisions.diverse(np.linspace(0, 1, 101))[1]
    assert not decisions.diverse(np.full(50, 0.4))[1]
    assert decisions.heavy_tail(-2.5) and not decisions.heavy_tail(-3.5)
    assert not decisions.heavy_tail(-1.0)
    assert decisions.graph_helps(0.001) and not decisions.graph_helps(-0.001)
    assert decisions.homophily_trend(np.arange(5.0), np.arange(5.0))[1]
    assert not decisions.homophily_trend(np.arange(5.0), -np.arange(5.0))[1]
    mean, lo, hi = decisions.bootstrap_mean_ci(np.r_[np.ones(50), -np.ones(50)] + 0.5, 500,
                                               np.random.default_rng(0))
    assert lo < mean == 0.5 < hi


def test_model_decisions():
    lam = np.array([[1.0, 2.0], [4.0, -1.0]])
    assert (decisions.symmetrise(lam) == np.array([[1.0, 3.0], [3.0, -1.0]])).all()
    assert (decisions.clip_propensities(lam) >= 0).all()
    assert decisions.feasible_groups(10, 8, 3) == 3 and decisions.feasible_groups(2, 5, 3) == 1
