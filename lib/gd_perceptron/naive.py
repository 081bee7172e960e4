"""Plain-loop float64 references for the batched kernels (tests and bench only; never notebooks).

Each function copies the definition of spec §1.3 / §2.1 point by point and neuron by neuron:

    theta <- theta + (eta / n) sum_i w(y_i h(b_i; theta)) y_i grad h(b_i; theta)
"""
from __future__ import annotations

import math

import numpy as np


def output(kind: str, theta: np.ndarray, b: np.ndarray, s=(1.0, -1.0), activation="quadratic"
           ) -> float:
    """h(b; theta) for one run: linear theta (d,), two-layer theta (m, d)."""
    if kind == "linear":
        return float(sum(theta[k] * b[k] for k in range(len(b))))
    total = 0.0
    for j in range(theta.shape[0]):
        z = float(sum(theta[j, k] * b[k] for k in range(len(b))))
        total += s[j] * (z * z if activation == "quadratic" else max(z, 0.0))
    return total


def gradient(kind: str, theta: np.ndarray, b: np.ndarray, s=(1.0, -1.0), activation="quadratic"
             ) -> np.ndarray:
    """grad_theta h(b; theta) for one run."""
    if kind == "linear":
        return np.array(b, dtype=np.float64)
    g = np.zeros_like(theta, dtype=np.float64)
    for j in range(theta.shape[0]):
        z = float(sum(theta[j, k] * b[k] for k in range(len(b))))
        slope = 2 * z if activation == "quadratic" else (1.0 if z > 0 else 0.0)
        g[j] = s[j] * slope * np.asarray(b, dtype=np.float64)
    return g


def weight(z: float, rule: str, first: bool = False) -> float:
    """sigmoid(-z) for GD; 1[z<0] + 1/2 1[z=0] for the GP; 1[z<=0] after t=0 for the BP."""
    if rule == "gd":
        return 1.0 / (1.0 + math.exp(z)) if z > -700 else 1.0
    if z < 0:
        return 1.0
    if z > 0:
        return 0.0
    return 0.5 if (rule == "gp" or first) else 1.0


def step(kind: str, theta: np.ndarray, B: np.ndarray, y: np.ndarray, eta: float, rule: str,
         first: bool = False, **model) -> np.ndarray:
    """One GD / GP / BP step of one run, point by point."""
    n = B.shape[0]
    update = np.zeros_like(theta, dtype=np.float64)
    for i in range(n):
        z = y[i] * output(kind, theta, B[i], **model)
        update += weight(z, rule, first) * y[i] * gradient(kind, theta, B[i], **model)
    return theta + eta / n * update


def iterations(kind: str, theta: np.ndarray, B: np.ndarray, y: np.ndarray, eta: float,
               rule: str, max_iter: int, **model) -> int:
    """First t with y_i h(b_i; theta_t) > 0 for all i, or max_iter, one run, step by step."""
    for t in range(max_iter + 1):
        if all(y[i] * output(kind, theta, B[i], **model) > 0 for i in range(B.shape[0])):
            return t
        if t == max_iter:
            return max_iter
        theta = step(kind, theta, B, y, eta, rule, first=(t == 0), **model)
    return max_iter
