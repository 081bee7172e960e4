"""The 1-D parametric Poisson family of the release (spec §1.2): coefficient, solvers, tasks.

-(a(x; lam) u')' = f(x) on (0, 1), u(0) = u(1) = 0, a = exp(a0 sin pi x + a1 cos pi x),
f = sin pi x, lam = (a0, a1) ~ U[-2, 2]^2. Two independent solvers: conservative second-order
finite differences (banded, and a batched Thomas sweep over many tasks) and the exact solution by
one-dimensional quadrature of a u' = c - F(x), F(x) = (1 - cos pi x) / pi.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import integrate, linalg

LAM_LOW, LAM_HIGH = -2.0, 2.0


def coefficient(x: np.ndarray, lam: np.ndarray) -> np.ndarray:
    """a(x; lam) = exp(a0 sin pi x + a1 cos pi x); lam (..., 2) broadcasts against x."""
    lam = np.asarray(lam, dtype=float)
    return np.exp(lam[..., :1] * np.sin(np.pi * x) + lam[..., 1:2] * np.cos(np.pi * x))


def forcing(x: np.ndarray) -> np.ndarray:
    """f(x) = sin pi x."""
    return np.sin(np.pi * x)


def grid(n: int) -> np.ndarray:
    """The n interior nodes i / (n + 1), i = 1..n."""
    return np.arange(1, n + 1) / (n + 1)


def _stencil(lam: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Half-point coefficients a_{i-1/2}, a_{i+1/2} (means of nodal a) of each task. (T, n)."""
    h = 1.0 / (n + 1)
    nodes = np.arange(n + 2) * h                         # with both boundary nodes
    a = coefficient(nodes, np.atleast_2d(lam))           # (T, n + 2)
    half = 0.5 * (a[:, 1:] + a[:, :-1])                  # (T, n + 1): a_{1/2} .. a_{n+1/2}
    return half[:, :-1], half[:, 1:], h


def solve_fd(lam: np.ndarray, n: int = 128) -> np.ndarray:
    """FD solution at the n interior nodes for one lam (scipy banded solve)."""
    left, right, h = _stencil(np.asarray(lam, float), n)
    left, right = left[0], right[0]
    bands = np.zeros((3, n))
    bands[0, 1:] = -right[:-1]                           # super-diagonal
    bands[1] = left + right                              # diagonal
    bands[2, :-1] = -left[1:]                            # sub-diagonal
    return linalg.solve_banded((1, 1), bands, h * h * forcing(grid(n)))


def solve_fd_batch(lam: np.ndarray, n: int = 128) -> np.ndarray:
    """FD solutions of many tasks at once: a Thomas sweep vectorised over tasks. (T, n)."""
    left, right, h = _stencil(np.asarray(lam, float), n)  # (T, n) each
    diag = left + right
    rhs = np.broadcast_to(h * h * forcing(grid(n)), diag.shape).copy()
    c = np.zeros_like(diag)
    d = np.zeros_like(diag)
    c[:, 0], d[:, 0] = -right[:, 0] / diag[:, 0], rhs[:, 0] / diag[:, 0]
    for i in range(1, n):                                 # forward elimination
        denom = diag[:, i] + left[:, i] * c[:, i - 1]
        c[:, i] = -right[:, i] / denom
        d[:, i] = (rhs[:, i] + left[:, i] * d[:, i - 1]) / denom
    u = np.zeros_like(diag)
    u[:, -1] = d[:, -1]
    for i in range(n - 2, -1, -1):                        # back substitution
        u[:, i] = d[:, i] - c[:, i] * u[:, i + 1]
    return u


def solve_quadrature(lam: np.ndarray, x: np.ndarray, n_quad: int = 200_001) -> np.ndarray:
    """Exact solution u(x) = int_0^x (c - F(s)) / a(s) ds by cumulative Simpson on n_quad nodes,
    c chosen so that u(1) = 0 (spec §1.2 [DERIVED]); linear interpolation to x (h = 5e-6)."""
    s = np.linspace(0.0, 1.0, n_quad)
    inv_a = 1.0 / coefficient(s, np.asarray(lam, float))
    big_f = (1.0 - np.cos(np.pi * s)) / np.pi
    c = integrate.simpson(big_f * inv_a, x=s) / integrate.simpson(inv_a, x=s)
    u = integrate.cumulative_simpson((c - big_f) * inv_a, x=s, initial=0.0)
    return np.interp(x, s, u)


@dataclass(frozen=True)
class Tasks:
    """A set of tasks: parameters (T, 2), solutions on the n-point grid (T, n), the grid (n,)."""

    lam: np.ndarray
    u: np.ndarray
    x: np.ndarray

    @property
    def scale(self) -> np.ndarray:
        """max |u| per task (T,): the noise and sigma-width scale."""
        return np.abs(self.u).max(axis=1)


def make_tasks(n_tasks: int, seed: int, n: int = 128) -> Tasks:
    """n_tasks parameters lam ~ U[-2, 2]^2 and their FD solutions on the n-point grid."""
    rng = np.random.default_rng(seed)
    lam = rng.uniform(LAM_LOW, LAM_HIGH, size=(n_tasks, 2))
    return Tasks(lam, solve_fd_batch(lam, n), grid(n))
