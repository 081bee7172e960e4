"""Parameters of the ptnas notebooks: the one place each is declared (type, range, default,
reason, profile overrides); params.yaml and the parameters cells are generated from it."""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from lib.companion.params import NotebookParams, param
from lib.companion.schema import Pos, PosInt, Width

Dataset = Literal["digits", "synthetic", "breast_cancer"]


class Identities(NotebookParams):
    """01_ptproxy_identities: pTProxy against its closed form and its derived invariances."""

    DISTINCT = ("widths",)
    INCREASING = ("batch_sizes",)
    widths: list[Width] = param([8, 16, 32, 64, 128], "hidden widths the checked MLPs draw from "
                                "(spec §3 space)", min_length=1)
    depth_max: Annotated[int, Field(ge=1, le=8)] = param(4, "checked depths 1..this (spec T1)")
    n_check: PosInt = param(20, "random architectures against the closed form (spec X1, T1)")
    n_scaling: PosInt = param(39, "architectures in the batch-size check (spec X3 prototype)")
    d_in: PosInt = param(64, "input size of the checked MLPs (digits' 64 pixels)")
    d_out: PosInt = param(10, "output size (digits' 10 classes)")
    batch: PosInt = param(32, "pTProxy batch on NAS-Bench-Tabular (release, spec §1.3)")
    eps: Pos = param(1e-5, "perturbation scale ε of the release (spec §1.3)")
    batch_sizes: list[PosInt] = param([1, 8, 32, 128], "batch sizes of the scaling check "
                                      "(spec X3, Table 9 analogue)", min_length=2)
    SMOKE = {"n_check": (5, "a few architectures"), "n_scaling": (8, "a few architectures")}

    @model_validator(mode="after")
    def _reference_batch(self):
        if self.batch not in self.batch_sizes:
            raise ValueError(f"batch_sizes = {self.batch_sizes} must hold batch = {self.batch} "
                             "(scores are compared with the score at that batch)")
        return self


class Bench(NotebookParams):
    """02_minibench: the mini NAS-bench, trained once and written as tables that 03_proxies_search
    reads (spec §3 NB1)."""

    AT_MOST = (("depth_min", "depth_max"),)
    DISTINCT = ("widths", "datasets")
    INCREASING = ("epochs", "pad_widths")
    datasets: list[Dataset] = param(["digits", "synthetic"], "spec §3 default profile",
                                    min_length=1)
    n_rows: Annotated[int, Field(ge=0)] = param(0, "rows kept per data set (0: all)")
    widths: list[Width] = param([8, 16, 32, 64, 128], "hidden widths (spec §3 space)",
                                min_length=1)
    depth_min: Annotated[int, Field(ge=1, le=8)] = param(1, "shallowest MLP (spec §3)")
    depth_max: Annotated[int, Field(ge=1, le=8)] = param(3, "deepest MLP (spec §3): 155 archs")
    epochs: list[PosInt] = param([1, 3, 9, 27], "recorded epochs: the η = 3 SH ladder (spec §3)",
                                 min_length=2)
    batch: PosInt = param(64, "training batch (spec §3)")
    lr: Annotated[float, Field(gt=0.0, le=0.1)] = param(1e-3, "Adam learning rate (spec §3)")
    pad_widths: list[Width] = param([16, 32, 64, 128], "padding bins of the masked groups: "
                                    "fastest measured (48 s vs 59 s with one bin)", min_length=1)
    n_check_archs: PosInt = param(3, "architectures trained alone against the stack (spec B1)")
    gt_epoch: PosInt = param(27, "ground truth: val at this epoch, the last one (spec §7 Q2)")
    fidelity_epoch: PosInt = param(9, "B2's threshold epoch: τ(val@this, val@gt_epoch) ≥ 0.5 "
                                   "(spec B2)")
    SMOKE = {
        "datasets": (["synthetic"], "spec §3 smoke: synthetic only"),
        "n_rows": (300, "spec §3 smoke: 300 rows"),
        "widths": ([8, 32], "spec §3 smoke: 6 architectures"),
        "depth_max": (2, "spec §3 smoke"),
        "pad_widths": ([8, 32], "two bins for six nets"),
        "n_check_archs": (2, "two nets"),
    }
    PAPER = {
        "datasets": (["digits", "synthetic", "breast_cancer"], "spec §3 paper profile"),
        "widths": ([8, 16, 32, 64, 128, 256], "spec §7 Q6: a larger space"),
        "depth_max": (4, "spec §3 paper: 1,554 architectures"),
        "pad_widths": ([16, 32, 64, 128, 256], "bins up to the widest net"),
    }

    @model_validator(mode="after")
    def _consistent(self):
        if max(self.widths) > max(self.pad_widths):
            raise ValueError(f"pad_widths = {self.pad_widths} must reach the widest width "
                             f"{max(self.widths)} of widths = {self.widths}")
        for key in ("gt_epoch", "fidelity_epoch"):
            if getattr(self, key) not in self.epochs:
                raise ValueError(f"{key} = {getattr(self, key)} is not a recorded epoch; "
                                 f"allowed: one of epochs = {self.epochs}")
        if self.gt_epoch != self.epochs[-1]:
            raise ValueError(f"gt_epoch = {self.gt_epoch} must be the last of epochs = "
                             f"{self.epochs} (searchers pay for full training there); allowed: "
                             f"{self.epochs[-1]}")
        return self


class ProxiesSearch(NotebookParams):
    """03_proxies_search: the zero-cost proxies against 02_minibench's bench and the anytime
    search over it (spec §3 NB2, NB3); the space, data sets and ground-truth epoch are the
    bench's, read from its tables."""

    INCREASING = ("k_grid", "sh_k_grid", "budgets")
    gt_epoch_short: PosInt = param(9, "secondary ground truth, a recorded epoch of the bench "
                                   "(spec NB2 proposal)")
    proxy_batch: PosInt = param(32, "pTProxy batch and the real batch of NASWOT, SNIP, GradNorm")
    eps: Pos = param(1e-5, "pTProxy's ε (release)")
    search_seeds: PosInt = param(30, "search repetitions (spec §3 default)")
    t_proxy: Pos = param(0.005, "cost of one proxy evaluation in epoch units (spec §7 Q5)")
    eta: Annotated[int, Field(ge=2)] = param(3, "SH reduction factor (release)")
    ratio: PosInt = param(30, "M/K of the coordinator (release default)")
    k_grid: list[PosInt] = param([1, 2, 3, 5, 9, 15, 27, 45, 81, 155], "pTNAS's K (spec NB3)",
                                 min_length=1)
    sh_k_grid: list[PosInt] = param([3, 9, 27, 81, 155], "SH-only K (spec NB3)", min_length=1)
    budgets: list[Pos] = param([5.0, 10.0, 30.0, 100.0, 300.0, 1000.0, 3000.0],
                               "budgets in epoch units (spec NB3 table)", min_length=2)
    near_points: Pos = param(0.005, "'within 0.5 points' of the best (spec §7 Q4 variant)")
    sh_instances: PosInt = param(1000, "random tables of the SH check (spec S1)")
    SMOKE = {
        "search_seeds": (3, "spec §3 smoke"),
        "sh_instances": (100, "a few tables"),
    }
    PAPER = {
        "search_seeds": (100, "spec §3 paper"),
        "k_grid": ([1, 2, 3, 5, 9, 15, 27, 45, 81, 155, 405, 1554], "up to the whole space"),
        "sh_k_grid": ([3, 9, 27, 81, 243, 729, 1554], "up to the whole space"),
        "budgets": ([5.0, 10.0, 30.0, 100.0, 300.0, 1000.0, 3000.0, 10000.0, 40000.0],
                    "the larger space needs larger budgets"),
    }
