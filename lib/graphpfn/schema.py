"""Parameters of the graphpfn notebooks: the one place each is declared (type, range, default,
reason, profile overrides); params.yaml and the parameters cells are generated from it. The 40
official structure configs are numbers here (the grid they form, spec §1.1); a range whose low
end exceeds its high end, a labelled fraction outside (0, 1) and a crop below the minimum size
are refused by key before any compute."""
from __future__ import annotations

from typing import Annotated

from pydantic import Field, model_validator

from lib.companion import sweep
from lib.companion.params import NotebookParams, param

Count = Annotated[int, Field(ge=1, le=100000)]
Frac = Annotated[float, Field(gt=0.0, lt=1.0)]
Pair = Annotated[list[Annotated[int, Field(ge=1, le=100000)]], Field(min_length=2, max_length=2)]
RATIOS = [round(0.1 * i, 1) for i in range(11)]
PAIRS = ("sbm_nodes", "first_level", "classes", "layers", "hidden")


class PriorKeys(NotebookParams):
    """Keys of the prior both notebooks sample: the structure grid and the GNN-SCM."""

    DISTINCT = ("divisors",)
    sbm_nodes: Pair = param([2000, 2500], "configs: min/max_sbm_nodes (all 40 alike)")
    first_level: Pair = param([2, 3], "configs: min/max_first_level_sbm_graphs (all alike)")
    # <= 5,000: each 5x the paper profile's 1,000
    group_families: list[Annotated[list[Annotated[int, Field(ge=1, le=5000)]],
                                   Field(min_length=4, max_length=4)]] = param(
        [[1, 25, 25, 1000], [10, 100, 10, 250]],
        "configs: [min_groups, max_groups, min_group_size, max_group_size], the two families",
        min_length=1)
    # <= 5,000: each 5x the paper profile's 1,000
    pa_families: list[Annotated[list[Annotated[int, Field(ge=1, le=5000)]],
                                Field(min_length=3, max_length=3)]] = param(
        [[400, 500, 2], [800, 1000, 4]], "configs: [min_ba_nodes, max_ba_nodes, max_ba_deg]",
        min_length=1)
    divisors: list[Annotated[float, Field(ge=1.0, le=1000.0)]] = param(
        [1.0, 3.0, 5.0, 7.0, 10.0, 15.0, 20.0, 30.0, 40.0, 50.0],
        "configs: the ten sbm_divisor values (the spec's list omits 7, 15, 20, 40)",
        min_length=1)
    pa_run_nodes: Annotated[int, Field(ge=1, le=1000)] = param(
        25, "generator.py: each price_network run adds N = 25 nodes")
    scale: Annotated[float, Field(gt=0.0, le=1.0)] = param(
        0.1, "spec NB1: node counts and group sizes x 0.1 (first-level SBMs of 200-250 nodes)")
    n_features: Annotated[int, Field(ge=2, le=64)] = param(
        8, "spec NB2: features padded or cut to 8 columns")
    classes: Pair = param([2, 4], "spec NB2: 2-4 classes per task")
    layers: Pair = param([2, 6], "spec §1.2: num_layers 2 to about 6")
    hidden: Pair = param([4, 32], "spec §1.2: h from 4 (the paper's reaches ~130; cut for cost)")
    conv_ratios: list[Annotated[float, Field(ge=0.0, le=1.0)]] = param(
        RATIOS, "spec §1.2: graph_conv_ratio uniform on {0, 0.1, ..., 1}", min_length=1)
    max_causes: Annotated[int, Field(ge=1, le=64)] = param(
        12, "spec §1.2: cause count log-normal with mean up to 12")
    group_signal: Annotated[float, Field(ge=0.0, le=10.0)] = param(
        1.0, "spec D1 (reconstructed): std of a per-group offset on every cause (the group ids "
             "are categorical node attributes in the code)")
    noise: Annotated[float, Field(ge=0.0, le=10.0)] = param(
        0.1, "GaussianNoise std after every layer (reconstructed)")
    p_causal: Annotated[float, Field(ge=0.0, le=1.0)] = param(
        0.5, "share of causal-mode tasks (X, y from intermediate outputs; reconstructed)")

    @model_validator(mode="after")
    def _ordered_pairs(self):
        """Every [low, high] range: low <= high; group families min <= max twice; PA min <=
        max."""
        for key in PAIRS:
            lo, hi = getattr(self, key)
            if lo > hi:
                raise ValueError(f"{key} = {[lo, hi]!r}: low end exceeds high end; allowed: "
                                 "[low, high] with low <= high")
        for fam in self.group_families:
            if fam[0] > fam[1] or fam[2] > fam[3]:
                raise ValueError(f"group_families entry {fam!r}: allowed [min_groups <= "
                                 "max_groups, min_group_size <= max_group_size]")
        for fam in self.pa_families:
            if fam[0] > fam[1]:
                raise ValueError(f"pa_families entry {fam!r}: allowed min_ba_nodes <= "
                                 "max_ba_nodes")
        return self

    def scm(self) -> dict:
        """The GNN-SCM keyword arguments of prior_scm.sample_task."""
        return {k: getattr(self, k) for k in ("n_features", "classes", "layers", "hidden",
                                               "conv_ratios", "max_causes", "group_signal",
                                               "noise", "p_causal")}


class Prior(PriorKeys):
    """01_prior: the structure and attribute prior, its exact facts and its statistics."""

    COST = ("n_graphs",)

    AT_MOST = (("n_examples", "n_graphs"), ("n_ccdf", "n_graphs"))
    n_graphs: Count = param(500, "spec NB1: histograms over 500 graphs")
    n_ccdf: Count = param(200, "spec NB1: the degree CCDF pooled over 200 graphs")
    n_examples: Count = param(3, "spec NB1: three example graphs (at most n_graphs)")
    sbm_draws: Count = param(2000, "spec sbm_edges: 2000 draws of one fixed SBM")
    fidelity_draws: Count = param(
        40, "config_fidelity: one scale-1 group-size + propensity draw per config (40)")
    pa_checks: Count = param(50, "pa_counts: PA growth on 50 first-level SBM seeds (scale 1)")
    tail_nodes: Annotated[int, Field(ge=100, le=100000)] = param(
        5000, "pa_tail: a PA-only Price network of 5000 nodes ...")
    tail_m: Annotated[int, Field(ge=1, le=10)] = param(
        2, "... with m = 2 (the middle of max_ba_deg's 1-4) ...")
    tail_kmin: Annotated[int, Field(ge=1, le=1000)] = param(
        8, "... its CCDF fitted from degree 8 up (4 m: past the minimum degree m)")
    SMOKE = {"n_graphs": (20, "spec smoke: 20 graphs"), "scale": (0.05, "spec smoke: scale 0.05"),
             "n_ccdf": (20, "all of them"), "sbm_draws": (200, "the 4-sigma band widens"),
             "fidelity_draws": (4, "one per family pair"), "pa_checks": (5, "a few seeds"),
             "tail_nodes": (1000, "a shorter tail"),
             "n_examples": (1, "one spring layout (the figure is the smoke run's slowest)")}
    PAPER = {"scale": (1.0, "spec: the code's sizes, 2000-2500-node SBMs")}


class TinyPfn(PriorKeys, sweep.SweepParams):
    """02_tiny_pfn: graph-PFN against tab-PFN trained on the prior, in context; the two
    trainings are one sweep run each."""

    COST = ("steps",)

    AT_MOST = (("min_nodes", "max_nodes"), ("n_frac_eval", "n_eval"))
    DISTINCT = ("divisors", "label_fracs", "karate_k")
    min_nodes: Annotated[int, Field(ge=4, le=5000)] = param(50, "spec NB2: graphs of 50-300 "
                                                            "nodes ...")
    max_nodes: Annotated[int, Field(ge=4, le=5000)] = param(300, "... larger ones cropped")
    conv_ratios: list[Annotated[float, Field(ge=0.0, le=1.0)]] = param(
        RATIOS[5:], "spec D1: graph_conv_ratio on {0.5, ..., 1} (a stronger graph signal than "
                    "NB1's uniform draw)", min_length=1)
    scale: Annotated[float, Field(gt=0.0, le=1.0)] = param(
        0.05, "first-level SBMs of 100-125 nodes: graphs near the spec's 50-300 without "
              "drawing large ones only to crop them")
    d: Annotated[int, Field(ge=8, le=512)] = param(64, "spec NB2: d = 64")
    depth: Annotated[int, Field(ge=1, le=12)] = param(3, "spec NB2: 3 layers")
    heads: Annotated[int, Field(ge=1, le=16)] = param(4, "spec §1.3: 4-head GA")
    steps: Count = param(
        3000, "spec NB2 prototype: equal steps per model (spec D2) at the ~2500-3500 steps of "
              "its 2 x 120 CPU-s; the mechanism claim needs them (400 steps could not decide it), "
              "so this notebook takes ~3 min of the 5 a miniature may")
    lr: Annotated[float, Field(gt=0.0, le=1.0)] = param(3e-4, "pretrain.toml: AdamW 3e-4")
    warmup: Count = param(50, "pretrain.toml has a warm-up; 50 steps (reconstructed)")
    clip: Annotated[float, Field(gt=0.0, le=100.0)] = param(1.0, "pretrain.toml: clip 1.0")
    train_frac: list[Frac] = param([0.1, 0.5], "spec NB2: train fraction U(0.1, 0.5)",
                                   min_length=2, max_length=2)
    n_eval: Count = param(150, "spec NB2 default: 150 held-out prior graphs (range 100-200): "
                               "the paired gain's replicates")
    eval_frac: Frac = param(0.2, "spec NB2: 20 % of nodes labelled")
    label_fracs: list[Frac] = param([0.05, 0.1, 0.2, 0.4], "ICL accuracy against label "
                                    "fraction (spec NB2 figure) ...", min_length=1)
    n_frac_eval: Count = param(50, "... on the first 50 held-out graphs")
    gcn_hidden: Annotated[int, Field(ge=1, le=512)] = param(16, "GCN width (Kipf-Welling's 16)")
    gcn_epochs: Count = param(200, "spec NB2: 200 epochs, Adam ...")
    gcn_lr: Annotated[float, Field(gt=0.0, le=1.0)] = param(0.01, "... lr 0.01 ...")
    gcn_dropout: Annotated[float, Field(ge=0.0, lt=1.0)] = param(0.5, "... dropout 0.5")
    gcn_wd: Annotated[float, Field(ge=0.0, le=1.0)] = param(5e-4, "weight decay 5e-4 (GCN's)")
    boot: Count = param(2000, "bootstrap resamples of the paired difference")
    karate_k: list[Annotated[int, Field(ge=1, le=16)]] = param(
        [2, 4, 8], "spec NB2: k labelled nodes per class", min_length=1)
    karate_splits: Count = param(50, "spec NB2: 50 random splits")
    SMOKE = {"steps": (20, "CUT from the spec's 50: the 10-s smoke budget (kernel start and "
                           "imports take most of it)"), "n_eval": (10, "spec: 10 graphs"),
             "n_frac_eval": (5, "half of them"), "gcn_epochs": (20, "machinery only"),
             "karate_splits": (5, "a few splits"), "boot": (200, "a rough interval"),
             "warmup": (5, "a quarter of the run")}
    PAPER = {**sweep.PAPER,
             "steps": (30000, "spec paper: 2 x 30 CPU-min"), "d": (128, "spec paper: d = 128"),
             "n_eval": (200, "the spec's upper end"),
             "depth": (6, "spec paper: 6 layers")}

    def split_arms(self) -> bool:
        """One sweep run per arm (graph-PFN, tab-PFN) only where the executor runs them at once
        (local or slurm with workers >= 2); otherwise both arms share one run and its one draw
        of the training episodes (experiment.arm_runs)."""
        return self.executor in ("local", "slurm") and self.workers >= 2

    def jobs(self) -> int:
        """The sweep's runs: one per arm (experiment.ARMS, counted here without importing torch)
        when `split_arms`, else one."""
        return 2 if self.split_arms() else 1

    @model_validator(mode="after")
    def _fracs(self):
        """train_frac is a [low, high] range."""
        if self.train_frac[0] > self.train_frac[1]:
            raise ValueError(f"train_frac = {self.train_frac!r}: allowed [low, high], low <= "
                             "high")
        if self.d % self.heads:
            raise ValueError(f"d = {self.d} is not a multiple of heads = {self.heads}; allowed: "
                             "d divisible by heads")
        return self
