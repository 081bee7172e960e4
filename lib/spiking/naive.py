"""Plain-loop references for lib/spiking: tests and bench/ use them; a notebook only to record that
a fast kernel agrees with one (tests/test_naive_rule.py). One neuron at a time, in Python floats,
from the definitions in integrate.py and counting.py."""
from __future__ import annotations

import numpy as np


def if_soft_reset_naive(I: np.ndarray, theta: float = 1.0, v0: float = 0.0) -> np.ndarray:
    """Spikes (T, ...) of soft-reset IF neurons: per neuron, scan t, integrate, fire when the
    potential reaches theta, subtract theta."""
    I = np.asarray(I, dtype=np.float64)
    T = I.shape[0]
    flat = I.reshape(T, -1)
    out = np.zeros_like(flat)
    for i in range(flat.shape[1]):
        u = float(v0)
        for t in range(T):
            u += float(flat[t, i])
            if u >= theta:
                out[t, i] = 1.0
                u -= theta
    return out.reshape(I.shape)


def first_spike_time_naive(S: np.ndarray) -> np.ndarray:
    """Per neuron, the first step with a non-zero value; T if none (Python ints)."""
    S = np.asarray(S)
    T = S.shape[0]
    flat = S.reshape(T, -1)
    out = np.full(flat.shape[1], T, dtype=np.int64)
    for i in range(flat.shape[1]):
        for t in range(T):
            if flat[t, i] != 0:
                out[i] = t
                break
    return out.reshape(S.shape[1:])


def lif_hard_reset_naive(I: np.ndarray, tau: float = 2.0, v_th: float = 1.0) -> np.ndarray:
    """Spikes (T, ...) of hard-reset LIF neurons: per neuron, scan t, leak towards the input,
    fire when the potential reaches v_th, reset to 0."""
    I = np.asarray(I, dtype=np.float64)
    T = I.shape[0]
    flat = I.reshape(T, -1)
    out = np.zeros_like(flat)
    for i in range(flat.shape[1]):
        v = 0.0
        for t in range(T):
            v += (float(flat[t, i]) - v) / tau
            if v >= v_th:
                out[t, i] = 1.0
                v = 0.0
    return out.reshape(I.shape)
