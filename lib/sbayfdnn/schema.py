"""Parameters of the sbayfdnn notebooks: the one place each is declared (type, range, default,
reason, profile overrides); params.yaml and the parameters cells are generated from it."""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from lib.companion import sweep
from lib.companion.params import NotebookParams, param
from lib.companion.schema import Unit
from lib.sbayfdnn import prior

Var = Annotated[float, Field(gt=0.0, le=10.0)]
Link = Literal["linear", "sin", "square", "exp"]


class Design(NotebookParams):
    """Keys of every sbayfdnn notebook: the basis, the true region and the prior."""

    J: Annotated[int, Field(ge=4, le=200)] = param(
        24, "spec §3: J = 24 basis functions (the audit's example value, spec §7 Q2)")
    degree: Annotated[int, Field(ge=1, le=5)] = param(
        3, "decision (spec §7 Q2): cubic B-splines; the audit's example uses degree 4")
    # <= 2: 10x the paper profile's 0.2
    support_min: Annotated[float, Field(ge=0.0, le=2.0)] = param(
        0.2, "spec §3: the true region R = [0.2, 0.4]")
    support_max: Annotated[float, Field(ge=0.0, le=1.0)] = param(
        0.4, "spec §3: the true region R = [0.2, 0.4]")
    metric_grid: Annotated[int, Field(ge=101, le=100001)] = param(
        1001, "spec §3: region metrics on a 1,001-point grid of [0, 1]")
    width: Annotated[int, Field(ge=2, le=1024)] = param(
        64, "spec §1.2/§3: first hidden layer W = 64 (the column size of the group prior)")
    lam: Unit = param(1e-5, "spec §1.2: prior inclusion lambda = 1e-5 (audit's example)")
    s0: Var = param(1e-5, "spec §1.2: spike variance 1e-5 (audit's example)")
    s1: Var = param(2e-3, "spec §1.2: slab variance 2e-3 (audit's example)")

    @model_validator(mode="after")
    def _basis_resolves_region(self):
        """Refuse a basis too coarse for R: one basis support, (degree + 1) / (J - degree) wide,
        must fit inside R, or no union of supports can approach the region."""
        if self.support_max - self.support_min <= 0:
            raise ValueError(f"support_min = {self.support_min!r} must be below support_max = "
                             f"{self.support_max!r}; allowed: support_min < support_max")
        if self.J < self.degree + 2:
            raise ValueError(f"J = {self.J!r} with degree = {self.degree!r} has no interior knot;"
                             f" allowed: J >= degree + 2 = {self.degree + 2}")
        width = (self.degree + 1) / (self.J - self.degree)
        region = self.support_max - self.support_min
        if width > region + 1e-12:
            need = self.degree + (self.degree + 1) / region
            raise ValueError(f"J = {self.J!r}: a degree-{self.degree} basis support is "
                             f"{width:.4g} wide, wider than the region [{self.support_min}, "
                             f"{self.support_max}] ({region:.4g}), below the support's resolution;"
                             f" allowed: J >= {need:.4g}")
        if self.s0 >= self.s1:
            raise ValueError(f"s0 = {self.s0!r} is not below s1 = {self.s1!r}; allowed: spike "
                             "variance s0 < slab variance s1")
        return self


class PriorRule(Design):
    """01_prior_and_pip: the basis, the plug-in PIP and its threshold, the region map."""

    COST = ("mapping_draws",)

    n_norm2: Annotated[int, Field(ge=11, le=100001)] = param(
        1201, "spec Q1: 1,201 values of ||w||^2 for the PIP check")
    norm2_max: Annotated[float, Field(gt=0.0, le=10.0)] = param(
        0.012, "spec Q1: ||w||^2 in [0, 0.012] (about 3 x tau*)")
    n_t: Annotated[int, Field(ge=11, le=100001)] = param(
        1001, "points of [0, 1] for the partition-of-unity and Cox-de Boor checks")
    mapping_draws: Annotated[int, Field(ge=1, le=10000)] = param(
        200, "random subsets of bases whose merged intervals are checked against the naive union")

    @model_validator(mode="after")
    def _grid_holds_threshold(self):
        """The ||w||^2 grid must reach past tau*, or the threshold has no root on it."""
        tau = prior.pip_threshold(self.width, self.lam, self.s0, self.s1)
        if self.norm2_max <= tau:
            raise ValueError(f"norm2_max = {self.norm2_max!r} does not reach tau* = {tau:.4g} "
                             f"of (width, lam, s0, s1); allowed: norm2_max > {tau:.4g}")
        return self

    SMOKE = {
        "n_t": (201, "fewer points for the basis checks"),
        "mapping_draws": (20, "fewer random subsets"),
    }
    PAPER = {"mapping_draws": (2000, "more random subsets")}


class Training(Design, sweep.SweepParams):
    """Keys of the notebooks that simulate and fit: design, network, optimiser, and where their
    sweep's runs go (sweep.SweepParams)."""

    T: Annotated[int, Field(ge=11, le=10001)] = param(101, "spec §3: T = 101 grid points on [0, 1]")
    K: Annotated[int, Field(ge=1, le=500)] = param(20, "spec §3: 20 sine components per curve")
    n_test: Annotated[int, Field(ge=10, le=100000)] = param(
        1000, "spec §3: MSE on 1,000 test curves")
    reps: Annotated[int, Field(ge=1, le=200)] = param(
        3, "spec §3 default profile: 3 replications (the paper: 50)")
    hidden: Annotated[int, Field(ge=1, le=1024)] = param(32, "spec §3: network 24 -> 64 -> 32 -> 1")
    steps: Annotated[int, Field(ge=1, le=100000)] = param(
        1500, "spec §3 default profile: 1,500 full-batch Adam steps")
    lr: Annotated[float, Field(gt=0.0, le=0.1)] = param(3e-3, "spec §3: Adam lr 3e-3")
    restarts: Annotated[int, Field(ge=1, le=20)] = param(
        2, "spec §3: 2 restarts, the lower training error kept")
    pip_cut: Unit = param(
        0.5, "decision (spec §7 Q6): the median-probability rule PIP > 0.5, not a Bayesian FDR")
    dtype: Literal["float32", "float64"] = param(
        "float32", "decision: float32 fits (several times faster than float64 on CPU, bench/)")


class Comparison(Training):
    """02_simulation: sBayFDNN-MAP against FLM + lasso and a plain FDNN, several links; one sweep
    run per link."""

    COST = ("reps", "steps")

    DISTINCT = ("links",)
    AT_MOST = (("lasso_cv", "n_train"),)

    n_train: Annotated[int, Field(ge=10, le=100000)] = param(
        400, "spec §3 default profile: n = 400 training curves")
    links: list[Link] = param(["linear", "sin", "square"], "spec §3 default profile: 3 links",
                              min_length=1)
    snr: Annotated[float, Field(gt=0.0, le=1000.0)] = param(5.0, "spec §3: SNR = 5")
    gauss_var: Var = param(
        2e-3, "decision (spec §7 Q3): the plain FDNN's first layer N(0, s1), the slab alone")
    fdnn_restarts: Annotated[int, Field(ge=1, le=20)] = param(
        1, "spec §6: one Gaussian FDNN fit per replication")
    fdnn_rel: Unit = param(0.1, "spec §3 (b): FDNN selects columns with ||w||^2 >= 10% of the max")
    # <= 100,000: as n_train, which bounds it (lasso_cv <= n_train)
    lasso_cv: Annotated[int, Field(ge=2, le=100000)] = param(
        5, "spec §3 (a): LassoCV(cv=5), folds <= n_train")
    lasso_alphas: Annotated[int, Field(ge=3, le=1000)] = param(30, "spec §4: 30 alphas")
    SMOKE = {
        "n_train": (100, "spec §3 smoke profile: n = 100"),
        "n_test": (200, "fewer test curves"),
        "reps": (1, "spec §3 smoke profile: 1 replication"),
        "links": (["sin"], "spec §3 smoke profile: the sin link"),
        "steps": (100, "spec §3 smoke profile: 100 steps"),
        "restarts": (1, "spec §3 smoke profile: 1 restart"),
    }
    PAPER = {
        **sweep.PAPER,
        "reps": (50, "the paper's 50 replications ([3P])"),
        "links": (["linear", "sin", "square", "exp"],
                  "spec §3 paper profile: 4 links (its n and SNR sweeps not run)"),
        "steps": (3000, "spec §3 paper profile: 3,000 steps"),
        "restarts": (5, "spec §3 paper profile: 5 restarts"),
        "dtype": ("float64", "the paper profile may pay for double precision"),
    }

    def jobs(self) -> int:
        """One sweep run per link (its replications and restarts one batched fit, spec §6)."""
        return len(self.links)


class Consistency(Training):
    """03_consistency: sBayFDNN's region and Laplace intervals as n grows, sin link; one sweep
    run per (n, SNR)."""

    COST = ("reps", "steps")

    INCREASING = ("ns",)
    DISTINCT = ("snrs",)

    link: Link = param("sin", "spec §3 NB3: the sin link")
    snrs: list[Annotated[float, Field(gt=0.0, le=1000.0)]] = param(
        [1.0, 5.0], "spec §3 NB3: SNR 1 (a visible trend) and 5 (saturated)", min_length=1)
    ns: list[Annotated[int, Field(ge=10, le=100000)]] = param(
        [50, 100, 200, 400], "spec §3 NB3: n in {50, 100, 200, 400}", min_length=1)
    # 10 replications: 03_consistency took 220 s in the default profile on 2 cores shared with
    # other jobs (39 s with 3); the paper's notebooks stay under the 5-minute miniature budget
    reps: Annotated[int, Field(ge=1, le=200)] = param(
        10, "10 replications (spec §3 default: 3; the paper: 50): C1 is decided on the gain from "
        "the smallest to the largest n paired by replication, beyond 2 s.e., which 3 cannot show")
    level: Unit = param(0.9, "spec §3 NB3: 90% Laplace predictive intervals")
    interval_noise: Literal["residual", "likelihood"] = param(
        "residual", "decision: noise variance of the interval = MAP training residual variance "
        "(likelihood: the fit's s2 = var(y) = 1)")
    SMOKE = {
        "snrs": ([5.0], "spec §3 NB3 smoke: SNR 5 only"),
        "ns": ([100], "spec §3 NB3 smoke: n = 100 only"),
        "n_test": (200, "fewer test curves"),
        "reps": (1, "one replication"),
        "steps": (100, "spec §3 smoke profile: 100 steps"),
        "restarts": (1, "one restart"),
    }
    PAPER = {
        **sweep.PAPER,
        "ns": ([50, 100, 200, 400, 800], "spec §3 NB3 paper: n up to 800"),
        "reps": (50, "the paper's 50 replications ([3P])"),
        "steps": (3000, "spec §3 paper profile: 3,000 steps"),
        "restarts": (5, "spec §3 paper profile: 5 restarts"),
        "dtype": ("float64", "the paper profile may pay for double precision"),
    }

    def jobs(self) -> int:
        """One sweep run per (n, SNR) (its replications and restarts one batched fit, spec §6)."""
        return len(self.ns) * len(self.snrs)
