"""Notebook 02's fine-tuning grid, one (T_ft, seed, arm) run per sweep job (issue 45).

A run rebuilds what it needs from plain values: the images from the data files (by count, in
file order), the source ANN from its weight arrays, the converted SNN from the scales; it
fine-tunes with its own seed and returns only lists and numpy arrays. So no run depends on
another, and the results are the same whichever executor ran them.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lib.ann2snn_cka import ann, convert, data, finetune
from lib.companion import sweep


@dataclass(frozen=True)
class Source:
    """What every run shares: the source ANN's weights (as notebook 01 saved them), the scales
    λ, the conversion (v0, surrogate alpha), the image counts and the evaluation's length."""

    ann: dict[str, np.ndarray]
    lam: tuple[float, ...]
    v0: float
    alpha: float
    n_train: int
    n_test: int
    T_eval: int                       # anytime accuracy at every T <= T_eval
    chunk: int                        # test images per forward pass


@dataclass(frozen=True)
class Job:
    """One fine-tuning run: the arm, its seed, the layer weights w_l at its T_ft, the recipe."""

    source: Source
    arm: str
    seed: int
    weights: np.ndarray               # (sites,)
    recipe: finetune.Recipe


@dataclass(frozen=True)
class Result:
    """A run's per-step history, its anytime test accuracy (T_eval,) and the fine-tuned
    synapses' weights."""

    history: finetune.History
    accuracy: np.ndarray
    weights: dict[str, np.ndarray]


def run_job(job: Job) -> Result:
    """Convert the source ANN, fine-tune one arm with one seed, and score it (one torch thread)."""
    src = job.source
    split = data.fashion_mnist(src.n_train, src.n_test)
    model = ann.load_state(ann.CNN(), src.ann).eval()
    snn = convert.SpikingNet(model, list(src.lam), src.v0, src.alpha)
    hist = finetune.finetune(snn, model, split.x_train, split.y_train, job.arm, job.weights,
                             job.recipe, job.seed,
                             desc=f"{job.arm} T={job.recipe.T} seed {job.seed}")
    acc = convert.anytime_accuracy(snn, split.x_test, split.y_test, src.T_eval, src.chunk)
    return Result(hist, acc, ann.state_arrays(snn.net))


def run_jobs(jobs: list[Job], cfg: sweep.SweepParams, notebook: str) -> list[Result]:
    """Every job, one sweep run each on the notebook's `executor` (`workers` at once), in job
    order."""
    return sweep.run_params(run_job, [(job,) for job in jobs], cfg, notebook,
                            labels=[f"{job.arm} T_ft={job.recipe.T} seed {job.seed}"
                                    for job in jobs])


def finetuned(result: Result, lam: list[float], v0: float, alpha: float) -> convert.SpikingNet:
    """The SNN a run fine-tuned, rebuilt from its weights (bit for bit the run's)."""
    return convert.SpikingNet(ann.load_state(ann.CNN(), result.weights), lam, v0, alpha)
