"""Parameter schemas of the gd_perceptron notebooks (validated by lib.params before compute)."""
from __future__ import annotations

from typing import Annotated

from pydantic import Field

from lib.params import NotebookParams

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


SECTIONS = {"01_reduction": Reduction}
