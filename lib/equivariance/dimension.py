"""Jacobian-rank dimension of the fibres of the parameter-to-function map (spec §2.2, E2).

The functional dimension at theta is the rank of d f(X; theta) / d theta over a sample X
(stacked outputs); the local fibre dimension is #params - rank. The Jacobian is assembled in
float64 by back-propagating the identity through the layers, vectorised over parameter draws
(`naive.fibre_dimensions` is the torch.func reference).
"""
from __future__ import annotations

import numpy as np
from scipy.special import erf

DERIVATIVES = {
    "tanh": lambda z: 1.0 - np.tanh(z) ** 2,
    "relu": lambda z: (z > 0).astype(float),
    "gelu": lambda z: (0.5 * (1.0 + erf(z / np.sqrt(2.0)))
                       + z * np.exp(-0.5 * z * z) / np.sqrt(2 * np.pi)),
    "cube": lambda z: 3.0 * z * z,
    "linear": lambda z: np.ones_like(z),
}
ACTS = {
    "tanh": np.tanh,
    "relu": lambda z: np.maximum(z, 0.0),
    "gelu": lambda z: 0.5 * z * (1.0 + erf(z / np.sqrt(2.0))),
    "cube": lambda z: z ** 3,
    "linear": lambda z: z,
}


def unflatten(P: np.ndarray, widths: list[int], bias: bool = True):
    """Batched layers [(W (D, d_out, d_in), b (D, d_out))] from flat draws P (D, #params)."""
    out, pos = [], 0
    D = P.shape[0]
    for d_in, d_out in zip(widths[:-1], widths[1:]):
        W = P[:, pos:pos + d_in * d_out].reshape(D, d_out, d_in)
        pos += d_in * d_out
        if bias:
            b = P[:, pos:pos + d_out]
            pos += d_out
        else:
            b = np.zeros((D, d_out))
        out.append((W, b))
    return out


def count_params(widths: list[int], bias: bool = True) -> int:
    return int(sum(a * b + (b if bias else 0) for a, b in zip(widths[:-1], widths[1:])))


def jacobian(widths: list[int], act: str, P: np.ndarray, X: np.ndarray,
             bias: bool = True) -> np.ndarray:
    """d f(X; p) / d p for every draw: (D, N * d_L, #params), outputs ordered (sample, unit)."""
    layers = unflatten(P, widths, bias)
    D, N, L = P.shape[0], X.shape[0], len(layers)
    H = [np.broadcast_to(X, (D, N, X.shape[1]))]               # h_0 .. h_{L-1}: (D, N, d_i)
    Z = []
    for i, (W, b) in enumerate(layers):
        z = np.einsum("dnk,djk->dnj", H[-1], W) + b[:, None, :]
        Z.append(z)
        if i < L - 1:
            H.append(ACTS[act](z))
    d_L = widths[-1]
    delta = np.broadcast_to(np.eye(d_L), (D, N, d_L, d_L))       # d out_o / d z_L[j]: (D, N, o, j)
    blocks = [None] * L
    for i in range(L - 1, -1, -1):
        gW = np.einsum("dnoj,dnk->dnojk", delta, H[i])           # (D, N, o, d_i+1, d_i)
        parts = [gW.reshape(D, N * d_L, -1)]
        if bias:
            parts.append(delta.reshape(D, N * d_L, -1))
        blocks[i] = np.concatenate(parts, axis=2)
        if i > 0:
            delta = (np.einsum("dnoj,djk->dnok", delta, layers[i][0])
                     * DERIVATIVES[act](Z[i - 1])[:, :, None, :])
    return np.concatenate(blocks, axis=2)


def fibre_dimensions(widths: list[int], act: str, P: np.ndarray, X: np.ndarray,
                     bias: bool = True, rtol: float = 1e-9) -> np.ndarray:
    """#params - rank J for every parameter draw, P of shape (draws, #params), X (N, d_0)."""
    J = jacobian(widths, act, P, X, bias)
    S = np.linalg.svd(J, compute_uv=False)                       # (draws, min)
    rank = (S > rtol * S[:, :1]).sum(axis=1)
    return (P.shape[1] - rank).astype(int)


def random_params(widths: list[int], draws: int, rng: np.random.Generator,
                  bias: bool = True) -> np.ndarray:
    """Gaussian draws (variance 1 / fan-in for weights, 0.25 for biases), (draws, #params)."""
    parts = []
    for d_in, d_out in zip(widths[:-1], widths[1:]):
        parts.append(rng.normal(size=(draws, d_in * d_out)) / np.sqrt(d_in))
        if bias:
            parts.append(rng.normal(size=(draws, d_out)) * 0.5)
    return np.concatenate(parts, axis=1)


def fibre_table(widths: list[int], acts: list[str], draws: int, X: np.ndarray,
                rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Fibre dimensions of `draws` random parameters per activation (same inputs X)."""
    return {a: fibre_dimensions(widths, a, random_params(widths, draws, rng), X) for a in acts}


def input_scale_scan(widths: list[int], act: str, draws: int, n_points: int,
                     scales: list[float], rng: np.random.Generator) -> np.ndarray:
    """(len(scales), draws) fibre dimensions of the same parameter draws on Gaussian inputs of
    growing scale: never-active ReLU units on a small sample add spurious fibre dimensions."""
    P = random_params(widths, draws, rng)
    Z = rng.normal(size=(n_points, widths[0]))
    return np.stack([fibre_dimensions(widths, act, P, s * Z) for s in scales])
