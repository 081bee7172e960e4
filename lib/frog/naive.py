"""Plain-loop references for frog's kernels (spec §4): the planted targets user by user, BFS hop
distances, the mean aggregation edge by edge. Same signatures as the fast versions."""
from __future__ import annotations

from collections import deque

import numpy as np
import scipy.sparse as sp
import torch

from lib.frog.rdb import Database


def direct_target(db: Database) -> np.ndarray:
    """rdb.direct_target, one user at a time over Python lists."""
    n_users = len(db.user_x)
    num, den = [0.0] * n_users, [0.0] * n_users
    for u, i, (amount, _) in zip(db.tx_user.tolist(), db.tx_item.tolist(), db.tx_x.tolist()):
        num[u] += amount * float(db.item_x[i, 0])
        den[u] += amount
    return np.array([n / d for n, d in zip(num, den)])


def copurchase_target(db: Database) -> np.ndarray:
    """rdb.copurchase_target: for each user, walk its rows, and for each row's item walk the
    item's rows to average the buyers' feature 0."""
    rows_of_user: dict[int, list[int]] = {}
    rows_of_item: dict[int, list[int]] = {}
    for r, (u, i) in enumerate(zip(db.tx_user.tolist(), db.tx_item.tolist())):
        rows_of_user.setdefault(u, []).append(r)
        rows_of_item.setdefault(i, []).append(r)
    out = []
    for u in range(len(db.user_x)):
        item_means = []
        for r in rows_of_user[u]:
            buyers = [float(db.user_x[db.tx_user[s], 0]) for s in rows_of_item[int(db.tx_item[r])]]
            item_means.append(sum(buyers) / len(buyers))
        out.append(sum(item_means) / len(item_means))
    return np.array(out)


def hop_distances(adj: sp.csr_matrix, sources: np.ndarray, max_hops: int) -> np.ndarray:
    """roles.hop_distances by breadth-first search from each source, one queue each."""
    n = adj.shape[0]
    out = np.full((len(sources), n), -1, np.int64)
    for row, s in enumerate(sources.tolist()):
        out[row, s] = 0
        queue = deque([s])
        while queue:
            v = queue.popleft()
            if out[row, v] == max_hops:
                continue
            for nb in adj.indices[adj.indptr[v]:adj.indptr[v + 1]].tolist():
                if out[row, nb] < 0:
                    out[row, nb] = out[row, v] + 1
                    queue.append(nb)
    return out


def mean_aggregate(values: torch.Tensor, index: torch.Tensor, n: int) -> torch.Tensor:
    """roles.mean_aggregate edge by edge, summed in float64."""
    v = values.double().tolist()
    total = [[0.0] * values.shape[1] for _ in range(n)]
    count = [0] * n
    for k, j in enumerate(index.tolist()):
        count[j] += 1
        total[j] = [a + b for a, b in zip(total[j], v[k])]
    return torch.tensor([[a / max(c, 1) for a in row] for row, c in zip(total, count)],
                        dtype=torch.float64)
