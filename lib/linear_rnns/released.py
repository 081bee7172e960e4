"""The released DGC data generator, reconstructed, with its bug and the repair (spec §6.1a, §9.9).

Reconstruction of S1's description (the code itself could not be read): nodes 0..N, source 0,
target N; every interior node joins one of two buckets (Bernoulli(p)); consecutive nodes of the
same bucket are linked, giving two disjoint increasing paths; label 1 iff source and target lie
on the same path; for positives one random interior node is forced into the source bucket. The
released version initialises every bucket to 0 (the source's), so the Bernoulli branch is never
taken; the repair starts interior nodes unassigned.

Serialisation (paper format): "src;a-b;a-b;...;tgt" with node ids in binary.

Shortcut accuracy of the repaired generator in closed form (issue 17). The shortcut "source has
an out-edge AND target has an in-edge" is right on every positive: the source's bucket holds a
node after the source (the forced interior node, or the target itself when N = 1) and one before
the target (the source). A negative's target sits in the other bucket, so the source has an
out-edge iff some interior node is in bucket 0 and the target an in-edge iff some interior node
is in bucket 1: the shortcut (which then says 1) is right iff all N - 1 interior nodes share a
bucket, with probability r(N) = p^(N-1) + (1-p)^(N-1) for N >= 2, and r(1) = 1 (no interior
node, no edge). With balanced labels and N uniform on [N_min, N_max],
E[accuracy] = 1/2 + 1/2 * mean_N r(N). `generate` draws N from the bin as given (N = 1 is
possible in 1-100); S1's re-implementation draws it from [max(N_min, 2), N_max].

A vectorised twin for the sensitivity sweep: `buckets_from_draws` is `generate` as a function
of its random draws (tested equal on replayed draws), `generate_batch` draws them in bulk.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

UNASSIGNED = -1
PAD = -2                                                    # batch slots past node N


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


def edges_from_buckets(bucket) -> list[tuple[int, int]]:
    """Consecutive nodes of each bucket, linked and sorted (the edges `generate` builds); slots
    that are neither bucket 0 nor 1 (PAD) are not nodes."""
    edges = []
    for b in (0, 1):
        nodes = [v for v, c in enumerate(bucket) if c == b]
        edges += list(zip(nodes[:-1], nodes[1:]))
    return sorted(edges)


# --- the closed form and its brute-force check ---------------------------------------------------

def exact_p(p) -> Fraction:
    """The bucket probability as a Fraction: a float parameter by its decimal (0.1 -> 1/10).
    `generate` compares a 53-bit uniform with the float p, which differs by < 2^-53."""
    return p if isinstance(p, Fraction) else Fraction(str(p))


def shortcut_right_on_negative(p, N: int) -> Fraction:
    """r(N) = P(shortcut right | negative, N): all N - 1 interior nodes in one bucket."""
    q = exact_p(p)
    return Fraction(1) if N == 1 else q ** (N - 1) + (1 - q) ** (N - 1)


def _geometric(q: Fraction, a: int, b: int) -> Fraction:
    """sum_{k=a}^{b} q^k for 0 < q < 1 (0 when b < a)."""
    return (q ** a - q ** (b + 1)) / (1 - q) if b >= a else Fraction(0)


def expected_shortcut_accuracy(p, N_min: int, N_max: int,
                               positives: Fraction = Fraction(1, 2)) -> Fraction:
    """E[shortcut accuracy] of the repaired generator, N uniform on [N_min, N_max], a fraction
    `positives` of positive labels (always right): positives + (1 - positives) * mean_N r(N).
    The sum over N >= 2 is two geometric series in q = p and 1 - p."""
    q = exact_p(p)
    if not (0 < q < 1) or not (1 <= N_min <= N_max):
        raise ValueError(f"need 0 < p < 1 and 1 <= N_min <= N_max, got p={p}, "
                         f"[{N_min}, {N_max}]")
    lo = max(N_min, 2)
    total = int(N_min == 1) + _geometric(q, lo - 1, N_max - 1) + _geometric(1 - q, lo - 1,
                                                                                N_max - 1)
    return positives + (1 - positives) * total / (N_max - N_min + 1)


def shortcut_rates_by_enumeration(ps, N: int, label: int) -> list[Fraction]:
    """P(shortcut right | N, label) of the repaired generator for each p of ps, summed exactly
    over every outcome of its draws: the forced interior node (positives, N >= 2: each of
    1..N-1 with 1/(N-1)) and the bucket of every other interior node (1 with probability p).
    Independent of the closed form: each outcome's edges are built and `shortcut` applied to
    them; an outcome's probability depends on p only through its number of bucket-1 nodes, so
    the outcomes are enumerated once and weighted per p."""
    interior = list(range(1, N))
    forced = interior if (label and N >= 2) else [None]
    hits: dict[tuple[int, bool], int] = {}                  # (bucket-1 nodes, right) -> outcomes
    for f in forced:
        free = [v for v in interior if v != f]
        for bits in itertools.product((0, 1), repeat=len(free)):
            bucket = [0] * (N + 1)
            bucket[N] = 0 if label else 1
            for v, b in zip(free, bits):
                bucket[v] = b
            key = (sum(bits), shortcut(edges_from_buckets(bucket), N) == label)
            hits[key] = hits.get(key, 0) + 1
    n_free = len(interior) - (forced != [None])
    out = []
    for p in ps:
        q = exact_p(p)
        weight = {k: Fraction(c, len(forced)) * q ** k[0] * (1 - q) ** (n_free - k[0])
                  for k, c in hits.items()}
        assert sum(weight.values()) == 1, f"outcome probabilities sum to {sum(weight.values())}"
        out.append(sum((w for (_, right), w in weight.items() if right), Fraction(0)))
    return out


# --- the vectorised twin -------------------------------------------------------------------------

@dataclass(frozen=True)
class Batch:
    """n examples of one bin: N (n,), label (n,) and bucket (n, W + 1) of nodes 0..W, W >= max N,
    PAD past node N."""

    N: np.ndarray
    label: np.ndarray
    bucket: np.ndarray


def buckets_from_draws(N, label, forced, u, p: float, released_bug: bool = False) -> np.ndarray:
    """The buckets `generate` makes from its draws, batched: forced (n,) the forced interior node
    (used for positives with N >= 2 only), u (n, W - 1) the uniforms in the order `generate`
    consumes them, one per unassigned interior node in node order, so node v reads u[v - 1], or
    u[v - 2] past a positive's forced node (none read under the bug). Returns (n, W + 1) int8."""
    N, label, forced = (np.asarray(a, dtype=np.int64) for a in (N, label, forced))
    n, W = len(N), u.shape[1] + 1
    v = np.arange(1, W)[None, :]                                      # (1, W - 1) interior ids
    has_forced = ((label == 1) & (N >= 2))[:, None]                   # (n, 1)
    if released_bug:
        drawn = np.zeros((n, W - 1), dtype=np.int8)
    else:
        below = u < p                                                 # (n, W - 1): u[v - 1] < p
        shifted = np.concatenate([below[:, :1], below[:, :-1]], axis=1)   # u[v - 2] < p
        drawn = np.where(has_forced & (v > forced[:, None]), shifted, below).astype(np.int8)
    drawn[has_forced & (v == forced[:, None])] = 0                    # the forced node
    drawn[v >= N[:, None]] = PAD                                      # past the interior
    bucket = np.full((n, W + 1), PAD, dtype=np.int8)                  # (n, W + 1) nodes 0..W
    bucket[:, 0] = 0
    bucket[:, 1:W] = drawn
    bucket[np.arange(n), N] = 1 - label                               # the target
    return bucket


def generate_batch(n: int, N_min: int, N_max: int, rng: np.random.Generator, p: float = 0.5,
                   released_bug: bool = False) -> Batch:
    """n examples as `dataset` makes them (N uniform on the bin, label i % 2), the draws taken in
    bulk: the same distribution, not the same stream."""
    N = rng.integers(N_min, N_max + 1, size=n)                        # (n,)
    label = np.arange(n) % 2
    forced = rng.integers(1, np.maximum(N, 2))                        # (n,) in 1..N-1
    W = max(N_max, 2)
    u = np.zeros((n, W - 1)) if released_bug else rng.random((n, W - 1))
    return Batch(N, label, buckets_from_draws(N, label, forced, u, p, released_bug))


def shortcut_batch(batch: Batch) -> np.ndarray:
    """`shortcut` on every example (n,): some node after the source in bucket 0, and some node
    before the target in the target's bucket."""
    v = np.arange(batch.bucket.shape[1])[None, :]
    target = np.take_along_axis(batch.bucket, batch.N[:, None], axis=1)   # (n, 1)
    out = ((batch.bucket == 0) & (v >= 1)).any(axis=1)
    into = ((batch.bucket == target) & (v < batch.N[:, None])).any(axis=1)
    return (out & into).astype(np.int64)
