"""Parameters of the musa_pinn notebooks: the one place each is declared (type, range, default,
reason, profile overrides); params.yaml and the parameters cells are generated from it."""
from __future__ import annotations

from typing import Annotated

from pydantic import Field, model_validator

from lib.companion import sweep
from lib.companion.params import NotebookParams, param
from lib.companion.schema import PosInt, Unit

Quad = Annotated[int, Field(ge=3, le=256)]
Radius = Annotated[float, Field(gt=0.0, le=0.2)]   # the largest disc in Omega has r = 0.255
LARGEST_FIT = 0.2                                   # discs up to this radius fill >= 2.5 % of Omega


class Case(NotebookParams):
    """Keys both notebooks share: the flow and the control-volume rules (spec §1.4, §1.5)."""

    re: Annotated[float, Field(ge=1.0, le=200.0)] = param(
        20.0, "spec §1.5: Kovasznay at Re = 20 (nu = 1/Re = 0.05)")
    r_large: Radius = param(0.12, "spec §1.4: large discs, radius 0.12 (long-range coupling)")
    r_small: Radius = param(0.02, "spec §1.4: small discs, radius 0.02 (local refinement)")
    meso_power: Annotated[float, Field(ge=0.0, le=16.0)] = param(
        4.0, "spec §1.4 [RECON]: meso centres drawn with weight d^4 (the channels' medial axis)")
    meso_fraction: Unit = param(0.8, "spec §1.4 [RECON]: meso radius 0.8 d(x)")
    meso_r_min: Radius = param(
        0.01, "decision (spec §7 Q2): meso discs no smaller than 0.01, so that none degenerates "
              "to a point near a wall")

    @model_validator(mode="after")
    def _scales_ordered(self):
        if self.meso_r_min / self.meso_fraction > LARGEST_FIT:
            depth = self.meso_r_min / self.meso_fraction
            raise ValueError(f"meso_r_min / meso_fraction = {depth:.3g} asks for meso centres "
                             "deeper than Omega has room for; allowed: "
                             f"meso_r_min <= {LARGEST_FIT} * meso_fraction")
        if not self.r_small < self.r_large:
            raise ValueError(f"r_small = {self.r_small} is not below r_large = {self.r_large}; "
                             "allowed: r_small < r_large (small and large scales)")
        return self


class Flux(Case):
    """01_flux_identities: the divergence-theorem identities and their quadrature (spec NB1)."""

    COST = ("n_points",)

    INCREASING = ("quads",)
    # <= 10,000: 5x the paper profile's 2,000
    n_discs: Annotated[int, Field(ge=10, le=10000)] = param(
        2000, "spec NB1: 2000 random interior discs")
    # <= 2: a sanity cap only; r_min <= r_max <= LARGEST_FIT (0.2) binds it
    r_min: Annotated[float, Field(gt=0.0, le=2.0)] = param(
        0.02, "spec NB1 [PROTO]: radii uniform in [0.02, 0.15]")
    # <= 2: a sanity cap only; _checked_q_in_sweep's r_max <= LARGEST_FIT (0.2) binds it
    r_max: Annotated[float, Field(gt=0.0, le=2.0)] = param(
        0.15, "spec NB1 [PROTO]: radii uniform in [0.02, 0.15]")
    quads: list[Quad] = param([4, 8, 16, 32], "spec NB1: Q in {4, 8, 16, 32}", min_length=2)
    q_coarse: Quad = param(4, "spec NB1 quadrature_decay: error(Q=16) against error(Q=4)")
    q_fine: Quad = param(16, "spec NB1 quadrature_decay: error(Q=16), the Q that NB2 trains with")
    n_radial: Annotated[int, Field(ge=4, le=64)] = param(
        24, "decision: Gauss-Legendre nodes in r of the independent area rule (exact to degree "
            "47 in r)")
    n_angular: Annotated[int, Field(ge=8, le=256)] = param(
        64, "decision: trapezoid nodes in theta of the independent area rule")
    # <= 5,000: 5x the paper profile's 1,000
    n_points: Annotated[int, Field(ge=10, le=5000)] = param(
        1000, "spec §5: points of the autograd strong-residual check of the exact field")
    # <= 10,000: 5x the paper profile's 2,000
    n_pool: Annotated[int, Field(ge=10, le=10000)] = param(
        2000, "discs per scale in the inside-Omega check and the sampler figure")
    SMOKE = {"n_discs": (200, "fewer discs (smoke budget 10 s)"),
             "n_points": (100, "fewer points (smoke budget)"),
             "n_pool": (200, "fewer discs (smoke budget)")}

    @model_validator(mode="after")
    def _checked_q_in_sweep(self):
        if self.r_max > LARGEST_FIT:
            raise ValueError(f"r_max = {self.r_max} leaves too few places for a disc in Omega "
                             f"(largest inscribed radius 0.255); allowed: r_max <= {LARGEST_FIT}")
        for key in ("q_coarse", "q_fine"):
            if getattr(self, key) not in self.quads:
                raise ValueError(f"{key} = {getattr(self, key)} is not in quads = {self.quads}; "
                                 "allowed: one of the swept Q")
        if not self.q_coarse < self.q_fine:
            raise ValueError(f"q_coarse = {self.q_coarse} is not below q_fine = {self.q_fine}; "
                             "allowed: q_coarse < q_fine")
        return self


class Arms(Case, sweep.SweepParams):
    """02_strong_vs_weak: strong, weak, two-stage weak and the scale ablations (spec NB2); one
    sweep run per (form, seed), a seed's weak arms in one batched pass."""

    COST = ("n_seeds", "steps")

    width: Annotated[int, Field(ge=4, le=512)] = param(
        32, "budget (<= 45 s per notebook on 2 shared cores): width 32 (spec 64)")
    depth: Annotated[int, Field(ge=1, le=8)] = param(4, "spec NB2: 4 hidden tanh layers")
    # <= 50,000: 8.3x the paper profile's 6,000
    steps: Annotated[int, Field(ge=10, le=50000)] = param(
        1200, "budget (a miniature may take up to 5 min where its headline needs it): 1200 Adam "
              "steps, so that the strong arm can converge before it is judged (at 800, "
              "nb2.pathology passed only because the strong arm was still falling; spec 2000, "
              "paper profile 6000)")
    lr: Annotated[float, Field(gt=0.0, le=0.1)] = param(
        5e-3, "budget decision (spec NB2: 1e-3 over 2000 steps): at 1e-3 no arm left the "
              "initial plateau (rel L2(u) ~0.59) within 600 steps; at 5e-3 all arms did by ~400")
    decay_at: list[Unit] = param([0.6, 0.85], "spec NB2: decay at 60% and 85% of the steps",
                                 min_length=1)
    gamma: Unit = param(0.3, "spec NB2: learning-rate decay x0.3")
    bc_weight: Annotated[float, Field(gt=0.0, le=1000.0)] = param(
        10.0, "spec NB2: boundary loss weight 10")
    # <= 5,000: 6.2x the paper profile's 800
    n_boundary: Annotated[int, Field(ge=8, le=5000)] = param(
        400, "budget: 400 boundary points per step (spec 800)")
    # <= 10,000: 5x the paper profile's 2,000
    n_colloc: Annotated[int, Field(ge=8, le=10000)] = param(
        400, "budget: 400 collocation points per step for the strong arm (spec 800)")
    # <= 1,000: 7.8x the paper profile's 128
    n_large: PosInt = param(
        16, "budget: 16 large discs per step (spec 32; 1/4 of the discs)", le=1000)
    # <= 1,000: 5.2x the paper profile's 192
    n_meso: PosInt = param(24, "budget: 24 meso discs per step (spec 48; 3/8)", le=1000)
    # <= 1,000: 5.2x the paper profile's 192
    n_small: PosInt = param(24, "budget: 24 small discs per step (spec 48; 3/8)", le=1000)
    quad: Quad = param(16, "spec §1.3: Q = 16 trapezoidal nodes per circle (NB1: ~1e-10 exact)")
    pool_factor: Annotated[int, Field(ge=1, le=100)] = param(
        20, "spec §1.4: pools of 20x the per-step count of each scale")
    stage_switch: Unit = param(0.3, "spec §1.4 [RECON]: continuity first for 30% of the steps")
    stage_weight: Unit = param(0.1, "spec §1.4 [RECON]: momentum weight 0.1 in the first stage")
    n_seeds: Annotated[int, Field(ge=1, le=10)] = param(
        3, "spec NB2: 3 seeds (a paired difference beyond 2 s.e. needs >= 3)")
    ablations: bool = param(True, "spec NB2 optional: weak2 without meso, without small discs")
    # <= 100,000: 5x the paper profile's 20,000
    n_eval: Annotated[int, Field(ge=100, le=10**5)] = param(20000, "spec NB2: 20k interior points")
    # <= 10,000: 5x the paper profile's 2,000
    n_curve: Annotated[int, Field(ge=10, le=10000)] = param(
        2000, "decision: interior points of the error-against-step curve")
    # <= 50,000: as steps, which bounds it (eval_every <= steps)
    eval_every: PosInt = param(50, "decision: steps between points of the error curve", le=50000)
    # <= 10,000: 5x the paper profile's 2,000
    n_held: Annotated[int, Field(ge=10, le=10000)] = param(2000, "spec NB2: 2000 held-out discs")
    r_held: Radius = param(0.05, "spec NB2: held-out discs of radius 0.05")
    x_line: float = param(0.2, "spec NB2: net flux through the line x = 0.2", ge=-0.5, le=1.0)
    # <= 20,000: 5x the paper profile's 4,000
    n_line: Annotated[int, Field(ge=100, le=20000)] = param(
        4000, "decision: midpoints on the line (one rule for net and exact)")
    AT_MOST = (("eval_every", "steps"),)
    SMOKE = {"steps": (20, "the code path only (smoke budget 10 s)"),
             "n_boundary": (64, "smoke budget"), "n_colloc": (64, "smoke budget"),
             "n_large": (4, "smoke budget"), "n_meso": (6, "smoke budget"),
             "n_small": (6, "smoke budget"), "n_seeds": (2, "two seeds: the paired-CI path"),
             "n_eval": (500, "smoke budget"), "n_curve": (100, "smoke budget"),
             "eval_every": (1, "a curve point per step: convergence needs >= 4 in the last "
                               "quarter"), "n_held": (100, "smoke budget"),
             "n_line": (400, "smoke budget")}
    PAPER = {**sweep.PAPER, "width": (64, "spec NB2: 4 x 64"),
             "steps": (6000, "spec §3 paper profile"), "lr": (1e-3, "spec NB2: Adam at 1e-3"),
             "n_boundary": (800, "spec NB2"), "n_colloc": (2000, "spec §3 paper profile"),
             "n_large": (128, "spec §3 paper: 512 discs"), "n_meso": (192, "spec §3 paper"),
             "n_small": (192, "spec §3 paper"), "n_seeds": (5, "spec §3 paper: 5 seeds"),
             "eval_every": (200, "fewer curve points over 6000 steps")}

    def jobs(self) -> int:
        """One sweep run per (form, seed): the strong arm, and the weak arms together."""
        return 2 * self.n_seeds

    @model_validator(mode="after")
    def _decay_rises(self):
        if any(b <= a for a, b in zip(self.decay_at, self.decay_at[1:])):
            raise ValueError(f"decay_at = {self.decay_at} does not rise; allowed: increasing "
                             "fractions of the steps")
        return self
