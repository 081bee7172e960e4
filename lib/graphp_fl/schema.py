"""Parameters of the graphp_fl notebooks: the one place each is declared (type, range, default,
reason, profile overrides); params.yaml and the parameters cells are generated from it."""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from lib.companion import sweep
from lib.companion.params import NotebookParams, param
from lib.companion.schema import PosInt

Prob = Annotated[float, Field(ge=0.0, le=1.0)]
Weight = Annotated[float, Field(gt=0.0, lt=1.0)]


class ClosedForm(NotebookParams):
    """01_frpa_closed_form: FRPA's closed form, its equal-distance Pareto property, the naive
    counterexample and the isotropic limit (spec §3 NB1)."""

    COST = ("n_instances",)

    DISTINCT = ("weights",)
    INCREASING = ("weights",)
    n_clients: PosInt = param(8, "spec NB1: K = 8 random diagonal quadratics", le=64)
    client_dim: Annotated[int, Field(ge=1, le=200)] = param(
        19, "parameters per client quadratic (the largest dimension of the Pareto draw)")
    lam: Annotated[float, Field(gt=0.0, le=1e6)] = param(
        1.0, "lambda_g of the closed-form check: H ~ logN(0, 2) puts F on both sides of it")
    n_instances: Annotated[int, Field(ge=1, le=100_000)] = param(
        1000, "spec §1.3 / NB1: 1000 random instances")
    weights: list[Weight] = param([0.1, 0.3, 0.5, 0.7, 0.9],
                                  "spec §1.3: 5 isotropic weights w per instance", min_length=1)
    dim_low: Annotated[int, Field(ge=2, le=200)] = param(2, "spec §1.3: dimensions 2 ...")
    dim_high: Annotated[int, Field(ge=2, le=200)] = param(19, "spec §1.3: ... to 19")
    log_sd: Annotated[float, Field(gt=0.0, le=4.0)] = param(
        2.0, "spec §1.3: H log-normal(0, 2) (sd of log H)")
    iso_c: Annotated[float, Field(gt=0.0, le=1e6)] = param(
        3.0, "the constant c of the F = c 1 limit (any c > 0; 3 gives weight 3/4 with lam 1)")
    AT_MOST = (("dim_low", "dim_high"),)
    SMOKE = {"n_instances": (50, "the code path only (smoke budget 10 s)")}
    PAPER = {}


class Federated(sweep.SweepParams):
    """02_federated_sbm: K SBM clients with feature, concept and topological skew; five arms
    (spec §3 NB2); one sweep run per seed."""

    COST = ("n_seeds", "rounds")

    n_seeds: Annotated[int, Field(ge=1, le=20)] = param(5, "spec NB2: 5 seeds")
    n_clients: Annotated[int, Field(ge=1, le=32)] = param(6, "spec NB2: K = 6 clients")
    n_nodes: Annotated[int, Field(ge=8, le=2000)] = param(300, "spec NB2: 300 nodes per client")
    n_comm: Annotated[int, Field(ge=2, le=16)] = param(4, "spec NB2: 4 communities")
    p_in: Prob = param(0.08, "spec NB2: p_in = 0.08")
    p_out: Prob = param(0.01, "spec NB2: p_out = 0.01")
    dim: Annotated[int, Field(ge=2, le=256)] = param(
        16, "reconstructed: feature dimension (spec open); 16 keeps a dense GCN step cheap")
    feature_skew: Annotated[float, Field(ge=0.0, le=10.0)] = param(
        1.0, "reconstructed: client rotation = polar factor of I + 1.0 G / sqrt(d)")
    feature_noise: Annotated[float, Field(ge=0.0, le=20.0)] = param(
        1.0, "reconstructed: feature noise sd against unit-variance community means; at 2.0 "
             "a probe's linear scorer could not tell communities apart well enough to clean "
             "any edges at r = 0.5")
    swap_frac: Prob = param(0.5, "reconstructed: half the clients transpose 2 labels")
    noise_levels: list[Annotated[float, Field(ge=0.0, le=10.0)]] = param(
        [0.0, 0.5, 1.0, 2.0], "spec NB2: r_k in {0, 0.5, 1, 2} x |E|, client k gets level "
                              "k mod 4", min_length=1)
    train_frac: Weight = param(0.5, "reconstructed: half the nodes of a client train, half test")
    hidden: PosInt = param(16, "reconstructed: GCN width 16 (Kipf & Welling's)", le=512)
    rounds: Annotated[int, Field(ge=2, le=500)] = param(30, "spec NB2: 30 rounds")
    local_epochs: Annotated[int, Field(ge=1, le=100)] = param(
        5, "spec NB2: 5 local epochs (full batch, one step each)")
    lr: Annotated[float, Field(gt=0.0, le=1.0)] = param(0.02, "reconstructed: Adam 0.02")
    prox_mu: Annotated[float, Field(gt=0.0, le=100.0)] = param(0.01, "spec NB2: FedProx mu")
    frpa_variant: Literal["interpolate", "ewc"] = param(
        "interpolate", "spec §1.2: reading 1 (closed-form alignment on arrival); 'ewc': "
                       "reading 2 (local training against the global Fisher)")
    frpa_lambda: Annotated[float, Field(gt=0.0, le=1e4)] = param(
        1.0, "reconstructed: lambda_g against the mean-normalised Fisher (choices.fisher_scale)")
    embed: Annotated[int, Field(ge=1, le=256)] = param(8, "reconstructed: scorer embedding size")
    tau: Annotated[float, Field(gt=0.0, le=100.0)] = param(1.0, "spec §1.1: temperature tau")
    topo_lr: Annotated[float, Field(gt=0.0, le=1.0)] = param(0.05, "reconstructed: scorer Adam")
    topo_steps: Annotated[int, Field(ge=1, le=10_000)] = param(
        50, "reconstructed: scorer steps per topology update")
    topo_every: Annotated[int, Field(ge=1, le=500)] = param(
        10, "spec §1.1: A~ recomputed every R rounds; R = 10 gives 3 updates in 30 rounds")
    smooth: Annotated[float, Field(ge=0.0, le=10.0)] = param(
        0.01, "reconstructed: weight of the feature-smoothness term")
    threshold: Annotated[float, Field(ge=0.0, lt=1.0)] = param(
        0.5, "reconstructed: theta, keep an observed edge when s > 0.5 (the balanced BCE's "
             "even odds)")
    add_frac: Annotated[float, Field(ge=0.0, le=1.0)] = param(
        0.1, "reconstructed: top-r new edges, r = 0.1 |E|")
    AT_MOST = (("topo_every", "rounds"),)
    SMOKE = {"n_seeds": (1, "spec §3 smoke: 1 seed"), "n_clients": (2, "spec §3 smoke: 2 clients"),
             "n_nodes": (60, "spec §3 smoke: 60 nodes"), "rounds": (3, "spec §3 smoke: 3 rounds"),
             "topo_every": (2, "two topology updates in 3 rounds"),
             "topo_steps": (5, "the code path only (smoke budget 10 s)")}
    PAPER = {**sweep.PAPER, "n_clients": (10, "spec §3 paper: 10 clients"),
             "n_nodes": (1000, "spec §3 paper: 1000 nodes"), "rounds": (60, "spec §3 paper")}

    def jobs(self) -> int:
        """One sweep run per seed."""
        return self.n_seeds

    @model_validator(mode="after")
    def _communities_fit(self):
        if self.n_nodes < 2 * self.n_comm:
            raise ValueError(f"n_nodes = {self.n_nodes} gives fewer than 2 nodes per community "
                             f"for n_comm = {self.n_comm}; allowed: n_nodes >= 2 n_comm")
        if round(self.train_frac * self.n_nodes) in (0, self.n_nodes):
            raise ValueError(f"train_frac = {self.train_frac} leaves no train or no test node of "
                             f"n_nodes = {self.n_nodes}; allowed: 0 < round(train_frac n) < n")
        return self
