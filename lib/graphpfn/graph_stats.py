"""Statistics of prior graphs and tasks (spec NB1 figures): homophily (edge and adjusted),
clustering, how much of X the neighbour means explain, the degree CCDF and its tail slope, and
a BFS reach count that checks connectivity independently of the sampler's component finder."""
from __future__ import annotations

import numpy as np
from scipy.sparse import csr_matrix

from lib.graphpfn.prior_scm import adjacency
from lib.graphpfn.prior_structure import Graph


def edge_homophily(g: Graph, y: np.ndarray) -> float:
    """Fraction of edges whose endpoints share a label."""
    return float((y[g.edges[:, 0]] == y[g.edges[:, 1]]).mean())


def adjusted_homophily(g: Graph, y: np.ndarray) -> float:
    """(h_edge - sum_k p_k^2) / (1 - sum_k p_k^2), p_k the degree-weighted share of class k
    (Platonov et al. 2023): 0 when labels ignore the graph, whatever the class balance."""
    deg = g.degrees()
    p = np.bincount(y, weights=deg) / deg.sum()
    chance = float((p ** 2).sum())
    return (edge_homophily(g, y) - chance) / (1 - chance)


def clustering(a: csr_matrix) -> float:
    """Mean local clustering coefficient, 2 T_i / (k_i (k_i - 1)), 0 where k_i < 2."""
    deg = np.diff(a.indptr)
    tri = np.asarray((a @ a).multiply(a).sum(axis=1)).ravel() / 2
    pairs = deg * (deg - 1) / 2
    return float(np.where(pairs > 0, tri / np.maximum(pairs, 1), 0.0).mean())


def neighbour_r2(a: csr_matrix, x: np.ndarray) -> float:
    """Mean over non-constant columns of the squared correlation between x and its neighbour
    mean: the share of X's variance a neighbour average explains linearly."""
    m = (a @ x) / np.maximum(np.diff(a.indptr), 1)[:, None]
    r2 = []
    for j in range(x.shape[1]):
        if x[:, j].std() > 1e-9 and m[:, j].std() > 1e-9:
            r2.append(np.corrcoef(x[:, j], m[:, j])[0, 1] ** 2)
    return float(np.mean(r2)) if r2 else 0.0


def ccdf(degrees: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(k, P(D >= k)) at every distinct degree k."""
    k, counts = np.unique(degrees, return_counts=True)
    return k, counts[::-1].cumsum()[::-1] / counts.sum()


def tail_slope(degrees: np.ndarray, k_min: int) -> float:
    """Least-squares slope of log P(D >= k) on log k over distinct k >= k_min."""
    k, p = ccdf(degrees)
    keep = k >= k_min
    return float(np.polyfit(np.log(k[keep]), np.log(p[keep]), 1)[0])


def bfs_reach(g: Graph, source: int = 0) -> int:
    """Nodes a breadth-first search from `source` reaches (frontier by frontier)."""
    a = adjacency(g)
    seen = np.zeros(g.n, dtype=bool)
    seen[source] = True
    frontier = np.array([source])
    while len(frontier):
        nxt = np.unique(a[frontier].indices)
        nxt = nxt[~seen[nxt]]
        seen[nxt] = True
        frontier = nxt
    return int(seen.sum())


def task_stats(g: Graph, x: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """The NB1 histogram quantities of one task."""
    a = adjacency(g)
    return {"n": g.n, "edges": len(g.edges), "mean_degree": 2 * len(g.edges) / g.n,
            "max_degree": int(g.degrees().max()), "edge_homophily": edge_homophily(g, y),
            "adjusted_homophily": adjusted_homophily(g, y), "clustering": clustering(a),
            "neighbour_r2": neighbour_r2(a, x)}
