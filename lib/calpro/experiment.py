"""One seed's four splits and the (arm, seed) training jobs, run by the sweep engine.

A job regenerates its seed's chains (milliseconds, deterministic), trains its arm and returns
only numpy arrays: the arm's band on the calibration, ID-test and shift-test splits, its losses,
and for NIG arms the float64 NIG parameters on both test splits. Results do not depend on `workers`.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from lib.calpro import chains, conformal, train
from lib.calpro.arms import ARMS
from lib.calpro.chains import Chains, Regime
from lib.companion import sweep

SPLITS = ("train", "cal", "id", "shift")


@dataclass(frozen=True)
class Design:
    """Sizes and regimes of one seed's data."""

    n_chains: dict[str, int]          # split -> number of chains
    base: Regime                      # train, calibration, ID test
    shifted: Regime                   # shift test
    contact_radius: float


def make_splits(design: Design, seed: int, shifted: Regime | None = None) -> dict[str, Chains]:
    """The seed's chains, one independent stream per split ([seed, split index]); `shifted`
    replaces the shift regime (NB2's sweep) without touching the other splits."""
    regime = {"train": design.base, "cal": design.base, "id": design.base,
              "shift": shifted or design.shifted}
    return {s: chains.sample_chains(design.n_chains[s], regime[s],
                                    np.random.default_rng([seed, i]), design.contact_radius)
            for i, s in enumerate(SPLITS)}


def sweep_split(design: Design, seed: int, i: int, p: float) -> Chains:
    """The i-th shift level of NB2's sweep: disorder probability p in the shift regime's range,
    its own stream [seed, 4 + i]."""
    regime = Regime(p, design.shifted.lo, design.shifted.hi)
    return chains.sample_chains(design.n_chains["shift"], regime,
                                np.random.default_rng([seed, len(SPLITS) + i]),
                                design.contact_radius)


@dataclass(frozen=True)
class Job:
    arm: str
    seed: int
    design: Design
    recipe: train.Recipe
    sweep: tuple[float, ...] = ()     # NB2: bands also on these shift levels ("p<i>")


@dataclass
class Result:
    arm: str
    seed: int
    bands: dict[str, conformal.Band]      # cal, id, shift (and p0, p1, ... of a sweep)
    losses: list[float]
    k: float                              # P2's learned k (1 for other arms: unused)
    nig: dict[str, tuple[np.ndarray, ...]]  # NIG arms: (gamma, nu, alpha, beta) on id, shift
    head: np.ndarray                      # the last layer's weights and biases, flattened


def run_job(job: Job) -> Result:
    """Train one arm on one seed and read its bands (one torch thread)."""
    data = make_splits(job.design, job.seed)
    fit = train.fit(ARMS[job.arm], job.recipe, data["train"], job.seed)
    bands = {s: train.band(fit, data[s]) for s in ("cal", "id", "shift")}
    for i, p in enumerate(job.sweep):
        bands[f"p{i}"] = train.band(fit, sweep_split(job.design, job.seed, i, p))
    nig = {}
    if ARMS[job.arm].loss == "nig":
        nig = {s: tuple(t.numpy() for t in train.student_params(fit, data[s]))
               for s in ("id", "shift")}
    head = torch.cat([t.detach().flatten() for t in fit.net.head.parameters()]).double().numpy()
    return Result(job.arm, job.seed, bands, fit.losses, float(fit.log_k.detach().exp()), nig,
                  head)


def run_jobs(jobs: list[Job], cfg: sweep.SweepParams, notebook: str) -> list[Result]:
    """Every job, one sweep run each on the notebook's `executor` (`workers` at once), in job
    order."""
    return sweep.run_params(run_job, [(job,) for job in jobs], cfg, notebook,
                            labels=[f"{job.arm} seed {job.seed}" for job in jobs])
