"""Mean message passing over the residue graph (spec §1.1, §1.6): an input layer, R rounds of
h <- relu(W_s h + W_n mean_{j -> i} h_j), a linear head. Sequence neighbours always; spatial
contacts when the chains carry them."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn


@dataclass(frozen=True)
class Graph:
    """A residue graph as torch tensors: node features, directed edges, in-degrees."""

    x: torch.Tensor          # (n, F) float32
    adj: torch.Tensor        # (n, n) sparse COO, row i: 1 / in-degree(i) at each in-neighbour


def graph(x: np.ndarray, src: np.ndarray, dst: np.ndarray) -> Graph:
    """Build the torch graph of one split: the row-normalised adjacency as a sparse matrix
    (one sparse product per round is half the time of a gather and a scatter-add)."""
    n = len(x)
    deg = np.bincount(dst, minlength=n).clip(min=1).astype(np.float32)
    idx = torch.as_tensor(np.stack([dst, src]), dtype=torch.int64)
    adj = torch.sparse_coo_tensor(idx, torch.as_tensor(1.0 / deg[dst]), (n, n),
                                  check_invariants=True).coalesce()
    return Graph(torch.as_tensor(x, dtype=torch.float32), adj)


def mean_neighbours(h: torch.Tensor, g: Graph) -> torch.Tensor:
    """(n, H): the mean of h over each residue's in-neighbours (zero where it has none)."""
    return torch.sparse.mm(g.adj, h)


class ChainGNN(nn.Module):
    """Message passing network with `n_out` outputs per residue."""

    def __init__(self, n_in: int, hidden: int, n_out: int, rounds: int,
                 gen: torch.Generator):
        super().__init__()
        self.embed = nn.Linear(n_in, hidden)
        # W_s h + W_n m as one product of [h, m] (n, 2H) with the stacked (2H, H) weights
        self.rounds = nn.ModuleList(nn.Linear(2 * hidden, hidden) for _ in range(rounds))
        self.head = nn.Linear(hidden, n_out)
        for lin in self.modules():
            if isinstance(lin, nn.Linear):                      # U(+-1/sqrt(fan_in)), seeded
                bound = 1.0 / math.sqrt(lin.in_features)             # (2H for a round)
                for p in lin.parameters():
                    nn.init.uniform_(p, -bound, bound, generator=gen)

    def hidden(self, g: Graph) -> torch.Tensor:
        """(n, H): the representation the head reads."""
        h = torch.relu(self.embed(g.x))
        for mix in self.rounds:
            h = torch.relu(mix(torch.cat([h, mean_neighbours(h, g)], dim=1)))
        return h

    def forward(self, g: Graph) -> torch.Tensor:
        return self.head(self.hidden(g))                         # (n, n_out)
