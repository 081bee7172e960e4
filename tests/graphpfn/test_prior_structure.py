"""The structure prior: our array code against plain-loop transcriptions (same stream), the
DC-SBM's means against closed forms, the PA step's exact counts, the largest component on
hand-made graphs, determinism."""
import numpy as np
import pytest

from lib.graphpfn import configs, naive, prior_structure
from lib.graphpfn.schema import Prior
from tests.conftest import assert_close

GRID = configs.grid(Prior().sbm_nodes, Prior().first_level, Prior().group_families,
                    Prior().pa_families, Prior().divisors)


@pytest.mark.parametrize("j", [0, 1, 2, 3, 17, 39])
def test_draws_match_the_transcription_on_one_stream(j):
    c = GRID[j]
    r1, r2 = np.random.default_rng(j), np.random.default_rng(j)
    s1 = prior_structure.group_sizes(2213, 7 + j, c.min_group_size, c.max_group_size, r1)
    s2 = naive.group_sizes_naive(2213, 7 + j, c.min_group_size, c.max_group_size, r2)
    assert s1.tolist() == s2 and s1.sum() == 2213
    lam1, deg1, _ = prior_structure.propensities_and_degrees(s1, c.divisor, r1)
    lam2, deg2 = naive.propensities_naive(s2, c.divisor, r2)
    # numpy sums (and the closed-form split) round in another order than the loop: ~1e-15
    assert_close("lambda", np.array(lam2), lam1, rtol=1e-12, atol=1e-12 * np.abs(lam1).max())
    assert_close("degrees", np.array(deg2), deg1, rtol=1e-12, atol=1e-12 * np.abs(deg1).max())
    assert r1.random() == r2.random()                  # both consumed the same draws


@pytest.mark.parametrize("sizes", [[1, 2, 3, 5, 12], [49, 50, 3, 51, 7, 100, 1],
                                   [150, 2, 60, 4]], ids=["no-hubs", "mixed", "hub-first"])
def test_hub_draws_between_bulk_draws_match_the_transcription(sizes):
    # groups that can draw a hub (size >= 50) split the bulk double draws; their integer draw
    # and hub doubles must land where the code's group-by-group calls put them
    r1, r2 = np.random.default_rng(5), np.random.default_rng(5)
    lam1, deg1, _ = prior_structure.propensities_and_degrees(np.array(sizes), 3.0, r1)
    lam2, deg2 = naive.propensities_naive(sizes, 3.0, r2)
    assert_close("lambda", np.array(lam2), lam1, rtol=1e-12, atol=1e-12 * np.abs(lam1).max())
    assert_close("degrees", np.array(deg2), deg1, rtol=1e-12, atol=1e-12 * np.abs(deg1).max())
    assert r1.random() == r2.random()                  # both consumed the same draws


@pytest.mark.parametrize("seed", range(6))
def test_second_level_map_matches_the_pool_by_pool_walk(seed):
    rng = np.random.default_rng(seed)
    n = 300
    group1 = np.repeat(np.arange(40), prior_structure.group_sizes(n, 40, 1, 30, rng))
    group2 = np.repeat(np.arange(70), prior_structure.group_sizes(n, 70, 1, 12, rng))
    r1, r2 = np.random.default_rng([seed, 1]), np.random.default_rng([seed, 1])
    got = prior_structure.second_level_map(group1, group2, r1)
    want = naive.second_level_map_naive(group1, group2, r2)
    assert got.tolist() == want.tolist() and sorted(got.tolist()) == list(range(n))
    assert r1.random() == r2.random()


def test_group_sizes_respect_bounds():
    rng = np.random.default_rng(0)
    for _ in range(50):
        s = prior_structure.group_sizes(500, 9, 10, 80, rng)
        assert s.sum() == 500 and (s[:-1] >= 10).all() and (s[:-1] < 80).all()


def _mean_edges(groups, lam, theta, draws, sampler):
    rng = np.random.default_rng(1)
    return np.array([len(sampler(groups, lam, theta, rng)) for _ in range(draws)])


def test_one_block_uniform_theta_mean_degree():
    n, lam = 40, np.array([[2 * 60.0]])                  # 60 expected edges (diagonal x 2)
    counts = _mean_edges(np.zeros(n, int), lam, np.ones(n), 2000, prior_structure.sample_dcsbm)
    mean_degree = 2 * counts.mean() / n
    # Poisson(60): the mean of 2000 has sd sqrt(60 / 2000); 4 sd in degree units
    assert abs(mean_degree - 2 * 60 / n) <= 4 * 2 * np.sqrt(60 / 2000) / n


def test_two_blocks_cross_count_and_degree_shares():
    groups = np.repeat([0, 1], [5, 7])
    lam = np.array([[10.0, 25.0], [25.0, 6.0]])
    theta = np.arange(1.0, 13.0)
    rng = np.random.default_rng(2)
    cross, deg = [], np.zeros(12)
    for _ in range(3000):
        e = prior_structure.sample_dcsbm(groups, lam, theta, rng)
        cross.append((groups[e[:, 0]] != groups[e[:, 1]]).sum())
        deg += np.bincount(e.ravel(), minlength=12)
    assert abs(np.mean(cross) - 25) <= 4 * np.sqrt(25 / 3000)
    # expected degree: t_i (sum_s lam_rs), t the within-block share of theta
    share = theta / np.bincount(groups, weights=theta)[groups]
    want = share * lam.sum(1)[groups]
    assert_close("degrees", want, deg / 3000, rtol=0.05, atol=0.0)   # ~1-2 % Monte Carlo


def test_pair_by_pair_sampler_has_the_same_law():
    groups = np.repeat([0, 1, 2], [3, 4, 2])
    lam = np.array([[4.0, 3.0, 1.0], [3.0, 8.0, 2.0], [1.0, 2.0, 2.0]])
    theta = np.array([1.0, 2, 3, 1, 1, 2, 5, 1, 3])
    fast = _mean_edges(groups, lam, theta, 3000, prior_structure.sample_dcsbm)
    slow = _mean_edges(groups, lam, theta, 3000, naive.dcsbm_pairs_naive)
    want = np.triu(lam, 1).sum() + np.trace(lam) / 2
    for got in (fast, slow):
        assert abs(got.mean() - want) <= 4 * np.sqrt(want / 3000)


def test_pa_adds_exact_counts_and_distinct_earlier_targets():
    rng = np.random.default_rng(3)
    seed = np.array([[0, 1], [1, 2], [2, 3]])
    ms = [1, 3, 2, 4]
    grown = prior_structure.price_growth(seed, 4, ms, 25, rng)
    new = grown[len(seed):]
    assert len(np.unique(new[:, 0])) == 25 * len(ms) == new[:, 0].max() - 3
    assert len(new) == 25 * sum(ms)                  # n >= 4 = max m from the first node on
    for node in np.unique(new[:, 0]):
        t = new[new[:, 0] == node, 1]
        assert len(set(t)) == len(t) and (t < node).all() and len(t) >= 1


def test_pa_caps_m_at_the_current_size():
    grown = prior_structure.price_growth(np.array([[0, 1]]), 2, [4], 3,
                                         np.random.default_rng(0))
    assert len(grown) - 1 == 2 + 3 + 4                  # min(4, n) with n = 2, 3, 4


def test_pa_fast_and_naive_attach_alike():
    # the share of new edges landing on node 0 of a star: the same law, two samplers
    seed = np.array([[0, i] for i in range(1, 6)])
    def share(f):
        rng = np.random.default_rng(4)
        hits = [(f(seed, 6, [1], 10, rng)[5:, 1] == 0).mean() for _ in range(600)]
        return np.mean(hits)
    a, b = share(prior_structure.price_growth), share(naive.price_growth_naive)
    assert abs(a - b) < 0.03                             # sd of each mean ~0.006


@pytest.mark.parametrize("n, edges, want", [
    (6, [[0, 1], [1, 2], [3, 4]], [0, 1, 2]),
    (5, [[3, 4], [0, 1]], [0, 1]),                       # a tie: the lowest label
    (4, [], [0]),
    (7, [[5, 6], [4, 5], [6, 4], [0, 1]], [4, 5, 6])])
def test_largest_component_on_hand_graphs(n, edges, want):
    e = np.array(edges, dtype=np.int64).reshape(-1, 2)
    assert prior_structure.largest_component(n, e).tolist() == want
    assert naive.largest_component_naive(n, e) == want


def test_largest_component_matches_union_find():
    rng = np.random.default_rng(5)
    for _ in range(20):
        n = int(rng.integers(5, 60))
        e = rng.integers(0, n, (int(rng.integers(0, n)), 2))
        assert (prior_structure.largest_component(n, e).tolist()
                == naive.largest_component_naive(n, e))


def test_simplify_drops_loops_and_parallels():
    e = prior_structure.simplify(np.array([[1, 0], [0, 1], [2, 2], [3, 1]]))
    assert e.tolist() == [[0, 1], [1, 3]]


def test_sample_graph_is_deterministic_and_connected():
    cfg = configs.scaled(GRID[5], 0.05)
    g1 = prior_structure.sample_graph(cfg, np.random.default_rng(7))
    g2 = prior_structure.sample_graph(cfg, np.random.default_rng(7))
    assert g1.edges.tobytes() == g2.edges.tobytes() and g1.group1.tobytes() == g2.group1.tobytes()
    assert len(prior_structure.largest_component(g1.n, g1.edges)) == g1.n
    assert (g1.edges[:, 0] < g1.edges[:, 1]).all()


def test_scaled_keeps_ranges_ordered():
    for c in GRID:
        s = configs.scaled(c, 0.01)
        assert 1 <= s.min_group_size <= s.max_group_size and s.min_sbm_nodes <= s.max_sbm_nodes
