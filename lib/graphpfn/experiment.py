"""Notebook 02's training runs (graph-PFN, tab-PFN), run by the sweep engine.

A run rebuilds both PFNs from the params seed (`tiny_pfn.pair`, so the graph-PFN starts from
the tab-PFN's weights), draws the training episodes from their own stream ([seed, 2]) and
trains its arms side by side on them: every arm sees the same episodes in the same order
whichever run trains it (neither model draws from a random stream while training). Drawing an
episode costs about as much as a step of both arms, so when the runs go one at a time both arms
share one run and one draw; only an executor that runs them at once gets one run per arm
(`schema.TinyPfn.split_arms`). A run returns numpy arrays and floats only: the loss per step,
the wall seconds and the trained weights of each of its arms.
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


def train_arms(cfg, arms: tuple[str, ...]) -> dict[str, Trained]:
    """Train `arms` side by side for cfg.steps steps on one draw of the episodes of stream
    [seed, 2] (one torch thread), by arm name."""
    tab, graph = tiny_pfn.pair(cfg.n_features, cfg.classes[1], cfg.d, cfg.depth, cfg.heads,
                               cfg.seed)
    models = {arm: {"graph_pfn": graph, "tab_pfn": tab}[arm] for arm in arms}
    grid, sizes = prior(cfg)
    rng = np.random.default_rng([cfg.seed, 2])
    losses, seconds = train.train_side_by_side(
        models, lambda: train.episode(grid, rng, rng.uniform(*cfg.train_frac), **sizes),
        cfg.steps, cfg.lr, cfg.warmup, cfg.clip)
    return {arm: Trained(losses[arm], seconds[arm],
                         {k: v.detach().numpy().copy() for k, v in model.state_dict().items()})
            for arm, model in models.items()}


def arm_runs(cfg) -> list[tuple[str, ...]]:
    """The arms of each sweep run: one run per arm where the executor runs them at once, else
    both in one run (one draw of the episodes)."""
    return [(arm,) for arm in ARMS] if cfg.split_arms() else [ARMS]


def run_arms(cfg: sweep.SweepParams, notebook: str) -> dict[str, Trained]:
    """Both arms on the notebook's `executor` (`arm_runs`), by arm name in ARMS order."""
    groups = arm_runs(cfg)
    runs = sweep.run_params(train_arms, [(cfg, arms) for arms in groups], cfg, notebook,
                            labels=["+".join(arms) for arms in groups])
    trained = {arm: t for run in runs for arm, t in run.items()}
    return {arm: trained[arm] for arm in ARMS}
