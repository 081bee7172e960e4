"""Plain-loop references (spec §4), float64, one model and one node or coordinate at a time:
the per-sample-loop Fisher, the per-coordinate FRPA closed form and the per-edge GCN."""
from __future__ import annotations

import numpy as np
import torch


def align_loop(theta_k: np.ndarray, theta_g: np.ndarray, fisher: np.ndarray,
               lam: float) -> np.ndarray:
    """FRPA's minimiser coordinate by coordinate: the root of lam (t - g) + F (t - k) = 0."""
    out = np.empty(len(theta_k), dtype=np.asarray(theta_k).dtype)
    for i in range(len(theta_k)):
        out[i] = (fisher[i] * theta_k[i] + lam * theta_g[i]) / (fisher[i] + lam)
    return out


def gcn_forward_loop(params: tuple[torch.Tensor, ...], adj: np.ndarray,
                     x: np.ndarray) -> np.ndarray:
    """Logits (n, C) of one GCN: every aggregation a sum over each node's edges and self-loop,
    weighted 1 / sqrt(deg_u deg_v) with deg counting the self-loop."""
    w1, b1, w2, b2 = (p.detach().double().numpy() for p in params)
    n = adj.shape[0]
    deg = [1 + int(adj[u].sum()) for u in range(n)]

    def aggregate(h: np.ndarray) -> np.ndarray:
        out = np.zeros_like(h)
        for u in range(n):
            out[u] += h[u] / deg[u]
            for v in np.flatnonzero(adj[u]):
                out[u] += h[v] / np.sqrt(deg[u] * deg[v])
        return out
    hidden = np.maximum(aggregate(x.astype(float)) @ w1 + b1, 0.0)
    return aggregate(hidden @ w2) + b2


def fisher_loop(params: tuple[torch.Tensor, ...], a_hat: torch.Tensor, x: torch.Tensor,
                nodes: list[int], y: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """Diagonal empirical Fisher of one model: autograd of log p(y_i | i) through the whole
    forward pass, one node at a time, squared and averaged."""
    theta = [p.detach().double().clone().requires_grad_() for p in params]
    a, xx = a_hat.double(), x.double()
    acc = [torch.zeros_like(t) for t in theta]
    for i in nodes:
        w1, b1, w2, b2 = theta
        logits = a @ (torch.relu(a @ xx @ w1 + b1) @ w2) + b2
        grads = torch.autograd.grad(torch.log_softmax(logits[i], -1)[y[i]], theta)
        for s, g in zip(acc, grads):
            s += g ** 2
    return tuple(s / len(nodes) for s in acc)
