"""A table as a node set or as an edge set (spec §1.1), and what each role does to hop counts.

Node role (the fixed RelBench schema graph): every tx row is a node linked to its user and its
item, so user - tx - item is 2 hops. Edge role: tx, a table with exactly two foreign keys, becomes
one (user, item) edge per row carrying the row's attributes, multi-edges kept, so user - item is
1 hop. The edge list is stored sorted by (user, item, row) with each edge's row id, and
`rebuild_tx` inverts that sort: the round trip tx -> edges -> tx is exact (full resolution).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
import torch

from lib.frog.rdb import Database


@dataclass(frozen=True)
class EdgeRoleGraph:
    """tx as edges user -> item, sorted by (user, item, row); row_id maps each edge to its row."""

    n_users: int
    n_items: int
    user: np.ndarray          # (n_edges,) int64
    item: np.ndarray          # (n_edges,) int64
    attr: np.ndarray          # (n_edges, tx features)
    row_id: np.ndarray        # (n_edges,) int64, a permutation of range(n_tx)


def edge_role_graph(db: Database) -> EdgeRoleGraph:
    """One edge per tx row (multi-edges allowed), in CSR order by user."""
    rows = np.arange(len(db.tx_user))
    order = np.lexsort((rows, db.tx_item, db.tx_user))
    n_users, n_items, _ = db.sizes
    return EdgeRoleGraph(n_users, n_items, db.tx_user[order], db.tx_item[order],
                         db.tx_x[order], order.astype(np.int64))


def rebuild_tx(graph: EdgeRoleGraph) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The tx table (user_fk, item_fk, attributes) back from the edges, row for row."""
    n = len(graph.row_id)
    user, item = np.full(n, -1, np.int64), np.full(n, -1, np.int64)
    attr = np.full((n, graph.attr.shape[1]), np.nan)
    user[graph.row_id], item[graph.row_id], attr[graph.row_id] = graph.user, graph.item, graph.attr
    if (user < 0).any() or np.isnan(attr).any():
        raise ValueError("row_id is not a permutation: some tx row has no edge")
    return user, item, attr


def duplicate_edges(graph: EdgeRoleGraph) -> int:
    """Edges beyond the first between the same (user, item): rows a simple graph would lose."""
    pairs = graph.user * graph.n_items + graph.item
    return int(len(pairs) - len(np.unique(pairs)))


def adjacency(db: Database, role: str) -> sp.csr_matrix:
    """Undirected adjacency over global node ids: users [0, U), items [U, U + I) and, in the node
    role, tx rows [U + I, U + I + T)."""
    n_users, n_items, n_tx = db.sizes
    item = n_users + db.tx_item
    if role == "node":
        tx = n_users + n_items + np.arange(n_tx)
        src = np.concatenate([db.tx_user, item])
        dst = np.concatenate([tx, tx])
        n = n_users + n_items + n_tx
    elif role == "edge":
        src, dst, n = db.tx_user, item, n_users + n_items
    else:
        raise ValueError(f"role {role!r} is not node | edge")
    a = sp.coo_matrix((np.ones(len(src), bool), (src, dst)), shape=(n, n)).tocsr()
    return ((a + a.T) > 0).astype(np.int8).tocsr()


def hop_distances(adj: sp.csr_matrix, sources: np.ndarray, max_hops: int) -> np.ndarray:
    """(len(sources), n) shortest hop counts by frontier expansion, -1 beyond max_hops."""
    n = adj.shape[0]
    dist = np.full((len(sources), n), -1, np.int64)
    dist[np.arange(len(sources)), sources] = 0
    frontier = sp.csr_matrix((np.ones(len(sources), np.int8),
                              (np.arange(len(sources)), sources)), shape=(len(sources), n))
    for hop in range(1, max_hops + 1):
        reached = (frontier @ adj).toarray() > 0
        new = reached & (dist < 0)
        dist[new] = hop
        frontier = sp.csr_matrix(new.astype(np.int8))
    return dist


def mean_aggregate(values: torch.Tensor, index: torch.Tensor, n: int) -> torch.Tensor:
    """(n, H): row j is the mean of values[k] over k with index[k] == j (0 where none)."""
    total = values.new_zeros(n, values.shape[1]).index_add_(0, index, values)
    count = torch.bincount(index, minlength=n).clamp_min(1).to(values.dtype)
    return total / count[:, None]
