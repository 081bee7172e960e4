"""Parameters of the equivariance notebooks: the one place each is declared (type, range,
default, reason, profile overrides); params.yaml and the parameters cells are generated from it."""
from __future__ import annotations

from typing import Annotated

from pydantic import Field

from lib.companion import sweep
from lib.companion.params import NotebookParams, param
from lib.companion.schema import PosInt

Tol = Annotated[float, Field(gt=0, le=1.0)]


class LinearWarmup(NotebookParams):
    """00_linear_warmup: E0, linear networks with continuous latent group GL(r)."""

    COST = ("n",)

    DISTINCT = ("freqs",)

    # <= 50: 6.2x the paper profile's 8
    n: Annotated[int, Field(ge=3, le=50)] = param(
        8, "C_8 acting on R^8 by cyclic shifts (spec §4 E0)")
    # <= 5: each 5x the paper profile's 1
    freqs: list[Annotated[int, Field(ge=0, le=5)]] = param(
        [0, 1], "kept Fourier modes {0, ±1}: rank 3", min_length=1)
    # <= 10: 5x the paper profile's 2
    inflate_extra: PosInt = param(2, "inner units with random rows, zero outgoing weights", le=10)
    # <= 50: 7.1x the paper profile's 7
    rankdef_extra: PosInt = param(7, "inner width r + 7 > n: W_1 loses full row rank", le=50)
    tol: Tol = param(1e-10, "float64 exact-check tolerance (spec §5.4)")
    SMOKE = {
        "n": (6, "smaller group; rank 3 + 2 extra rows stays below n"),
    }


class PlantedRecovery(NotebookParams):
    """01_planted_recovery: E1, planted equivariant tanh/ReLU MLPs recovered after scrambling."""

    COST = ("n_samples",)

    # <= 20: 5x the paper profile's 4
    grid: Annotated[int, Field(ge=2, le=20)] = param(
        4, "D_4 and Z_2 act on 4x4 images (spec §3.3 prototype)")
    # <= 50: 6.2x the paper profile's 8
    cyclic_n: Annotated[int, Field(ge=2, le=50)] = param(8, "C_8 on R^8")
    # <= 10: each 5x the paper profile's 2
    channels: list[Annotated[int, Field(ge=1, le=10)]] = param(
        [2, 1], "regular channels per hidden layer: widths 16, 8 for D_4", min_length=1)
    # <= 10,000: 5x the paper profile's 2,000
    n_samples: Annotated[int, Field(ge=16, le=10000)] = param(2000, "inputs for end-to-end checks")
    tol: Tol = param(1e-10, "float64 tolerance for residuals and layerwise errors (spec §4 E1)")
    SMOKE = {
        "grid": (3, "9-pixel images: smaller matching problems"),
        "channels": ([1, 1], "one channel per layer"),
        "n_samples": (200, "fewer inputs"),
    }


class FibresCanonical(NotebookParams):
    """02_fibres_canonical_forms: E2, canonical forms, irreducibility, Jacobian-rank fibres."""

    COST = ("n_points",)

    # <= 500: 5x the paper profile's 100
    n_random: PosInt = param(100, "random latent symmetries applied per net (spec §4 E2)", le=500)
    # <= 100: each 6.2x the paper profile's 16
    canon_widths: list[Annotated[int, Field(ge=1, le=100)]] = param(
        [16, 12, 8, 4], "nets whose canonical forms are compared", min_length=3)
    # <= 20: each 5x the paper profile's 4
    arch: list[Annotated[int, Field(ge=1, le=20)]] = param(
        [3, 4, 3, 2], "spec §2.2 architecture (39 parameters)", min_length=3)
    # <= 50: 5x the paper profile's 10
    draws: PosInt = param(10, "random parameter draws per activation", le=50)
    # <= 5,000: 10x the paper profile's 500
    n_points: Annotated[int, Field(ge=20, le=5000)] = param(500, "Gaussian inputs for the Jacobian")
    # <= 50: each 6.2x the paper profile's 8
    relu_arch: list[Annotated[int, Field(ge=1, le=50)]] = param(
        [4, 8, 8, 2], "spec §2.2 ReLU histogram architecture (16 hidden)", min_length=3)
    # <= 100: 5x the paper profile's 20
    relu_draws: Annotated[int, Field(ge=2, le=100)] = param(
        20, "draws for the ReLU histogram (spec: 20)")
    # <= 100: each 12.5x the paper profile's 8
    relu_scales: list[Annotated[float, Field(gt=0, le=100.0)]] = param(
        [1.0, 2.0, 4.0, 8.0], "input standard deviations scanned", min_length=2)
    # <= 50: each 10x the paper profile's 5
    linear_nobias: list[Annotated[int, Field(ge=1, le=50)]] = param(
        [5, 3, 4], "(d_0, r, d_2): fibre dimension r^2", min_length=3, max_length=3)
    tol: Tol = param(1e-10, "float64 tolerance for canonical-form agreement")
    eps_near: Annotated[float, Field(gt=0, lt=1)] = param(
        1e-05, "relative size of the near-miss perturbations (different function)")
    SMOKE = {
        "n_random": (5, "a few orbit elements exercise the same code"),
        "draws": (2, "two draws per activation"),
        "n_points": (150, "smaller Jacobians"),
        "relu_draws": (4, "tiny histogram"),
        "relu_scales": ([2.0, 8.0], "two scales"),
    }


class Counterexamples(NotebookParams):
    """03_counterexamples: E3, dead / duplicate / bypass / stabilizer counterexamples."""

    COST = ("n_fit",)

    # <= 20: 5x the paper profile's 4
    grid: Annotated[int, Field(ge=2, le=20)] = param(
        4, "D_4 / mirror act on 4x4 images (spec §3.3)")
    # <= 10: each 5x the paper profile's 2
    channels: list[Annotated[int, Field(ge=1, le=10)]] = param(
        [2, 1], "planted base network widths 16, 8", min_length=2)
    split: Annotated[float, Field(gt=0, lt=1)] = param(
        0.3, "uneven split of the duplicated unit (spec: 0.7 / 0.3)")
    # <= 100: 6.2x the paper profile's 16
    n_directions: Annotated[int, Field(ge=4, le=100)] = param(
        16, "random bypass directions (>= grid^2)")
    # <= 20,000: 5x the paper profile's 4,000
    n_fit: Annotated[int, Field(ge=100, le=20000)] = param(
        4000, "LV fit sample (>= 50 x width, spec §5.6)")
    # <= 10,000: 5x the paper profile's 2,000
    n_eval: Annotated[int, Field(ge=50, le=10000)] = param(2000, "LV evaluation sample")
    tol: Tol = param(1e-10, "float64 tolerance for exact checks")
    lv_tol: Tol = param(1e-08, "LV residual counted as exact (least squares, collinear features)")
    SMOKE = {
        "n_fit": (1000, "smaller least-squares problems"),
        "n_eval": (300, "smaller, so the smoke run takes seconds"),
    }


class TeacherStudent(sweep.SweepParams):
    """Keys shared by the teacher-student training notebooks (E4, E5), whose students train
    as sweep runs."""

    AT_MOST = (("batch", "n_train"), ("log_every", "steps"))

    # <= 20: 5x the paper profile's 4
    grid: Annotated[int, Field(ge=2, le=20)] = param(4, "D_4 on 4x4 images")
    # <= 10: each 5x the paper profile's 2
    teacher_channels: list[Annotated[int, Field(ge=1, le=10)]] = param(
        [2, 1], "planted teacher widths 16, 8 (spec §4 E4)", min_length=1)
    # <= 50,000: 8.3x the largest profile value, 6,000
    steps: PosInt = param(3000, "Adam steps", le=50000)
    lr: Annotated[float, Field(gt=0, le=1.0)] = param(
        0.03, "spec's 3e-3 stalls at rel. MSE 1e-2 in our runs")
    # <= 50,000: as n_train, which bounds it (batch <= n_train)
    batch: PosInt = param(256, "minibatch size", le=50000)
    # <= 50,000: 12.2x the paper profile's 4,096
    n_train: Annotated[int, Field(ge=64, le=50000)] = param(
        4096, "training inputs per student before augmentation (spec)")
    # <= 50,000: 12.2x the paper profile's 4,096
    n_test: Annotated[int, Field(ge=100, le=50000)] = param(
        4096, "fresh isotropic inputs for the metrics")
    # <= 20,000: 5x the paper profile's 4,000
    n_fit: Annotated[int, Field(ge=100, le=20000)] = param(
        4000, "LV fit sample, at least 50 x width")
    # <= 50,000: as steps, which bounds it (log_every <= steps)
    log_every: PosInt = param(250, "checkpoint spacing (spec: every 250 steps)", le=50000)


class TrainingEmergence(TeacherStudent):
    """04_training_emergence: E4, teacher–student emergence of layerwise equivariance; one
    sweep run per condition (and one for the wide students)."""

    COST = ("n_seeds", "steps")

    # <= 50: 10x the paper profile's 5
    n_seeds: Annotated[int, Field(ge=2, le=50)] = param(
        3, "students per condition (spec: 5; 2-core budget)")
    # <= 1: over 100x the paper profile's 0.001
    fit_ok: Annotated[float, Field(gt=0, le=1.0)] = param(
        0.001, "relative MSE counted as a good fit (spec §4 E4)")
    # <= 1: 33.3x the paper profile's 0.03
    lv_ok: Annotated[float, Field(gt=0, le=1.0)] = param(
        0.03, "layer-1 LV error counted as equivariant (spec §4 E4)")
    # <= 5: 16.7x the paper profile's 0.3
    control_min: Annotated[float, Field(gt=0, le=5.0)] = param(
        0.3, "controls must exceed this (spec §4 E4)")
    # <= 200: each 6.2x the paper profile's 32
    wide_widths: list[Annotated[int, Field(ge=1, le=200)]] = param(
        [32, 16], "over-parameterized students (spec §4 E4), iso+aug only", min_length=1)
    # <= 100: each 10x the paper profile's 10
    penalty_grid: list[Annotated[float, Field(gt=0, le=100.0)]] = param(
        [0.01, 0.1, 1.0], "soft-penalty weights of condition (e), chosen on a validation split",
        min_length=1)
    # <= 20,000: 9.8x the paper profile's 2,048
    n_val: Annotated[int, Field(ge=100, le=20000)] = param(
        2048, "validation inputs from the anisotropic training law (penalty selection)")
    PAPER = {
        **sweep.PAPER,
        "n_seeds": (5, "the spec's five seeds per condition"),
        "steps": (6000, "the spec's 6000 Adam steps"),
        "penalty_grid": ([0.01, 0.1, 1.0, 10.0], "a wider grid for the penalty weight"),
    }
    SMOKE = {
        "n_seeds": (2, "two students per condition"),
        "penalty_grid": ([0.1], "one penalty weight: the selection code runs on one candidate"),
        "n_val": (256, "smaller, so the smoke run takes seconds"),
        "steps": (100, "a few steps exercise the whole pipeline"),
        "n_train": (256, "small data"),
        "n_test": (500, "smaller, so the smoke run takes seconds"),
        "n_fit": (500, "smaller, so the smoke run takes seconds"),
        "log_every": (50, "smaller, so the smoke run takes seconds"),
    }

    def jobs(self) -> int:
        """One sweep run per condition (four laws x augmentation, one per penalty weight) and
        one for the wide students, each training its n_seeds students in one batched program."""
        return 4 + len(self.penalty_grid) + 1


class ActivationComparison(TeacherStudent):
    """05_activation_comparison: E5, tanh vs ReLU vs GELU students; one sweep run per
    (activation, target)."""

    COST = ("n_seeds", "steps")

    # <= 20: 6.7x the paper profile's 3
    n_seeds: PosInt = param(3, "students per activation and target", le=20)
    tol: Tol = param(1e-10, "float64 tolerance for the target's exact equivariance")
    # <= 50,000: as steps, which bounds it (log_every <= steps)
    log_every: PosInt = param(500, "checkpoint spacing", le=50000)
    SMOKE = {
        "n_seeds": (1, "one student per activation and target"),
        "steps": (100, "a few steps exercise the pipeline"),
        "n_train": (256, "smaller, so the smoke run takes seconds"),
        "n_test": (500, "smaller, so the smoke run takes seconds"),
        "n_fit": (500, "smaller, so the smoke run takes seconds"),
        "log_every": (50, "smaller, so the smoke run takes seconds"),
    }
    PAPER = {**sweep.PAPER}

    def jobs(self) -> int:
        """One sweep run per (activation, target): 3 activations x 2 targets, each training
        its n_seeds students in one batched program."""
        return 6


class MirrorFashion(sweep.SweepParams):
    """06_mirror_fashion_mnist: E6, soft mirror loss on Fashion-MNIST MLPs (exploratory); one
    sweep run per task."""

    COST = ("n_seeds", "steps")

    AT_MOST = (("batch", "n_train"),)

    n_train: Annotated[int, Field(ge=100, le=20000)] = param(
        5000, "training images (of the 25 000 bundled)")
    n_test: Annotated[int, Field(ge=50, le=5000)] = param(2000, "held-out images")
    # <= 50: 10x the paper profile's 5
    n_seeds: Annotated[int, Field(ge=1, le=50)] = param(
        3, "models per first activation (issue 12: >= 3 seeds)")
    # <= 50,000: 6.2x the paper profile's 8,000
    steps: Annotated[int, Field(ge=2, le=50000)] = param(1500, "Adam steps per task")
    lr: Annotated[float, Field(gt=0, le=1.0)] = param(0.003, "Adam learning rate, cosine decay")
    # <= 20,000: as n_train, which bounds it (batch <= n_train)
    batch: PosInt = param(256, "minibatch size", le=20000)
    # <= 10: 10x the paper profile's 1
    lam: Annotated[float, Field(ge=0, le=10.0)] = param(
        1.0, "weight of the soft mirror loss (paper's value unknown)")
    # <= 20,000: 5x the paper profile's 4,000
    n_fit: Annotated[int, Field(ge=100, le=20000)] = param(
        4000, "LV fit sample, at least 50 x 64 units")
    # <= 10,000: 5x the paper profile's 2,000
    n_eval: Annotated[int, Field(ge=50, le=10000)] = param(2000, "LV evaluation sample")
    SMOKE = {
        "n_train": (300, "tiny data"),
        "n_seeds": (1, "one model per first activation exercises the pipeline"),
        "n_test": (200, "smaller, so the smoke run takes seconds"),
        "steps": (20, "a few steps exercise the pipeline"),
        "n_fit": (300, "smaller, so the smoke run takes seconds"),
        "n_eval": (200, "smaller, so the smoke run takes seconds"),
    }
    PAPER = {
        **sweep.PAPER,
        "n_train": (20000, "all but the held-out images: enough data to fit"),
        "steps": (8000, "train to a fit before the mirror metrics mean anything"),
        "n_seeds": (5, "five models per first activation"),
    }

    def jobs(self) -> int:
        """One sweep run per task (autoencoder, classifier), each training its 2 x n_seeds
        models in one batched program."""
        return 2


class AttentionHeads(NotebookParams):
    """07_attention_heads: E7, planted Z_2-equivariant MHSA, head permutation recovery."""

    COST = ("n_seq",)

    AT_MOST = (("d_head", "d"),)

    # <= 50: 8.3x the paper profile's 6
    d: Annotated[int, Field(ge=3, le=50)] = param(6, "token feature dimension (spec §4 E7)")
    # <= 50: as d, which bounds it (d_head <= d)
    d_head: Annotated[int, Field(ge=2, le=50)] = param(2, "head dimension")
    # <= 50: 10x the paper profile's 5
    n_tokens: Annotated[int, Field(ge=3, le=50)] = param(
        5, "tokens per sequence, at least 3 for identifiability")
    # <= 1,000: 5x the paper profile's 200
    n_seq: PosInt = param(200, "random sequences for the functional checks", le=1000)
    # <= 100: 5x the paper profile's 20
    n_scrambles: PosInt = param(20, "independent scramblings of the planted heads", le=100)
    tol: Tol = param(1e-10, "float64 tolerance")
    SMOKE = {
        "n_seq": (20, "fewer sequences"),
        "n_scrambles": (3, "a few scramblings"),
    }


class Stability(NotebookParams):
    """08_stability: E8, perturbations and near-degenerate parameters."""

    COST = ("n_samples",)

    INCREASING = ("eps_log10", "delta_log10")

    # <= 20: 5x the paper profile's 4
    grid: Annotated[int, Field(ge=2, le=20)] = param(4, "D_4 on 4x4 images")
    eps_log10: list[Annotated[float, Field(ge=-12, le=0)]] = param(
        [-8.0, -7.0, -6.0, -5.0, -4.0, -3.0, -2.0, -1.0],
        "spec §4 E8: logspace(-8, -1)",
        min_length=2)
    delta_log10: list[Annotated[float, Field(ge=-12, le=1)]] = param(
        [-7.0, -6.0, -5.0, -4.0, -3.0, -2.0, -1.0, 0.0], "channel separations", min_length=2)
    eps_fixed: Annotated[float, Field(gt=0, lt=1)] = param(0.0001, "noise level of the delta scan")
    # <= 5,000: 5x the paper profile's 1,000
    n_samples: Annotated[int, Field(ge=50, le=5000)] = param(
        1000, "inputs for end-to-end and LV evaluation")
    # <= 10,000: 5x the paper profile's 2,000
    n_fit: Annotated[int, Field(ge=100, le=10000)] = param(2000, "LV fit sample")
    SMOKE = {
        "eps_log10": ([-6.0, -2.0], "two noise levels"),
        "delta_log10": ([-6.0, -2.0], "one degenerate, one separated"),
        "n_samples": (300, "smaller, so the smoke run takes seconds"),
        "n_fit": (600, "smaller, so the smoke run takes seconds"),
    }


class ConnectedGroup(NotebookParams):
    """09_connected_group: E3 item 5, finite rotation subgroups vs SO(2)."""

    COST = ("n_samples",)

    INCREASING = ("ns",)

    ns: list[Annotated[int, Field(ge=2, le=128)]] = param(
        [4, 8, 16, 32, 64], "orders of the finite rotation subgroups", min_length=2)
    # <= 10: each 5x the paper profile's 2
    channels: list[Annotated[int, Field(ge=1, le=10)]] = param(
        [2, 1], "regular channels per hidden layer: widths 2n, n", min_length=2)
    # <= 10,000: 5x the paper profile's 2,000
    n_samples: Annotated[int, Field(ge=50, le=10000)] = param(2000, "inputs in R^2")
    # <= 100: 6.2x the paper profile's 16
    n_angles: PosInt = param(16, "random rotation angles for the SO(2) error", le=100)
    tol: Tol = param(1e-10, "float64 tolerance")
    SMOKE = {
        "ns": ([4, 16], "two subgroup orders"),
        "n_samples": (300, "smaller, so the smoke run takes seconds"),
        "n_angles": (4, "smaller, so the smoke run takes seconds"),
    }


