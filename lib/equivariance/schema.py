"""Parameter schemas of the equivariance notebooks (validated by lib.companion.params before compute)."""
from __future__ import annotations

from typing import Annotated

from pydantic import Field

from lib.companion.params import NotebookParams

PosInt = Annotated[int, Field(ge=1)]
Tol = Annotated[float, Field(gt=0, le=1.0)]


class LinearWarmup(NotebookParams):
    """00_linear_warmup: E0, linear networks with continuous latent group GL(r)."""

    n: Annotated[int, Field(ge=3)]                                   # C_n acts on R^n
    freqs: list[Annotated[int, Field(ge=0)]] = Field(min_length=1)   # kept Fourier modes
    inflate_extra: PosInt                                            # extra non-invariant rows
    rankdef_extra: PosInt                                            # extra rows beyond n
    tol: Tol                                                         # float64 exact-check atol


class PlantedRecovery(NotebookParams):
    """01_planted_recovery: E1, planted equivariant tanh/ReLU MLPs recovered after scrambling."""

    grid: Annotated[int, Field(ge=2)]                  # D_4 and Z_2 act on grid x grid images
    cyclic_n: Annotated[int, Field(ge=2)]              # C_n on R^n
    channels: list[PosInt] = Field(min_length=1)       # regular channels per hidden layer
    n_samples: Annotated[int, Field(ge=16)]            # inputs for functional checks
    tol: Tol                                           # layerwise / residual tolerance


SECTIONS = {"00_linear_warmup": LinearWarmup, "01_planted_recovery": PlantedRecovery}


class FibresCanonical(NotebookParams):
    """02_fibres_canonical_forms: E2, canonical forms, irreducibility, Jacobian-rank fibres."""

    n_random: PosInt
    canon_widths: list[PosInt] = Field(min_length=3)
    arch: list[PosInt] = Field(min_length=3)
    draws: PosInt
    n_points: Annotated[int, Field(ge=20)]
    relu_arch: list[PosInt] = Field(min_length=3)
    relu_draws: Annotated[int, Field(ge=2)]
    relu_scales: list[Annotated[float, Field(gt=0)]] = Field(min_length=2)
    linear_nobias: list[PosInt] = Field(min_length=3, max_length=3)
    tol: Tol


SECTIONS["02_fibres_canonical_forms"] = FibresCanonical


class Counterexamples(NotebookParams):
    """03_counterexamples: E3, dead / duplicate / bypass / stabilizer counterexamples."""

    grid: Annotated[int, Field(ge=2)]
    channels: list[PosInt] = Field(min_length=2)
    split: Annotated[float, Field(gt=0, lt=1)]
    n_directions: Annotated[int, Field(ge=4)]
    n_fit: Annotated[int, Field(ge=100)]
    n_eval: Annotated[int, Field(ge=50)]
    tol: Tol
    lv_tol: Tol


SECTIONS["03_counterexamples"] = Counterexamples


class TeacherStudent(NotebookParams):
    """Keys shared by the teacher-student training notebooks (E4, E5)."""

    grid: Annotated[int, Field(ge=2)]
    teacher_channels: list[PosInt] = Field(min_length=1)
    steps: PosInt
    lr: Annotated[float, Field(gt=0, le=1.0)]
    batch: PosInt
    n_train: Annotated[int, Field(ge=64)]
    n_test: Annotated[int, Field(ge=100)]
    n_fit: Annotated[int, Field(ge=100)]
    log_every: PosInt


class TrainingEmergence(TeacherStudent):
    """04_training_emergence: E4, teacher–student emergence of layerwise equivariance."""

    n_seeds: Annotated[int, Field(ge=2)]
    fit_ok: Annotated[float, Field(gt=0)]
    lv_ok: Annotated[float, Field(gt=0)]
    control_min: Annotated[float, Field(gt=0)]
    wide_widths: list[PosInt] = Field(min_length=1)
    penalty: Annotated[float, Field(gt=0)]


SECTIONS["04_training_emergence"] = TrainingEmergence


class ActivationComparison(TeacherStudent):
    """05_activation_comparison: E5, tanh vs ReLU vs GELU students."""

    n_seeds: PosInt
    tol: Tol


SECTIONS["05_activation_comparison"] = ActivationComparison


class MirrorFashion(NotebookParams):
    """06_mirror_fashion_mnist: E6, soft mirror loss on Fashion-MNIST MLPs (exploratory)."""

    n_train: Annotated[int, Field(ge=100, le=20000)]
    n_test: Annotated[int, Field(ge=50, le=5000)]
    n_seeds: PosInt
    steps: Annotated[int, Field(ge=2)]
    lr: Annotated[float, Field(gt=0, le=1.0)]
    batch: PosInt
    lam: Annotated[float, Field(ge=0)]
    n_fit: Annotated[int, Field(ge=100)]
    n_eval: Annotated[int, Field(ge=50)]


SECTIONS["06_mirror_fashion_mnist"] = MirrorFashion


class AttentionHeads(NotebookParams):
    """07_attention_heads: E7, planted Z_2-equivariant MHSA, head permutation recovery."""

    d: Annotated[int, Field(ge=3)]
    d_head: Annotated[int, Field(ge=2)]
    n_tokens: Annotated[int, Field(ge=3)]
    n_seq: PosInt
    n_scrambles: PosInt
    tol: Tol


SECTIONS["07_attention_heads"] = AttentionHeads


class Stability(NotebookParams):
    """08_stability: E8, perturbations and near-degenerate parameters."""

    grid: Annotated[int, Field(ge=2)]
    eps_log10: list[Annotated[float, Field(ge=-12, le=0)]] = Field(min_length=2)
    delta_log10: list[Annotated[float, Field(ge=-12, le=1)]] = Field(min_length=2)
    eps_fixed: Annotated[float, Field(gt=0, lt=1)]
    n_samples: Annotated[int, Field(ge=50)]
    n_fit: Annotated[int, Field(ge=100)]


SECTIONS["08_stability"] = Stability


class ConnectedGroup(NotebookParams):
    """09_connected_group: E3 item 5, finite rotation subgroups vs SO(2)."""

    ns: list[Annotated[int, Field(ge=2, le=128)]] = Field(min_length=2)
    channels: list[PosInt] = Field(min_length=2)
    n_samples: Annotated[int, Field(ge=50)]
    n_angles: PosInt
    tol: Tol


SECTIONS["09_connected_group"] = ConnectedGroup
