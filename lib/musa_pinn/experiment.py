"""NB2's training as a grid of (form, seed) runs for the sweep engine (issue 45), and the batched
nets and history rebuilt from them.

One run trains one seed's arms of one form in one batched pass (`train.fit` with that seed
alone): the weak arms still share a pass, and every run draws only from its own seed's streams.
A member starts from its seed's weights and draws its seed's stream whatever the batch, so the
nets and history rebuilt here equal one `fit` over every seed: bit for bit where each member's
tensors fill whole SIMD vectors (points x width a multiple of 16, as in every profile;
tests/musa_pinn/test_experiment.py), in the last bits only at odd sizes (13 points x width 6).
A run returns numpy weights, its history rows and its seconds only.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from lib.companion import sweep
from lib.musa_pinn import geometry, train
from lib.musa_pinn.model import SeedMLP


@dataclass(frozen=True)
class Run:
    """One (form, seed) run: its arms' trained layers in arm order, its history, its time."""

    seed: int
    arms: tuple[str, ...]
    weights: tuple[np.ndarray, ...]          # per layer (arms, fan_in, fan_out)
    biases: tuple[np.ndarray, ...]           # per layer (arms, 1, fan_out)
    history: pd.DataFrame                    # arm, step, seed, loss, err_u
    seconds: float


def run_seed(arms: list[train.Arm], setup: train.Setup, domain: geometry.Domain, seed: int,
             curve_points: np.ndarray) -> Run:
    """Train one seed's arms (one form) in one batched pass, on one torch thread."""
    start = time.perf_counter()
    net, _, history = train.fit(arms, setup, domain, [seed], curve_points)
    return Run(seed, tuple(a.name for a in arms),
               tuple(w.detach().numpy().copy() for w in net.weights),
               tuple(b.detach().numpy().copy() for b in net.biases), history,
               time.perf_counter() - start)


def stacked(runs: list[Run], setup: train.Setup, box: tuple[float, float, float, float]
            ) -> SeedMLP:
    """One form's batched net from its seeds' runs, members arm-major and seed-minor (the order
    `train.fit` gives them)."""
    order = [(j, i) for j in range(len(runs[0].arms)) for i in range(len(runs))]
    net = SeedMLP([runs[i].seed for _, i in order], setup.width, setup.depth, box)
    with torch.no_grad():
        for params, key in ((net.weights, "weights"), (net.biases, "biases")):
            for layer, p in enumerate(params):
                p.copy_(torch.as_tensor(np.stack([getattr(runs[i], key)[layer][j]
                                                  for j, i in order])))
    return net


def history(runs: list[Run]) -> pd.DataFrame:
    """One form's history rows in `train.fit`'s order: by step, then arm, then seed."""
    rows = pd.concat([r.history for r in runs], ignore_index=True)
    arm_rank = {a: k for k, a in enumerate(runs[0].arms)}
    seed_rank = {r.seed: k for k, r in enumerate(runs)}
    order = np.lexsort((rows.seed.map(seed_rank), rows.arm.map(arm_rank), rows.step))
    return rows.iloc[order].reset_index(drop=True)


def train_forms(groups: dict[str, list[train.Arm]], setup: train.Setup,
                domain: geometry.Domain, seeds: list[int], curve_points: np.ndarray,
                cfg: sweep.SweepParams, notebook: str
                ) -> tuple[dict[str, SeedMLP], dict[str, list[tuple[str, int]]], pd.DataFrame,
                           pd.DataFrame]:
    """Every (form, seed) run on the notebook's `executor`: per form its batched net and its
    members (arm, seed) in net order, the history of all forms, and one timing row per run."""
    cells = [(name, arms, s) for name, arms in groups.items() for s in seeds]
    runs = sweep.run_params(run_seed, [(arms, setup, domain, s, curve_points)
                                       for _, arms, s in cells], cfg, notebook,
                            labels=[f"{name} seed {s}" for name, _, s in cells])
    nets, members, rows = {}, {}, []
    for k, (name, arms) in enumerate(groups.items()):
        mine = runs[k * len(seeds):(k + 1) * len(seeds)]
        nets[name] = stacked(mine, setup, domain.box)
        members[name] = [(a.name, s) for a in arms for s in seeds]
        rows.append(history(mine))
    timing = pd.DataFrame([{"form": name, "seed": s, "members": len(arms), "steps": setup.steps,
                            "seconds": r.seconds} for (name, arms, s), r in zip(cells, runs)])
    return nets, members, pd.concat(rows, ignore_index=True), timing
