"""Plain-loop references (spec §4): tests and bench/ use them, notebooks never do. Each follows
the definition of spec §1, one neuron, window or sample at a time, in float64 and Python ints."""
from __future__ import annotations

import numpy as np


def ttfs_neuron_naive(I: np.ndarray, theta: float = 1.0) -> np.ndarray:
    """Spikes (T, ...) of TTFS neurons: per neuron, scan t, integrate, fire at the first
    crossing of theta and stop."""
    I = np.asarray(I, dtype=np.float64)
    T = I.shape[0]
    flat = I.reshape(T, -1)
    out = np.zeros_like(flat)
    for i in range(flat.shape[1]):
        v = 0.0
        for t in range(T):
            v += float(flat[t, i])
            if v >= theta:
                out[t, i] = 1.0
                break
    return out.reshape(I.shape)


def pool_counts_naive(S: np.ndarray, k: int, kind: str) -> dict[str, np.ndarray]:
    """Per pooled unit of S (T, B, C, H, W): the pooled train built window by window, then its
    spike mass (sum over t), its active steps, the number of distinct firing steps and of fired
    neurons in the window."""
    S = np.asarray(S, dtype=np.float64)
    T, B, C, H, W = S.shape
    h, w = H // k, W // k
    P = np.zeros((T, B, C, h, w))
    distinct = np.zeros((B, C, h, w), dtype=np.int64)
    fired = np.zeros((B, C, h, w), dtype=np.int64)
    for b in range(B):
        for c in range(C):
            for i in range(h):
                for j in range(w):
                    win = S[:, b, c, i * k:(i + 1) * k, j * k:(j + 1) * k].reshape(T, k * k)
                    steps = set()
                    first = T
                    for u in range(k * k):
                        for t in range(T):
                            if win[t, u] != 0:
                                steps.add(t)
                                first = min(first, t)
                                break
                    distinct[b, c, i, j] = len(steps)
                    fired[b, c, i, j] = sum(1 for u in range(k * k) if win[:, u].any())
                    for t in range(T):
                        if kind == "avg":
                            P[t, b, c, i, j] = sum(win[t]) / (k * k)
                        elif kind == "max":
                            P[t, b, c, i, j] = max(win[t])
                        elif kind == "first":
                            P[t, b, c, i, j] = 1.0 if t == first else 0.0
                        else:
                            raise ValueError(f"kind {kind!r}")
    return {"P": P, "mass": P.sum(axis=0), "active": (P != 0).sum(axis=0),
            "distinct": distinct, "fired": fired}


def decode_naive(O: np.ndarray, V: np.ndarray, kind: str, lam: float = 10.0) -> np.ndarray:
    """Logits (B, K) of output spikes O and potentials V (T, B, K), sample by sample, class by
    class, step by step (spec §1.4)."""
    O = np.asarray(O, dtype=np.float64)
    V = np.asarray(V, dtype=np.float64)
    T, B, K = O.shape
    z = np.zeros((B, K))
    for b in range(B):
        for c in range(K):
            if kind == "weighted_spikes":
                z[b, c] = lam * sum((T - t) / T * O[t, b, c] for t in range(T))
            elif kind == "count":
                z[b, c] = lam * sum(O[t, b, c] for t in range(T))
            elif kind == "final_potential":
                z[b, c] = V[T - 1, b, c]
            elif kind == "weighted_potential":
                w = [(T - t) / T for t in range(T)]
                z[b, c] = sum(w[t] * V[t, b, c] for t in range(T)) / sum(w)
            else:
                raise ValueError(f"kind {kind!r}")
    return z
