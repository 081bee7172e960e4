"""Centred kernel alignment for the closed-loop loss and its layer weights (spec §1.3, §4; tested
by §5 items 3-5).

- linear CKA on a mini-batch, features flattened per sample, Grams centred with H = I - 11^T/n,
  in two gradient variants: ``full`` (the first commit) and ``detached_norm`` (the released code:
  both Frobenius norms under no_grad, so the value is CKA but the gradient is that of
  <K~_X, K~_Y> / const, which is not scale-invariant);
- the unbiased HSIC of Song et al. (2012) and the minibatch CKA built on it (Nguyen et al. 2021),
  which give CKA_0, the initial conversion alignment;
- the layer weights of eq. (9), w_l proportional to 1 - CKA_0(l).
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch

CKA_GRADS = ("full", "detached_norm")


def check_cka_grad(grad: str) -> str:
    """Return grad if it names a CKA gradient variant; refuse any other value, naming the key
    cka_grad and the allowed values."""
    if grad not in CKA_GRADS:
        raise ValueError(f"cka_grad = {grad!r}; allowed: {list(CKA_GRADS)}")
    return grad


def gram(X: torch.Tensor) -> torch.Tensor:
    """The linear Gram matrix X X^T (n, n) of features X (n, ...), flattened per sample."""
    flat = X.reshape(X.shape[0], -1)
    return flat @ flat.T


def center(K: torch.Tensor) -> torch.Tensor:
    """H K H with H = I - 11^T/n, done by subtracting row and column means (K: (..., n, n))."""
    return (K - K.mean(dim=-1, keepdim=True) - K.mean(dim=-2, keepdim=True)
            + K.mean(dim=(-2, -1), keepdim=True))


def linear_cka(X: torch.Tensor, Y: torch.Tensor, grad: str = "full") -> torch.Tensor:
    """Linear CKA <K~_X, K~_Y>_F / (||K~_X||_F ||K~_Y||_F) of features X, Y (n, ...), K~ the
    centred Gram; ``detached_norm`` takes the two norms as constants (same value, gradient of
    <K~_X, K~_Y> / const). 0 when either centred Gram is zero."""
    check_cka_grad(grad)
    if X.shape[0] != Y.shape[0]:
        raise ValueError(f"linear_cka: X has {X.shape[0]} samples, Y has {Y.shape[0]}")
    kx, ky = center(gram(X)), center(gram(Y))
    if not (bool(kx.detach().any()) and bool(ky.detach().any())):
        # a feature that is the same for every sample (a layer silent on the whole batch) has
        # no alignment to measure: 0 by convention, a constant (0/0 would poison the loss)
        return torch.zeros((), dtype=X.dtype)
    inner = (kx * ky).sum()
    if grad == "full":
        return inner / (torch.linalg.matrix_norm(kx) * torch.linalg.matrix_norm(ky))
    with torch.no_grad():
        norms = torch.linalg.matrix_norm(kx) * torch.linalg.matrix_norm(ky)
    return inner / norms


def hsic_unbiased(K: torch.Tensor, L: torch.Tensor) -> torch.Tensor:
    """Song et al. (2012) unbiased HSIC of kernel matrices K, L (..., n, n), n >= 4: the order-4
    U-statistic in closed form, with the diagonals of K and L zeroed."""
    if K.shape != L.shape or K.ndim < 2 or K.shape[-1] != K.shape[-2]:
        raise ValueError(f"hsic_unbiased: K {tuple(K.shape)} and L {tuple(L.shape)} must be the "
                         "same (..., n, n) shape")
    n = K.shape[-1]
    if n < 4:
        raise ValueError(f"hsic_unbiased needs n >= 4 samples, got n = {n}")
    kt = K - torch.diag_embed(torch.diagonal(K, dim1=-2, dim2=-1))
    lt = L - torch.diag_embed(torch.diagonal(L, dim1=-2, dim2=-1))
    trace = (kt * lt.transpose(-2, -1)).sum(dim=(-2, -1))
    sums = kt.sum(dim=(-2, -1)) * lt.sum(dim=(-2, -1)) / ((n - 1) * (n - 2))
    cross = (kt.sum(dim=-2) * lt.sum(dim=-1)).sum(dim=-1) * (2.0 / (n - 2))
    return (trace + sums - cross) / (n * (n - 3))


def cka_unbiased(K: torch.Tensor, L: torch.Tensor) -> torch.Tensor:
    """Minibatch CKA hsic(K, L) / sqrt(hsic(K, K) hsic(L, L)) on the unbiased HSIC; it can fall
    slightly outside [0, 1] on small batches. 0 when hsic(K, K) or hsic(L, L) is not positive
    (a layer silent, or firing in one sample only, on the batch: the worst alignment, so eq. 9
    weighs it most)."""
    self_k, self_l = hsic_unbiased(K, K), hsic_unbiased(L, L)
    if not (float(self_k) > 0 and float(self_l) > 0):
        return torch.zeros((), dtype=K.dtype)
    return hsic_unbiased(K, L) / torch.sqrt(self_k * self_l)


def layer_weights(cka0: Sequence[float] | np.ndarray | torch.Tensor) -> np.ndarray:
    """Eq. (9): w_l = (1 - CKA_0(l)) / sum_j (1 - CKA_0(j)), float64, so worse-aligned layers weigh
    more. 1 - CKA_0 is clipped at 0 (an unbiased CKA_0 can exceed 1 slightly); if every clipped gap
    is 0 (all layers already aligned) the weights are uniform, 1/L each."""
    if isinstance(cka0, torch.Tensor):
        cka0 = cka0.detach().cpu().double().numpy()
    try:
        c = np.asarray(cka0, dtype=np.float64)
    except (TypeError, ValueError) as err:
        raise ValueError(f"cka0 = {cka0!r}: need a 1-D sequence of floats") from err
    if c.ndim != 1 or c.size == 0:
        raise ValueError(f"cka0 = {cka0!r}: need a non-empty 1-D sequence of floats")
    if not np.all(np.isfinite(c)):
        raise ValueError(f"cka0 = {cka0!r}: every value must be finite")
    gap = np.clip(1.0 - c, 0.0, None)
    total = gap.sum()
    if total == 0.0:
        return np.full(c.size, 1.0 / c.size)
    return gap / total


def hsic_u_statistic(K: torch.Tensor, L: torch.Tensor) -> torch.Tensor:
    """Unbiased HSIC from its definition, vectorised: the mean over all ordered 4-tuples
    (i, j, q, r) of distinct samples of K_ij L_ij + K_ij L_qr - 2 K_ij L_iq (n^4 terms: a check
    of `hsic_unbiased` for small n, not a kernel)."""
    n = K.shape[-1]
    if n < 4:
        raise ValueError(f"hsic_u_statistic needs n >= 4 samples, got n = {n}")
    idx = torch.arange(n)
    i, j, q, r = (idx.view(-1, 1, 1, 1), idx.view(1, -1, 1, 1), idx.view(1, 1, -1, 1),
                  idx.view(1, 1, 1, -1))
    distinct = (i != j) & (i != q) & (i != r) & (j != q) & (j != r) & (q != r)
    terms = K[:, :, None, None] * (L[:, :, None, None] + L[None, None, :, :]
                                   - 2 * L[:, None, :, None])
    return (terms * distinct).sum() / distinct.sum()
