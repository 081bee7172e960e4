"""Parameters of the ttfs_snn notebooks: the one place each is declared (type, range, default,
reason, profile overrides); params.yaml and the parameters cells are generated from it."""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from lib.companion import sweep
from lib.companion.params import param
from lib.companion.schema import Width

Steps = Annotated[int, Field(ge=1, le=64)]              # T: at least one time step
TrainImages = Annotated[int, Field(ge=10, le=20000, multiple_of=10)]   # 2 000 per class
TestImages = Annotated[int, Field(ge=10, le=5000, multiple_of=10)]     # the held-out 500 per class
Pool = Literal["avg", "max", "first"]
Decoder = Literal["weighted_spikes", "count", "final_potential", "weighted_potential"]
DIGITS = 1797                                           # images in sklearn's digits


class Neuron(sweep.SweepParams):
    """Keys every ttfs_snn notebook shares: the neuron, the coding, the initialisation, and where
    the training runs go (one sweep run per trained net)."""

    theta: Annotated[float, Field(gt=0.0, le=10.0)] = param(1.0, "spec §1.2: threshold 1")
    alpha: Annotated[float, Field(gt=0.0, le=100.0)] = param(
        4.0, "spec §1.2: surrogate sharpness 4")
    rho: Annotated[float, Field(gt=0.0, le=5.0)] = param(
        0.5, "spec §1.5: ETTFS-init spread, sd V[T-1] = rho theta (normalised: "
             "rho theta sqrt(1 - m1^2/m2))")
    encoding: Literal["latency", "direct"] = param(
        "latency", "decision (spec §7 Q2): latency coding; direct: the analog image as a constant "
                   "current")
    transmission: Literal["pulse", "held"] = param(
        "pulse", "decision (spec §7 Q1): the next layer sees pulses s[t]; held: F[t]")
    init_stat: Literal["moments", "fired"] = param(
        "moments", "decision (spec §7 Q3): ETTFS-init matches the input's mean and mean square "
                   "(the spec's formula for binary inputs); fired: the fraction that fired")


class Census(Neuron):
    """01_single_spike_pooling: spike counts at initialisation and one short epoch per arm."""

    COST = ("n_images",)

    DISTINCT = ("pool_kinds",)
    INCREASING = ("T_list",)
    T_list: list[Steps] = param([8, 16], "spec NB01: T = 8, plus T = 16 in default",
                                min_length=1)
    pool_kinds: list[Pool] = param(["avg", "max", "first"], "spec NB01: the three arms",
                                   min_length=1)
    k: Annotated[int, Field(ge=2, le=4)] = param(2, "spec §1.3: 2 x 2 windows")
    arm: Literal["ettfs", "ettfs_norm"] = param(
        "ettfs_norm", "spec NB01: ETTFS-init with the pooling in place (normalised: its draw "
                      "at step 0 with row means made exact, so the spread is smaller)")
    n_images: Annotated[int, Field(ge=1, le=5000)] = param(
        256, "spec NB01 default: 256 held-out images")
    n_init: Annotated[int, Field(ge=8, le=2000)] = param(
        128, "training images ETTFS-init measures its moments on")
    n_check: Annotated[int, Field(ge=1, le=64)] = param(
        8, "images whose currents check the closed form against the per-step loop (float64)")
    chunk: Annotated[int, Field(ge=1, le=1024)] = param(
        64, "images per forward pass of the census (memory: T x 64 x 16 x 24 x 24 floats)")
    train_T: Steps = param(8, "spec NB01 F1.4: T = 8")
    n_train: TrainImages = param(
        1000, "budget (<= 3 min for the paper on 2 cores; a CNN step costs ~1 s): F1.4 on 1 000 "
              "images (spec default 2 000, paper 10 000)")
    n_test: TestImages = param(500, "F1.4 test images")
    batch: Annotated[int, Field(ge=2, le=1024)] = param(128, "spec §1.8: batch 128")
    lr: Annotated[float, Field(gt=0.0, le=1.0)] = param(1e-3, "spec §1.8: Adam 1e-3")
    decoder: Decoder = param("weighted_spikes", "the paper's decoder (reconstructed, §1.4)")
    lam: Annotated[float, Field(gt=0.0, le=100.0)] = param(10.0, "spec §1.4: lambda 10")
    SMOKE = {"T_list": ([8], "one T (smoke budget 10 s)"),
             "n_images": (32, "spec NB01 smoke: 32 images"),
             "n_init": (32, "a small init batch"), "n_check": (2, "two images"),
             "n_train": (60, "two training steps of 32: the code path only (a CNN step of 128 "
                             "images costs ~1 s)"),
             "batch": (32, "two steps of 32 images"),
             "n_test": (50, "a small test set")}
    PAPER = {**sweep.PAPER,
             "n_images": (5000, "all 5 000 held-out images (spec: 10 000 test images; the "
                                "subset holds 5 000 outside training)"),
             "n_train": (10000, "spec NB01 paper: one epoch on 10 000 images"),
             "n_test": (5000, "all held-out images")}

    def jobs(self) -> int:
        """One sweep run per pooling arm trained in F1.4."""
        return len(self.pool_kinds)


class InitNorm(Neuron):
    """02_init_normalisation: signal and gradient per layer at init, SGD and Adam training."""

    COST = ("seeds", "epochs", "n_train")

    INCREASING = ("depths",)
    T: Steps = param(8, "spec NB02: T = 8")
    depths: list[Annotated[int, Field(ge=1, le=12)]] = param(
        [2, 4, 6, 8], "spec NB02 default: hidden depths L = 2, 4, 6, 8", min_length=1)
    width: Width = param(256, "spec NB02: 784 -> 256^L -> 10")
    digits: bool = param(
        True, "decision: the init analysis also on sklearn's 8x8 digits (another fan-in, "
              "another p0), beside Fashion-MNIST")
    n_init: Annotated[int, Field(ge=8, le=1000)] = param(
        256, "images ETTFS-init measures on (others than the statistics' images)")
    n_stats: Annotated[int, Field(ge=8, le=1500)] = param(
        512, "spec NB02: init statistics on 512 training images")
    saturation: Annotated[float, Field(gt=1.0, le=10.0)] = param(
        3.0, "spec §1.5: the saturation arm is Kaiming x 3")
    grad_depth: Annotated[int, Field(ge=1, le=12)] = param(
        6, "spec NB02: gradient norms and exact zeros at depth 6 (7 weight layers)")
    train_depth: Annotated[int, Field(ge=1, le=12)] = param(6, "spec NB02: training at depth 6")
    n_train: TrainImages = param(10000, "spec NB02: one epoch on 10 000 images (79 steps)")
    n_test: TestImages = param(2000, "spec NB02: test accuracy on 2 000")
    seeds: Annotated[int, Field(ge=1, le=10)] = param(2, "spec NB02 default: seeds 0, 1")
    batch: Annotated[int, Field(ge=2, le=1024)] = param(128, "spec §1.8: batch 128")
    epochs: Annotated[int, Field(ge=1, le=100)] = param(1, "spec NB02: one epoch")
    sgd_lr: Annotated[float, Field(gt=0.0, le=10.0)] = param(0.1, "spec NB02: SGD lr 0.1")
    momentum: Annotated[float, Field(ge=0.0, lt=1.0)] = param(0.9, "spec NB02: momentum 0.9")
    adam_lr: Annotated[float, Field(gt=0.0, le=1.0)] = param(1e-3, "spec NB02: Adam lr 1e-3")
    decoder: Decoder = param("weighted_potential",
                             "spec NB02: the prototype's training table used this decoder")
    lam: Annotated[float, Field(gt=0.0, le=100.0)] = param(10.0, "spec §1.4: lambda 10")
    SMOKE = {"depths": ([2, 4], "spec NB02 smoke: depths 2, 4"),
             "n_init": (32, "a small init batch"), "n_stats": (64, "spec NB02 smoke: 64"),
             "grad_depth": (4, "the deepest smoke net"),
             "train_depth": (2, "spec NB02 smoke: depth 2"),
             "n_train": (1280, "spec NB02 smoke: 10 steps"), "n_test": (200, "a small test"),
             "seeds": (1, "spec NB02 smoke: one seed")}
    PAPER = {**sweep.PAPER,
             "n_train": (20000, "all 20 000 training images of the subset (spec: 60 000)"),
             "n_test": (5000, "all held-out images"), "epochs": (20, "spec NB02 paper: 20"),
             "seeds": (5, "spec NB02 paper: 5 seeds")}

    def jobs(self) -> int:
        """One sweep run per (seed, optimiser, arm) of the five training runs."""
        from lib.ttfs_snn.experiment import TRAIN_RUNS
        return self.seeds * len(TRAIN_RUNS)

    @model_validator(mode="after")
    def _digits_hold_both_batches(self):
        if self.digits and self.n_init + self.n_stats > DIGITS:
            raise ValueError(f"n_init = {self.n_init} + n_stats = {self.n_stats} exceeds the "
                             f"{DIGITS} images of digits; allowed: n_init + n_stats <= {DIGITS} "
                             "when digits is true")
        return self


class Decoders(Neuron):
    """03_decoder_latency: four decoders, accuracy against latency, the headline accuracy."""

    COST = ("seeds", "epochs", "n_train")

    DISTINCT = ("decoders",)
    T: Steps = param(16, "spec NB03: T = 16")
    hidden: list[Width] = param([256], "spec NB03: MLP 784 -> 256 -> 10", min_length=1)
    decoders: list[Decoder] = param(
        ["weighted_spikes", "count", "final_potential", "weighted_potential"],
        "spec §1.4: the paper's decoder and three baselines", min_length=1)
    n_init: Annotated[int, Field(ge=8, le=2000)] = param(256, "images ETTFS-init measures on")
    n_train: TrainImages = param(10000, "spec NB03: one epoch on 10 000 images")
    n_test: TestImages = param(2000, "spec NB03: test on 2 000")
    seeds: Annotated[int, Field(ge=1, le=10)] = param(3, "spec NB03 default: seeds 0, 1, 2")
    batch: Annotated[int, Field(ge=2, le=1024)] = param(128, "spec §1.8: batch 128")
    epochs: Annotated[int, Field(ge=1, le=100)] = param(1, "spec NB03: one epoch")
    lr: Annotated[float, Field(gt=0.0, le=1.0)] = param(1e-3, "spec NB03: Adam 1e-3")
    lam: Annotated[float, Field(gt=0.0, le=100.0)] = param(10.0, "spec §1.4: lambda 10")
    eps: Annotated[float, Field(ge=0.0, le=1.0)] = param(
        1e-3, "decision (spec §7 Q6): ties broken by 1e-3 V[T-1]")
    SMOKE = {"T": (8, "spec NB03 smoke: T = 8"),
             "n_train": (2000, "spec NB03 smoke: 2 000 images"),
             "n_test": (500, "a small test set"), "seeds": (1, "spec NB03 smoke: seed 0")}
    PAPER = {**sweep.PAPER,
             "hidden": ([1024], "a wider MLP (the paper's architecture is unknown)"),
             "n_train": (20000, "all 20 000 training images of the subset (spec: 60 000)"),
             "n_test": (5000, "all held-out images"), "epochs": (30, "spec NB03 paper: 30")}

    def jobs(self) -> int:
        """One sweep run per (seed, decoder)."""
        return self.seeds * len(self.decoders)
