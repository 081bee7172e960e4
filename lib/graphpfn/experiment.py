"""Notebook 02's training runs, one per arm (graph-PFN, tab-PFN), run by the sweep engine.

A run rebuilds both PFNs from the params seed (`tiny_pfn.pair`, so the graph-PFN starts from
the tab-PFN's weights), redraws the training episodes from their own stream ([seed, 2]) and
trains its arm: both arms see the same episodes in the same order, as when they trained side by
side in one loop (neither model draws from a random stream while training). It returns numpy
arrays and floats only: the loss per step, the wall seconds and the trained weights.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from lib.companion import sweep
from lib.graphpfn import configs, tiny_pfn, train
from lib.graphpfn.configs import Config

ARMS = ("graph_pfn", "tab_pfn")


@dataclass(frozen=True)
class Trained:
    """One arm after training: its loss per step, its wall seconds (the timing table only) and
    its weights as numpy arrays (name -> array, the state dict's order)."""

    losses: list[float]
    seconds: float
    weights: dict[str, np.ndarray]

    def state_dict(self) -> dict[str, torch.Tensor]:
        """The weights as tensors, for `load_state_dict`."""
        return {k: torch.from_numpy(v) for k, v in self.weights.items()}


def prior(cfg) -> tuple[list[Config], dict]:
    """The scaled structure configs and the episode sizes of notebook 02's prior (training and
    held-out graphs alike)."""
    grid = [configs.scaled(c, cfg.scale) for c in configs.grid(
        cfg.sbm_nodes, cfg.first_level, cfg.group_families, cfg.pa_families, cfg.divisors)]
    sizes = {"min_nodes": cfg.min_nodes, "max_nodes": cfg.max_nodes,
             "run_nodes": cfg.pa_run_nodes, "scm": cfg.scm()}
    return grid, sizes


def train_arm(cfg, arm: str) -> Trained:
    """Train one arm for cfg.steps steps on the episodes of stream [seed, 2] (one torch
    thread)."""
    tab, graph = tiny_pfn.pair(cfg.n_features, cfg.classes[1], cfg.d, cfg.depth, cfg.heads,
                               cfg.seed)
    model = {"graph_pfn": graph, "tab_pfn": tab}[arm]
    grid, sizes = prior(cfg)
    rng = np.random.default_rng([cfg.seed, 2])
    losses, seconds = train.train_side_by_side(
        {arm: model}, lambda: train.episode(grid, rng, rng.uniform(*cfg.train_frac), **sizes),
        cfg.steps, cfg.lr, cfg.warmup, cfg.clip)
    weights = {k: v.detach().numpy().copy() for k, v in model.state_dict().items()}
    return Trained(losses[arm], seconds[arm], weights)


def run_arms(cfg: sweep.SweepParams, notebook: str) -> dict[str, Trained]:
    """Both arms, one sweep run each on the notebook's `executor`, by arm name in ARMS order."""
    runs = sweep.run_params(train_arm, [(cfg, arm) for arm in ARMS], cfg, notebook,
                            labels=list(ARMS))
    return dict(zip(ARMS, runs))
