"""Prior tasks for the tiny PFNs, their training side by side, and their in-context evaluation
(spec NB2): every step one fresh prior graph and task, the same one for both models;
AdamW, no weight decay, linear warm-up, gradient clipping at 1 (pretrain.toml's settings), over
one flat buffer per model (`flat_adamw`)."""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np
import torch
import torch.nn.functional as F
from tqdm.auto import tqdm

from lib.graphpfn import prior_scm, prior_structure
from lib.graphpfn.configs import Config
from lib.graphpfn.flat_adamw import FlatAdamW
from lib.graphpfn.prior_structure import Graph


@dataclass(frozen=True)
class Episode:
    """A graph, its task and a labelled mask, as tensors the PFN reads."""

    graph: Graph
    task: prior_scm.Task
    train: np.ndarray

    def tensors(self) -> tuple[torch.Tensor, ...]:
        return (torch.as_tensor(self.task.x), torch.as_tensor(self.task.y),
                torch.as_tensor(self.train), torch.as_tensor(self.graph.edges))


def crop(g: Graph, size: int, rng: np.random.Generator) -> Graph:
    """The first `size` nodes a BFS from a random node reaches (connected, as g is)."""
    if g.n <= size:
        return g
    nbrs = [[] for _ in range(g.n)]
    for u, v in g.edges:
        nbrs[u].append(v)
        nbrs[v].append(u)
    order, seen = [int(rng.integers(g.n))], np.zeros(g.n, dtype=bool)
    seen[order[0]] = True
    i = 0
    while len(order) < size:
        for w in nbrs[order[i]]:
            if not seen[w] and len(order) < size:
                seen[w] = True
                order.append(int(w))
        i += 1
    keep = np.sort(order)
    g2 = None if g.group2 is None else g.group2[keep]
    return Graph(size, prior_structure.induced(g.edges, keep, g.n), g.group1[keep], g2,
                 g.hub[keep])


def labelled(n: int, frac: float, rng: np.random.Generator) -> np.ndarray:
    """A mask of max(1, round(frac n)) labelled nodes (at least one left unlabelled)."""
    k = min(n - 1, max(1, round(frac * n)))
    mask = np.zeros(n, dtype=bool)
    mask[rng.choice(n, k, replace=False)] = True
    return mask


def prior_graph(configs: list[Config], rng: np.random.Generator, min_nodes: int,
                max_nodes: int, run_nodes: int) -> Graph:
    """A prior graph with min_nodes <= n <= max_nodes: configs drawn uniformly, graphs below
    min_nodes redrawn, graphs above max_nodes cropped."""
    while True:
        g = prior_structure.sample_graph(configs[rng.integers(len(configs))], rng, run_nodes)
        if g.n >= min_nodes:
            return crop(g, max_nodes, rng)


def episode(configs: list[Config], rng: np.random.Generator, frac: float, *, min_nodes: int,
            max_nodes: int, run_nodes: int, scm: dict) -> Episode:
    """One prior graph, one GNN-SCM task on it, a labelled fraction `frac`."""
    g = prior_graph(configs, rng, min_nodes, max_nodes, run_nodes)
    return Episode(g, prior_scm.sample_task(g, rng, **scm), labelled(g.n, frac, rng))


def step_loss(model: torch.nn.Module, ep: Episode) -> torch.Tensor:
    """Cross-entropy on the unlabelled nodes."""
    x, y, train, edges = ep.tensors()
    logits = model(x, y, train, edges, ep.task.classes)
    return F.cross_entropy(logits[~train], y[~train])


def train_side_by_side(models: dict[str, torch.nn.Module], draw: Callable[[], Episode],
                       steps: int, lr: float, warmup: int, clip: float
                       ) -> tuple[dict[str, list], dict[str, float]]:
    """Train every model for `steps` steps on the same episodes: (loss per step per model,
    wall seconds per model, for the timing table only). AdamW and clipping as torch's
    (`flat_adamw`), the learning rate warmed up linearly over `warmup` steps."""
    opts = {k: FlatAdamW(m.parameters()) for k, m in models.items()}
    losses: dict[str, list] = {k: [] for k in models}
    seconds = dict.fromkeys(models, 0.0)
    for step in tqdm(range(steps), desc="training", mininterval=2):
        ep = draw()
        rate = lr * min(1.0, (step + 1) / warmup)
        for k, m in models.items():
            start = time.perf_counter()
            loss = step_loss(m, ep)
            opts[k].zero_grad()
            loss.backward()
            opts[k].clip(clip)
            opts[k].step(rate)
            losses[k].append(loss.item())
            seconds[k] += time.perf_counter() - start
    return losses, seconds


@torch.no_grad()
def predict(model: torch.nn.Module, ep: Episode) -> np.ndarray:
    """In-context predictions (n,): one forward pass, no gradient step."""
    x, y, train, edges = ep.tensors()
    return model(x, y, train, edges, ep.task.classes).argmax(1).numpy()


def accuracy(pred: np.ndarray, ep: Episode) -> float:
    """Accuracy on the unlabelled nodes."""
    return float((pred[~ep.train] == ep.task.y[~ep.train]).mean())
