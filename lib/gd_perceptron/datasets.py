"""Data sets of the gd_perceptron companion, each a pair (B, y) with B of shape (n, d).

Data set A is the spec's reconstruction of the paper's "minimalistic example" (spec §4, [RECON]);
the small R^2 examples are the author's own from arXiv 2412.08424 (spec §8, [READ]). Everything
that draws takes a numpy Generator. Swap `make_dataset` to drop in the paper's exact example.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np


def dataset_a(d: int) -> tuple[np.ndarray, np.ndarray]:
    """b_1 = 1_d (y=+1), b_2 = 1_d - e_d (y=-1): two points differing in one feature (int64)."""
    if d < 2:
        raise ValueError(f"dataset_a: d = {d}; allowed: d >= 2")
    B = np.ones((2, d), dtype=np.int64)
    B[1, -1] = 0
    return B, np.array([1, -1], dtype=np.int64)


def dataset_a_perturbed(d: int, rng: np.random.Generator, sigma: float = 1e-3
                        ) -> tuple[np.ndarray, np.ndarray]:
    """Data set A with N(0, sigma^2) noise on b_2: removes the exact ties, keeps the geometry."""
    B, y = dataset_a(d)
    B = B.astype(np.float64)
    B[1] += sigma * rng.standard_normal(d)
    return B, y


def make_dataset(d: int, seed: int | None = None, kind: str = "A", sigma: float = 1e-3
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The swappable entry point: kind "A" (exact) or "A_perturbed" (needs a seed)."""
    if kind == "A":
        return dataset_a(d)
    if kind == "A_perturbed":
        return dataset_a_perturbed(d, np.random.default_rng(seed), sigma)
    raise ValueError(f"make_dataset: kind = {kind!r}; allowed: 'A', 'A_perturbed'")


def worst_case_2d(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Author's Thm 5.1 set (arXiv 2412.08424): (0.5, -1) labelled +1, n-1 copies of (-0.5, -1)
    labelled -1. Returned as Fractions (object array) so counts can be exact."""
    if n < 2:
        raise ValueError(f"worst_case_2d: n = {n}; allowed: n >= 2")
    half = Fraction(1, 2)
    B = np.array([[half, Fraction(-1)]] + [[-half, Fraction(-1)]] * (n - 1), dtype=object)
    y = np.array([1] + [-1] * (n - 1), dtype=np.int64)
    return B, y


def loss_unreliable_2d() -> tuple[np.ndarray, np.ndarray]:
    """Author's Thm 4.1 example: (1, -1) labelled +1, (-1, -4) labelled -1."""
    return np.array([[1, -1], [-1, -4]], dtype=np.int64), np.array([1, -1], dtype=np.int64)


def random_separable(n: int, d: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """n Gaussian points labelled by a random linear teacher (separable with probability 1)."""
    B = rng.standard_normal((n, d))
    teacher = rng.standard_normal(d)
    y = np.where(B @ teacher >= 0, 1, -1).astype(np.int64)
    return B, y
