"""Per-graph baselines of NB2, trained from scratch on each graph's labelled nodes: a 2-layer
GCN (D~^-1/2 (A + I) D~^-1/2, dropout 0.5, Adam) and the same network without the graph (an
MLP), many graphs at once. Every graph has its own weights and its own mean loss; the losses
are summed, so gradients never mix across graphs and Adam (elementwise) trains each exactly as
alone. Plus the majority-class predictor."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F


@dataclass(frozen=True)
class Batch:
    """Graphs packed end to end: x (N, f), y (N,), train (N,) bool, gid (N,), the normalised
    adjacency as a sparse CSR (N, N) block-diagonal matrix, classes per graph (B,)."""

    x: torch.Tensor
    y: torch.Tensor
    train: torch.Tensor
    gid: torch.Tensor
    a_hat: torch.Tensor
    classes: torch.Tensor
    slot: torch.Tensor
    n_max: int


def normalised_adjacency(n: int, edges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(index (2, nnz), values) of D~^-1/2 (A + I) D~^-1/2 for one graph."""
    e = np.r_[edges, edges[:, ::-1], np.c_[np.arange(n), np.arange(n)]]
    deg = np.bincount(e[:, 0], minlength=n).astype(float)
    return e.T, 1 / np.sqrt(deg[e[:, 0]] * deg[e[:, 1]])


def pack(graphs: list[tuple[int, np.ndarray]], xs: list[np.ndarray], ys: list[np.ndarray],
         trains: list[np.ndarray], classes: list[int]) -> Batch:
    """Pack graphs (n, edges) with their features, labels, train masks and class counts."""
    offs = np.cumsum([0] + [n for n, _ in graphs])
    idx, val = zip(*(normalised_adjacency(n, e) for n, e in graphs))
    index = np.concatenate([i + o for i, o in zip(idx, offs)], axis=1)
    values = torch.as_tensor(np.concatenate(val), dtype=torch.float32)
    a_hat = torch.sparse_coo_tensor(torch.as_tensor(index), values, (offs[-1], offs[-1]))
    a_hat = a_hat.coalesce().to_sparse_csr()
    ns = [n for n, _ in graphs]
    gid = np.repeat(np.arange(len(graphs)), ns)
    n_max = max(ns)
    slot = gid * n_max + np.concatenate([np.arange(n) for n in ns])
    return Batch(torch.as_tensor(np.concatenate(xs)), torch.as_tensor(np.concatenate(ys)),
                 torch.as_tensor(np.concatenate(trains)), torch.as_tensor(gid), a_hat,
                 torch.as_tensor(classes), torch.as_tensor(slot), n_max)


def per_graph_matmul(b: Batch, z: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """Row i of z (N, a) times its own graph's w (B, a, c): scattered into the padded
    (B, n_max, a) layout, one bmm, gathered back (N, c)."""
    B = w.shape[0]
    padded = torch.zeros(B * b.n_max, z.shape[1], dtype=z.dtype).index_copy(0, b.slot, z)
    out = torch.bmm(padded.view(B, b.n_max, -1), w)                      # (B, n_max, c)
    return out.reshape(B * b.n_max, -1)[b.slot]


def forward(b: Batch, w1: torch.Tensor, w2: torch.Tensor, graph: bool, dropout: float,
            training: bool) -> torch.Tensor:
    """Logits (N, C): per-graph weights w1 (B, f, h), w2 (B, h, C); with
    `graph` each layer's output is propagated by A_hat."""
    def prop(z):
        return torch.sparse.mm(b.a_hat, z) if graph else z
    h = prop(per_graph_matmul(b, b.x, w1))
    h = F.dropout(F.relu(h), dropout, training)
    out = prop(per_graph_matmul(b, h, w2))
    wrong = torch.arange(w2.shape[2]) >= b.classes[b.gid][:, None]
    return out.masked_fill(wrong, -torch.inf)


def fit_predict(b: Batch, graph: bool, hidden: int, epochs: int, lr: float, dropout: float,
                weight_decay: float, seed: int) -> torch.Tensor:
    """Train one network per graph on its labelled nodes; predicted labels (N,)."""
    gen = torch.Generator().manual_seed(seed)
    B, f, C = int(b.gid.max()) + 1, b.x.shape[1], int(b.classes.max())
    w1 = (torch.randn(B, f, hidden, generator=gen) * (2 / (f + hidden)) ** 0.5).requires_grad_()
    w2 = (torch.randn(B, hidden, C, generator=gen) * (2 / (hidden + C)) ** 0.5).requires_grad_()
    opt = torch.optim.Adam([w1, w2], lr=lr, weight_decay=weight_decay)
    count = torch.zeros(B).index_add(0, b.gid[b.train], torch.ones(int(b.train.sum())))
    torch.manual_seed(seed)                                       # the dropout masks
    for _ in range(epochs):
        logits = forward(b, w1, w2, graph, dropout, True)
        nll = F.cross_entropy(logits[b.train], b.y[b.train], reduction="none")
        loss = (torch.zeros(B).index_add(0, b.gid[b.train], nll) / count.clamp_min(1)).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        return forward(b, w1, w2, graph, dropout, False).argmax(1)


def majority(y: np.ndarray, train: np.ndarray, classes: int) -> np.ndarray:
    """Every node gets the most frequent label among the labelled ones (lowest on ties)."""
    return np.full(len(y), np.bincount(y[train], minlength=classes).argmax())
