"""Measuring (approximate) layerwise equivariance of trained networks (spec §2.3, §3.1, §5.6).

Lenc–Vedaldi metric as the paper reports it: for hidden layer i fit A_i by least squares with
f_i(g y) ≈ [f_i(y), 1] A_i on a fit sample, then report the median over an independent evaluation
sample of ||f_i(g y) - [f_i(y), 1] A_i|| / ||f_i(y)|| (the paper's normalisation, spec §3.1).
Also: projection of a fitted map to the nearest signed permutation, monomiality, bypass pairs.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import linear_sum_assignment

from lib.equivariance import mlp
from lib.equivariance.mlp import Theta


def _aug(F: np.ndarray, bias: bool) -> np.ndarray:
    return np.column_stack([F, np.ones(len(F))]) if bias else F


def lv_fit(F: np.ndarray, Fg: np.ndarray, bias: bool = True, ridge: float = 0.0):
    """A with Fg ≈ [F, 1] A (least squares, optional ridge) and the numerical rank of [F, 1]."""
    Fa = _aug(F, bias)                                          # (N, d + 1)
    if ridge > 0:
        A = np.linalg.solve(Fa.T @ Fa + ridge * len(Fa) * np.eye(Fa.shape[1]), Fa.T @ Fg)
    else:
        A = np.linalg.lstsq(Fa, Fg, rcond=None)[0]
    return A, int(np.linalg.matrix_rank(Fa))


def lv_error_from_features(F_fit, Fg_fit, F_eval, Fg_eval, bias: bool = True,
                           ridge: float = 0.0) -> float:
    """Median relative residual of the fitted linear map on the evaluation features."""
    A, _ = lv_fit(F_fit, Fg_fit, bias, ridge)
    resid = np.linalg.norm(Fg_eval - _aug(F_eval, bias) @ A, axis=1)   # (N_eval,)
    return float(np.median(resid / np.maximum(np.linalg.norm(F_eval, axis=1), 1e-300)))


def lv_errors(theta: Theta, act, R: np.ndarray, X_fit: np.ndarray, X_eval: np.ndarray,
              bias: bool = True, ridge: float = 0.0) -> np.ndarray:
    """LV error of every hidden layer for one input transformation R (d_0 x d_0)."""
    _, H = mlp.forward(theta, X_fit, act, return_hidden=True)
    _, Hg = mlp.forward(theta, X_fit @ R.T, act, return_hidden=True)
    _, E = mlp.forward(theta, X_eval, act, return_hidden=True)
    _, Eg = mlp.forward(theta, X_eval @ R.T, act, return_hidden=True)
    return np.array([lv_error_from_features(h, hg, e, eg, bias, ridge)
                     for h, hg, e, eg in zip(H, Hg, E, Eg)])


def fitted_map(theta: Theta, act, R: np.ndarray, X_fit: np.ndarray, layer: int,
               ridge: float = 0.0) -> np.ndarray:
    """The linear part M (d_i x d_i) of the fitted action, h(Rx) ≈ M h(x) + c, for one layer."""
    _, H = mlp.forward(theta, X_fit, act, return_hidden=True)
    _, Hg = mlp.forward(theta, X_fit @ R.T, act, return_hidden=True)
    A, _ = lv_fit(H[layer], Hg[layer], True, ridge)
    return A[:-1].T                                             # rows: output coordinates


@dataclass
class SignedPermFit:
    perm: np.ndarray
    sign: np.ndarray
    off_support: float      # fraction of squared mass of M outside the chosen support

    def dense(self) -> np.ndarray:
        P = np.zeros((len(self.perm), len(self.perm)))
        P[np.arange(len(self.perm)), self.perm] = self.sign
        return P


def nearest_signed_perm(M: np.ndarray, positive: bool = False) -> SignedPermFit:
    """Hungarian assignment maximizing sum |M[j, perm j]| (ReLU: positive entries only)."""
    score = np.maximum(M, 0.0) if positive else np.abs(M)
    _, perm = linear_sum_assignment(-score)
    vals = M[np.arange(len(M)), perm]
    sign = np.ones(len(M)) if positive else np.sign(vals)
    off = 1.0 - float((vals ** 2).sum() / max((M ** 2).sum(), 1e-300))
    return SignedPermFit(perm, sign, off)


def bypass_pairs(theta: Theta, layer: int, cos_tol: float = 0.98) -> int:
    """Pairs of neurons with opposite incoming rows (with bias) and opposite outgoing columns
    (cosine < -cos_tol): the ReLU/GELU linear bypass act(z) - act(-z) = z (spec §2.1, E5)."""
    W, b = theta[layer]
    R = np.column_stack([W, b])
    C = theta[layer + 1][0].T                                   # (d_i, d_{i+1}) outgoing
    def cos(M):
        U = M / np.maximum(np.linalg.norm(M, axis=1, keepdims=True), 1e-300)
        return U @ U.T
    both = (cos(R) < -cos_tol) & (cos(C) < -cos_tol)
    return int(np.triu(both, 1).sum())


def lv_errors_group(theta: Theta, act, group, X_fit: np.ndarray, X_eval: np.ndarray,
                    ridge: float = 0.0) -> np.ndarray:
    """max over non-identity g of the per-layer LV error, (L-1,)."""
    errs = [lv_errors(theta, act, group.mats[g], X_fit, X_eval, ridge=ridge)
            for g in range(group.order) if g != group.identity]
    return np.max(errs, axis=0)


def feature_rank_deficit(theta: Theta, act, X: np.ndarray, layer: int) -> int:
    """(d_i + 1) - rank [h_i(X), 1]: collinear features make the LV fit non-unique."""
    _, H = mlp.forward(theta, X, act, return_hidden=True)
    Fa = _aug(H[layer], True)
    return int(Fa.shape[1] - np.linalg.matrix_rank(Fa))


def near_parallel_pairs(theta: Theta, layer: int, cos_tol: float = 0.98) -> int:
    """Pairs of units whose incoming rows (with bias) have |cosine| > cos_tol: approximate
    redundancy of a trained layer (spec §5.5 "direction clusters")."""
    W, b = theta[layer]
    R = np.column_stack([W, b])
    U = R / np.maximum(np.linalg.norm(R, axis=1, keepdims=True), 1e-300)
    return int(np.triu(np.abs(U @ U.T) > cos_tol, 1).sum())
