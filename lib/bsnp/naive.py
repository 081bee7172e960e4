"""Plain-loop references of the heavy kernels (spec §4): tests and bench/ use them, notebooks
never do. Each follows the definition, the slow way, in float64."""
from __future__ import annotations

from typing import Callable

import numpy as np
import torch

from lib.bsnp import poisson
from lib.bsnp.model import BSNP, EPS


def solve_fd(lam: np.ndarray, n: int = 128) -> np.ndarray:
    """The FD matrix assembled entry by entry in a double loop, solved densely."""
    h = 1.0 / (n + 1)
    a = lambda x: float(poisson.coefficient(np.array([x]), np.asarray(lam, float))[0])  # noqa
    mat = np.zeros((n, n))
    rhs = np.zeros(n)
    for i in range(n):
        x = (i + 1) * h
        left, right = 0.5 * (a(x - h) + a(x)), 0.5 * (a(x) + a(x + h))
        for j in range(n):
            if j == i:
                mat[i, j] = (left + right) / h ** 2
            elif j == i - 1:
                mat[i, j] = -left / h ** 2
            elif j == i + 1:
                mat[i, j] = -right / h ** 2
        rhs[i] = np.sin(np.pi * x)
    return np.linalg.solve(mat, rhs)


def residual_fd(u_fn: Callable[[float], float], x: np.ndarray, lam: np.ndarray,
                h: float = 1e-4) -> np.ndarray:
    """-(a u')' - f at each x by nested central differences of the flux, one point at a time."""
    lam = np.asarray(lam, float)
    a = lambda s: float(poisson.coefficient(np.array([s]), lam)[0])  # noqa: E731
    out = np.zeros(len(x))
    for i, xi in enumerate(x):
        flux_r = a(xi + h / 2) * (u_fn(xi + h) - u_fn(xi)) / h
        flux_l = a(xi - h / 2) * (u_fn(xi) - u_fn(xi - h)) / h
        out[i] = -(flux_r - flux_l) / h - np.sin(np.pi * xi)
    return out


def decode_mean(model: BSNP, g: torch.Tensor, z: torch.Tensor, x: float) -> float:
    """mu(x) of one task (g (M, C), z (L,)) by explicit sums over the grid nodes."""
    rho = float(model.log_rho_dec.exp())
    num, den = 0.0, EPS
    for m in range(g.shape[0]):
        q = model.head(torch.cat([g[m], z]))
        k = float(np.exp(-0.5 * (x - float(model.s[m])) ** 2 / rho ** 2))
        num += k * float(q @ model.mu_head.weight[0])
        den += k
    return num / den + float(model.mu_head.bias)


def batched_residual(model: BSNP, g: torch.Tensor, z: torch.Tensor, x: np.ndarray,
                     lam: np.ndarray) -> np.ndarray:
    """The mean-field residual of every task (B, N) by finite differences of `decode_mean`."""
    with torch.no_grad():
        return np.stack([residual_fd(lambda s, b=b: decode_mean(model, g[b], z[b], s), x[b],
                                     lam[b]) for b in range(len(lam))])


def mnse(mu: np.ndarray, y: np.ndarray, batch: int = 50) -> float:
    """MNSE pooled per batch of tasks, averaged, with explicit loops."""
    ratios = []
    for s in range(0, len(y), batch):
        err = ref = 0.0
        for t in range(s, min(s + batch, len(y))):
            for j in range(y.shape[1]):
                err += (mu[t, j] - y[t, j]) ** 2
                ref += y[t, j] ** 2
        ratios.append(err / ref)
    return sum(ratios) / len(ratios)


def gaussian_nll(mu: np.ndarray, var: np.ndarray, y: np.ndarray) -> float:
    """Mean Gaussian NLL with explicit loops."""
    total = 0.0
    for t in range(y.shape[0]):
        for j in range(y.shape[1]):
            v = var[t, j]
            total += 0.5 * np.log(2 * np.pi * v) + 0.5 * (y[t, j] - mu[t, j]) ** 2 / v
    return total / y.size


def ecp(mu: np.ndarray, sd: np.ndarray, y: np.ndarray, level: float = 0.9) -> float:
    """Coverage of the central band with explicit loops (z from the inverse error function)."""
    from scipy.special import erfinv
    z = np.sqrt(2) * erfinv(level)
    inside = 0
    for t in range(y.shape[0]):
        for j in range(y.shape[1]):
            inside += abs(y[t, j] - mu[t, j]) <= z * sd[t, j]
    return inside / y.size
