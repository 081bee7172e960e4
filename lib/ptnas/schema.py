"""Parameters of the ptnas notebooks: the one place each is declared (type, range, default,
reason, profile overrides); params.yaml and the parameters cells are generated from it."""
from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, model_validator

from lib.companion import sweep
from lib.companion.params import NotebookParams, param
from lib.companion.schema import Pos, PosInt, Width

Dataset = Literal["digits", "synthetic", "breast_cancer"]


class Identities(NotebookParams):
    """01_ptproxy_identities: pTProxy against its closed form and its derived invariances."""

    COST = ("n_check",)

    DISTINCT = ("widths",)
    INCREASING = ("batch_sizes",)
    widths: list[Width] = param([8, 16, 32, 64, 128], "hidden widths the checked MLPs draw from "
                                "(spec §3 space)", min_length=1)
    depth_max: Annotated[int, Field(ge=1, le=8)] = param(4, "checked depths 1..this (spec T1)")
    # <= 100: 5x the paper profile's 20
    n_check: PosInt = param(
        20, "random architectures against the closed form (spec X1, T1)", le=100)
    # <= 200: 5.1x the paper profile's 39
    n_scaling: PosInt = param(
        39, "architectures in the batch-size check (spec X3 prototype)", le=200)
    # <= 500: 7.8x the paper profile's 64
    d_in: PosInt = param(64, "input size of the checked MLPs (digits' 64 pixels)", le=500)
    # <= 50: 5x the paper profile's 10
    d_out: PosInt = param(10, "output size (digits' 10 classes)", le=50)
    # <= 200: 6.2x the paper profile's 32
    batch: PosInt = param(32, "pTProxy batch on NAS-Bench-Tabular (release, spec §1.3)", le=200)
    # <= 1: over 100x the paper profile's 1e-05
    eps: Pos = param(1e-5, "perturbation scale ε of the release (spec §1.3)", le=1.0)
    # <= 1,000: each 7.8x the paper profile's 128
    batch_sizes: list[Annotated[int, Field(ge=1, le=1000)]] = param(
        [1, 8, 32, 128], "batch sizes of the scaling check "
                                      "(spec X3, Table 9 analogue)", min_length=2)
    SMOKE = {"n_check": (5, "a few architectures"), "n_scaling": (8, "a few architectures")}

    @model_validator(mode="after")
    def _reference_batch(self):
        if self.batch not in self.batch_sizes:
            raise ValueError(f"batch_sizes = {self.batch_sizes} must hold batch = {self.batch} "
                             "(scores are compared with the score at that batch)")
        return self


class Bench(sweep.SweepParams):
    """02_minibench: the mini NAS-bench, trained once and written as tables that 03_proxies_search
    reads (spec §3 NB1); one sweep run per data set (its whole space as one masked stack)."""

    # the space's size and the data sets (not n_rows: 0, "all", in the timed default run), and
    # the fields those two count
    COST = ("n_archs", "n_datasets", "gt_epoch")
    COST_INPUTS: ClassVar[tuple[str, ...]] = ("widths", "depth_min", "depth_max", "datasets")

    AT_MOST = (("depth_min", "depth_max"),)
    DISTINCT = ("widths", "datasets")
    INCREASING = ("epochs", "pad_widths")
    datasets: list[Dataset] = param(["digits", "synthetic"], "spec §3 default profile",
                                    min_length=1)
    # <= 2,000: 6.7x the largest profile value, 300
    n_rows: Annotated[int, Field(ge=0, le=2000)] = param(0, "rows kept per data set (0: all)")
    widths: list[Width] = param([8, 16, 32, 64, 128], "hidden widths (spec §3 space)",
                                min_length=1)
    depth_min: Annotated[int, Field(ge=1, le=8)] = param(1, "shallowest MLP (spec §3)")
    depth_max: Annotated[int, Field(ge=1, le=8)] = param(3, "deepest MLP (spec §3): 155 archs")
    # <= 200: each 7.4x the paper profile's 27
    epochs: list[Annotated[int, Field(ge=1, le=200)]] = param(
        [1, 3, 9, 27], "recorded epochs: the η = 3 SH ladder (spec §3)", min_length=2)
    # <= 500: 7.8x the paper profile's 64
    batch: PosInt = param(64, "training batch (spec §3)", le=500)
    lr: Annotated[float, Field(gt=0.0, le=0.1)] = param(1e-3, "Adam learning rate (spec §3)")
    pad_widths: list[Width] = param([16, 32, 64, 128], "padding bins of the masked groups: "
                                    "fastest measured (48 s vs 59 s with one bin)", min_length=1)
    # <= 20: 6.7x the paper profile's 3
    n_check_archs: PosInt = param(
        3, "architectures trained alone against the stack (spec B1)", le=20)
    # <= 200: 7.4x the paper profile's 27
    gt_epoch: PosInt = param(
        27, "ground truth: val at this epoch, the last one (spec §7 Q2)", le=200)
    # <= 50: 5.6x the paper profile's 9
    fidelity_epoch: PosInt = param(9, "B2's threshold epoch: τ(val@this, val@gt_epoch) ≥ 0.5 "
                                   "(spec B2)", le=50)
    SMOKE = {
        "datasets": (["synthetic"], "spec §3 smoke: synthetic only"),
        "n_rows": (300, "spec §3 smoke: 300 rows"),
        "widths": ([8, 32], "spec §3 smoke: 6 architectures"),
        "depth_max": (2, "spec §3 smoke"),
        "pad_widths": ([8, 32], "two bins for six nets"),
        "n_check_archs": (2, "two nets"),
    }
    PAPER = {
        **sweep.PAPER,
        "datasets": (["digits", "synthetic", "breast_cancer"], "spec §3 paper profile"),
        "widths": ([8, 16, 32, 64, 128, 256], "spec §7 Q6: a larger space"),
        "depth_max": (4, "spec §3 paper: 1,554 architectures"),
        "pad_widths": ([16, 32, 64, 128, 256], "bins up to the widest net"),
    }

    def jobs(self) -> int:
        """One sweep run per data set (every architecture of the space in it)."""
        return len(self.datasets)

    @property
    def n_archs(self) -> int:
        """The space's MLPs: every depth's width sequences (155 default, 1,554 paper)."""
        return sum(len(self.widths) ** d for d in range(self.depth_min, self.depth_max + 1))

    @property
    def n_datasets(self) -> int:
        """The data sets the bench trains every architecture on."""
        return len(self.datasets)

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

    COST = ("search_seeds",)

    INCREASING = ("k_grid", "sh_k_grid", "budgets")
    # <= 50: 5.6x the paper profile's 9
    gt_epoch_short: PosInt = param(9, "secondary ground truth, a recorded epoch of the bench "
                                   "(spec NB2 proposal)", le=50)
    # <= 200: 6.2x the paper profile's 32
    proxy_batch: PosInt = param(
        32, "pTProxy batch and the real batch of NASWOT, SNIP, GradNorm", le=200)
    # <= 1: over 100x the paper profile's 1e-05
    eps: Pos = param(1e-5, "pTProxy's ε (release)", le=1.0)
    # <= 500: 5x the paper profile's 100
    search_seeds: PosInt = param(30, "search repetitions (spec §3 default)", le=500)
    # <= 1: over 100x the paper profile's 0.005
    t_proxy: Pos = param(0.005, "cost of one proxy evaluation in epoch units (spec §7 Q5)", le=1.0)
    # <= 20: 6.7x the paper profile's 3
    eta: Annotated[int, Field(ge=2, le=20)] = param(3, "SH reduction factor (release)")
    # <= 200: 6.7x the paper profile's 30
    ratio: PosInt = param(30, "M/K of the coordinator (release default)", le=200)
    # <= 10,000: each 6.4x the paper profile's 1,554
    k_grid: list[Annotated[int, Field(ge=1, le=10000)]] = param(
        [1, 2, 3, 5, 9, 15, 27, 45, 81, 155], "pTNAS's K (spec NB3)", min_length=1)
    # <= 10,000: each 6.4x the paper profile's 1,554
    sh_k_grid: list[Annotated[int, Field(ge=1, le=10000)]] = param(
        [3, 9, 27, 81, 155], "SH-only K (spec NB3)", min_length=1)
    # <= 500,000: each 12.5x the paper profile's 40,000
    budgets: list[Annotated[float, Field(gt=0.0, le=5e5)]] = param(
        [5.0, 10.0, 30.0, 100.0, 300.0, 1000.0, 3000.0], "budgets in epoch units (spec NB3 table)",
        min_length=2)
    # <= 1: over 100x the paper profile's 0.005
    near_points: Pos = param(0.005, "'within 0.5 points' of the best (spec §7 Q4 variant)", le=1.0)
    # <= 5,000: 5x the paper profile's 1,000
    sh_instances: PosInt = param(1000, "random tables of the SH check (spec S1)", le=5000)
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
