"""A tiny PFN for node classification in context (spec NB2), the analogue of GraphPFN over
LimiX (spec §1.3; official lib/graphpfn/model.py read as the reference). Each layer is the
tabular block, x <- x + A(LN x) with every node attending to the labelled nodes, then
x <- x + MLP(LN x); with `graph=True` it is wrapped as GraphPFN wraps LimiX:
x <- x + GA(LN x), x <- x + MLP'(LN x), GA 4-head attention over graph neighbours with an
edge softmax, the output projections of GA and MLP' zero-initialised, so that at init the
graph model computes exactly the tabular one."""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn


def neighbour_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, src: torch.Tensor,
                        dst: torch.Tensor) -> torch.Tensor:
    """out_i = sum over edges j -> i of edge-softmax(q_i . k_j / sqrt(dh)) v_j; q, k, v
    (n, heads, dh), src/dst (E,). Scores per edge, a max per destination for stability, then
    two index_adds (the u_mul_e_sum of DGL)."""
    n, heads, dh = q.shape
    s = (q[dst] * k[src]).sum(-1) / dh ** 0.5                               # (E, heads)
    top = torch.full((n, heads), -torch.inf, dtype=s.dtype).scatter_reduce(
        0, dst[:, None].expand(-1, heads), s, "amax", include_self=True)
    w = torch.exp(s - top[dst])                                            # (E, heads)
    z = torch.zeros(n, heads, dtype=s.dtype).index_add(0, dst, w)
    out = torch.zeros(n, heads, dh, dtype=v.dtype).index_add(0, dst, w[..., None] * v[src])
    return out / z.clamp_min(torch.finfo(z.dtype).tiny)[..., None]


class NeighbourAttention(nn.Module):
    """GA: 4-head attention restricted to graph neighbours, zero-initialised output."""

    def __init__(self, d: int, heads: int):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        nn.init.zeros_(self.out.weight)
        nn.init.zeros_(self.out.bias)

    def forward(self, x: torch.Tensor, src: torch.Tensor, dst: torch.Tensor) -> torch.Tensor:
        n, d = x.shape
        q, k, v = self.qkv(x).view(n, 3, self.heads, d // self.heads).unbind(1)   # (n, H, dh)
        return self.out(neighbour_attention(q, k, v, src, dst).reshape(n, d))


def mlp(d: int, zero_out: bool) -> nn.Sequential:
    """d -> 2d -> d with GELU; the last projection zeroed for an adapter."""
    net = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))
    if zero_out:
        nn.init.zeros_(net[2].weight)
        nn.init.zeros_(net[2].bias)
    return net


class Layer(nn.Module):
    """The tabular block (attention to labelled nodes, MLP), plus the graph adapter."""

    def __init__(self, d: int, heads: int, graph: bool):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.mlp = mlp(d, zero_out=False)
        self.graph = graph
        if graph:
            self.ln_ga, self.ln_ad = nn.LayerNorm(d), nn.LayerNorm(d)
            self.ga = NeighbourAttention(d, heads)
            self.adapter = mlp(d, zero_out=True)

    def forward(self, x: torch.Tensor, train: torch.Tensor, src: torch.Tensor,
                dst: torch.Tensor) -> torch.Tensor:
        n, d = x.shape
        qkv = self.qkv(self.ln1(x)).view(n, 3, self.heads, d // self.heads)   # (n, 3, H, dh)
        q, k, v = qkv.permute(1, 2, 0, 3).unbind(0)                           # (H, n, dh)
        # keys and values only at labelled nodes
        att = F.scaled_dot_product_attention(q, k[:, train], v[:, train])           # (H, n, dh)
        x = x + self.proj(att.transpose(0, 1).reshape(n, d))
        x = x + self.mlp(self.ln2(x))
        if self.graph:
            x = x + self.ga(self.ln_ga(x), src, dst)
            x = x + self.adapter(self.ln_ad(x))
        return x


class TinyPFN(nn.Module):
    """Features (n, f) and the labels of the train nodes in, class logits (n, max_classes)
    out; `graph` adds the zero-initialised neighbourhood adapters."""

    def __init__(self, n_features: int, max_classes: int, d: int, layers: int, heads: int,
                 graph: bool):
        super().__init__()
        self.max_classes = max_classes
        self.enc = nn.Linear(n_features, d)
        self.label = nn.Embedding(max_classes + 1, d)          # the last one is "?"
        self.layers = nn.ModuleList(Layer(d, heads, graph) for _ in range(layers))
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, max_classes)

    def forward(self, x: torch.Tensor, y: torch.Tensor, train: torch.Tensor,
                edges: torch.Tensor, classes: int) -> torch.Tensor:
        """x (n, f), y (n,) (read at train nodes only), train (n,) bool, edges (E, 2)
        undirected; logits of classes >= `classes` are -inf."""
        shown = torch.where(train, y, torch.full_like(y, self.max_classes))
        h = self.enc(x) + self.label(shown)
        src = torch.cat([edges[:, 0], edges[:, 1]])
        dst = torch.cat([edges[:, 1], edges[:, 0]])
        for layer in self.layers:
            h = layer(h, train, src, dst)
        logits = self.head(self.ln(h))
        return logits.masked_fill(torch.arange(self.max_classes) >= classes, -torch.inf)


def pair(n_features: int, max_classes: int, d: int, layers: int, heads: int, seed: int
         ) -> tuple[TinyPFN, TinyPFN]:
    """(tab-PFN, graph-PFN) from one seed: the graph model's tabular weights are the tabular
    model's, its adapters fresh (zero output projections), as GraphPFN starts from LimiX."""
    torch.manual_seed(seed)
    tab = TinyPFN(n_features, max_classes, d, layers, heads, graph=False)
    graph = TinyPFN(n_features, max_classes, d, layers, heads, graph=True)
    missing, unexpected = graph.load_state_dict(tab.state_dict(), strict=False)
    assert not unexpected and all(".ga." in k or ".adapter." in k or ".ln_" in k
                                  for k in missing)
    return tab, graph
