"""One replication's data as the models see it (spec §3): basis scores and responses,
standardised with the training set's moments, and the test set's noise-free target."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lib.sbayfdnn import basis, simulate


@dataclass(frozen=True)
class Replication:
    """Standardised training scores and responses, test scores, and the test targets in the
    same units (noise-free g and noisy y)."""

    Z: np.ndarray        # (n, J)
    y: np.ndarray        # (n,)
    Z_test: np.ndarray   # (n_test, J)
    g_test: np.ndarray   # (n_test,)
    y_test: np.ndarray   # (n_test,)


def replication(n: int, n_test: int, rng: np.random.Generator, link: str,
                support: tuple[float, float], snr: float, T: int, K: int, J: int, degree: int
                ) -> Replication:
    """Draw n + n_test curves together (one noise level), split, project and standardise."""
    s = simulate.simulate(n + n_test, rng, link, support, snr, T, K)
    xi = basis.scores(s.X, s.t, basis.bspline_basis(s.t, J, degree))   # (n + n_test, J)
    mu, sd = xi[:n].mean(0), xi[:n].std(0)
    ym, ys = s.y[:n].mean(), s.y[:n].std()
    Z = (xi - mu) / sd
    return Replication(Z[:n], (s.y[:n] - ym) / ys, Z[n:], (s.g[n:] - ym) / ys,
                       (s.y[n:] - ym) / ys)


def seed_rng(seed: int, *keys: int) -> np.random.Generator:
    """A generator for one cell of an experiment, independent of every other cell."""
    return np.random.default_rng([seed, *keys])
