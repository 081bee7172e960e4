"""Latent symmetry groups K_i of MLP hidden layers (spec §1.2, §2.1, §5.1 `sym`).

An element k_i of K_i is stored sparsely as (perm, scale) with dense matrix
k[j, perm[j]] = scale[j], i.e. (k v)[j] = scale[j] v[perm[j]] (a monomial matrix). tanh allows
scale = ±1 (signed permutations), ReLU scale > 0 (positive monomials), GELU scale = 1.
The action on parameters is W_i -> k_i W_i k_{i-1}^{-1}, b_i -> k_i b_i with k_0 = k_L = I.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lib.equivariance.mlp import Theta, dims


@dataclass(frozen=True)
class Monomial:
    """A monomial matrix (perm, scale): (k v)[j] = scale[j] * v[perm[j]]."""

    perm: np.ndarray
    scale: np.ndarray

    @staticmethod
    def identity(d: int) -> "Monomial":
        return Monomial(np.arange(d), np.ones(d))

    @property
    def dim(self) -> int:
        return len(self.perm)

    def dense(self) -> np.ndarray:
        K = np.zeros((self.dim, self.dim))
        K[np.arange(self.dim), self.perm] = self.scale
        return K

    def inverse(self) -> "Monomial":
        inv = np.argsort(self.perm)                             # inv[perm[j]] = j
        return Monomial(inv, 1.0 / self.scale[inv])

    def compose(self, other: "Monomial") -> "Monomial":
        """self @ other: (self other v)[j] = s[j] * s'[p[j]] * v[p'[p[j]]]."""
        return Monomial(other.perm[self.perm], self.scale * other.scale[self.perm])

    def left(self, M: np.ndarray) -> np.ndarray:
        """k @ M (rows permuted and scaled)."""
        return self.scale[:, None] * M[self.perm] if M.ndim == 2 else self.scale * M[self.perm]

    def right_inv(self, M: np.ndarray) -> np.ndarray:
        """M @ k^{-1}: column perm[j] of M, divided by scale[j], lands in column j."""
        return M[:, self.perm] / self.scale[None, :]

    def right(self, M: np.ndarray) -> np.ndarray:
        """M @ k: column j of M times scale[j] lands in column perm[j]."""
        out = np.empty_like(M)
        out[:, self.perm] = M * self.scale[None, :]
        return out

    def equals(self, other: "Monomial", atol: float = 0.0) -> bool:
        return bool(np.array_equal(self.perm, other.perm)
                    and np.max(np.abs(self.scale - other.scale), initial=0.0) <= atol)


def apply_K(theta: Theta, ks: list[Monomial], act: str = "tanh") -> Theta:
    """k.theta: W_i -> k_i W_i k_{i-1}^{-1}, b_i -> k_i b_i (k_0 = k_L = identity).

    For the logistic sigmoid a sign flip acts affinely on the hidden layer,
    sigma(-z) = 1 - sigma(z), so k_i(v) = A_i v + c_i with c_i = perm of (1 - s)/2; the next layer
    then also gets b_{i+1} -> b_{i+1} - W_{i+1} A_i^{-1} c_i (spec §2.1 table, sigmoid row)."""
    out = []
    L = len(theta)
    for i, (W, b) in enumerate(theta):
        if i > 0:
            W = ks[i - 1].right_inv(W)
            if act == "sigmoid":
                c = (1.0 - ks[i - 1].scale) / 2.0                  # (k v)[j] = s_j v[p_j] + c_j
                b = b - W @ c
        if i < L - 1:
            W, b = ks[i].left(W), ks[i].left(b)
        out.append((W, b))
    return out


def random_element(d: int, kind: str, rng: np.random.Generator) -> Monomial:
    """A random element of K for a layer of width d."""
    perm = rng.permutation(d)
    if kind in ("signed_perm", "signed_perm_affine"):
        scale = rng.choice([-1.0, 1.0], size=d)
    elif kind == "pos_monomial":
        scale = np.exp(rng.uniform(-1.0, 1.0, size=d))
    elif kind == "perm":
        scale = np.ones(d)
    else:
        raise ValueError(f"kind {kind!r} has no finite-data random element")
    return Monomial(perm, scale)


def random_K(theta: Theta, kind: str, rng: np.random.Generator) -> list[Monomial]:
    """One random latent symmetry per hidden layer."""
    return [random_element(d, kind, rng) for d in dims(theta)[1:-1]]
