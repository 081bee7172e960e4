"""Plain-loop references of the vectorised kernels (tests and bench only; never notebooks).

Each function copies the definition from the spec in the most literal form: per-sample loops,
dense matrices, brute force over all (signed) permutations for tiny widths.
"""
from __future__ import annotations

import itertools
import math

import numpy as np

from lib.equivariance.groups import Group
from lib.equivariance.mlp import ACTIVATIONS, Theta, acts_of


def forward(theta: Theta, X: np.ndarray, act) -> np.ndarray:
    """f(x) = W_L act(... act(W_1 x + b_1) ...) + b_L, one sample and one neuron at a time."""
    names = acts_of(theta, act)
    out = []
    for x in X:
        h = list(x)
        for i, (W, b) in enumerate(theta):
            z = [sum(W[j, k] * h[k] for k in range(len(h))) + b[j] for j in range(W.shape[0])]
            h = (z if i == len(theta) - 1
                 else [float(ACTIVATIONS[names[i]](np.float64(v))) for v in z])
        out.append(h)
    return np.array(out)


def apply_K(theta: Theta, dense_ks: list[np.ndarray]) -> Theta:
    """k.theta with dense matrices: W_i -> k_i W_i k_{i-1}^{-1}, b_i -> k_i b_i."""
    L = len(theta)
    ks = [None] + list(dense_ks) + [None]
    out = []
    for i, (W, b) in enumerate(theta):
        left = ks[i + 1] if i < L - 1 else np.eye(W.shape[0])
        right = np.linalg.inv(ks[i]) if i > 0 else np.eye(W.shape[1])
        out.append((left @ W @ right, left @ b))
    return out


def match_rows(A: np.ndarray, B: np.ndarray, kind: str) -> tuple[np.ndarray, float]:
    """Brute force over all permutations (and per-row sign or positive scale): the dense k
    minimising ||A - k B||_F, and the relative residual. Widths <= 7."""
    d = len(A)
    best, best_k = math.inf, None
    for perm in itertools.permutations(range(d)):
        K = np.zeros((d, d))
        for j, l in enumerate(perm):
            a, bl = A[j], B[l]
            if kind == "perm":
                s = 1.0
            elif kind == "signed_perm":
                s = 1.0 if np.linalg.norm(a - bl) <= np.linalg.norm(a + bl) else -1.0
            else:                                               # pos_monomial: best positive scale
                s = max(float(a @ bl) / float(bl @ bl), 1e-300)
            K[j, l] = s
        r = np.linalg.norm(A - K @ B)
        if r < best:
            best, best_k = r, K
    return best_k, float(best / np.linalg.norm(B))


def homomorphism_defects(rho: np.ndarray, group: Group) -> np.ndarray:
    """max |rho(gh) - rho(g) rho(h)| for every ordered pair, by loops."""
    n = group.order
    out = np.zeros((n, n))
    for g in range(n):
        for h in range(n):
            out[g, h] = np.abs(rho[group.table[g, h]] - rho[g] @ rho[h]).max()
    return out


def lv_error(F_fit, Fg_fit, F_eval, Fg_eval) -> float:
    """Normal equations for A (with bias), then a per-sample loop for the median residual."""
    Fa = np.column_stack([F_fit, np.ones(len(F_fit))])
    A = np.linalg.solve(Fa.T @ Fa, Fa.T @ Fg_fit)
    errs = []
    for f, fg in zip(F_eval, Fg_eval):
        pred = np.append(f, 1.0) @ A
        errs.append(np.linalg.norm(fg - pred) / np.linalg.norm(f))
    return float(np.median(errs))


def fibre_dimensions(widths: list[int], act: str, P: np.ndarray, X: np.ndarray,
                     bias: bool = True, rtol: float = 1e-9) -> np.ndarray:
    """Reference: torch autograd Jacobian per draw (float64), then the same rank rule."""
    import torch

    acts = {"tanh": torch.tanh, "relu": torch.relu, "gelu": torch.nn.functional.gelu,
            "cube": lambda z: z ** 3, "linear": lambda z: z}
    Xt = torch.as_tensor(X, dtype=torch.float64)

    def f(p):
        pos, H = 0, Xt
        pairs = list(zip(widths[:-1], widths[1:]))
        for i, (d_in, d_out) in enumerate(pairs):
            W = p[pos:pos + d_in * d_out].reshape(d_out, d_in)
            pos += d_in * d_out
            b = p[pos:pos + d_out] if bias else torch.zeros(d_out, dtype=p.dtype)
            pos += d_out if bias else 0
            H = H @ W.T + b
            if i < len(pairs) - 1:
                H = acts[act](H)
        return H.reshape(-1)

    out = []
    for p in P:
        J = torch.autograd.functional.jacobian(f, torch.as_tensor(p, dtype=torch.float64))
        S = torch.linalg.svdvals(J)
        out.append(P.shape[1] - int((S > rtol * S[0]).sum()))
    return np.array(out)
