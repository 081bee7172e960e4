"""Parameters of the completep_rl notebook: the one place each is declared (type, range,
default, reason, profile overrides); params.yaml and the parameters cell are generated from it."""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from lib.companion.params import NotebookParams, param

Width = Annotated[int, Field(ge=2, le=16384)]
Depth = Annotated[int, Field(ge=1, le=64)]


class CoordCheck(NotebookParams):
    """01_coord_check: one Adam step across width and depth, both parameterisations (spec §3)."""

    INCREASING = ("widths", "depths")
    AT_MOST = (("check_points", "n_points"),)
    widths: list[Width] = param([32, 128, 512, 2048], "spec §3 NB1: N in {32, ..., 2048} at L = 2",
                                min_length=2)
    width_depth: Depth = param(2, "spec §3 NB1: the width sweep's depth L = 2")
    depths: list[Depth] = param([1, 2, 4, 8, 16], "spec §3 NB1: L in {1, ..., 16} at N = 128",
                                min_length=2)
    depth_width: Width = param(128, "spec §3 NB1: the depth sweep's width N = 128")
    lr: Annotated[float, Field(gt=0.0, le=1e-1)] = param(1e-3, "spec §3 NB1: one step of 1e-3")
    eps: Annotated[float, Field(gt=0.0, le=1e-3)] = param(
        1e-8, "Adam epsilon at the base shape, scaled by the CompleteP rule (spec §1.2)")
    n_points: Annotated[int, Field(ge=2, le=65536)] = param(
        256, "spec §3 NB1: a fixed regression batch of 256 points")
    d_in: Annotated[int, Field(ge=1, le=64)] = param(4, "spec §3 NB1: 4 inputs")
    members: Annotated[int, Field(ge=1, le=16)] = param(
        2, "decision (budget: memory at N = 2048): 2 independent initialisations, averaged")
    ntk_variant: Literal["adam_fixed_lr", "adam_lazy"] = param(
        "adam_fixed_lr", "spec §1.2 open point: the NTK arm keeps eta fixed across width")
    check_width: Width = param(24, "the naive-loop check's width (small: the loop is per point)")
    check_points: Annotated[int, Field(ge=1)] = param(
        32, "points of the naive-loop check (its cost is linear in them)")
    SMOKE = {"widths": ([32, 128], "spec §3 sizes: smoke N in {32, 128}"),
             "depths": ([1, 2], "spec §3 sizes: smoke L in {1, 2}"),
             "check_points": (8, "the code path only (smoke budget 10 s)")}
    PAPER = {"widths": ([32, 128, 512, 2048, 8192], "spec §3 sizes: paper N up to 8192"),
             "members": (4, "more initialisations for the slopes")}

    @model_validator(mode="after")
    def _depth_width_swept(self):
        if self.width_depth not in self.depths:
            raise ValueError(f"width_depth = {self.width_depth} is not in depths = {self.depths}; "
                             "allowed: one of depths (the two sweeps share a point)")
        return self
