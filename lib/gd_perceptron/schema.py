"""Parameter schemas of the gd_perceptron notebooks (validated by lib.companion.params before compute)."""
from __future__ import annotations

from typing import Annotated

from pydantic import Field

from lib.companion.params import NotebookParams

Pos = Annotated[float, Field(gt=0)]
PosInt = Annotated[int, Field(ge=1)]


class Reduction(NotebookParams):
    """01_reduction: the author's small examples (F0) and GD -> GP equivalence (F3)."""

    gammas: list[Pos] = Field(min_length=2)              # step sizes for the R^2 examples
    worst_case_n: list[Annotated[int, Field(ge=10)]] = Field(min_length=1)  # n to scan
    worst_case_gamma: Pos
    worst_case_max_iter: PosInt
    equiv_n: Annotated[int, Field(ge=2)]                  # random data for F3
    equiv_d: Annotated[int, Field(ge=2)]
    equiv_linear_steps: PosInt
    equiv_linear_gammas: list[Pos] = Field(min_length=2)
    equiv_m: Annotated[int, Field(ge=2)]
    equiv_eta: Pos
    equiv_quad_steps: PosInt
    equiv_scales: list[Pos] = Field(min_length=2)  # saturation scale alpha^k




class LinearLowerBound(NotebookParams):
    """02_linear_lower_bound: linear iterations vs d on data set A (F1)."""

    d_exact_max: Annotated[int, Field(ge=4, le=2000)]     # exact counts for d in [2, d_exact_max)
    slope_log2_min: Annotated[int, Field(ge=1)]
    slope_log2_max: Annotated[int, Field(ge=2, le=22)]
    gd_ds: list[Annotated[int, Field(ge=2)]] = Field(min_length=1)
    gd_gamma_large: Pos
    gd_gamma_soft: Pos
    perturbed_sigma: Pos
    perturbed_seeds: Annotated[int, Field(ge=2)]
    perturbed_ds: list[Annotated[int, Field(ge=2)]] = Field(min_length=2)


class TwoLayerSpeedup(NotebookParams):
    """03_two_layer_speedup: quadratic two-layer iterations vs d (F2) and its exactness checks."""

    log4_min: Annotated[int, Field(ge=1)]                  # d = 4^k for k in [log4_min, log4_max]
    log4_max: Annotated[int, Field(ge=2, le=12)]
    seeds: Annotated[int, Field(ge=5)]
    c_fixed: list[Pos]
    c_sqrt: list[Pos]                                      # c = c0 / sqrt(d)
    m: Annotated[int, Field(ge=2)]
    max_iter: Annotated[int, Field(ge=100)]
    slope_d_max: Annotated[int, Field(ge=64)]
    slope_c: Pos
    plane_ds: list[Annotated[int, Field(ge=2)]] = Field(min_length=1)
    plane_seeds: Annotated[int, Field(ge=1)]
    plane_c: Pos
    scale_powers: list[int] = Field(min_length=2)          # W_0 multiplied by 2^k
    scale_d: Annotated[int, Field(ge=2)]


class LossOscillations(NotebookParams):
    """04_loss_oscillations: loss vs iteration (F4) and iterations vs step size (F5)."""

    d: Annotated[int, Field(ge=2)]
    curve_gammas: list[Pos] = Field(min_length=2)
    curve_steps: Annotated[int, Field(ge=10)]
    sweep_log10_min: int
    sweep_log10_max: int
    sweep_points: Annotated[int, Field(ge=3)]
    random_n: Annotated[int, Field(ge=2)]
    random_d: Annotated[int, Field(ge=2)]
    random_seeds: Annotated[int, Field(ge=1)]
    max_iter: Annotated[int, Field(ge=100)]


class Trajectories(NotebookParams):
    """05_trajectories: iterates in the plane and the option sequence (F6), brake spectrum."""

    linear_d: Annotated[int, Field(ge=2)]
    quad_d: Annotated[int, Field(ge=2)]
    quad_c: Pos
    quad_runs: Annotated[int, Field(ge=1)]
    quad_steps: Annotated[int, Field(ge=1)]
    eigen_d: Annotated[int, Field(ge=2)]
    eigen_c_prime: Pos


class StepSweep(NotebookParams):
    """06_step_sweep: iterations vs the step parameter c (F7)."""

    sweep_ds: list[Annotated[int, Field(ge=2)]] = Field(min_length=1)
    sweep_cs: list[Pos] = Field(min_length=3)
    curve_log4_max: Annotated[int, Field(ge=3, le=12)]
    curve_cs: list[Pos] = Field(min_length=1)
    curve_c0_sqrt: list[Pos] = Field(min_length=1)
    seeds: Annotated[int, Field(ge=5)]
    max_iter: Annotated[int, Field(ge=100)]


class RealData(NotebookParams):
    """07_real_data: the author's Fashion-MNIST protocol, linear vs two-layer (F8)."""

    class_pos: Annotated[int, Field(ge=0, le=9)]
    class_neg: Annotated[int, Field(ge=0, le=9)]
    per_class: Annotated[int, Field(ge=10, le=2500)]
    linear_gammas: list[Pos] = Field(min_length=1)
    normalized_gammas: list[Pos] = Field(min_length=1)
    linear_steps: Annotated[int, Field(ge=10)]
    width: Annotated[int, Field(ge=2)]
    relu_gammas: list[Pos] = Field(min_length=1)
    quadratic_gammas: list[Pos] = Field(min_length=1)
    two_layer_steps: Annotated[int, Field(ge=10)]
    torch_threads: Annotated[int, Field(ge=1, le=64)]


SECTIONS = {"01_reduction": Reduction, "02_linear_lower_bound": LinearLowerBound,
            "03_two_layer_speedup": TwoLayerSpeedup, "04_loss_oscillations": LossOscillations,
            "05_trajectories": Trajectories, "06_step_sweep": StepSweep, "07_real_data": RealData}
