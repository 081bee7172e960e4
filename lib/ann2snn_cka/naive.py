"""Plain-loop references (spec §4): tests and bench/ use them, notebooks never do. Each
follows its definition one sample or entry at a time, in Python floats / float64.

The CKA, HSIC, KL and loss references check lib/ann2snn_cka/cka.py and losses.py (spec §1.3,
§5 items 3, 4 and 6).
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np


def _f64(a) -> np.ndarray:
    """a (a CPU tensor without grad, an array or nested lists) as a float64 numpy array."""
    return np.asarray(a, dtype=np.float64)


def hsic_unbiased_naive(K, L) -> float:
    """Unbiased HSIC as the order-4 U-statistic: the mean over all ordered 4-tuples (i, j, q, r)
    of distinct indices of K_ij L_ij + K_ij L_qr - 2 K_ij L_iq (symmetric K, L; n >= 4)."""
    K, L = _f64(K).tolist(), _f64(L).tolist()
    n = len(K)
    if n < 4:
        raise ValueError(f"hsic_unbiased_naive needs n >= 4 samples, got n = {n}")
    total, count = 0.0, 0
    for i, j, q, r in itertools.permutations(range(n), 4):
        total += K[i][j] * L[i][j] + K[i][j] * L[q][r] - 2.0 * K[i][j] * L[i][q]
        count += 1
    return total / count


def linear_cka_naive(X, Y) -> float:
    """Linear CKA with explicit centring matrices H = I - 11^T/n, in float64 numpy."""
    X, Y = _f64(X), _f64(Y)
    X, Y = X.reshape(X.shape[0], -1), Y.reshape(Y.shape[0], -1)
    n = X.shape[0]
    H = np.eye(n) - np.ones((n, n)) / n
    kx, ky = H @ (X @ X.T) @ H, H @ (Y @ Y.T) @ H
    return float(np.sum(kx * ky) / math.sqrt(np.sum(kx * kx) * np.sum(ky * ky)))


def _log_softmax_row(v: Sequence[float]) -> list[float]:
    """log softmax of one row of Python floats, shifted by its max for stability."""
    m = max(v)
    lse = m + math.log(sum(math.exp(x - m) for x in v))
    return [x - lse for x in v]


def kl_naive(z_s, z_a, tau: float) -> float:
    """tau^2 KL(softmax(z_a/tau) || softmax(z_s/tau)): per sample, per class, with math.exp/log,
    averaged over the batch."""
    total = 0.0
    rows_s, rows_a = _f64(z_s).tolist(), _f64(z_a).tolist()
    for row_s, row_a in zip(rows_s, rows_a):
        log_ps = _log_softmax_row([x / tau for x in row_s])
        log_pa = _log_softmax_row([x / tau for x in row_a])
        total += sum(math.exp(la) * (la - ls) for la, ls in zip(log_pa, log_ps))
    return tau * tau * total / len(rows_s)


def closed_loop_loss_naive(z_s, z_a, y, feats_s, feats_a, w, alpha: float, beta: float,
                           tau: float) -> float:
    """Spec §1.3's total loss: a per-sample cross-entropy loop, kl_naive and linear_cka_naive."""
    rows = _f64(z_s).tolist()
    labels = [int(c) for c in np.asarray(y).tolist()]
    ce = -sum(_log_softmax_row(row)[c] for row, c in zip(rows, labels)) / len(rows)
    kl = kl_naive(z_s, z_a, tau)
    local = sum(float(wl) * (1.0 - linear_cka_naive(s, a))
                for wl, s, a in zip(w, feats_s, feats_a))
    return (1.0 - alpha) * ce + alpha * (beta * kl + (1.0 - beta) * local)
