"""Jacobian-rank dimension of the fibres of the parameter-to-function map (spec §2.2, E2).

The functional dimension at theta is the rank of d f(X; theta) / d theta over a sample X
(stacked outputs); the local fibre dimension is #params - rank. Computed in float64 with
torch.func (forward-mode jacfwd: #params tangents, vectorised over parameter draws with vmap).
"""
from __future__ import annotations

import numpy as np
import torch
from torch.func import jacfwd, vmap

TORCH_ACTS = {
    "tanh": torch.tanh,
    "relu": torch.relu,
    "gelu": lambda z: torch.nn.functional.gelu(z),
    "cube": lambda z: z ** 3,
    "linear": lambda z: z,
}


def _unflatten(p: torch.Tensor, widths: list[int], bias: bool):
    out, pos = [], 0
    for d_in, d_out in zip(widths[:-1], widths[1:]):
        W = p[pos:pos + d_in * d_out].reshape(d_out, d_in)
        pos += d_in * d_out
        if bias:
            b = p[pos:pos + d_out]
            pos += d_out
        else:
            b = torch.zeros(d_out, dtype=p.dtype)
        out.append((W, b))
    return out


def count_params(widths: list[int], bias: bool = True) -> int:
    return int(sum(a * b + (b if bias else 0) for a, b in zip(widths[:-1], widths[1:])))


def network(widths: list[int], act: str, bias: bool = True):
    """f(p, X) for a flat parameter vector p (torch, any dtype)."""
    sigma = TORCH_ACTS[act]

    def f(p: torch.Tensor, X: torch.Tensor) -> torch.Tensor:
        layers = _unflatten(p, widths, bias)
        H = X
        for i, (W, b) in enumerate(layers):
            H = H @ W.T + b
            if i < len(layers) - 1:
                H = sigma(H)
        return H.reshape(-1)                                    # (N * d_L,)
    return f


def fibre_dimensions(widths: list[int], act: str, P: np.ndarray, X: np.ndarray,
                     bias: bool = True, rtol: float = 1e-9) -> np.ndarray:
    """#params - rank J for every parameter draw, P of shape (draws, #params), X (N, d_0)."""
    f = network(widths, act, bias)
    Pt = torch.as_tensor(P, dtype=torch.float64)
    Xt = torch.as_tensor(X, dtype=torch.float64)
    J = vmap(jacfwd(f), in_dims=(0, None))(Pt, Xt)              # (draws, N * d_L, #params)
    S = torch.linalg.svdvals(J)                                  # (draws, min)
    rank = (S > rtol * S[:, :1]).sum(dim=1)
    return (P.shape[1] - rank).numpy().astype(int)


def random_params(widths: list[int], draws: int, rng: np.random.Generator,
                  bias: bool = True) -> np.ndarray:
    """Gaussian draws (variance 1 / fan-in for weights, 0.25 for biases), (draws, #params)."""
    parts = []
    for d_in, d_out in zip(widths[:-1], widths[1:]):
        parts.append(rng.normal(size=(draws, d_in * d_out)) / np.sqrt(d_in))
        if bias:
            parts.append(rng.normal(size=(draws, d_out)) * 0.5)
    return np.concatenate(parts, axis=1)
