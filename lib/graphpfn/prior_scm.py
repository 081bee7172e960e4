"""The attribute and target prior (spec §1.2): TabICL's MLP-SCM with SemiGraphConv layers, as
GNNSCM in the official lib/graphpfn/prior/gnn_scm.py (read as the reference; ours is smaller).
Causes (with group-id signal and log degree) -> Linear -> (layers - 1) x [activation ->
SemiGraphConv -> Gaussian noise]; X and y taken from the causes or the intermediate outputs;
y cut into classes by rank (Reg2Cls). Left out: the TreeSCM branch, the graph-transformer conv,
Laplacian PE in the prior (cost; karate uses them)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.sparse import csr_matrix, diags, identity

from lib.graphpfn.prior_structure import Graph

CONVS = ("gcn", "mean", "max", "min")
ACTIVATIONS = {
    "tanh": np.tanh, "relu": lambda z: np.maximum(z, 0), "sin": np.sin, "abs": np.abs,
    "identity": lambda z: z, "sigmoid": lambda z: 1 / (1 + np.exp(-z)),
    "leaky": lambda z: np.where(z > 0, z, 0.1 * z), "square": lambda z: np.clip(z, -3, 3) ** 2,
}


@dataclass(frozen=True)
class Task:
    """One node-classification task: features (n, f) float32, labels (n,), class count, and
    the SCM's draws the figures read (graph_conv_ratio, causal mode)."""

    x: np.ndarray
    y: np.ndarray
    classes: int
    conv_ratio: float
    causal: bool


def adjacency(g: Graph) -> csr_matrix:
    """Symmetric 0/1 adjacency (n, n), CSR with sorted column indices."""
    e = g.edges
    a = csr_matrix((np.ones(2 * len(e)), (np.r_[e[:, 0], e[:, 1]], np.r_[e[:, 1], e[:, 0]])),
                   shape=(g.n, g.n))
    a.sort_indices()
    return a


def conv(a: csr_matrix, u: np.ndarray, kind: str) -> np.ndarray:
    """A graph convolution of u (n, h): GCN (D~^-1/2 (A + I) D~^-1/2), neighbour mean, max or
    min. Nodes without neighbours keep their own value."""
    deg = np.diff(a.indptr)
    if kind == "gcn":
        s = 1 / np.sqrt(deg + 1.0)
        return diags(s) @ ((a + identity(a.shape[0])) @ (s[:, None] * u))
    if kind == "mean":
        out = (a @ u) / np.maximum(deg, 1)[:, None]
    else:
        reduce = np.maximum if kind == "max" else np.minimum
        has = deg > 0
        out = u.copy()
        if has.any():
            vals = u[a.indices]                                      # (nnz, h)
            out[has] = reduce.reduceat(vals, a.indptr[:-1][has], axis=0)
    return np.where((deg > 0)[:, None], out, u)


def _weights(rng: np.random.Generator, fan_in: int, fan_out: int) -> np.ndarray:
    """N(0, 1/fan_in) weights under Bernoulli dropout of keep ~ U(0.5, 1), std scaled by
    1/sqrt(keep) (the code's Bernoulli initialisation)."""
    keep = rng.uniform(0.5, 1.0)
    w = rng.normal(0, 1 / np.sqrt(fan_in), (fan_in, fan_out)) * (rng.random((fan_in, fan_out))
                                                                 < keep)
    return w / np.sqrt(keep)


def causes(g: Graph, rng: np.random.Generator, max_causes: int, group_signal: float
           ) -> np.ndarray:
    """(n, c + 1): c ~ truncated log-normal (mean U(1, max)) columns, normal, uniform or mixed,
    plus a N(0, group_signal^2) offset per first- and second-level group (PA nodes one group),
    plus log(1 + degree)."""
    c = int(np.clip(rng.lognormal(np.log(rng.uniform(1, max_causes)), 0.5), 1, max_causes))
    kind = rng.integers(3)                                  # 0 normal, 1 uniform, 2 mixed
    normal = rng.random(c) < (1.0 if kind == 0 else 0.0 if kind == 1 else 0.5)
    z = np.where(normal, rng.normal(size=(g.n, c)), rng.uniform(-1.7, 1.7, (g.n, c)))
    for ids in (g.group1, g.group2):
        if ids is not None:
            _, inv = np.unique(ids, return_inverse=True)
            z += rng.normal(0, group_signal, (inv.max() + 1, c))[inv]
    return np.c_[z, np.log1p(g.degrees())]


def standardise(x: np.ndarray, width: int) -> np.ndarray:
    """Columns to mean 0, std 1 (constant columns to 0), truncated or zero-padded to width."""
    std = x.std(axis=0)
    x = np.where(std > 1e-12, (x - x.mean(axis=0)) / np.where(std > 1e-12, std, 1), 0.0)
    out = np.zeros((len(x), width), dtype=np.float32)
    out[:, : min(width, x.shape[1])] = x[:, :width]
    return out


def rank_classes(y: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """Reg2Cls by rank: k - 1 cut points at sorted U(0.05, 0.95) quantiles of y's rank, labels
    then permuted."""
    rank = np.argsort(np.argsort(y, kind="stable"), kind="stable") / len(y)
    cuts = np.sort(rng.uniform(0.05, 0.95, k - 1))
    return rng.permutation(k)[np.searchsorted(cuts, rank, side="right")]


def sample_task(g: Graph, rng: np.random.Generator, *, n_features: int, classes: list[int],
                layers: list[int], hidden: list[int], conv_ratios: list[float],
                max_causes: int, group_signal: float, noise: float, p_causal: float) -> Task:
    """Features and labels for graph g from one random GNN-SCM (spec §1.2)."""
    a = adjacency(g)
    x0 = causes(g, rng, max_causes, group_signal)
    x0 = (x0 - x0.mean(0)) / (x0.std(0) + 1e-9)
    h = int(rng.integers(hidden[0], hidden[1] + 1))
    ratio = float(rng.choice(conv_ratios))
    z = x0 @ _weights(rng, x0.shape[1], h) + rng.normal(0, 0.1, h)
    outs = [z]
    for _ in range(int(rng.integers(layers[0], layers[1] + 1)) - 1):
        act = ACTIVATIONS[list(ACTIVATIONS)[rng.integers(len(ACTIVATIONS))]]
        u = act(z) @ _weights(rng, h, h) + rng.normal(0, 0.1, h)
        mask = rng.random(h) < ratio
        z = np.where(mask, conv(a, u, CONVS[rng.integers(len(CONVS))]), u)
        z = z + rng.normal(0, noise, z.shape)
        outs.append(z)
    causal = bool(rng.random() < p_causal)
    if causal:
        pool = np.concatenate(outs, axis=1)
        target = pool.shape[1] - 1 if rng.random() < 0.5 else int(rng.integers(pool.shape[1]))
        rest = np.delete(np.arange(pool.shape[1]), target)
        cols = rng.permutation(rest)[: n_features - 1]
        x = np.c_[pool[:, cols], x0[:, -1:]]                 # log degree stays a feature
        y = pool[:, target]
    else:
        x, y = x0, outs[-1][:, -1]
    k = int(rng.integers(classes[0], classes[1] + 1))
    return Task(standardise(x, n_features), rank_classes(y, k, rng), k, ratio, causal)
