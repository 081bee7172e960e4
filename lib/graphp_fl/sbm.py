"""Federated SBM clients (spec §3 NB2): one stochastic-block-model graph per client, features
under a client-specific rotation (feature skew), labels under a client-specific transposition
(concept skew) and random edges injected at a client-specific rate (topological noise)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Clients:
    """K clients of n nodes each; the leading axis is the client everywhere."""

    adj_true: np.ndarray   # (K, n, n) bool: the SBM edges
    adj: np.ndarray        # (K, n, n) bool: what the client observes, SBM edges + injected
    x: np.ndarray          # (K, n, d) float32 node features
    y: np.ndarray          # (K, n) int64 labels (community, transposed on skewed clients)
    train: np.ndarray      # (K, n_train) int64 training node indices; the rest are test nodes
    test: np.ndarray       # (K, n - n_train) int64
    noise: np.ndarray      # (K,) the injection rate r_k, in units of the SBM edge count
    swapped: np.ndarray    # (K,) bool: the client's labels carry a transposition


def sbm_graph(rng: np.random.Generator, comm: np.ndarray, p_in: float,
              p_out: float) -> np.ndarray:
    """Symmetric SBM adjacency (no self-loops) for the community assignment `comm`."""
    prob = np.where(comm[:, None] == comm[None, :], p_in, p_out)
    upper = np.triu(rng.random(prob.shape) < prob, k=1)
    return upper | upper.T


def inject(rng: np.random.Generator, adj: np.ndarray, rate: float) -> np.ndarray:
    """adj plus round(rate * |E|) uniformly random new edges (pairs not yet joined)."""
    n = adj.shape[0]
    iu = np.triu_indices(n, k=1)
    free = np.flatnonzero(~adj[iu])
    pick = rng.choice(free, size=int(round(rate * adj[iu].sum())), replace=False)
    extra = np.zeros((n, n), bool)
    extra[iu[0][pick], iu[1][pick]] = True
    return adj | extra | extra.T


def rotation(rng: np.random.Generator, dim: int, skew: float) -> np.ndarray:
    """An orthogonal matrix near the identity: the polar factor of I + skew G / sqrt(d)."""
    u, _, vt = np.linalg.svd(np.eye(dim) + skew * rng.standard_normal((dim, dim)) / np.sqrt(dim))
    return u @ vt


def make_clients(rng: np.random.Generator, *, n_clients: int, n_nodes: int, n_comm: int,
                 p_in: float, p_out: float, dim: int, feature_skew: float,
                 feature_noise: float, swap_frac: float, noise_levels: list[float],
                 train_frac: float) -> Clients:
    """Draw the K clients; client k's noise rate is noise_levels[k mod len(noise_levels)]."""
    means = rng.standard_normal((n_comm, dim))                   # shared community means
    swapped = np.zeros(n_clients, bool)
    swapped[rng.choice(n_clients, int(round(swap_frac * n_clients)), replace=False)] = True
    n_train = int(round(train_frac * n_nodes))
    out: dict[str, list] = {k: [] for k in ("adj_true", "adj", "x", "y", "train", "test")}
    noise = np.array([noise_levels[k % len(noise_levels)] for k in range(n_clients)], float)
    for k in range(n_clients):
        comm = rng.permutation(np.arange(n_nodes) % n_comm)
        true = sbm_graph(rng, comm, p_in, p_out)
        x = (means @ rotation(rng, dim, feature_skew).T)[comm] \
            + feature_noise * rng.standard_normal((n_nodes, dim))
        label = np.arange(n_comm)
        if swapped[k]:
            a, b = rng.choice(n_comm, 2, replace=False)
            label[[a, b]] = label[[b, a]]
        order = rng.permutation(n_nodes)
        for key, value in (("adj_true", true), ("adj", inject(rng, true, noise[k])),
                           ("x", x.astype(np.float32)), ("y", label[comm]),
                           ("train", np.sort(order[:n_train])),
                           ("test", np.sort(order[n_train:]))):
            out[key].append(value)
    return Clients(**{k: np.stack(v) for k, v in out.items()}, noise=noise, swapped=swapped)


def edge_precision(adj: np.ndarray, adj_true: np.ndarray) -> np.ndarray:
    """Per graph (leading axis): the fraction of adj's edges that are SBM edges."""
    hit = (adj & adj_true).sum(axis=(-2, -1))
    return hit / np.maximum(adj.sum(axis=(-2, -1)), 1)
