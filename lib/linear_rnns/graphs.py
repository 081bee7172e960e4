"""Sorted deterministic graph connectivity (DGC): instances, unary streams, reference solvers.

Spec §2.8 / §4.1 (Definition 11, Prop 2). Vertices 1..k in topological order; vertex v has at
most one out-edge v -> f(v) with f(v) > v. An instance is (succ, s, t) with succ an int array of
length k+1 (succ[v] = f(v), 0 = no edge, succ[0] unused).

Unary streams over tokens ZERO, BAR, HASH, DOLLAR (spec §4.1, S1's format):
  endpoint form:      0^s |  (0^l | 0^r |)*  # 0^t $
  reachability form:  0^t #  0^s |  (0^l | 0^r |)*  $     (target first, for the latch variant)

The references here (BFS over an adjacency list, following the path) are written without any of
the counter-machine logic they check.
"""
from __future__ import annotations

import itertools
from collections import deque

import numpy as np

ZERO, BAR, HASH, DOLLAR = 0, 1, 2, 3
TOKENS = "0|#$"


def all_graphs(k: int) -> np.ndarray:
    """Every sorted deterministic graph on k vertices: (k!, k+1) succ arrays."""
    choices = [[0] + list(range(v + 1, k + 1)) for v in range(1, k + 1)]
    rows = [(0,) + c for c in itertools.product(*choices)]
    return np.array(rows, dtype=np.int64).reshape(len(rows), k + 1)


def exhaustive_instances(k_max: int) -> list[tuple[np.ndarray, int, int]]:
    """All (succ, s, t) with k <= k_max: sum_k k! k^2 instances (29,367 for k_max = 6)."""
    out = []
    for k in range(1, k_max + 1):
        for succ in all_graphs(k):
            out += [(succ, s, t) for s in range(1, k + 1) for t in range(1, k + 1)]
    return out


def random_instances(n: int, k_max: int, rng: np.random.Generator, p_edge: float = 0.8,
                     k_min: int = 1) -> list[tuple[np.ndarray, int, int]]:
    """n random instances: k uniform in [k_min, k_max], each v gets an edge w.p. p_edge to a
    uniform later vertex; s, t uniform."""
    out = []
    for _ in range(n):
        k = int(rng.integers(k_min, k_max + 1))
        succ = np.zeros(k + 1, dtype=np.int64)
        for v in range(1, k):
            if rng.random() < p_edge:
                succ[v] = int(rng.integers(v + 1, k + 1))
        out.append((succ, int(rng.integers(1, k + 1)), int(rng.integers(1, k + 1))))
    return out


def chain(k: int, broken: int | None = None) -> np.ndarray:
    """1 -> 2 -> ... -> k, optionally with the edge out of `broken` removed."""
    succ = np.zeros(k + 1, dtype=np.int64)
    succ[1:k] = np.arange(2, k + 1)
    if broken is not None:
        succ[broken] = 0
    return succ


def edges(succ: np.ndarray) -> list[tuple[int, int]]:
    """Edges (l, r) sorted by source."""
    return [(v, int(succ[v])) for v in range(1, len(succ)) if succ[v]]


def stream(succ: np.ndarray, s: int, t: int, form: str = "endpoint",
           order: str = "sorted") -> list[int]:
    """The unary token stream of an instance (order='reversed' lists the edges backwards)."""
    es = edges(succ)
    if order == "reversed":
        es = es[::-1]
    body = [ZERO] * s + [BAR]
    for l, r in es:
        body += [ZERO] * l + [BAR] + [ZERO] * r + [BAR]
    if form == "endpoint":
        return body + [HASH] + [ZERO] * t + [DOLLAR]
    return [ZERO] * t + [HASH] + body + [DOLLAR]


def pad_streams(streams: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """(B, L) int64 token array padded with -1, and the (B,) lengths."""
    lengths = np.array([len(x) for x in streams], dtype=np.int64)
    out = np.full((len(streams), int(lengths.max())), -1, dtype=np.int64)
    for i, x in enumerate(streams):
        out[i, :len(x)] = x
    return out, lengths


def succ_matrix(succs: list[np.ndarray]) -> np.ndarray:
    """Stack succ arrays of different k into (B, k_max + 1), zero-padded: the extra vertices
    have no edge, so they add nothing to a stream."""
    out = np.zeros((len(succs), max(len(g) for g in succs)), dtype=np.int64)
    for i, g in enumerate(succs):
        out[i, :len(g)] = g
    return out


def token_matrix(succ: np.ndarray, s: np.ndarray, t: np.ndarray, form: str = "endpoint",
                 order: str = "sorted") -> tuple[np.ndarray, np.ndarray]:
    """The streams of `stream` for a batch at once: (B, L) int8 tokens padded with -1, lengths.

    succ (B, V + 1) as from succ_matrix, s and t (B,). Each edge (l, r) is a segment of
    l + r + 2 tokens; its offset is a cumulative sum over the segments before it, so every
    delimiter is placed by one scatter and the rest of the row stays ZERO.
    """
    B, V1 = succ.shape
    s, t = np.asarray(s, dtype=np.int64), np.asarray(t, dtype=np.int64)
    v = np.arange(V1)
    has = (succ > 0) & (v > 0)
    seg = np.where(has, v + succ + 2, 0)                               # (B, V + 1)
    if order == "reversed":
        seg, succ, has, v = seg[:, ::-1], succ[:, ::-1], has[:, ::-1], v[::-1]
    head = (t + 1 if form == "reach" else np.zeros_like(t)) + s + 1     # [0^t #] 0^s |
    start = head[:, None] + np.cumsum(seg, 1) - seg                   # each edge's offset
    body_end = head + seg.sum(1)
    lengths = body_end + (t + 2 if form == "endpoint" else 1)
    out = np.full((B, int(lengths.max())), ZERO, dtype=np.int8)
    rows = np.broadcast_to(np.arange(B)[:, None], has.shape)[has]
    vv = np.broadcast_to(v, has.shape)[has]
    st = start[has]
    out[rows, st + vv] = BAR                                            # 0^l |
    out[rows, st + vv + 1 + succ[has]] = BAR                            # 0^r |
    b = np.arange(B)
    if form == "reach":
        out[b, t] = HASH
    out[b, head - 1] = BAR                                              # after 0^s
    if form == "endpoint":
        out[b, body_end] = HASH
    out[b, lengths - 1] = DOLLAR
    out[np.arange(out.shape[1]) >= lengths[:, None]] = -1
    return out, lengths


def bfs_reachable(succ: np.ndarray, s: int, t: int) -> bool:
    """Breadth-first search over the adjacency list (s reaches itself)."""
    adj = {v: [] for v in range(1, len(succ))}
    for l, r in edges(succ):
        adj[l].append(r)
    seen, todo = {s}, deque([s])
    while todo:
        v = todo.popleft()
        for w in adj[v]:
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return t in seen


def path_endpoint(succ: np.ndarray, s: int) -> int:
    """The last vertex of s's path (follow successors to a sink)."""
    v = s
    while succ[v]:
        v = int(succ[v])
    return v


# --- the L-hardness reduction (spec §4.2) ------------------------------------------------------

def all_partial_functions(n: int) -> np.ndarray:
    """Every f: {0..n-1} -> {0..n-1} u {-1} as (n+1)^n rows (-1 = undefined)."""
    return np.array(list(itertools.product(range(-1, n), repeat=n)), dtype=np.int64).reshape(-1, n)


def functional_reachable(f: np.ndarray, s: int, t: int) -> bool:
    """t reachable from s by iterating f (s reaches itself); a plain walk with a visited set."""
    v, seen = s, set()
    while v != -1 and v not in seen:
        if v == t:
            return True
        seen.add(v)
        v = int(f[v])
    return False


def functional_reachable_batch(f: np.ndarray, s: np.ndarray, t: np.ndarray) -> np.ndarray:
    """`functional_reachable` for a batch on n points, f (B, n), s and t (B,): (B,) bool. A walk
    of n - 1 steps visits every point s reaches, so n - 1 synchronous steps decide it."""
    B, n = f.shape
    rows, cur = np.arange(B), np.asarray(s, dtype=np.int64).copy()
    hit = cur == t
    for _ in range(n - 1):
        cur = np.where(cur >= 0, f[rows, np.maximum(cur, 0)], -1)        # -1: the walk stopped
        hit |= cur == t
    return hit


def sorted_scan_batch(succ: np.ndarray, s: np.ndarray) -> np.ndarray:
    """The counter machine's one pass over the sorted edges, for a batch: succ (B, V + 1), s (B,);
    the current vertex moves along edge (v, succ[v]) when it is v, sources in increasing order.
    Returns the final vertex (B,) (`path_endpoint` on forward edges)."""
    cur = np.asarray(s, dtype=np.int64).copy()
    for v in range(1, succ.shape[1]):
        move = (cur == v) & (succ[:, v] > 0)
        cur[move] = succ[move, v]
    return cur


def reduction_domain(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every (f, s, t) on n points as arrays f (B, n), s (B,), t (B,): B = (n+1)^n n^2."""
    fs = all_partial_functions(n)
    i, s, t = (a.ravel() for a in np.meshgrid(np.arange(len(fs)), np.arange(n), np.arange(n),
                                              indexing="ij"))
    return fs[i], s, t


def distinct_instances(succ: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows `first` of the distinct (succ, s) instances of a batch, and `back` with
    succ[first][back] == succ: a deterministic network need run once per distinct instance (the
    reduction forgets f(t), so n + 1 functions map to each reduced instance)."""
    _, first, back = np.unique(np.column_stack([succ, s]), axis=0, return_index=True,
                               return_inverse=True)
    return first, back.ravel()


def reduce_batch(f: np.ndarray, s: np.ndarray, t: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """`reduce_to_sorted` for a batch of functions on the same n points: f (B, n), s and t (B,).

    Returns succ (B, F + 1), the new sources (B,) and the common target F.
    """
    B, n = f.shape
    F = (n + 1) * n + 1
    succ = np.zeros((B, F + 1), dtype=np.int64)
    h = np.arange(n + 1)[:, None]                                     # (n + 1, 1)
    node = h * n + np.arange(n)[None, :] + 1                          # (n + 1, n)
    nxt = np.where(f[:, None, :] >= 0, (h[None] + 1) * n + f[:, None, :] + 1, 0)   # (B, n+1, n)
    nxt[:, n, :] = 0                                                   # last layer: no edges on
    nxt = np.where(np.arange(n)[None, None, :] == t[:, None, None], F, nxt)         # t -> F
    succ[:, node.reshape(-1)] = nxt.reshape(B, -1)
    return succ, s + 1, F


def reduce_to_sorted(f: np.ndarray, s: int, t: int) -> tuple[np.ndarray, int, int]:
    """Layered copy (h, v), 0 <= h <= n, id h*n + v + 1, sink F = (n+1) n + 1 (spec §4.2).

    t is made a sink first; (h, v) -> (h+1, f(v)) for v != t with f(v) defined, (h, t) -> F for
    every layer including the last. The result is a sorted DGC instance with target F a sink.
    """
    n = len(f)
    F = (n + 1) * n + 1
    succ = np.zeros(F + 1, dtype=np.int64)
    for h in range(n + 1):
        for v in range(n):
            node = h * n + v + 1
            if v == t:
                succ[node] = F
            elif f[v] != -1 and h < n:
                succ[node] = (h + 1) * n + int(f[v]) + 1
    return succ, s + 1, F
