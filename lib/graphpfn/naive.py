"""Plain-loop references for lib/graphpfn (spec §4): tests and bench/ use them; a notebook only to
record that a fast kernel agrees with one (tests/test_naive_rule.py). Transcriptions of the
official sampler's loops in Python floats on the same Generator stream (group sizes, propensities
and degrees), a pair-by-pair Poisson DC-SBM, a node-by-node preferential-attachment loop with
explicit probabilities, a union-find largest component, and neighbourhood attention one node at a
time in float64."""
from __future__ import annotations

import math

import numpy as np
import torch


def group_sizes_naive(n: int, k: int, lo: int, hi: int, rng: np.random.Generator) -> list[int]:
    """get_sbm_group_sizes, line by line (an empty range adds 0)."""
    left = n - k * lo
    sizes = []
    for _ in range(k - 1):
        top = min(left, hi - lo)
        extra = int(rng.integers(0, top)) if top > 0 else 0
        sizes.append(lo + extra)
        left -= extra
    sizes.append(lo + left)
    return sizes


def propensities_naive(sizes: list[int], divisor: float, rng: np.random.Generator
                       ) -> tuple[list[list[float]], list[float]]:
    """get_edge_propensities_and_degs, element by element in Python floats."""
    def rand(low: float, high: float) -> float:
        return rng.random() * (high - low) + low
    k = len(sizes)
    lam = [[0.0] * k for _ in range(k)]
    for i in range(k):
        mean_deg = rand(2.0, min(20, sizes[i] // 2))
        intra = rand(max(1.0, 0.25 * mean_deg), 0.9 * mean_deg)
        degs = [lam[j][i] / sizes[j] for j in range(i)] + [intra]
        left = mean_deg - sum(degs)
        for _ in range(i + 1, k):
            d = rand(0.0, 0.8 * left)
            degs.append(d)
            left -= d
        degs[i] += left
        lam[i] = [d * sizes[i] for d in degs]
        lam[i][i] *= 2
    all_degs: list[float] = []
    for i in range(k):
        row = [v / sizes[i] for v in lam[i]]
        row[i] /= 2
        m = sum(row)
        third = sizes[i] // 3
        u1 = [rng.random() * m for _ in range(third)]
        u2 = [rng.random() * m for _ in range(third)]
        d = ([m + (a + b) * m for a, b in zip(u1, u2)] + [m - a * m for a in u1]
             + [m - b * m for b in u2] + [m] * (sizes[i] - 3 * third))
        for j in range(int(rng.integers(0, int(0.02 * sizes[i]) + 1))):
            extra = rand(0.05 * sizes[i], min(250, 0.4 * sizes[i]))
            d[j] += extra
            d = [v + extra / sizes[i] for v in d]
            lam[i][i] += 2 * extra
        all_degs += d
    return [[v / divisor for v in row] for row in lam], [v / divisor for v in all_degs]


def second_level_map_naive(group1: np.ndarray, group2: np.ndarray,
                           rng: np.random.Generator) -> np.ndarray:
    """merge_sbm_graphs' node map, pool by pool: each part of a second-level group takes nodes
    from the shuffled first-level pools in a random order until it is full."""
    k1 = group1.max() + 1
    pools = [list(rng.permutation(np.flatnonzero(group1 == g))) for g in range(k1)]
    out: list[int] = []
    for g in range(group2.max() + 1):
        size = int((group2 == g).sum())
        if rng.integers(2, 4) == 2:
            b = int(rng.integers(0, size + 1))
            parts = [b, size - b]
        else:
            b1, b2 = sorted(int(v) for v in rng.integers(0, size + 1, size=2))
            parts = [b1, b2 - b1, size - b2]
        for part in parts:
            ids = rng.permutation(k1)
            j = 0
            while part > 0:
                take = min(part, len(pools[ids[j]]))
                out += pools[ids[j]][:take]
                pools[ids[j]] = pools[ids[j]][take:]
                part -= take
                j += 1
    return np.array(out, dtype=np.int64)


def dcsbm_pairs_naive(groups: np.ndarray, lam: np.ndarray, theta: np.ndarray,
                      rng: np.random.Generator) -> np.ndarray:
    """The same Poisson DC-SBM drawn pair by pair: edges between i < j (r != s) ~ Poisson(
    lam_rs t_i t_j), i < j in one block ~ Poisson(lam_rr t_i t_j), loops i = i ~ Poisson(
    lam_rr t_i^2 / 2), t the propensity normalised within its block. Splitting a Poisson count
    multinomially gives independent Poissons, so this is the vectorised sampler's law exactly.
    lam must be symmetric and non-negative."""
    tot = {}
    for i, r in enumerate(groups):
        tot[r] = tot.get(r, 0.0) + theta[i]
    t = [theta[i] / tot[r] for i, r in enumerate(groups)]
    edges = []
    n = len(groups)
    for i in range(n):
        for j in range(i, n):
            r, s = groups[i], groups[j]
            mean = lam[r][s] * t[i] * t[j] / (2 if i == j else 1)
            edges += [(i, j)] * int(rng.poisson(mean))
    return np.array(edges, dtype=np.int64).reshape(-1, 2)


def price_growth_naive(edges: np.ndarray, n: int, ms: list[int], run_nodes: int,
                       rng: np.random.Generator) -> np.ndarray:
    """Price growth node by node: targets drawn without replacement with probabilities
    (degree + 1) / sum, recomputed for every new node."""
    deg = list(np.bincount(edges.ravel(), minlength=n))
    out = [tuple(e) for e in edges.reshape(-1, 2)]
    for m in ms:
        for _ in range(run_nodes):
            w = np.array(deg, dtype=float) + 1
            targets = rng.choice(len(deg), size=min(m, len(deg)), replace=False, p=w / w.sum())
            deg.append(0)
            for t in targets:
                out.append((len(deg) - 1, int(t)))
                deg[t] += 1
                deg[-1] += 1
    return np.array(out, dtype=np.int64).reshape(-1, 2)


def largest_component_naive(n: int, edges: np.ndarray) -> list[int]:
    """Union-find with path halving; the largest set's nodes ascending (ties: the set holding
    the smallest node)."""
    parent = list(range(n))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a
    for u, v in edges:
        ru, rv = find(int(u)), find(int(v))
        if ru != rv:
            parent[max(ru, rv)] = min(ru, rv)
    sets: dict[int, list[int]] = {}
    for a in range(n):
        sets.setdefault(find(a), []).append(a)
    return max(sets.values(), key=lambda s: (len(s), -s[0]))


def neighbour_attention_naive(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                              edges: torch.Tensor) -> torch.Tensor:
    """GA one node and one head at a time in float64: out_i = sum_{j -> i} softmax_j(q_i . k_j
    / sqrt(dh)) v_j over the directed edges (src j, dst i); q, k, v (n, heads, dh)."""
    n, heads, dh = q.shape
    out = torch.zeros(n, heads, dh, dtype=torch.float64)
    into: dict[int, list[int]] = {}
    for src, dst in edges.tolist():
        into.setdefault(dst, []).append(src)
    for i, srcs in into.items():
        for h in range(heads):
            s = [float(q[i, h].double() @ k[j, h].double()) / math.sqrt(dh) for j in srcs]
            top = max(s)
            w = [math.exp(x - top) for x in s]
            z = sum(w)
            for wj, j in zip(w, srcs):
                out[i, h] += wj / z * v[j, h].double()
    return out
