"""Parameters of the tinn notebooks: the one place each is declared (type, range, default,
reason, profile overrides); params.yaml and the parameters cells are generated from it."""
from __future__ import annotations

from typing import Annotated

from pydantic import Field, model_validator

from lib.companion import sweep
from lib.companion.params import NotebookParams, param
from lib.companion.schema import Pos, PosInt

Modes = Annotated[int, Field(ge=8, le=16384, multiple_of=2)]


class Reference(NotebookParams):
    """01_reference_solver: Burgers by spectral ETDRK4, checked against Cole-Hopf (spec §3.2)."""

    COST = ("steps_coarsest",)

    # <= 1: over 100x the paper profile's 0.01
    nu_pi: Pos = param(
        0.01, "viscosity nu = nu_pi / pi; the paper's Burgers case (spec §1.5)", le=1.0)
    modes_coarsest: Modes = param(
        1024, "coarsest spectral resolution (ours: spec §3.2 gives 2048 and 4096 for Burgers)")
    n_levels: Annotated[int, Field(ge=2, le=4)] = param(
        2, "resolutions, each doubling the modes and halving dt (1024, 2048)")
    # <= 500: 5x the largest profile value, 100
    steps_coarsest: PosInt = param(
        100, "time steps per output interval at the coarsest level (dt = 2e-4, CFL 0.21)", le=500)
    cfl_max: Annotated[float, Field(gt=0.0, le=2.8)] = param(
        1.0, "decision: refuse dt * max|u| * k_max > 1 (RK4's imaginary-axis limit is 2.83)")
    t_max: Annotated[float, Field(gt=0.0, le=1.0)] = param(1.0, "final time (spec §1.5)")
    # <= 1,000: 9.9x the paper profile's 101
    n_t: Annotated[int, Field(ge=2, le=1000)] = param(
        51, "output times on [0, t_max] (spec §3.3 grid)")
    # <= 2,000: 7.8x the paper profile's 256
    n_x: Annotated[int, Field(ge=2, le=2000)] = param(
        128, "evaluation points on [-1, 1] (spec §3.3)")
    # <= 20,000: 10x the paper profile's 2,001
    ch_nodes: Annotated[int, Field(ge=101, le=20000)] = param(
        2001, "Cole-Hopf trapezoid nodes (spec §3.2)")
    # <= 200: 10x the paper profile's 20
    bad_dt_factor: Annotated[float, Field(gt=1.0, le=200.0)] = param(
        20.0, "the CFL check is shown on dt_coarsest times this (must violate the limit)")
    toy_starts: Annotated[int, Field(ge=2, le=1000)] = param(
        50, "spec §3.1: LM fits of the time-entanglement toy from 50 random starts per neuron")
    # <= 20: 10x the paper profile's 2
    toy_scale: Pos = param(
        2.0, "decision: the starts are normal with this standard deviation", le=20.0)
    # <= 500: 7.7x the paper profile's 65
    toy_nx: Annotated[int, Field(ge=3, le=500)] = param(65, "spec §3.1: the toy's 65 x 33 grid ...")
    # <= 200: 6.1x the paper profile's 33
    toy_nt: Annotated[int, Field(ge=3, le=200)] = param(33, "... on [-1, 1] x [0, 1]")
    SMOKE = {
        "toy_starts": (10, "a few starts"),
        "modes_coarsest": (256, "two cheap resolutions, 256 and 512"),
        "steps_coarsest": (20, "dt = 1e-3: CFL 0.27 at 256 modes"),
        "t_max": (0.2, "before the shock forms, so 512 modes resolve it"),
        "n_t": (11, "few output times"),
        "n_x": (32, "coarse grid"),
        "bad_dt_factor": (10.0, "CFL 2.7 at 256 modes: still violates cfl_max = 1"),
    }
    PAPER = {
        "n_levels": (3, "one more doubling (spec §3.2: 4096 modes, 1.8e-12)"),
        "steps_coarsest": (50, "dt = 2e-4 on the 0.01 output spacing"),
        "n_t": (101, "t = 0, 0.01, ..., 1: the paper's 100 times plus t = 1 (spec §1.5)"),
        "n_x": (256, "the paper's 256 points in x (spec §1.5)"),
    }


class Comparison(sweep.SweepParams):
    """02_burgers_tinn_vs_pinn: TINN+LM, PINN+LM, PINN+Adam at equal size (spec §3.3); one
    sweep run per arm."""

    COST = ("lm_steps",)

    AT_MOST = (("eval_every", "lm_steps"),)

    # <= 1: over 100x the paper profile's 0.01
    nu_pi: Pos = param(
        0.01, "viscosity nu = nu_pi / pi (spec §7 Q3: keep the paper's case)", le=1.0)
    # <= 64: each 6x the paper's 10: the LM Jacobian is n_col x parameters
    time_widths: list[Annotated[int, Field(ge=1, le=64)]] = param(
        [1, 8, 8, 5], "TINN time network (spec §3.3 default)", min_length=2)
    # <= 64: each 3x the paper's 20: the LM Jacobian is n_col x parameters
    tinn_widths: list[Annotated[int, Field(ge=1, le=64)]] = param(
        [1, 10, 10, 1], "TINN backbone (spec §3.3 default)", min_length=2)
    # <= 64: each 2x the paper's 31: the LM Jacobian is n_col x parameters
    pinn_widths: list[Annotated[int, Field(ge=1, le=64)]] = param(
        [2, 18, 18, 1], "PINN of about the same size (415 vs 413)", min_length=2)
    # <= 50,000: 5x the paper profile's 10,000
    n_col: PosInt = param(
        2000, "collocation points (spec §3.3 default: the shock needs them)", le=50000)
    # <= 5,000: 10x the paper profile's 500
    n_ic: PosInt = param(200, "initial-condition points (spec §3.3 default)", le=5000)
    # <= 1,000: 5x the paper profile's 200
    n_bc: PosInt = param(100, "boundary points per side (spec §3.3 default)", le=1000)
    # <= 20: 10x the paper profile's 2
    lam_ic: Pos = param(2.0, "IC weight (code, spec §1.5)", le=20.0)
    # <= 10: 10x the paper profile's 1
    lam_bc: Pos = param(1.0, "BC weight (code, spec §1.5)", le=10.0)
    # issue 42: at the spec's 400 steps the verdicts hung on which oscillating step came last;
    # 800 (the spec prototype's run, about 60 s per LM arm) lets the last quarter's median decide,
    # and the notebook stays near 4 minutes in the default profile
    # <= 200,000: 6.7x the paper profile's 30,000
    lm_steps: PosInt = param(800, "LM steps per LM arm (the spec prototype's 800; its default "
                             "400 ends inside the oscillation, issue 42)", le=200000)
    # <= 200,000: 6.7x the paper profile's 30,000
    adam_steps: PosInt = param(
        6000, "Adam steps: about the CPU time of one LM arm (measured)", le=200000)
    # <= 1: over 100x the paper profile's 0.001
    adam_lr0: Pos = param(1e-3, "Adam lr at the start [RECON, spec §3.3]", le=1.0)
    # <= 1: over 100x the paper profile's 0.0001
    adam_lr1: Pos = param(1e-4, "Adam lr at the end (exponential decay) [RECON]", le=1.0)
    # <= 200,000: as lm_steps, which bounds it (eval_every <= lm_steps)
    eval_every: PosInt = param(
        10, "relative L2 on the grid every this many steps (Adam: x6)", le=200000)
    # <= 50: 10x the paper profile's 5
    resample_every: Annotated[int, Field(ge=0, le=50)] = param(
        5, "check the resampling rule every this many steps (0: never)")
    # <= 1: over 100x the paper profile's 1e-12
    mu_min: Annotated[float, Field(ge=0.0, le=1.0)] = param(
        1e-12, "LM damping floor (code, spec §1.4)")
    rcond_min: Annotated[float, Field(gt=0.0, lt=1.0)] = param(
        1e-15, "decision: refuse an LM system with reciprocal condition below this")
    ref_modes: Modes = param(2048, "spectral reference resolution (notebook 01: 3e-10 error)")
    # <= 2,000: 8x the largest profile value, 250
    ref_steps: PosInt = param(
        200, "spectral steps per output interval (dt = 1e-4 at n_t = 51)", le=2000)
    # <= 2,000: 7.8x the paper profile's 256
    n_x: Annotated[int, Field(ge=2, le=2000)] = param(128, "evaluation grid in x (spec §3.3)")
    # <= 1,000: 9.9x the paper profile's 101
    n_t: Annotated[int, Field(ge=2, le=1000)] = param(51, "evaluation grid in t (spec §3.3)")
    # <= 200: 5x the paper profile's 40
    n_jac_check: PosInt = param(40, "points of the torch.func Jacobian check", le=200)
    SMOKE = {
        "time_widths": ([1, 4, 4, 5], "spec §3.3 smoke sizes"),
        "tinn_widths": ([1, 6, 6, 1], "spec §3.3 smoke sizes"),
        "pinn_widths": ([2, 11, 11, 1], "spec §3.3 smoke sizes (177 vs 173)"),
        "n_col": (200, "spec §3.3 smoke"),
        "n_ic": (20, "spec §3.3 smoke"),
        "n_bc": (10, "spec §3.3 smoke"),
        "lm_steps": (20, "spec §3.3 smoke"),
        "adam_steps": (60, "a few steps"),
        "eval_every": (2, "eleven evaluations per LM arm: a last quarter to take a median of"),
        "ref_modes": (512, "cheap reference"),
        "ref_steps": (250, "dt = 4e-4 at n_t = 11: CFL 0.21 at 512 modes"),
        "n_x": (32, "coarse grid"),
        "n_t": (11, "coarse grid"),
        "n_jac_check": (10, "a few points"),
    }
    PAPER = {
        **sweep.PAPER,
        "time_widths": ([1, 10, 10, 5], "the paper's time network (spec §1.3)"),
        "tinn_widths": ([1, 20, 20, 1], "the paper's backbone: 1145 parameters"),
        "pinn_widths": ([2, 31, 31, 1], "equal-size PINN: 1117 parameters"),
        "n_col": (10000, "the paper's points (spec §1.5)"),
        "n_ic": (500, "the paper's points"),
        "n_bc": (200, "the paper's points"),
        "lm_steps": (30000, "the paper's LM steps (a GPU-day per arm on this CPU)"),
        "adam_steps": (30000, "spec §3.3 paper row"),
        "eval_every": (100, "fewer evaluations"),
        "n_x": (256, "the paper's 256 points in x (spec §1.5)"),
        "n_t": (101, "t = 0, 0.01, ..., 1: the paper's 100 times plus t = 1"),
        "ref_steps": (100, "dt = 1e-4 on the 0.01 output spacing"),
    }

    def jobs(self) -> int:
        """One sweep run per arm: TINN + LM, PINN + LM, PINN + Adam."""
        from lib.tinn.experiment import ARMS
        return len(ARMS)

    @model_validator(mode="after")
    def _shapes(self):
        layers = len(self.tinn_widths) - 1
        if self.time_widths[0] != 1 or self.time_widths[-1] != 2 * layers - 1:
            raise ValueError(f"time_widths = {self.time_widths} must map 1 -> 2L-1 = "
                             f"{2 * layers - 1} for tinn_widths = {self.tinn_widths}")
        if self.tinn_widths[0] != 1 or self.tinn_widths[-1] != 1:
            raise ValueError(f"tinn_widths = {self.tinn_widths}: allowed: input 1 (x), output 1")
        if self.pinn_widths[0] != 2 or self.pinn_widths[-1] != 1:
            raise ValueError(f"pinn_widths = {self.pinn_widths}: allowed: input 2 (x, t), "
                             "output 1")
        return self
