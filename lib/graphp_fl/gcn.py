"""A 2-layer dense GCN (Kipf & Welling) batched over a leading model axis M, its parameters as
a tuple (W1, b1, W2, b2), and the diagonal Fisher from per-sample gradients."""
from __future__ import annotations

import torch

Params = tuple[torch.Tensor, ...]


def normalise(adj: torch.Tensor) -> torch.Tensor:
    """D^-1/2 (A + I) D^-1/2 for a (M, n, n) boolean adjacency, float32."""
    a = adj.float() + torch.eye(adj.shape[-1])
    d = a.sum(-1).rsqrt()                                        # (M, n)
    return d[..., :, None] * a * d[..., None, :]


def init(gen: torch.Generator, dim: int, hidden: int, classes: int) -> Params:
    """Glorot-uniform weights, zero biases, for one model (no model axis)."""
    def glorot(fan_in: int, fan_out: int) -> torch.Tensor:
        bound = (6.0 / (fan_in + fan_out)) ** 0.5
        return (2 * torch.rand(fan_in, fan_out, generator=gen) - 1) * bound
    return glorot(dim, hidden), torch.zeros(hidden), glorot(hidden, classes), torch.zeros(classes)


def forward(params: Params, a_hat: torch.Tensor, ax: torch.Tensor) -> torch.Tensor:
    """Logits (M, n, C) from A_hat (M, n, n) and the precomputed A_hat X (M, n, d):
    A_hat relu(A_hat X W1 + b1) W2 + b2."""
    w1, b1, w2, b2 = params
    h = torch.relu(ax @ w1 + b1[:, None, :])                    # (M, n, h)
    return a_hat @ (h @ w2) + b2[:, None, :]                   # (M, n, C)


def fisher(params: Params, a_hat: torch.Tensor, ax: torch.Tensor,
           nodes: torch.Tensor, y: torch.Tensor) -> Params:
    """Diagonal empirical Fisher E_i[(d log p(y_i | i) / d theta)^2] over `nodes` (M, b) with
    labels y (M, n), from per-sample gradients written out: with e_i = softmax(l_i) - onehot(y_i),
    v_i = W2 e_i, u_i = A_i H and the relu mask S, the gradients of node i are
    (v_i * A_i S, A_i (AX x S) * v_i, u_i e_i^T, e_i); the last two are outer products, the
    first two one GEMM of the rows A_i over the per-node (AX_j x S_j)."""
    w1, b1, w2, b2 = params
    rows = torch.gather(a_hat, 1, nodes[..., None].expand(-1, -1, a_hat.shape[-1]))  # (M, b, n)
    pre = ax @ w1 + b1[:, None, :]                               # (M, n, h)
    mask = (pre > 0).to(pre.dtype)
    u = rows @ torch.relu(pre)                                   # (M, b, h)
    onehot = torch.nn.functional.one_hot(torch.gather(y, 1, nodes), w2.shape[-1])
    e = torch.softmax(u @ w2 + b2[:, None, :], -1) - onehot.to(pre.dtype)   # (M, b, C)
    v = e @ w2.transpose(1, 2)                                   # (M, b, h)
    m, n, d = ax.shape
    outer = (ax[..., :, None] * mask[..., None, :]).reshape(m, n, -1)      # (M, n, d h)
    g_w1 = (rows @ outer).view(m, -1, d, w1.shape[-1]) * v[:, :, None, :]  # (M, b, d, h)
    g_b1 = (rows @ mask) * v                                     # (M, b, h)
    g_w2 = u[..., :, None] * e[..., None, :]                     # (M, b, h, C)
    return tuple((g ** 2).mean(1) for g in (g_w1, g_b1, g_w2, e))
