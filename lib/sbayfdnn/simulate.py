"""The simulation design of spec §3 (reconstructed; the paper's own scenarios are unknown).

X_i(t) = sum_{k=1}^{K} c_ik sqrt(2) sin(k pi t), c_ik ~ N(0, k^-2), on T grid points of [0, 1];
beta(t) = 8 sin(pi (t - a) / (b - a)) on R = [a, b], 0 elsewhere; u_i = int beta X_i;
y = g(u) + e, e ~ N(0, var(g) / snr), var(g) over the curves drawn together (train and test).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

LINKS = {
    "linear": lambda u: u,
    "sin": lambda u: 2 * np.sin(u),
    "square": lambda u: u ** 2,
    "exp": lambda u: np.exp(u / 2),
}
FINE = 20001  # nodes of the trapezoid rule for the coefficients a_k = int_R beta phi_k


@dataclass(frozen=True)
class Sample:
    """Curves on the grid t, their index u, the noise-free response g(u) and the noisy y."""

    t: np.ndarray   # (T,)
    X: np.ndarray   # (n, T)
    u: np.ndarray   # (n,)
    g: np.ndarray   # (n,)
    y: np.ndarray   # (n,)


def beta_coefficients(K: int, support: tuple[float, float]) -> np.ndarray:
    """a_k = int_R beta(t) sqrt(2) sin(k pi t) dt, k = 1..K, by the trapezoid rule on FINE nodes of
    R (exact up to ~1e-9: beta and the sines are smooth on R)."""
    a, b = support
    s = np.linspace(a, b, FINE)
    beta = 8 * np.sin(np.pi * (s - a) / (b - a))
    phi = np.sqrt(2) * np.sin(np.outer(np.arange(1, K + 1), np.pi * s))   # (K, FINE)
    return np.trapezoid(beta * phi, s, axis=1)


def simulate(n: int, rng: np.random.Generator, link: str, support: tuple[float, float],
             snr: float, T: int, K: int) -> Sample:
    """n curves of the design with their responses; the index u is computed from the
    coefficients (u = sum_k c_k a_k), not from the grid."""
    if link not in LINKS:
        raise ValueError(f"link {link!r}; allowed: {sorted(LINKS)}")
    t = np.linspace(0.0, 1.0, T)
    k = np.arange(1, K + 1)
    c = rng.standard_normal((n, K)) / k                                     # (n, K)
    X = c @ (np.sqrt(2) * np.sin(np.outer(k, np.pi * t)))                   # (n, T)
    u = c @ beta_coefficients(K, support)
    g = LINKS[link](u)
    y = g + rng.standard_normal(n) * np.sqrt(g.var() / snr)
    return Sample(t, X, u, g, y)
