"""MLP parameters, activations and forward passes (spec §1.2, §5.1 `mlp`).

theta is a list of layers (W_i, b_i), W_i of shape (d_i, d_{i-1}); inputs are batches X of shape
(N, d_0) and a hidden layer computes h_i = act(h_{i-1} @ W_i.T + b_i). The last layer is affine.
`act` is one name for every hidden layer or a list with one name per hidden layer.
"""
from __future__ import annotations

import numpy as np
from scipy.special import erf

Theta = list[tuple[np.ndarray, np.ndarray]]

ACTIVATIONS = {
    "tanh": np.tanh,
    "relu": lambda z: np.maximum(z, 0.0),
    "gelu": lambda z: 0.5 * z * (1.0 + erf(z / np.sqrt(2.0))),
    "sigmoid": lambda z: 1.0 / (1.0 + np.exp(-z)),
    "cube": lambda z: z ** 3,
    "linear": lambda z: z,
}

# latent symmetry kind of each activation (spec §2.1 table)
KIND = {"tanh": "signed_perm", "relu": "pos_monomial", "gelu": "perm", "linear": "gl",
        "sigmoid": "signed_perm_affine"}


def acts_of(theta: Theta, act) -> list[str]:
    """One activation name per hidden layer."""
    n_hidden = len(theta) - 1
    return [act] * n_hidden if isinstance(act, str) else list(act)


def dims(theta: Theta) -> list[int]:
    """[d_0, d_1, ..., d_L]."""
    return [theta[0][0].shape[1]] + [W.shape[0] for W, _ in theta]


def layer(theta: Theta, i: int, H: np.ndarray, act) -> np.ndarray:
    """f_{i+1}(H) for 0-based layer index i (activation on hidden layers, affine on the last)."""
    W, b = theta[i]
    Z = H @ W.T + b                                             # (N, d_{i+1})
    if i == len(theta) - 1:
        return Z
    return ACTIVATIONS[acts_of(theta, act)[i]](Z)


def forward(theta: Theta, X: np.ndarray, act, return_hidden: bool = False):
    """f(X; theta) and optionally the list [h_1, ..., h_{L-1}] of hidden representations."""
    hidden, H = [], X
    for i in range(len(theta)):
        H = layer(theta, i, H, act)
        if i < len(theta) - 1:
            hidden.append(H)
    return (H, hidden) if return_hidden else H


def random_mlp(widths: list[int], rng: np.random.Generator, scale: float = 1.0,
               bias: bool = True) -> Theta:
    """Gaussian parameters with variance scale^2 / fan-in (biases N(0, 0.25) or zero)."""
    theta = []
    for d_in, d_out in zip(widths[:-1], widths[1:]):
        W = rng.normal(size=(d_out, d_in)) * scale / np.sqrt(d_in)
        b = rng.normal(size=d_out) * 0.5 if bias else np.zeros(d_out)
        theta.append((W, b))
    return theta


def copy(theta: Theta) -> Theta:
    return [(W.copy(), b.copy()) for W, b in theta]


def flatten(theta: Theta) -> np.ndarray:
    return np.concatenate([np.concatenate([W.ravel(), b]) for W, b in theta])


def n_params(theta: Theta) -> int:
    return int(sum(W.size + b.size for W, b in theta))


def relative_error(A: np.ndarray, B: np.ndarray) -> float:
    """||A - B||_F / ||B||_F (0 when both vanish)."""
    nb = np.linalg.norm(B)
    return float(np.linalg.norm(A - B) / nb) if nb > 0 else float(np.linalg.norm(A))


def same_function(theta: Theta, theta2: Theta, X: np.ndarray, act) -> float:
    """Relative error between the two end-to-end maps on the sample X."""
    return relative_error(forward(theta2, X, act), forward(theta, X, act))
