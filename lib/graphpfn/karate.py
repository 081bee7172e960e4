"""Zachary's karate club (networkx's bundled copy: 34 nodes, 78 edges, the two factions) as a
toy real graph for NB2, with the structure features GraphPFN's `structure_features` adds:
Laplacian positional encodings and log(1 + degree)."""
from __future__ import annotations

import networkx as nx
import numpy as np

from lib.graphpfn.prior_structure import Graph


def karate() -> tuple[Graph, np.ndarray]:
    """(graph, faction labels: 0 Mr. Hi, 1 Officer)."""
    g = nx.karate_club_graph()
    edges = np.array(sorted((min(u, v), max(u, v)) for u, v in g.edges()), dtype=np.int64)
    y = np.array([0 if g.nodes[i]["club"] == "Mr. Hi" else 1 for i in range(g.number_of_nodes())])
    n = len(y)
    return Graph(n, edges, np.zeros(n, dtype=np.int64), None, np.zeros(n, dtype=bool)), y


def laplacian_pe(g: Graph, dims: int) -> np.ndarray:
    """(n, dims): eigenvectors of the normalised Laplacian after the trivial one, in order of
    eigenvalue, each signed so that its largest-magnitude entry is positive (deterministic)."""
    a = np.zeros((g.n, g.n))
    a[g.edges[:, 0], g.edges[:, 1]] = a[g.edges[:, 1], g.edges[:, 0]] = 1
    s = 1 / np.sqrt(a.sum(1))
    _, vec = np.linalg.eigh(np.eye(g.n) - s[:, None] * a * s[None, :])
    vec = vec[:, 1: dims + 1]
    sign = np.sign(vec[np.abs(vec).argmax(0), np.arange(vec.shape[1])])
    return vec * sign


def features(g: Graph, width: int) -> np.ndarray:
    """width - 1 Laplacian PE columns and log(1 + degree), standardised, float32."""
    x = np.c_[laplacian_pe(g, width - 1), np.log1p(g.degrees())]
    return ((x - x.mean(0)) / x.std(0)).astype(np.float32)


def splits(y: np.ndarray, per_class: int, count: int, rng: np.random.Generator) -> np.ndarray:
    """(count, n) masks with `per_class` labelled nodes of each class."""
    out = np.zeros((count, len(y)), dtype=bool)
    for i in range(count):
        for c in np.unique(y):
            out[i, rng.choice(np.flatnonzero(y == c), per_class, replace=False)] = True
    return out
