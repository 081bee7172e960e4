"""Counterexamples where identifiability fails, and the reparametrizations that repair them
(spec §4 E3, §1.4, §1.7 step 5, §2.1 GELU/ReLU bypass).

All constructors keep the end-to-end function (hence its equivariance) and change only the
parametrization.
"""
from __future__ import annotations

import numpy as np

from lib.equivariance import mlp
from lib.equivariance.groups import Group
from lib.equivariance.mlp import Theta
from lib.equivariance.sym import Monomial, apply_K


def add_dead_neuron(theta: Theta, rng: np.random.Generator, zero_in: bool = False) -> Theta:
    """Append a layer-1 unit with zero outgoing column and a random (or zero) incoming row."""
    (W1, b1), (W2, b2) = theta[0], theta[1]
    row = np.zeros(W1.shape[1]) if zero_in else rng.normal(size=W1.shape[1]) / np.sqrt(W1.shape[1])
    bias = 0.0 if zero_in else 0.3
    return [(np.vstack([W1, row]), np.append(b1, bias)),
            (np.column_stack([W2, np.zeros(len(W2))]), b2)] + mlp.copy(theta[2:])


def add_duplicate_neuron(theta: Theta, j: int, split: float, sign: float = 1.0) -> Theta:
    """Copy layer-1 unit j (times sign) and split its outgoing column (1 - split, split)."""
    (W1, b1), (W2, b2) = theta[0], theta[1]
    W2n = np.column_stack([W2, sign * split * W2[:, j]])
    W2n[:, j] = (1 - split) * W2[:, j]
    return [(np.vstack([W1, sign * W1[j]]), np.append(b1, sign * b1[j])), (W2n, b2.copy())] \
        + mlp.copy(theta[2:])


def duplicate_channel(theta: Theta, rows: np.ndarray) -> Theta:
    """Duplicate the given layer-1 units exactly, outgoing columns halved on both copies: the
    stabilizer then contains every subset of pair swaps (order 2^len(rows))."""
    (W1, b1), (W2, b2) = theta[0], theta[1]
    W2n = W2.copy()
    W2n[:, rows] *= 0.5
    return [(np.vstack([W1, W1[rows]]), np.append(b1, b1[rows])),
            (np.column_stack([W2n, W2n[:, rows]]), b2.copy())] + mlp.copy(theta[2:])


def pair_swaps(d: int, rows: np.ndarray, mask: np.ndarray) -> Monomial:
    """Permutation of d units swapping rows[i] with its copy d - len(rows) + i where mask[i]."""
    perm = np.arange(d)
    base = d - len(rows)
    for i, r in enumerate(rows):
        if mask[i]:
            perm[r], perm[base + i] = base + i, r
    return Monomial(perm, np.ones(d))


def bypass_identity(directions: np.ndarray) -> Theta:
    """Identity map of R^n as sum_k c_k (act(r_k.x) - act(-r_k.x)) with unit rows r_k
    (m >= n, c = pinv(r)); exact for ReLU and GELU since act(z) - act(-z) = z."""
    r = directions / np.linalg.norm(directions, axis=1, keepdims=True)   # (m, n)
    c = np.linalg.pinv(r)                                                # (n, m)
    n = r.shape[1]
    return [(np.vstack([r, -r]), np.zeros(2 * len(r))), (np.hstack([c, -c]), np.zeros(n))]


def layer_mismatch(theta_a: Theta, theta_b: Theta) -> float:
    """max relative distance of the layer parameters."""
    return float(max(np.linalg.norm(np.column_stack([Wa - Wb, ba - bb]))
                     / np.linalg.norm(np.column_stack([Wb, bb]))
                     for (Wa, ba), (Wb, bb) in zip(theta_a, theta_b)))


def valid_k_count(theta: Theta, g_theta: Theta, k0: list[Monomial], rows: np.ndarray,
                  tol: float = 1e-12) -> int:
    """How many k = k0 o s (s any subset of pair swaps on layer 1) satisfy g.theta = k.theta."""
    d = theta[0][0].shape[0]
    count = 0
    for bits in range(2 ** len(rows)):
        mask = np.array([(bits >> i) & 1 for i in range(len(rows))], dtype=bool)
        k = [k0[0].compose(pair_swaps(d, rows, mask))] + list(k0[1:])
        count += layer_mismatch(apply_K(theta, k), g_theta) <= tol
    return count


def random_valid_choice(k0s: list[list[Monomial]], theta: Theta, rows: np.ndarray,
                        group: Group, rng: np.random.Generator) -> list[np.ndarray]:
    """rho = k^{-1} built from k(g) = k0(g) o s_g with a random stabilizer element s_g per g
    (identity kept), as dense stacks per hidden layer."""
    d = theta[0][0].shape[0]
    rho = [np.zeros((group.order, k.dim, k.dim)) for k in k0s[0]]
    for g, k0 in enumerate(k0s):
        mask = (rng.integers(0, 2, size=len(rows)).astype(bool) if g != group.identity
                else np.zeros(len(rows), bool))
        ks = [k0[0].compose(pair_swaps(d, rows, mask))] + list(k0[1:])
        for i, k in enumerate(ks):
            rho[i][g] = k.inverse().dense()
    return rho
