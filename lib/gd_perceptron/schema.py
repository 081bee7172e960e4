"""Parameters of the gd_perceptron notebooks: the one place each is declared (type, range,
default, reason, profile overrides); params.yaml and the parameters cells are generated from it."""
from __future__ import annotations

from typing import Annotated

from pydantic import Field, model_validator

from lib.companion import sweep
from lib.companion.params import NotebookParams, param
from lib.companion.schema import Pos, PosInt


class Reduction(NotebookParams):
    """01_reduction: the author's small examples (F0) and GD -> GP equivalence (F3)."""

    COST = ("worst_case_max_iter",)

    INCREASING = ("gammas", "equiv_linear_gammas", "equiv_scales")
    DISTINCT = ("worst_case_n",)

    # <= 1,000,000: each 10x the paper profile's 100,000
    gammas: list[Annotated[float, Field(gt=0.0, le=1e6)]] = param(
        [1.0, 10.0, 100.0, 1000.0, 10000.0, 100000.0],
        "Thm 4.1 example: loss blows up with gamma",
        min_length=2)
    # <= 10,000: each 9.9x the paper profile's 1,010
    worst_case_n: list[Annotated[int, Field(ge=10, le=10000)]] = param(
        [10, 100, 300, 997, 998, 999, 1000, 1001, 1002, 1003, 1010],
        "which n gives 308?",
        min_length=1)
    # <= 1,000: 10x the paper profile's 100
    worst_case_gamma: Pos = param(100.0, "Table 1 row: LR+GD at gamma = 100", le=1000.0)
    # <= 50,000: 10x the paper profile's 5,000
    worst_case_max_iter: PosInt = param(5000, "generous cap, reported if hit", le=50000)
    # <= 100: 5x the paper profile's 20
    equiv_n: Annotated[int, Field(ge=2, le=100)] = param(20, "spec §4 F3: 20 Gaussian points")
    # <= 500: 10x the paper profile's 50
    equiv_d: Annotated[int, Field(ge=2, le=500)] = param(
        50, "F3: dimension of the points; labels from a random teacher")
    # <= 500: 8.3x the paper profile's 60
    equiv_linear_steps: PosInt = param(
        60, "F3: horizon of the linear gap (max over t <= 60)", le=500)
    # <= 10,000,000: each 10x the paper profile's 1,000,000
    equiv_linear_gammas: list[Annotated[float, Field(gt=0.0, le=1e7)]] = param(
        [10.0, 100.0, 1000.0, 10000.0, 1000000.0],
        "F3 linear model: step sizes of the GD vs GP gap",
        min_length=2)
    # <= 20: 5x the paper profile's 4
    equiv_m: Annotated[int, Field(ge=2, le=20)] = param(4, "quadratic model, m = 4, s = +-1")
    # <= 1,000: a sanity cap only: the GP path is scale-free in eta (any spelling such as 2.5e+2
    # must validate, tests/test_params_property.py)
    equiv_eta: Pos = param(
        0.05, "GP step of the quadratic model (scale-free in the GP)", le=1000.0)
    # <= 200: 5x the paper profile's 40
    equiv_quad_steps: PosInt = param(40, "F3: horizon of the quadratic gap", le=200)
    # <= 10,000,000: each 10x the paper profile's 1,000,000
    equiv_scales: list[Annotated[float, Field(gt=0.0, le=1e7)]] = param(
        [1.0, 10.0, 100.0, 1000.0, 10000.0, 100000.0, 1000000.0],
        "saturation alpha^k",
        min_length=2)
    SMOKE = {
        "worst_case_n": ([10, 1000], "two points of the scan are enough to exercise the code"),
        "equiv_linear_gammas": ([10.0, 10000.0], "smaller, so the smoke run takes seconds"),
        "equiv_scales": ([1.0, 1000000.0], "smaller, so the smoke run takes seconds"),
    }


class LinearLowerBound(NotebookParams):
    """02_linear_lower_bound: linear iterations vs d on data set A (F1)."""

    COST = ("perturbed_seeds",)

    DISTINCT = ("gd_ds", "perturbed_ds")

    d_exact_max: Annotated[int, Field(ge=4, le=2000)] = param(
        300, "spec §5 check 4: every d in [2, 300) exactly")
    # <= 22: as slope_log2_max: d up to 2^22
    slope_log2_min: Annotated[int, Field(ge=1, le=22)] = param(
        4, "slope fitted over d = 2^4 ... 2^16")
    slope_log2_max: Annotated[int, Field(ge=2, le=22)] = param(16, "slope fitted up to d = 2^16")
    # <= 10,000: each 9.8x the paper profile's 1,024
    gd_ds: list[Annotated[int, Field(ge=2, le=10000)]] = param(
        [8, 32, 128, 512, 1024], "GD in float64 against the exact counts", min_length=1)
    # <= 100,000: 10x the paper profile's 10,000
    gd_gamma_large: Pos = param(10000.0, "spec §4 F1 large step, gives the 1/2-tie counts", le=1e5)
    # <= 1,000: 10x the paper profile's 100
    gd_gamma_soft: Pos = param(100.0, "spec §4 F1 near-ties resolved softly", le=1000.0)
    # <= 1: over 100x the paper profile's 0.001
    perturbed_sigma: Pos = param(0.001, "noise on b_2 that removes the exact ties", le=1.0)
    # <= 500: 7.8x the paper profile's 64
    perturbed_seeds: Annotated[int, Field(ge=2, le=500)] = param(64, "data draws per d")
    # <= 16,384: each 4x the largest, 4,096: a d x d float64 block is 2 GiB
    perturbed_ds: list[Annotated[int, Field(ge=2, le=16384)]] = param(
        [16, 64, 256, 1024, 4096], "d of the perturbed data set A", min_length=2)
    eta_powers: list[Annotated[int, Field(ge=-60, le=60)]] = param(
        [-10, 0, 10], "spec §5 check 9, GP step eta = 2^k (exact in floating point)",
        min_length=2)
    SMOKE = {
        "d_exact_max": (40, "seconds, not minutes"),
        "slope_log2_min": (8, "a short range far from the +2 offset keeps the slope bound"),
        "slope_log2_max": (12, "smaller, so the smoke run takes seconds"),
        "perturbed_seeds": (8, "smaller, so the smoke run takes seconds"),
    }


class TwoLayerSpeedup(NotebookParams):
    """03_two_layer_speedup: quadratic two-layer iterations vs d (F2) and its exactness checks."""

    COST = ("seeds", "max_iter")

    DISTINCT = ("c_fixed", "c_sqrt", "plane_ds", "scale_powers")

    # <= 12: as log4_max, which bounds it (log4_min <= log4_max)
    log4_min: Annotated[int, Field(ge=1, le=12)] = param(2, "d = 4^2 ... 4^10, the spec's F2 table")
    log4_max: Annotated[int, Field(ge=2, le=12)] = param(10, "largest d = 4^log4_max (F2 table)")
    # <= 2,000: 6.7x the paper profile's 300
    seeds: Annotated[int, Field(ge=5, le=2000)] = param(300, "random inits per (d, step rule)")
    # <= 5: each 10x the paper profile's 0.5
    c_fixed: list[Annotated[float, Field(gt=0.0, le=5.0)]] = param(
        [0.1, 0.2, 0.5], "step rules of the table, c = 2 eta ||b_1||^2 / n")
    # <= 10: each 10x the paper profile's 1
    c_sqrt: list[Annotated[float, Field(gt=0.0, le=10.0)]] = param(
        [1.0], "step rules c = c0/sqrt(d) of the table")
    # <= 10: 5x the paper profile's 2
    m: Annotated[int, Field(ge=2, le=10)] = param(2, "neurons, outputs s = (+1, -1)")
    # <= 2,000,000: 5x the paper profile's 400,000
    max_iter: Annotated[int, Field(ge=100, le=2000000)] = param(
        30000, "cap; capped runs are reported, heavy tails of 1/sqrt(d)")
    # <= 16,384: 4x the largest, 4,096: a d x d float64 block is 2 GiB
    slope_d_max: Annotated[int, Field(ge=64, le=16384)] = param(
        4096, "spec §5 check 5 fits d = 16 ... 4096")
    # <= 1: 10x the paper profile's 0.1
    slope_c: Pos = param(0.1, "step rule of the slope check", le=1.0)
    # <= 2,000: each 7.8x the paper profile's 256
    plane_ds: list[Annotated[int, Field(ge=2, le=2000)]] = param(
        [16, 64, 256], "spec §5 check 3, full d against the plane", min_length=1)
    # <= 500: 8.3x the paper profile's 60
    plane_seeds: Annotated[int, Field(ge=1, le=500)] = param(60, "inits per d in that check")
    plane_c: Pos = param(0.2, "step of that check", le=2.0)  # <= 2: 10x the paper profile's 0.2
    # -60 ... 60: each 2^k exact in float64, as eta_powers
    scale_powers: list[Annotated[int, Field(ge=-60, le=60)]] = param(
        [-10, 0, 10], "spec §5 check 9, W_0 times 2^k", min_length=2)
    # <= 2,000: 7.8x the paper profile's 256
    scale_d: Annotated[int, Field(ge=2, le=2000)] = param(256, "d of the scale check")
    SMOKE = {
        "log4_max": (5, "d up to 1024"),
        "seeds": (60, "fewer make the fitted slope too noisy for its bound"),
        "max_iter": (3000, "smaller, so the smoke run takes seconds"),
        "plane_ds": ([16, 64], "smaller, so the smoke run takes seconds"),
        "plane_seeds": (5, "smaller, so the smoke run takes seconds"),
    }
    PAPER = {
        "max_iter": (400000, "the spec's cap for the heavy tails of c = 1/sqrt(d)"),
    }


class LossOscillations(NotebookParams):
    """04_loss_oscillations: loss vs iteration (F4) and iterations vs step size (F5)."""

    COST = ("random_seeds", "max_iter")

    INCREASING = ("curve_gammas",)

    # <= 500: 7.8x the paper profile's 64
    d: Annotated[int, Field(ge=2, le=500)] = param(64, "spec §4 F4: features of data set A")
    # <= 100,000: each 10x the paper profile's 10,000
    curve_gammas: list[Annotated[float, Field(gt=0.0, le=1e5)]] = param(
        [0.001, 1.0, 10000.0], "small, unit and perceptron-regime steps", min_length=2)
    # <= 500: 6.2x the paper profile's 80
    curve_steps: Annotated[int, Field(ge=10, le=500)] = param(
        80, "spec §5 check 7 counts increases in 80 steps")
    # -12 ... 12: gamma within 10^±12, far past the paper's 10^-4 ... 10^6
    sweep_log10_min: int = param(-4, "F5 sweeps gamma over 10^-4 ... 10^6", ge=-12, le=12)
    # -12 ... 12: gamma within 10^±12, far past the paper's 10^-4 ... 10^6
    sweep_log10_max: int = param(
        6, "largest step size 10^sweep_log10_max of the F5 sweep", ge=-12, le=12)
    # <= 500: 12.2x the paper profile's 41
    sweep_points: Annotated[int, Field(ge=3, le=500)] = param(41, "log-spaced step sizes")
    # <= 1,000: 5x the paper profile's 200
    random_n: Annotated[int, Field(ge=2, le=1000)] = param(
        200, "random separable data, n >> d so it is not solved in one step")
    # <= 50: 5x the paper profile's 10
    random_d: Annotated[int, Field(ge=2, le=50)] = param(10, "dimension of the random data")
    # <= 50: 5x the paper profile's 10
    random_seeds: Annotated[int, Field(ge=2, le=50)] = param(
        10, "random data sets of the F5 sweep (>= 2: the plateau claim is resampled over them)")
    # <= 50,000: 10x the paper profile's 5,000
    max_iter: Annotated[int, Field(ge=100, le=50000)] = param(
        5000, "cap; capped (small-gamma) runs are shown as gaps")
    SMOKE = {
        "sweep_points": (9, "seconds, not minutes"),
        "random_seeds": (2, "smaller, so the smoke run takes seconds"),
    }


class Trajectories(NotebookParams):
    """05_trajectories: iterates in the plane and the option sequence (F6), brake spectrum."""

    COST = ("quad_runs", "quad_steps")

    # <= 500: 7.8x the paper profile's 64
    linear_d: Annotated[int, Field(ge=2, le=500)] = param(
        64, "the linear iterate needs d+2 steps to enter the cone")
    # <= 10,000: 9.8x the paper profile's 1,024
    quad_d: Annotated[int, Field(ge=2, le=10000)] = param(
        1024, "quadratic neurons at a d where the speed-up is large")
    # <= 1: 10x the paper profile's 0.1
    quad_c: Pos = param(0.1, "step rule c of the quadratic GP", le=1.0)
    # <= 200: 5x the paper profile's 40
    quad_runs: Annotated[int, Field(ge=2, le=200)] = param(
        40, "rows of the option raster (>= 2: the options claim is resampled over them)")
    # <= 2,000: 5x the paper profile's 400
    quad_steps: Annotated[int, Field(ge=1, le=2000)] = param(400, "horizon of the raster")
    # <= 500: 7.8x the paper profile's 64
    eigen_d: Annotated[int, Field(ge=2, le=500)] = param(64, "spec §5 check 6 at d = 64")
    # <= 5: 16.7x the paper profile's 0.3
    eigen_c_prime: Pos = param(0.3, "any c' > 0 works for the multiplicity check", le=5.0)
    SMOKE = {
        "quad_runs": (8, "smaller, so the smoke run takes seconds"),
        "quad_steps": (100, "smaller, so the smoke run takes seconds"),
    }


class StepSweep(NotebookParams):
    """06_step_sweep: iterations vs the step parameter c (F7)."""

    COST = ("seeds", "max_iter")

    DISTINCT = ("sweep_ds", "sweep_cs", "curve_cs", "curve_c0_sqrt")

    # <= 16,384: each 4x the largest, 4,096: a d x d float64 block is 2 GiB
    sweep_ds: list[Annotated[int, Field(ge=2, le=16384)]] = param(
        [256, 4096], "spec §4 F7, T against c at fixed d", min_length=1)
    # <= 50: each 16.7x the paper profile's 3
    sweep_cs: list[Annotated[float, Field(gt=0.0, le=50.0)]] = param(
        [0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 1.0, 1.1, 1.3, 1.5, 2.0, 3.0],
        "F7: step parameters c of the sweep",
        min_length=3)
    curve_log4_max: Annotated[int, Field(ge=3, le=12)] = param(
        8, "T(d) curves for d = 16 ... 65536")
    # <= 5: each 10x the paper profile's 0.5
    curve_cs: list[Annotated[float, Field(gt=0.0, le=5.0)]] = param(
        [0.05, 0.1, 0.2, 0.5], "fixed step rules", min_length=1)
    # <= 20: each 10x the paper profile's 2
    curve_c0_sqrt: list[Annotated[float, Field(gt=0.0, le=20.0)]] = param(
        [0.5, 1.0, 2.0], "c = c0 / sqrt(d)", min_length=1)
    # <= 500: 5x the paper profile's 100
    seeds: Annotated[int, Field(ge=5, le=500)] = param(100, "random inits per point")
    # <= 50,000: 10x the paper profile's 5,000
    max_iter: Annotated[int, Field(ge=100, le=50000)] = param(
        5000, "cycling runs (c >= 1.5) are capped and reported")
    SMOKE = {
        "sweep_cs": ([0.1, 1.0, 2.0], "smaller, so the smoke run takes seconds"),
        "curve_log4_max": (4, "smaller, so the smoke run takes seconds"),
        "curve_cs": ([0.1, 0.5], "c = 0.05 needs more than the smoke cap"),
        "seeds": (10, "smaller, so the smoke run takes seconds"),
        "max_iter": (1000, "smaller, so the smoke run takes seconds"),
    }


class RealData(sweep.SweepParams):
    """07_real_data: the author's Fashion-MNIST protocol, linear vs two-layer (F8); one sweep run
    per model (linear, two-layer ReLU, two-layer quadratic)."""

    COST = ("two_layer_steps", "width")

    INCREASING = ("linear_gammas", "normalized_gammas", "relu_gammas", "quadratic_gammas")

    class_pos: Annotated[int, Field(ge=0, le=9)] = param(
        0, "T-shirt/top (+1); the author's pair is not printed")
    class_neg: Annotated[int, Field(ge=0, le=9)] = param(
        1, "Trouser (-1); separable with 5 000 images, others we tried were not")
    per_class: Annotated[int, Field(ge=10, le=2500)] = param(
        2500, "5 000 images in all, as in the author's protocol")
    # <= 1,000: each 10x the paper profile's 100
    linear_gammas: list[Annotated[float, Field(gt=0.0, le=1000.0)]] = param(
        [0.001, 0.01, 0.1, 1.0, 10.0, 100.0], "the author's step sizes", min_length=1)
    # <= 1,000: each 10x the paper profile's 100
    normalized_gammas: list[Annotated[float, Field(gt=0.0, le=1000.0)]] = param(
        [0.1, 1.0, 10.0, 100.0], "Normalized LR+GD rows of his Table 1", min_length=1)
    # <= 20,000: 5.7x the paper profile's 3,500
    linear_steps: Annotated[int, Field(ge=10, le=20000)] = param(
        3500, "cap; the slowest solved linear run needs about 3 300")
    # <= 2,000: 7.8x the paper profile's 256
    width: Annotated[int, Field(ge=2, le=2000)] = param(
        16, "two-layer hidden units, outputs fixed to +-1")
    # <= 1,000: each 10x the paper profile's 100
    relu_gammas: list[Annotated[float, Field(gt=0.0, le=1000.0)]] = param(
        [0.01, 0.1, 1.0, 10.0], "ReLU two-layer step sizes", min_length=1)
    # <= 1,000: each 10x the paper profile's 100
    quadratic_gammas: list[Annotated[float, Field(gt=0.0, le=1000.0)]] = param(
        [0.001, 0.01, 0.1], "larger steps blow up the quadratic model", min_length=1)
    # <= 20,000: 5.7x the paper profile's 3,500
    two_layer_steps: Annotated[int, Field(ge=10, le=20000)] = param(
        1500, "cap of the two-layer runs, above the best linear count (about 1 400)")
    SMOKE = {
        "per_class": (200, "seconds, not minutes"),
        "linear_steps": (60, "smaller, so the smoke run takes seconds"),
        "two_layer_steps": (30, "smaller, so the smoke run takes seconds"),
    }
    PAPER = {
        **sweep.PAPER,
        "width": (256, "the spec's F8 width; slow on a CPU"),
        "relu_gammas": ([0.001, 0.01, 0.1, 1.0, 10.0, 100.0],
                        "every linear step size (spec §4 F8)"),
        "quadratic_gammas": ([0.001, 0.01, 0.1, 1.0, 10.0, 100.0],
                             "every linear step size; blown-up runs are reported as unsolved"),
        "two_layer_steps": (3500, "the linear cap: both models get the same number of steps"),
    }

    def jobs(self) -> int:
        """One sweep run per model: linear, two-layer ReLU, two-layer quadratic."""
        return 3

    @model_validator(mode="after")
    def _two_classes(self):
        """A binary task needs two different classes."""
        if self.class_pos == self.class_neg:
            raise ValueError(f"class_pos = class_neg = {self.class_pos}; allowed: two different "
                             "Fashion-MNIST classes")
        return self

