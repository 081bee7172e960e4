"""Full-batch GD on a two-class Fashion-MNIST subset, the author's protocol (spec §8, F8).

Two classes, 5 000 images (2 500 each, from data/fashion_mnist/subset.npz), pixels scaled to
[0, 1], labels +1 / -1. LR+GD at several step sizes, Normalized LR+GD, and the Batch Perceptron,
for the linear model and a two-layer ReLU model with fixed +-1 outputs; all step sizes of one
model form one batch of runs, and each model (linear, two-layer ReLU, two-layer quadratic) is one
run of notebook 07's sweep (`run_model`). Per step we log accuracy, logistic loss and gradient
norm. float64: near separation the step at which the last point flips is sensitive to float32
summation order.

A step reads B (5 000 x 784, 31 MB in float64) for the margins and again for the direction. The
linear model's products (11 runs) are bound by that reading, so its step goes through B in
blocks of `LINEAR_ROWS` images, each used for both products while it is in cache (2x per step;
the sums then add the blocks' parts, which moves results in the last bits only). The two-layer
products (64 and 48 rows) are bound by arithmetic and run on the whole of B, with the projection
computed once for the margins and the direction (bench/profiles/gd_perceptron_07_real_data.txt).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd
import torch
from tqdm.auto import tqdm

from lib.companion import paths
from lib.gd_perceptron import dynamics, models

MODELS = ("linear", "relu", "quadratic")     # notebook 07's sweep: one run per model
LINEAR_ROWS = 512                            # 3 MB of B per block: in cache for both products


def load_pair(class_pos: int, class_neg: int, per_class: int, dtype=torch.float64
              ) -> tuple[torch.Tensor, torch.Tensor, list[str]]:
    """B (2 per_class, 784) in [0, 1], y in {+1, -1}, and the two class names."""
    with np.load(paths.data_file("fashion_mnist/subset.npz")) as z:
        images, labels, names = z["images"], z["labels"], z["class_names"]
    idx = [np.flatnonzero(labels == c)[:per_class] for c in (class_pos, class_neg)]
    if min(len(i) for i in idx) < per_class:
        raise ValueError(f"per_class = {per_class}; the subset holds {min(len(i) for i in idx)} "
                         f"images of one of the classes")
    keep = np.sort(np.concatenate(idx))
    B = torch.as_tensor(images[keep].reshape(len(keep), -1) / 255.0, dtype=dtype)
    y = torch.as_tensor(np.where(labels[keep] == class_pos, 1.0, -1.0), dtype=dtype)
    return B, y, [str(names[class_pos]), str(names[class_neg])]


@dataclass(frozen=True)
class Method:
    """One run: rule "gd" (LR+GD), "gd" + normalized (Normalized LR+GD) or "bp" (perceptron)."""

    label: str
    rule: str
    step: float
    normalized: bool = False


@dataclass
class History:
    """Per method (R,): accuracy, loss, grad norm (steps+1, R; NaN for the perceptron, which
    follows no gradient); the first step at accuracy 1.0."""

    methods: list[Method]
    accuracy: np.ndarray
    loss: np.ndarray
    grad_norm: np.ndarray
    solved_at: np.ndarray  # -1 where accuracy 1.0 was never reached

    def solved_table(self, cap: int):
        """Iterations to accuracy 1.0 per method (NaN where never reached within `cap`)."""
        return pd.DataFrame({"method": [m.label for m in self.methods],
                             "iterations": [int(s) if s >= 0 else np.nan for s in self.solved_at],
                             "cap": cap})


def first_solved(histories: list[History]) -> str:
    """Earliest accuracy-1.0 step over `histories` and its method, else steps run, best accuracy."""
    solved = [(int(t), m.label) for h in histories for t, m in zip(h.solved_at, h.methods)
              if t >= 0]
    if solved:
        step, label = min(solved)
        return f"{step} ({label})"
    steps = max(h.accuracy.shape[0] - 1 for h in histories)
    best = max(float(h.accuracy.max()) for h in histories)
    return f"never at accuracy 1.0 in {steps} steps (best accuracy {best:.4f})"


def margins_and_direction(model, theta: torch.Tensor, B: torch.Tensor, y: torch.Tensor,
                          weigh: Callable[[torch.Tensor], torch.Tensor], rows: int | None
                          ) -> tuple[torch.Tensor, torch.Tensor]:
    """The margins z = y h(B; theta) (R, n) and the direction sum_i weigh(z)_i y_i grad h(b_i)
    (theta's shape), `rows` points of B at a time (None: all at once); `weigh` maps a block's
    margins to its points' weights."""
    zs, direction = [], None
    for Bc, yc in zip(B.split(rows or len(B)), y.split(rows or len(B))):
        pre = model.project(theta, Bc)
        z = yc * model.output(theta, Bc, pre)
        part = model.direction(theta, Bc, weigh(z) * yc, pre)
        direction = part if direction is None else direction.add_(part)
        zs.append(z)
    return torch.cat(zs, dim=-1), direction


def run(model, B: torch.Tensor, y: torch.Tensor, theta0: torch.Tensor, methods: list[Method],
        steps: int, progress: bool = True, rows: int | None = None) -> History:
    """All methods from the same theta0 for `steps` steps (stops early once all are solved);
    `rows`: the block size of `margins_and_direction`."""
    R = len(methods)
    theta = theta0.unsqueeze(0).repeat(R, *([1] * theta0.dim()))            # (R, ...)
    eta = torch.tensor([m.step for m in methods], dtype=B.dtype)
    shape = (-1,) + (1,) * theta0.dim()
    normalized = torch.tensor([m.normalized for m in methods])
    is_bp = torch.tensor([m.rule == "bp" for m in methods])
    n = B.shape[0]
    acc, loss, gnorm = [], [], []
    solved = np.full(R, -1)
    for t in tqdm(range(steps + 1), desc="F8 full-batch steps", disable=not progress,
                  mininterval=5):
        z, direction = margins_and_direction(                               # (R, n), -n grad f
            model, theta, B, y, lambda zc: torch.where(
                is_bp[:, None], dynamics.weights(zc, "bp", first=(t == 0)), torch.sigmoid(-zc)),
            rows)
        s = torch.sigmoid(-z)
        acc.append((z > 0).to(B.dtype).mean(dim=1))
        loss.append(dynamics.logistic_loss(z))
        gnorm.append(torch.where(is_bp, torch.nan, direction.flatten(1).norm(dim=1) / n))
        solved[(acc[-1] == 1).numpy() & (solved < 0)] = t
        if t == steps or (solved >= 0).all():
            break
        beta = torch.where(normalized, 1.0 / s.mean(dim=1), torch.ones(R, dtype=B.dtype))
        theta = theta + (eta * beta / n).reshape(shape) * direction
    return History(methods, torch.stack(acc).numpy(), torch.stack(loss).numpy(),
                   torch.stack(gnorm).numpy(), solved)


def model_methods(cfg, model: str) -> list[Method]:
    """The methods one model runs under notebook 07's parameters: LR+GD, the Batch Perceptron and
    Normalized LR+GD for the linear model, LR+GD at its step sizes for a two-layer one."""
    if model == "linear":
        return ([Method(f"LR+GD γ={g:g}", "gd", g) for g in cfg.linear_gammas]
                + [Method("Batch Perceptron", "bp", 1.0)]
                + [Method(f"Normalized LR+GD γ={g:g}", "gd", g, True)
                   for g in cfg.normalized_gammas])
    gammas = {"relu": cfg.relu_gammas, "quadratic": cfg.quadratic_gammas}[model]
    return [Method(f"{model} LR+GD γ={g:g}", "gd", g) for g in gammas]


def run_model(cfg, model: str) -> History:
    """One run of notebook 07's sweep: every method of `model` on the class pair, single-threaded.
    The linear model starts at 0; both two-layer models start from the same W_0, the first draw
    of a generator seeded with `cfg.seed`, so a run depends on its arguments alone."""
    B, y, _ = load_pair(cfg.class_pos, cfg.class_neg, cfg.per_class)
    if model == "linear":
        return run(models.Linear(), B, y, torch.zeros(B.shape[1], dtype=B.dtype),
                   model_methods(cfg, model), cfg.linear_steps, progress=False, rows=LINEAR_ROWS)
    d = B.shape[1]
    W0 = torch.randn(cfg.width, d, generator=torch.Generator().manual_seed(cfg.seed),
                     dtype=torch.float64) / np.sqrt(d)
    return run(models.make_model("two_layer", cfg.width, model), B, y, W0,
               model_methods(cfg, model), cfg.two_layer_steps, progress=False)
