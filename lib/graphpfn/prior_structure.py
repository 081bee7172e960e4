"""The structure prior of GraphPFN (spec §1.1, official bin/prior/generator.py, read as the
reference; this code is ours): K_1 degree-corrected SBMs, a second-level SBM across them,
Price-network growth, then dedup and the largest connected component. numpy only, every draw
from one `np.random.Generator`; the DC-SBM is vectorised over all block pairs."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from lib.graphpfn import decisions
from lib.graphpfn.configs import Config


@dataclass(frozen=True)
class Graph:
    """An undirected simple graph: edges (E, 2) with u < v, unique; per-node first- and
    second-level group ids (-1 for PA nodes; group2 None without a second level); hub mask."""

    n: int
    edges: np.ndarray
    group1: np.ndarray
    group2: np.ndarray | None
    hub: np.ndarray

    def degrees(self) -> np.ndarray:
        return np.bincount(self.edges.ravel(), minlength=self.n)


def random_float(u: float | np.ndarray, low: float | np.ndarray,
                 high: float | np.ndarray) -> float | np.ndarray:
    """The code's random_float: a draw u of rng.random() mapped linearly onto [low, high)
    (floats or arrays alike)."""
    return u * (high - low) + low


def group_sizes(n: int, k: int, lo: int, hi: int, rng: np.random.Generator) -> np.ndarray:
    """k group sizes summing to n, each lo + an extra integer drawn in turn (the code's
    get_sbm_group_sizes); an empty draw range adds 0 (the code would raise there)."""
    left = n - k * lo
    extra = np.zeros(k, dtype=np.int64)
    for i in range(k - 1):
        top = min(left, hi - lo)
        extra[i] = rng.integers(0, top) if top > 0 else 0
        left -= extra[i]
    extra[-1] = left
    return lo + extra


def _propensity_rows(sizes: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Rows of the block propensity matrix, group by group (mean degree, intra share, the rest
    split over later groups by successive U(0, 0.8 left) draws); unscaled, before hubs. The
    successive draws in closed form: share j is 0.8 r_j left_0 prod_{t<j} (1 - 0.8 r_t). The
    code's draws are all doubles, so all k (k + 3) / 2 come from one rng.random call (group i's:
    mean degree, intra, then its k - i - 1 shares), and what does not depend on the earlier
    rows is computed for every row at once; the rows stay a loop (row i's first i entries are
    the earlier rows' i-th)."""
    k = len(sizes)
    draws = rng.random(k * (k + 3) // 2)
    i = np.arange(k)
    first = i * (k + 1) - i * (i - 1) // 2                  # where group i's draws start
    mean_deg = random_float(draws[first], 2.0, np.minimum(20, sizes // 2))
    intra = random_float(draws[first + 1], np.maximum(1.0, 0.25 * mean_deg), 0.9 * mean_deg)
    later = np.triu(np.ones((k, k), dtype=bool), 1)          # row i: columns i+1 .. k-1
    r = np.zeros((k, k))
    r[later] = 0.8 * draws[(first + 2 - i - 1)[:, None] + i[None, :]][later]
    keep = np.cumprod(1 - r, axis=1)           # row i, column j: share of left unspent after j
    shift = np.ones((k, k))                    # ... and before j
    shift[:, 1:] = keep[:, :-1]
    lam = np.zeros((k, k))
    for g, size in enumerate(sizes):
        degs = np.empty(k)
        degs[:g] = lam[:g, g] / sizes[:g]          # the code divides by the other group's size
        degs[g] = intra[g]
        left = mean_deg[g] - degs[: g + 1].sum()
        if k - g - 1:
            degs[g + 1:] = r[g, g + 1:] * left * shift[g, g + 1:]
            left *= keep[g, -1]
        degs[g] += left
        lam[g] = degs * size
        lam[g, g] *= 2
    return lam


def propensities_and_degrees(sizes: np.ndarray, divisor: float, rng: np.random.Generator
                             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(lam (k, k), expected degrees (n,), hub mask (n,)) as the code's
    get_edge_propensities_and_degs draws them: thirds of each group at m + (u1 + u2) m,
    m - u1 m, m - u2 m (u ~ U(0, m)), the rest at m, then up to 2 % hubs; all / divisor.
    The code's calls, group by group: two rng.random(size // 3), an integer draw of the hub
    count, a double per hub. A count that can only be 0 draws nothing, so the doubles between
    two real integer draws come from one call, and every group but a hub's is computed at
    once."""
    lam = _propensity_rows(sizes, rng)
    k = len(sizes)
    rows = lam / sizes[:, None]
    rows[np.arange(k), np.arange(k)] /= 2
    m = rows.sum(axis=1)                                       # (k,) each group's row sum
    third = sizes // 3
    cap = (0.02 * sizes).astype(np.int64)                      # the most hubs a group may get
    chunks, hubs, done = [], np.zeros(k, dtype=np.int64), 0
    for g in np.flatnonzero(cap):
        chunks.append(rng.random(2 * int(third[done:g + 1].sum())))
        hubs[g] = rng.integers(0, cap[g] + 1)
        chunks.append(rng.random(hubs[g]))
        done = g + 1
    chunks.append(rng.random(2 * int(third[done:].sum())))
    flat = np.concatenate(chunks)                 # group by group: u1, u2, the hubs' draws
    at = np.cumsum(2 * third + hubs) - 2 * third - hubs        # group g's draws in flat
    start = np.cumsum(sizes) - sizes                           # group g's first node
    step = np.repeat(third, third)
    within = np.arange(third.sum()) - np.repeat(np.cumsum(third) - third, third)
    mt = np.repeat(m, third)
    u1 = flat[np.repeat(at, third) + within] * mt
    u2 = flat[np.repeat(at, third) + within + step] * mt
    node = np.repeat(start, third) + within                    # the first third's nodes
    d = np.repeat(m, sizes)
    d[node] = mt + (u1 + u2) * mt
    d[node + step] = mt - u1 * mt
    d[node + 2 * step] = mt - u2 * mt
    hub = np.zeros(len(d), dtype=bool)
    for g in np.flatnonzero(hubs):
        size, group = sizes[g], d[start[g]:start[g] + sizes[g]]            # a view into d
        for j, u in enumerate(flat[at[g] + 2 * third[g]:at[g] + 2 * third[g] + hubs[g]]):
            extra = random_float(u, 0.05 * size, min(250, 0.4 * size))
            group[j] += extra
            group += extra / size
            lam[g, g] += 2 * extra
            hub[start[g] + j] = True
    return lam / divisor, d / divisor, hub


def sample_dcsbm(groups: np.ndarray, lam: np.ndarray, theta: np.ndarray,
                 rng: np.random.Generator) -> np.ndarray:
    """Poisson DC-SBM edges (E, 2) before dedup: for each block pair r <= s a Poisson count of
    mean lam_rs (lam_rr / 2 on the diagonal), endpoints drawn in each block with probability
    proportional to theta. All pairs at once: counts, then one searchsorted per endpoint."""
    lam = decisions.clip_propensities(decisions.symmetrise(lam))
    theta = decisions.clip_propensities(theta)
    k = lam.shape[0]
    r, s = np.triu_indices(k)
    mean = np.where(r == s, lam[r, s] / 2, lam[r, s])
    counts = rng.poisson(mean)
    order = np.argsort(groups, kind="stable")                     # nodes sorted by block
    w = theta[order]
    size = np.bincount(groups, minlength=k)
    total = np.bincount(groups, weights=theta, minlength=k)
    flat = total == 0                                             # no propensity: uniform
    w = np.where(flat[groups[order]], 1.0, w)
    total = np.where(flat, size, total)
    cum = np.cumsum(w)
    start = np.concatenate([[0.0], np.cumsum(total)[:-1]])
    first = np.concatenate([[0], np.cumsum(size)[:-1]])
    ends = []
    for blocks in (np.repeat(r, counts), np.repeat(s, counts)):
        target = start[blocks] + rng.random(len(blocks)) * total[blocks]
        idx = np.searchsorted(cum, target, side="right")
        idx = np.clip(idx, first[blocks], first[blocks] + size[blocks] - 1)   # float edges
        ends.append(order[idx])
    return np.stack(ends, axis=1)


def sample_sbm(n_lo: int, n_hi: int, k_lo: int, k_hi: int, size_lo: int, size_hi: int,
               divisor: float, rng: np.random.Generator
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One SBM as the code's generate_graph_from_sbm: (edges, groups, hub mask)."""
    n = int(rng.integers(n_lo, n_hi + 1))
    k = int(rng.integers(k_lo, k_hi + 1))
    k = decisions.feasible_groups(n, k, size_lo)
    sizes = group_sizes(n, k, size_lo, size_hi, rng)
    groups = np.repeat(np.arange(k), sizes)
    lam, degs, hub = propensities_and_degrees(sizes, divisor, rng)
    return sample_dcsbm(groups, lam, degs, rng), groups, hub


def second_level_map(group1: np.ndarray, group2: np.ndarray, rng: np.random.Generator
                     ) -> np.ndarray:
    """node_map[i]: the first-level node the i-th second-level vertex lands on. Each
    second-level group is cut into 2 or 3 parts, each filled from the shuffled node pools of
    first-level groups taken in a random order (the code's merge_sbm_graphs). The draws are the
    code's, call for call; the walk over the pools keeps plain counts (what each pool has left,
    where it starts) and gathers the nodes once at the end (naive.second_level_map_naive: pool
    by pool, as the code)."""
    k1 = group1.max() + 1
    size1 = np.bincount(group1, minlength=k1)
    pools = np.split(np.argsort(group1, kind="stable"), np.cumsum(size1)[:-1])
    flat = np.concatenate([rng.permutation(p) for p in pools])     # pools end to end
    head = (np.cumsum(size1) - size1).tolist()                     # each pool's next node
    left = size1.tolist()
    starts, takes = [], []                                         # runs of flat, in order
    for size in np.bincount(group2).tolist():
        if rng.integers(2, 4) == 2:
            b = int(rng.integers(0, size + 1))
            parts = [b, size - b]
        else:
            b1, b2 = sorted(int(v) for v in rng.integers(0, size + 1, size=2))
            parts = [b1, b2 - b1, size - b2]
        for part in parts:
            for pool in rng.permutation(k1).tolist():
                if part == 0:
                    break
                take = min(part, left[pool])
                if take:
                    starts.append(head[pool])
                    takes.append(take)
                    head[pool] += take
                    left[pool] -= take
                    part -= take
    takes = np.array(takes, dtype=np.int64)
    offset = np.repeat(np.cumsum(takes) - takes, takes)            # where each run begins
    return flat[np.repeat(starts, takes) + np.arange(takes.sum()) - offset]


def price_growth(edges: np.ndarray, n: int, ms: list[int], run_nodes: int,
                 rng: np.random.Generator) -> np.ndarray:
    """Price-network growth (c = 1, undirected): each run adds run_nodes nodes, each joined to
    min(m, current n) distinct earlier nodes drawn with probability proportional to degree + 1.
    Drawn as: an endpoint of a uniform edge end with probability 2E / (2E + n), else a uniform
    node; repeats rejected. Returns all edges (old then new)."""
    ends = list(edges.ravel())
    new = []
    for m in ms:
        for _ in range(run_nodes):
            want = min(m, n)
            chosen: list[int] = []
            while len(chosen) < want:
                if rng.random() * (len(ends) + n) < len(ends):
                    t = ends[int(rng.integers(len(ends)))]
                else:
                    t = int(rng.integers(n))
                if t not in chosen:
                    chosen.append(t)
            for t in chosen:
                new.append((n, t))
                ends += [n, t]
            n += 1
    grown = np.array(new, dtype=np.int64).reshape(-1, 2)
    return np.concatenate([edges.reshape(-1, 2), grown])


def simplify(edges: np.ndarray) -> np.ndarray:
    """Drop self-loops and parallel edges: unique (u, v) with u < v, sorted."""
    e = np.sort(edges, axis=1)
    e = e[e[:, 0] != e[:, 1]]
    return np.unique(e, axis=0).astype(np.int64)


def largest_component(n: int, edges: np.ndarray) -> np.ndarray:
    """Node ids of the largest connected component, ascending (ties: the lowest label)."""
    adj = coo_matrix((np.ones(len(edges)), (edges[:, 0], edges[:, 1])), shape=(n, n))
    _, labels = connected_components(adj, directed=False)
    return np.flatnonzero(labels == np.bincount(labels).argmax())


def induced(edges: np.ndarray, keep: np.ndarray, n: int) -> np.ndarray:
    """Edges among `keep`, relabelled 0..len(keep)-1 in keep's order."""
    new = np.full(n, -1)
    new[keep] = np.arange(len(keep))
    e = new[edges]
    return e[(e >= 0).all(axis=1)]


def pa_plan(cfg: Config, rng: np.random.Generator, run_nodes: int) -> list[int]:
    """The m of each PA run: U[min_ba / run_nodes, max_ba / run_nodes) runs (none when that
    range is empty), each m ~ U{1..max_ba_deg} (the code's ba_process)."""
    lo, hi = cfg.min_ba_nodes // run_nodes, cfg.max_ba_nodes // run_nodes
    runs = int(rng.integers(lo, hi)) if hi > lo else 0
    return [int(rng.integers(1, cfg.max_ba_deg + 1)) for _ in range(runs)]


def sample_graph(cfg: Config, rng: np.random.Generator, run_nodes: int = 25) -> Graph:
    """One graph of the structure prior (spec §1.1 steps 1-4)."""
    k1 = 1 if cfg.max_first_level == 1 else int(
        rng.integers(max(2, cfg.min_first_level), cfg.max_first_level + 1))
    parts = [sample_sbm(cfg.min_sbm_nodes, cfg.max_sbm_nodes, cfg.min_groups, cfg.max_groups,
                        cfg.min_group_size, cfg.max_group_size, cfg.divisor, rng)
             for _ in range(k1)]
    offsets = np.cumsum([0] + [len(p[1]) for p in parts])
    edges = np.concatenate([p[0] + o for p, o in zip(parts, offsets)])
    shift = np.cumsum([0] + [p[1].max() + 1 for p in parts])
    group1 = np.concatenate([p[1] + shift[i] for i, p in enumerate(parts)])
    hub = np.concatenate([p[2] for p in parts])
    n = int(offsets[-1])
    group2 = None
    if k1 > 1:
        e2, g2, _ = sample_sbm(n, n, cfg.min_groups * k1, cfg.max_groups * k1,
                               cfg.min_group_size, cfg.max_group_size, cfg.divisor, rng)
        node_map = second_level_map(group1, g2, rng)
        edges = np.concatenate([edges, node_map[e2]])
        group2 = g2[np.argsort(node_map)]
    ms = pa_plan(cfg, rng, run_nodes)
    edges = price_growth(edges, n, ms, run_nodes, rng)
    added = run_nodes * len(ms)
    group1 = np.concatenate([group1, np.full(added, -1)])
    group2 = None if group2 is None else np.concatenate([group2, np.full(added, -1)])
    hub = np.concatenate([hub, np.zeros(added, dtype=bool)])
    edges = simplify(edges)
    keep = largest_component(n + added, edges)
    return Graph(len(keep), induced(edges, keep, n + added), group1[keep],
                 None if group2 is None else group2[keep], hub[keep])
