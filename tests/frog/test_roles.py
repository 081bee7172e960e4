"""lib/frog/roles.py: the lossless round trip, hop distances against BFS, the mean aggregation
against the edge-by-edge loop."""
import numpy as np
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.frog import naive, rdb, roles
from tests.conftest import assert_close


def toy() -> rdb.Database:
    """3 users, 2 items: users 0 and 1 share item 0 (user 0 twice: a multi-edge), user 2 buys
    item 1 only."""
    return rdb.Database(np.zeros((3, 2)), np.zeros((2, 3)), np.array([1, 0, 2, 0]),
                        np.array([0, 0, 1, 0]), np.arange(8.0).reshape(4, 2))


@settings(max_examples=20, deadline=None)
@given(n_users=st.integers(1, 8), n_items=st.integers(1, 6), extra=st.integers(0, 25),
       seed=st.integers(0, 2 ** 16))
def test_round_trip_exact(n_users, n_items, extra, seed):
    db = rdb.make_database(n_users, n_items, max(n_users, n_items) + extra,
                           np.random.default_rng(seed))
    graph = roles.edge_role_graph(db)
    user, item, attr = roles.rebuild_tx(graph)
    assert np.array_equal(user, db.tx_user) and np.array_equal(item, db.tx_item)
    assert np.array_equal(attr, db.tx_x)                      # bit-equal: no arithmetic
    assert np.all(np.diff(graph.user) >= 0)                   # CSR order by user


def test_multi_edges_kept():
    graph = roles.edge_role_graph(toy())
    assert len(graph.user) == 4 and roles.duplicate_edges(graph) == 1
    assert graph.row_id.tolist() == [1, 3, 0, 2]              # sorted by (user, item, row)


def test_hops_on_toy():
    db = toy()
    node = roles.hop_distances(roles.adjacency(db, "node"), np.array([0]), 8)[0]
    edge = roles.hop_distances(roles.adjacency(db, "edge"), np.array([0]), 8)[0]
    # users 0..2, items 3..4, tx rows 5..8 in the node role
    assert node[:5].tolist() == [0, 4, -1, 2, -1]             # co-buyer 1 at 4, user 2 unreachable
    assert edge.tolist() == [0, 2, -1, 1, -1]                 # co-buyer at 2, own item at 1
    assert node[5:].tolist() == [3, 1, -1, 1]                 # own rows at 1, user 1's row at 3


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2 ** 16), max_hops=st.integers(0, 7), role=st.sampled_from(
    ["node", "edge"]))
def test_hop_distances_match_bfs(seed, max_hops, role):
    db = rdb.make_database(9, 4, 13, np.random.default_rng(seed))
    adj = roles.adjacency(db, role)
    sources = np.array([0, 3, 8])
    assert np.array_equal(roles.hop_distances(adj, sources, max_hops),
                          naive.hop_distances(adj, sources, max_hops))


@settings(max_examples=15, deadline=None)
@given(m=st.integers(1, 40), n=st.integers(1, 9), h=st.integers(1, 5), seed=st.integers(0, 99))
def test_mean_aggregate_matches_loop(m, n, h, seed):
    gen = torch.Generator().manual_seed(seed)
    values = torch.randn(m, h, generator=gen, dtype=torch.float64)
    index = torch.randint(0, n, (m,), generator=gen)
    # float64 sums of <= 40 terms in another order: a few ulp of the largest partial sum
    assert_close("mean", naive.mean_aggregate(values, index, n),
                 roles.mean_aggregate(values, index, n), rtol=0, atol=1e-13)
