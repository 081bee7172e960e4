"""Parameters of the ann2snn_cka notebooks: the one place each is declared (type, range,
default, reason, profile overrides); params.yaml and the parameters cells are generated from
it. T < 1 and an unknown CKA weighting, gradient or feature site are refused by key here."""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from lib.companion import sweep
from lib.companion.params import NotebookParams, param

Steps = Annotated[int, Field(ge=1, le=256)]             # T: at least one time step
TestImages = Annotated[int, Field(ge=10, le=10000)]     # the t10k file holds 10 000
V0 = Annotated[float, Field(ge=0.0, lt=1.0)]            # initial potential, in units of θ
Arm = Literal["kl_only", "kl_cka", "ce_only", "kl_cka_detached"]
Chunk = Annotated[int, Field(ge=1, le=2000)]


class Shared(NotebookParams):
    """Keys every ann2snn_cka notebook takes: the neuron, the evaluation."""

    alpha: Annotated[float, Field(gt=0.0, le=100.0)] = param(
        4.0, "spec §1.1: sigmoid surrogate, alpha 4 (SpikingJelly's)")
    n_test: TestImages = param(1000, "spec §3: the first 1 000 t10k images")
    chunk: Chunk = param(
        25, "test images per forward pass: small tensors stay in the heap (bench: 25 is about "
            "twice as fast as 100)")
    block: Steps = param(
        1, "time steps folded into one synapse call; 1 is the fastest on one CPU thread "
           "(bench/ann2snn_cka_forward.py), T the all-steps-at-once form")


class Gap(Shared):
    """01_conversion_gap: train the ANN, convert it, the gap against T, the first layer."""

    COST = ("n_train", "epochs")

    INCREASING = ("T_check", "T_points")
    DISTINCT = ("v0_list",)
    AT_MOST = (("n_calib", "n_train"),)
    n_train: Annotated[int, Field(ge=10, le=25000, multiple_of=10)] = param(
        20000, "spec §3: 20 000 training images (2 000 per class)")
    epochs: Annotated[int, Field(ge=1, le=100)] = param(2, "spec §3: two epochs")
    lr: Annotated[float, Field(gt=0.0, le=1.0)] = param(1e-3, "spec §3: Adam 1e-3")
    batch: Annotated[int, Field(ge=2, le=1024)] = param(128, "spec §6: batch 128")
    n_calib: Annotated[int, Field(ge=10, le=25000)] = param(
        2000, "spec §3: calibration on 2 000 training images")
    q: Annotated[float, Field(gt=50.0, le=100.0)] = param(
        99.9, "spec §1.1: the 99.9th percentile (SpikingJelly mode '99.9%')")
    calib_mode: Literal["ema", "pooled"] = param(
        "ema", "spec §1.1: SpikingJelly's per-batch percentile with an EMA (momentum 0.1); "
               "pooled: one percentile of all activations")
    calib_batch: Annotated[int, Field(ge=1, le=2000)] = param(
        100, "calibration batch of the EMA (the authors' loaders use 100)")
    T_max: Steps = param(64, "spec NB01: accuracy at T = 1 .. 64 in one cumulative run")
    v0_list: list[V0] = param([0.0, 0.5], "spec NB01: v0 = 0 (the code's) and 1/2",
                              min_length=1)
    T_points: list[Steps] = param([1, 2, 4, 8, 16, 32, 64],
                                  "spec NB01 F1.2: per-layer CKA and error at these T",
                                  min_length=1)
    n_features: Annotated[int, Field(ge=8, le=2000)] = param(
        128, "test images whose per-layer CKA and rate error F1.2 shows (budget)")
    T_check: list[Steps] = param([1, 4, 8, 32], "spec NB01: counts checked at T = 1, 4, 8, 32",
                                 min_length=1)
    n_check: Annotated[int, Field(ge=1, le=1000)] = param(
        16, "test images whose first-layer neurons are checked (16 x 12 544 neurons)")
    grid_bits: Annotated[int, Field(ge=4, le=30)] = param(
        12, "spec NB01: first-layer currents rounded to multiples of 2^-12 (exact in float64)")
    cka0_T: Steps = param(8, "spec NB01: the initial CKA at T = 8 ...")
    n_cka0: Annotated[int, Field(ge=8, le=2000)] = param(256, "... on 256 training images ...")
    cka0_batch: Annotated[int, Field(ge=4, le=512)] = param(
        64, "... in batches of 64 (unbiased HSIC per batch, averaged)")
    cka0_gram: Literal["per_step", "rate"] = param(
        "per_step", "decision (spec §7 Q5): the SNN Gram is the time average of per-step "
                    "Grams, as the released code; rate: the Gram of the rates")
    n_u_check: Annotated[int, Field(ge=5, le=16)] = param(
        8, "samples on which unbiased HSIC is checked against its U-statistic (n^4 terms)")
    SMOKE = {"n_train": (1280, "ten training steps: the code path only"),
             "epochs": (1, "one epoch"), "n_calib": (200, "a small calibration set"),
             "n_test": (200, "spec §3 smoke: 200 test images"),
             "T_max": (8, "spec §3 smoke: T <= 8"), "T_points": ([1, 2, 4, 8], "T <= 8"),
             "T_check": ([1, 4, 8], "T <= 8"), "n_features": (32, "a few images"),
             "n_check": (2, "two images"), "n_cka0": (64, "one batch")}
    PAPER = {"n_train": (25000, "every training image of the subset (spec: 60 000)"),
             "epochs": (5, "a longer ANN training"), "n_test": (10000, "all t10k images")}


class Finetune(Shared, sweep.SweepParams):
    """02_closed_loop_finetune: open-loop against KL-only, KL + CKA and CE-only; one sweep run
    per (T_ft, seed, arm)."""

    COST = ("seeds", "steps")

    DISTINCT = ("arms",)
    INCREASING = ("T_ft",)
    T_ft: list[Steps] = param([4], "spec NB02 default: fine-tune at T = 4", min_length=1)
    T_eval: Steps = param(32, "spec NB02: evaluate at every T <= 32 (cumulative)")
    arms: list[Arm] = param(["kl_only", "kl_cka", "ce_only"], "spec NB02: the three arms",
                            min_length=1)
    seeds: Annotated[int, Field(ge=1, le=10)] = param(2, "spec NB02 default: seeds 0, 1")
    steps: Annotated[int, Field(ge=1, le=100000)] = param(100, "spec NB02: 100 steps")
    ft_batch: Annotated[int, Field(ge=4, le=1024)] = param(64, "spec NB02: batch 64")
    ft_lr: Annotated[float, Field(gt=0.0, le=1.0)] = param(1e-4, "spec NB02: Adam 1e-4")
    tau: Annotated[float, Field(gt=0.0, le=100.0)] = param(2.0, "spec NB02: tau 2")
    kd_alpha: Annotated[float, Field(ge=0.0, le=1.0)] = param(
        0.5, "spec NB02: alpha 0.5 (distillation against CE)")
    cka_beta: Annotated[float, Field(ge=0.0, le=1.0)] = param(
        0.5, "spec NB02: beta 0.5 in KL + CKA (global against local)")
    cka_weighting: Literal["adaptive", "uniform"] = param(
        "adaptive", "spec §1.3 eq. 9: w_l from the initial conversion loss 1 - CKA0; uniform: "
                    "1/L, the ablation")
    cka_grad: Literal["full", "detached_norm"] = param(
        "full", "decision (spec §7 Q4): the CKA's full gradient; detached_norm: the released "
                "code's (arm kl_cka_detached runs it beside)")
    cka_features: Literal["post", "pre"] = param(
        "post", "decision (spec §7 Q3): the output of every IF layer; pre: its input current")
    cka0_gram: Literal["per_step", "rate"] = param(
        "per_step", "decision (spec §7 Q5): CKA0's SNN Gram, the time average of per-step Grams")
    n_cka0: Annotated[int, Field(ge=8, le=2000)] = param(256, "spec §1.3: CKA0 on training "
                                                              "images (the code: test batches)")
    n_train: Annotated[int, Field(ge=10, le=25000, multiple_of=10)] = param(
        20000, "the training images mini-batches are drawn from (spec §3)")
    v0: V0 = param(0.0, "decision (spec §7 Q2): fine-tune the code's conversion, v0 = 0")
    ft_block: Steps = param(
        4, "time steps folded into one synapse call in fine-tuning: all of T_ft = 4 at once is "
           "about twice as fast as one (the backward's copies of per-step pieces)")
    n_features: Annotated[int, Field(ge=8, le=2000)] = param(
        256, "test images on which F2.2 measures each layer's CKA before and after")
    n_grad_check: Annotated[int, Field(ge=4, le=256)] = param(
        32, "training images on which the two CKA gradients are compared (float64)")
    SMOKE = {"seeds": (1, "one seed"), "steps": (5, "spec §3 smoke: 5 fine-tuning steps"),
             "T_eval": (8, "spec §3 smoke: T <= 8"), "n_test": (200, "200 test images"),
             "n_cka0": (64, "one batch"), "n_train": (1280, "a small pool"),
             "n_features": (64, "a few images")}
    PAPER = {**sweep.PAPER,
             "T_ft": ([4, 8, 16, 32], "spec NB02 paper: T_ft in {4, 8, 16, 32}"),
             "seeds": (5, "spec NB02 paper: 5 seeds"),
             "steps": (1560, "spec §7 Q6: five epochs of 20 000 images in batches of 64"),
             "n_test": (10000, "all t10k images")}

    def jobs(self) -> int:
        """One sweep run per (T_ft, seed, arm)."""
        return len(self.T_ft) * self.seeds * len(self.arms)


class Noise(Shared):
    """03_noise_robustness: accuracy under Gaussian pixel noise, ANN against each SNN."""

    COST = ("n_test",)

    INCREASING = ("sigmas",)
    DISTINCT = ("v0_list",)
    sigmas: list[Annotated[float, Field(ge=0.0, le=1.0)]] = param(
        [0.0, 0.1, 0.2, 0.3], "spec NB03: sigma in {0, 0.1, 0.2, 0.3}", min_length=2)
    T_high: Steps = param(16, "spec NB03: evaluated at T_ft and at T = 16")
    v0_list: list[V0] = param([0.0, 0.5], "spec NB03: the converted SNN with v0 = 0 and 1/2",
                              min_length=1)
    # <= 4,294,967,295: a 32-bit seed, what every generator here accepts
    noise_seed: Annotated[int, Field(ge=0, le=4294967295)] = param(
        1000, "the noise draw's seed, offset from `seed` (one draw per sigma for all models)")
    SMOKE = {"sigmas": ([0.0, 0.3], "spec NB03 smoke: {0, 0.3}"),
             "n_test": (200, "200 test images"), "T_high": (8, "T <= 8")}
    PAPER = {"n_test": (10000, "all t10k images")}
