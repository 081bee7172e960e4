"""The released DGC data generator, reconstructed, with its bug and the repair (spec §6.1a, §9.9).

Reconstruction of S1's description (the code itself could not be read): nodes 0..N, source 0,
target N; every interior node joins one of two buckets (Bernoulli(p)); consecutive nodes of the
same bucket are linked, giving two disjoint increasing paths; label 1 iff source and target lie
on the same path; for positives one random interior node is forced into the source bucket. The
released version initialises every bucket to 0 (the source's), so the Bernoulli branch is never
taken; the repair starts interior nodes unassigned.

Serialisation (paper format): "src;a-b;a-b;...;tgt" with node ids in binary.
"""
from __future__ import annotations

import numpy as np

UNASSIGNED = -1


def generate(N: int, label: int, rng: np.random.Generator, p: float = 0.5,
             released_bug: bool = False) -> tuple[list[tuple[int, int]], int]:
    """One example: (sorted edges, label). Target bucket = source bucket iff label = 1."""
    bucket = np.zeros(N + 1, dtype=np.int64) if released_bug else \
        np.full(N + 1, UNASSIGNED, dtype=np.int64)
    bucket[0] = 0
    bucket[N] = 0 if label else 1
    if label and N >= 2:
        bucket[int(rng.integers(1, N))] = 0                         # forced interior node
    for v in range(1, N):
        if bucket[v] == UNASSIGNED:                                # unreachable under the bug
            bucket[v] = int(rng.random() < p)
    edges = []
    for b in (0, 1):
        nodes = [v for v in range(N + 1) if bucket[v] == b]
        edges += list(zip(nodes[:-1], nodes[1:]))
    return sorted(edges), label


def serialise(edges: list[tuple[int, int]], N: int) -> str:
    return ";".join([bin(0)[2:]] + [f"{bin(a)[2:]}-{bin(b)[2:]}" for a, b in edges] + [bin(N)[2:]])


def shortcut(edges: list[tuple[int, int]], N: int) -> int:
    """The trivial rule: the source has an out-edge AND the target has an in-edge."""
    return int(any(a == 0 for a, _ in edges) and any(b == N for _, b in edges))


def dataset(n: int, N_min: int, N_max: int, rng: np.random.Generator, released_bug: bool,
            p: float = 0.5) -> list[tuple[int, list[tuple[int, int]], int]]:
    """n balanced examples (N, edges, label) with N uniform in [N_min, N_max]."""
    out = []
    for i in range(n):
        N = int(rng.integers(N_min, N_max + 1))
        edges, label = generate(N, i % 2, rng, p, released_bug)
        out.append((N, edges, label))
    return out


def to_succ(edges: list[tuple[int, int]], N: int) -> np.ndarray:
    """Nodes 0..N as DGC vertices 1..N+1 (succ array of graphs.py)."""
    succ = np.zeros(N + 2, dtype=np.int64)
    for a, b in edges:
        succ[a + 1] = b + 1
    return succ
