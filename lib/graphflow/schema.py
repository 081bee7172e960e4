"""Parameters of the graphflow notebook: the one place each is declared (type, range, default,
reason, profile overrides); params.yaml and the parameters cell are generated from it. rho
outside [0, 1], W < 1, a head count that does not divide d and more checked workflows than
drawn ones are refused here by key, before any compute."""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from lib.companion.params import NotebookParams, param
from lib.companion.schema import PosInt

Rho = Annotated[float, Field(ge=0.0, le=1.0)]
Quantile = Annotated[float, Field(ge=0.0, lt=1.0)]
INDEX_BYTES = {"int16": 2, "int32": 4, "int64": 8}


class Accounting(NotebookParams):
    """01_kv_accounting: byte counts of A, B and C over W, the decoder's exactness checks and
    C's error against its memory."""

    COST = ("n_seeds",)

    INCREASING = ("workflows", "rhos", "tau_quantiles")
    AT_MOST = (("n_eval", "error_workflows"),)
    graph_layers: Annotated[int, Field(ge=1, le=20)] = param(5, "spec §3: 5 layers of ops")
    ops_per_layer: Annotated[int, Field(ge=1, le=20)] = param(4, "spec §3: 4 ops per layer")
    block_min: Annotated[int, Field(ge=2, le=256)] = param(
        8, "spec §3: blocks of 8-32 tokens (the first is the op's marker)")
    block_max: Annotated[int, Field(ge=2, le=256)] = param(32, "spec §3: blocks of 8-32 tokens")
    system_tokens: Annotated[int, Field(ge=1, le=512)] = param(48, "spec §3: |S| = 48 tokens")
    visit_prob: Annotated[float, Field(gt=0.0, le=1.0)] = param(
        0.85, "spec §3: each graph layer visited with probability 0.85")
    output_tokens: Annotated[int, Field(ge=0, le=256)] = param(
        0, "spec §3 / §7 Q3: a unique output block of this many tokens after each op; 0 = "
           "outputs omitted (the spec's default)")
    vocab: Annotated[int, Field(ge=8, le=4096)] = param(
        256, "reconstructed: a small vocabulary; the first graph_layers * ops_per_layer ids are "
             "the ops' marker tokens")
    # <= 5,000: each 7.8x the paper profile's 640
    workflows: list[Annotated[int, Field(ge=1, le=5000)]] = param(
        [10, 20, 40, 80, 160], "spec F1: W, nested workflow sets", min_length=1)
    layers: Annotated[int, Field(ge=1, le=8)] = param(2, "spec §3 default: 2 decoder layers")
    d_model: Annotated[int, Field(ge=4, le=512)] = param(64, "spec §3 default: d = 64")
    heads: Annotated[int, Field(ge=1, le=16)] = param(4, "reconstructed: 4 heads of d/4")
    positions: Literal["slot", "contiguous"] = param(
        "slot", "decision (spec §7 Q1): position ids by wGraph slot, so every op has one "
                "canonical position; 'contiguous' numbers the context 0..n-1")
    index_dtype: Literal["int16", "int32", "int64"] = param(
        "int64", "spec §1.2: c_idx = 2, an int64 index beside each float64 value")
    rhos: list[Rho] = param([0.0, 0.05, 0.2, 1.0], "spec F1/F2: C's kept residual fraction",
                            min_length=1)
    tau_quantiles: list[Quantile] = param(
        [0.0, 0.5, 0.9], "spec F2: path pruning at tau = 0, q50, q90 of the residual norms",
        min_length=1)
    # <= 200: 5x the paper profile's 40
    error_workflows: PosInt = param(
        40, "spec §3 prototype: C's residuals and memory on the first 40 workflows ...", le=200)
    # <= 200: as error_workflows, which bounds it (n_eval <= error_workflows)
    n_eval: PosInt = param(10, "... its error on 10 of them (spec: mean over 10 workflows)", le=200)
    # <= 50: 5x the paper profile's 10
    n_check: PosInt = param(
        10, "workflows recomputed token by token (naive, about 0.5 s each) for prefix.exact", le=50)
    n_seeds: Annotated[int, Field(ge=1, le=10)] = param(
        3, "decoder inits (seed, seed + 1, ...) for C.error's 'monotone within seeds'")
    SMOKE = {
        "workflows": ([10], "spec §3 smoke: W = 10"),
        "layers": (1, "spec §3 smoke: 1 layer"), "d_model": (32, "spec §3 smoke: d = 32"),
        "rhos": ([0.0, 1.0], "spec §3 smoke: rho in {0, 1}"),
        "tau_quantiles": ([0.0], "no pruning sweep"),
        "error_workflows": (10, "the one W"), "n_eval": (3, "the code path only"),
        "n_check": (1, "one token-by-token recompute (smoke budget)"),
        "n_seeds": (1, "one init"),
    }
    PAPER = {"workflows": ([10, 20, 40, 80, 160, 640], "spec §3 paper: adds W = 640")}

    @model_validator(mode="after")
    def _sizes_fit(self):
        """Cross-field rules that need arithmetic: heads divide d; the op markers leave prompt
        ids; the error set is one of the drawn sets; int16 indices address every entry."""
        n_ops = self.graph_layers * self.ops_per_layer
        entries = 2 * self.layers * self.d_model * self.block_max
        rules = [
            (self.d_model % self.heads == 0, f"d_model = {self.d_model} is not a multiple of "
             f"heads = {self.heads}; allowed: d_model divisible by heads"),
            (self.vocab >= 2 * n_ops, f"vocab = {self.vocab} leaves too few prompt ids beside "
             f"the {n_ops} op markers; allowed: vocab >= 2 * graph_layers * ops_per_layer"),
            (self.error_workflows <= max(self.workflows), f"error_workflows = "
             f"{self.error_workflows} exceeds the largest of workflows = {self.workflows}; "
             "allowed: error_workflows <= max(workflows)"),
            (self.n_check <= self.error_workflows, f"n_check = {self.n_check} exceeds "
             f"error_workflows = {self.error_workflows}; allowed: n_check <= error_workflows"),
            (2 ** (8 * INDEX_BYTES[self.index_dtype] - 1) > entries, f"index_dtype = "
             f"{self.index_dtype!r} cannot address the {entries} entries of a block's residual; "
             "allowed: a wider index"),
        ]
        for ok, message in rules:
            if not ok:
                raise ValueError(message)
        return self
