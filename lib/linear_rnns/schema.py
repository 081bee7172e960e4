"""Parameters of the linear_rnns notebooks: the one place each is declared (type, range,
default, reason, profile overrides); params.yaml and the parameters cells are generated from it."""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from lib.companion.params import NotebookParams, param
from lib.companion.schema import PosInt

Task = Literal["dgc", "imm_f2", "imm_z_zero", "imm_z_pos", "s5", "parity", "dgc_paper", "imm_mod",
               "imm_z_paper"]
Family = Literal["rnn", "gru", "diag_pos", "diag_neg", "pd", "deltanet", "rwkv7", "transformer"]
SETTING_KEYS = ("d", "layers", "steps", "batch", "lr", "weight_decay", "clip")  # train.SETTING_KEYS
# a length bin [lo, hi]; lengths <= 3,000: 10x the longest bin of any profile (300), and a
# sequence of 3,000 tokens at batch 256 and d = 256 is 0.8 GB of float32 activations per layer
Bin = Annotated[list[Annotated[int, Field(ge=1, le=3000)]], Field(min_length=2, max_length=2)]


def check_bins(name: str, bins: list[list[int]]) -> None:
    """Length bins [lo, hi] with lo <= hi, each above the last (in-distribution first)."""
    for lo, hi in bins:
        if lo > hi:
            raise ValueError(f"{name} has the bin [{lo}, {hi}]; allowed: lo <= hi")
    for (_, hi), (lo, _) in zip(bins, bins[1:]):
        if lo <= hi:
            raise ValueError(f"{name} = {bins}: a bin starting at {lo} overlaps the one "
                             f"before it (up to {hi}); allowed: bins in increasing order, "
                             "disjoint")


class Scans(NotebookParams):
    """01_scans_and_depth: four scans, round counts, gate-DAG depth, tent map (spec §5)."""

    COST = ("grid_seeds",)

    DISTINCT = ("exact_T", "exact_dims", "circuit_T", "circuit_dims")

    # <= 500: each 7.8x the paper profile's 64
    exact_T: list[Annotated[int, Field(ge=1, le=500)]] = param(
        [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 32, 33, 63, 64],
        "spec §7.2: T in 1..64 (powers, odd, neighbours)",
        min_length=1)
    # <= 50: each 10x the paper profile's 5
    exact_dims: list[Annotated[int, Field(ge=1, le=50)]] = param(
        [1, 2, 3, 5], "spec §7.2: d in {1, 2, 3, 5}", min_length=1)
    # <= 50: 8.3x the paper profile's 6
    exact_seeds: PosInt = param(
        6, "random Fraction instances per (T, d, family); spec's 50 costs minutes", le=50)
    grid_T_max: Annotated[int, Field(ge=1, le=256)] = param(
        64, "spec §7.2: every T in 1..64")
    # <= 500: 10x the paper profile's 50
    grid_seeds: PosInt = param(50, "spec §7.2: 50 instances per (T, d, family)", le=500)
    grid_entries: Literal["int", "fraction"] = param(
        "int", "decision: Python ints (exact, ~1 min); Fractions take ~17 min on 2 cores")
    float_log2_T: Annotated[int, Field(ge=1, le=20)] = param(
        16, "spec §7.2: float64 rel. err <= 1e-10 up to T = 2^16")
    float_d: PosInt = param(4, "spec §5 [V]: d = 4", le=20)  # <= 20: 5x the paper profile's 4
    count_log2_T_max: Annotated[int, Field(ge=1, le=24)] = param(
        16, "round counts for T up to 2^16 (scalar pairs: cheap)")
    # <= 2,000: each 7.8x the paper profile's 256
    circuit_T: list[Annotated[int, Field(ge=1, le=2000)]] = param(
        [1, 2, 3, 5, 8, 16, 33, 64, 100, 256], "spec §5 check 2: DAG depth for T <= 256",
        min_length=2)
    # <= 20: each 5x the paper profile's 4
    circuit_dims: list[Annotated[int, Field(ge=1, le=20)]] = param(
        [1, 2, 3, 4], "spec §7.2: d <= 4", min_length=1)
    tent_k_max: Annotated[int, Field(ge=1, le=20)] = param(
        12, "spec §5: tau^k has 2^k pieces for k <= 12")
    SMOKE = {
        "exact_T": ([1, 2, 5, 8], "a few lengths exercise every scan"),
        "exact_dims": ([1, 3], "two state sizes"),
        "exact_seeds": (2, "two instances"),
        "grid_T_max": (8, "T in 1..8"),
        "grid_seeds": (3, "three instances"),
        "float_log2_T": (10, "T = 1024"),
        "count_log2_T_max": (10, "counts up to 1024"),
        "circuit_T": ([1, 3, 8, 33], "small circuits"),
        "circuit_dims": ([1, 2], "small d"),
        "tent_k_max": (8, "256 pieces"),
    }
    PAPER = {
        "grid_entries": ("fraction", "the spec's Fractions on the whole grid (~17 min)"),
    }


class LComplete(NotebookParams):
    """02_l_complete_rnn: the ReLU counter RNN for sorted DGC and the reduction (spec §4.1-4.2)."""

    COST = ("n_random",)

    DISTINCT = ("chain_ks",)

    k_max: Annotated[int, Field(ge=1, le=7)] = param(
        6, "spec §4.1: exhaustive k <= 6 (29,367 instances)")
    # <= 5,000: 5x the paper profile's 1,000
    n_random: PosInt = param(1000, "spec §7.2: >= 1000 random instances", le=5000)
    # <= 200: 5x the paper profile's 40
    random_k_max: Annotated[int, Field(ge=2, le=200)] = param(40, "spec §7.2: k <= 40")
    p_edge: Annotated[float, Field(gt=0.0, le=1.0)] = param(
        0.8, "decision: most vertices have an out-edge (long paths)")
    # <= 2,000: each 6.7x the paper profile's 300
    chain_ks: list[Annotated[int, Field(ge=1, le=2000)]] = param(
        [100, 200, 300], "spec §4.1: chains of 100/200/300 vertices", min_length=1)
    reduction_n_max: Annotated[int, Field(ge=1, le=5)] = param(
        5, "spec §4.2: exhaustive up to |V| <= 5 (205,014 from |V| = 1; S1's 205,012 is 2..5)")
    SMOKE = {
        "k_max": (4, "364 instances"),
        "n_random": (50, "a few random ones"),
        "random_k_max": (10, "short streams"),
        "chain_ks": ([10, 20], "short chains"),
        "reduction_n_max": (2, "tiny reduction domain"),
    }


class PDNC1(NotebookParams):
    """05_pd_equals_nc1: DFA/DWFA -> PD LRNN, S5 word problem, PD closure (spec §4.5)."""

    COST = ("n_words",)

    # <= 50: 8.3x the paper profile's 6
    n_automata: PosInt = param(6, "random DFAs (and as many DWFAs)", le=50)
    max_states: Annotated[int, Field(ge=1, le=64)] = param(10, "spec §7.2: n <= 10")
    max_sigma: Annotated[int, Field(ge=1, le=16)] = param(4, "spec §7.2: |Sigma| <= 4")
    # <= 5,000: 5x the paper profile's 1,000
    n_words: PosInt = param(1000, "spec §7.2: 1000 strings per automaton", le=5000)
    # <= 1,000: 6.7x the paper profile's 150
    dwfa_words: PosInt = param(
        150, "DWFA words (Fraction weight products of length 200 are slow)", le=1000)
    # <= 1,000: 5x the paper profile's 200
    max_len: PosInt = param(200, "spec §7.2: length <= 200", le=1000)
    # <= 5,000: 5x the paper profile's 1,000
    s5_words: PosInt = param(1000, "spec §7.2: 1000 S5 words", le=5000)
    # <= 5,000: 5x the paper profile's 1,000
    closure_products: PosInt = param(1000, "spec §7.2: PD closure on 1000 products", le=5000)
    closure_d: Annotated[int, Field(ge=1, le=32)] = param(6, "size of the closure check")
    SMOKE = {
        "n_automata": (2, "two automata"),
        "n_words": (50, "few words"),
        "dwfa_words": (20, "few DWFA words"),
        "max_len": (30, "short words"),
        "s5_words": (50, "few S5 words"),
        "closure_products": (50, "few products"),
    }


class Arithmetic(NotebookParams):
    """04_arithmetic_circuits: unrolled form, Q -> Z lift and its typo, bit growth (§2.6, §5)."""

    COST = ("n_instances",)

    # <= 1,000: 5x the paper profile's 200
    n_instances: PosInt = param(
        200, "random rational LRNNs for the unrolled form and the lift", le=1000)
    # <= 100: 8.3x the paper profile's 12
    max_T: PosInt = param(12, "random LRNNs of up to 12 steps", le=100)
    max_d: Annotated[int, Field(ge=1, le=8)] = param(4, "state sizes d <= 4")
    # <= 1,000: 5x the paper profile's 200
    n_streams: PosInt = param(200, "IMM streams over {-1, 0, 1} for bit growth", le=1000)
    # <= 200: 5x the paper profile's 40
    bits_T: PosInt = param(40, "spec §5: bits <= ceil(T log2 3) + 1", le=200)
    SMOKE = {
        "n_instances": (10, "a few instances"),
        "n_streams": (10, "a few streams"),
        "bits_T": (10, "short streams"),
    }


class SingleLayer(NotebookParams):
    """07_single_layer_hankel: 1-layer LRNN = WFA, Hankel ranks, the thresholding gap (§4.7)."""

    COST = ("n_words",)

    n_wfas: PosInt = param(5, "random WFAs over Q", le=50)  # <= 50: 10x the paper profile's 5
    max_states: Annotated[int, Field(ge=1, le=8)] = param(6, "spec §7.2: n <= 6")
    sigma: Annotated[int, Field(ge=1, le=4)] = param(2, "binary alphabet")
    # <= 1,000: 5x the paper profile's 200
    n_words: PosInt = param(200, "words per WFA (1000 in total)", le=1000)
    max_len: PosInt = param(12, "word length <= 12", le=100)  # <= 100: 8.3x the paper profile's 12
    hankel_len: Annotated[int, Field(ge=1, le=4)] = param(
        3, "Hankel blocks over words of length <= 3")
    score_N_max: Annotated[int, Field(ge=3, le=60)] = param(
        30, "F(s, t) = 1/2 - (s - t)^2 up to 30 x 30")
    SMOKE = {
        "n_wfas": (2, "two WFAs"),
        "n_words": (20, "few words"),
        "hankel_len": (2, "small Hankel blocks"),
        "score_N_max": (8, "small matrices"),
    }


class DPLR(NotebookParams):
    """06_dplr_equals_pnc1: RWKV-7 overwrites, IMM and WFA compilers, Householder programs,
    the router obstruction (spec §4.6)."""

    COST = ("wfa_words",)

    INCREASING = ("rwkv_product_lengths", "rwkv_product_entries", "deltanet_product_lengths",
                  "transvection_dims", "rwkv_long_lengths")

    # <= 5,000: 5x the paper profile's 1,000
    imm_streams: PosInt = param(1000, "spec §7.2: IMM on 1000 streams", le=5000)
    imm_max_N: Annotated[int, Field(ge=1, le=35)] = param(30, "spec §7.2: N <= 30")
    wfa_count: PosInt = param(5, "random WFAs over Q", le=50)  # <= 50: 10x the paper profile's 5
    wfa_max_states: Annotated[int, Field(ge=1, le=8)] = param(6, "spec §7.2: n <= 6")
    # <= 1,000: 5x the paper profile's 200
    wfa_words: PosInt = param(200, "1000 words in total (spec §7.2)", le=1000)
    wfa_max_len: PosInt = param(10, "word length <= 10", le=50)  # <= 50: 5x the paper profile's 10
    # <= 100: 5x the paper profile's 20
    householder_matrices: PosInt = param(
        20, "spec §7.2: 694-step program on 20 random matrices", le=100)
    # <= 10,000: 7.1x the paper profile's 1,404
    router_max_order: Annotated[int, Field(ge=6, le=10000)] = param(
        1404, "spec §4.6: the router needs period 1404")
    rwkv_product_lengths: list[Annotated[int, Field(ge=1, le=64)]] = param(
        [1, 2, 3, 5, 8, 13, 21], "S1 audit: product lengths 1..21 (Fibonacci)", min_length=1)
    # <= 100: 5x the paper profile's 20
    rwkv_product_streams: PosInt = param(20, "S1 audit: 20 streams per (length, alphabet)", le=100)
    rwkv_product_entries: list[Annotated[int, Field(ge=1, le=100)]] = param(
        [1, 5], "entries in [-a, a]: {-1, 0, 1} (the PNC1-hard alphabet) and [-5, 5] (S1 audit)",
        min_length=1)
    # <= 2,000: 7.8x the longest default (257); a stream of 257 matrices takes ~10 ms in Python ints
    rwkv_long_lengths: list[Annotated[int, Field(ge=1, le=2000)]] = param(
        [64, 257], "S1 audit (claim5_independent): overwrite products of 64 and 257 matrices",
        min_length=1)
    # <= 200: 10x the default's 20
    rwkv_long_streams: PosInt = param(
        20, "streams per (long length, alphabet), each also through the broken in-place overwrite",
        le=200)
    deltanet_product_lengths: list[Annotated[int, Field(ge=1, le=32)]] = param(
        [1, 2, 3, 5, 8], "S1 audit: DeltaNet products of 1..8 matrices", min_length=1)
    # <= 100: 6.7x the paper profile's 15
    deltanet_product_streams: PosInt = param(
        15, "S1 audit: 15 streams per length (75 products, 694 steps per matrix)", le=100)
    transvection_dims: list[Annotated[int, Field(ge=2, le=32)]] = param(
        [3, 5, 9], "S1 audit: every (s, t), s != t, in dims 3, 5, 9", min_length=1)
    SMOKE = {
        "imm_streams": (50, "few streams"),
        "imm_max_N": (8, "short streams"),
        "wfa_count": (2, "two WFAs"),
        "wfa_words": (20, "few words"),
        "householder_matrices": (1, "one 9x9 matrix"),
        "router_max_order": (24, "enough to see {1, 2, 3, 4, 6}"),
        "rwkv_product_lengths": ([1, 2, 21], "the shortest and the longest audited length"),
        "rwkv_product_streams": (3, "few streams"),
        "rwkv_long_lengths": ([64], "one long length"),
        "rwkv_long_streams": (2, "two streams per alphabet"),
        "deltanet_product_lengths": ([1, 2], "short products (694 steps per matrix)"),
        "deltanet_product_streams": (2, "two streams per length"),
        "transvection_dims": ([3], "one dimension"),
    }


class PComplete(NotebookParams):
    """03_p_complete_rnn: fractional stacks, 2-stack machine, TM, monotone CVP (spec §4.3)."""

    COST = ("roundtrip_trials",)

    # <= 1,000: 5x the paper profile's 200
    roundtrip_depth: PosInt = param(200, "spec §4.3: base-4 exact to depth 200 (Fraction)", le=1000)
    # <= 2,000: 10x the paper profile's 200
    roundtrip_trials: PosInt = param(200, "random bit strings at that depth (S1 audit: 200 round "
                                     "trips)", le=2000)
    float_max_depth: Annotated[int, Field(ge=2, le=64)] = param(
        40, "spec §7.2 row 03: float64 fails at some depth <= 30 (§4.3 observed 27)")
    gap_max_depth: Annotated[int, Field(ge=2, le=16)] = param(
        14, "all 2^14 stacks: base-2 separation -> 0")
    # <= 16: 4x the default's 32,767 stacks (about 6 s); int64 numerators stay below 4^17
    domain_max_depth: Annotated[int, Field(ge=0, le=16)] = param(
        14, "S1 audit: all 32,767 stacks of depth <= 14, every observer and update exact")
    anbncn_max_len: Annotated[int, Field(ge=0, le=11)] = param(
        9, "spec §4.3: exhaustive up to length 9 (29,524 strings)")
    # <= 1,000: 5x the paper profile's 200
    tm_inputs: PosInt = param(200, "spec §7.2: TM simulation on 200 inputs", le=1000)
    # <= 100: 6.2x the paper profile's 16
    tm_max_bits: PosInt = param(16, "inputs of 1..16 bits", le=100)
    # <= 100: 5x the paper profile's 20
    float_trials: PosInt = param(20, "random bit strings per depth (each rate with its Wilson "
                                 "interval)", le=100)
    # <= 500: 8.3x the paper profile's 60
    cvp_circuits: PosInt = param(60, "spec §4.3: 60 random monotone circuits", le=500)
    cvp_inputs: Annotated[int, Field(ge=1, le=10)] = param(5, "all 32 assignments each")
    # <= 100: 8.3x the paper profile's 12
    cvp_gates: PosInt = param(12, "gates per circuit", le=100)
    SMOKE = {
        "roundtrip_depth": (40, "shallower exact round trip"),
        "roundtrip_trials": (2, "two strings"),
        "gap_max_depth": (8, "256 stacks"),
        "domain_max_depth": (8, "511 stacks"),
        "anbncn_max_len": (6, "1,093 strings"),
        "tm_inputs": (20, "few inputs"),
        "cvp_circuits": (5, "few circuits"),
    }


class Landscape(NotebookParams):
    """00_landscape: class-inclusion diagram and the landscape table (spec §1.1)."""

    INCREASING = ("context_log2",)

    context_log2: list[Annotated[int, Field(ge=1, le=40)]] = param(
        [10, 12, 14, 16, 18, 20], "context lengths 2^10..2^20 (spec §1.1 names 64K..1M)",
        min_length=2)
    SMOKE = {
        "context_log2": ([10, 20], "two points"),
    }


class Audit(NotebookParams):
    """09_audit_released: released-generator bug, Figure 2a, hyperparameters (spec §6, §9); the
    repaired shortcut's sensitivity to p against its closed form (issue 17)."""

    COST = ("sweep_seeds",)

    INCREASING = ("sweep_p",)

    # <= 50,000: 5x the paper profile's 10,000
    examples_per_bin: PosInt = param(
        10000, "spec §7.2: labels = BFS on 30K examples (3 bins)", le=50000)
    bins: list[Bin] = param(
        [[1, 100], [101, 200], [201, 300]], "spec §6.2: ID and two OOD bins", min_length=1)
    p_bucket: Annotated[float, Field(gt=0.0, lt=1.0)] = param(
        0.5, "decision: Bernoulli(1/2) buckets (p not stated)")
    # <= 5,000: 5x the paper profile's 1,000
    sink_examples: PosInt = param(1000, "unary counter RNN on generated examples", le=5000)
    # <= 200: 6.7x the paper profile's 30
    sink_N_max: PosInt = param(30, "short unary streams", le=200)
    sweep_p: list[Annotated[float, Field(gt=0.0, lt=1.0)]] = param(
        [0.1, 0.5, 0.9], "S1's sensitivity grid (claim6): bucket probabilities", min_length=1)
    sweep_seeds: Annotated[int, Field(ge=1, le=20)] = param(
        3, "decision: 3 streams spawned from `seed` (S1's seeds 0, 1, 260303612 seed Python's "
        "random, which our numpy generator cannot replay)")
    # <= 50,000: 5x the paper profile's 10,000
    sweep_examples_per_bin: PosInt = param(
        10000, "S1: 10,000 examples per bin, p and seed (vectorised twin of the generator)",
        le=50000)
    enumerate_N_max: Annotated[int, Field(ge=2, le=14)] = param(
        10, "closed form vs every outcome of the draws, N = 1..10 (2^(N-1) bucket patterns)")
    # <= 10,000: 10x the default (1,000 streams of 500 matrices take ~0.5 s)
    wrap_streams: PosInt = param(
        1000, "issue 44: streams for the released IMM-over-Z labels (int64) vs exact", le=10000)
    # <= 2,000: 4x the longest length the released defaults reach (T_train 300 + 2 T_gap 100)
    wrap_length: Annotated[int, Field(ge=1, le=2000)] = param(
        500, "released imm_unbound/gen.py defaults reach T = 300 + 2 x 100 = 500")
    SMOKE = {
        "examples_per_bin": (200, "a few examples per bin"),
        "sink_examples": (50, "few counter-RNN runs"),
        "sweep_examples_per_bin": (400, "a few examples per cell"),
        "enumerate_N_max": (6, "enumeration to N = 6"),
    }

    @model_validator(mode="after")
    def _bins_ordered(self):
        """Bins in increasing order, disjoint (the first is in distribution)."""
        check_bins("bins", self.bins)
        return self



class TrainedModels(NotebookParams):
    """08_trained_models: eight model families trained on our tasks and the paper's (spec §6, §7.3;
    the released code's tasks and launcher settings, issue 15)."""

    COST = ("n_seeds", "steps")

    DISTINCT = ("tasks", "families")
    AT_MOST = (("eval_every", "steps"),)

    tasks: list[Task] = param(
        ["dgc_paper", "imm_mod", "imm_z_paper", "parity"],
        "the paper's three tasks as released, and parity (the abelian sanity check); ours that ask "
        "what they do not (imm_f2: GL(3, F2), imm_z_pos: positivity) and dgc, imm_z_zero, s5 stay "
        "selectable, outside the default for the CPU budget (a group of 3 seeds takes 1-4 min)",
        min_length=1)
    families: list[Family] = param(
        ["rnn", "gru", "diag_pos", "diag_neg", "pd", "deltanet", "rwkv7", "transformer"],
        "spec §7.3 families plus the released IMM launchers' GRU",
        min_length=1)
    n_seeds: Annotated[int, Field(ge=1, le=10)] = param(
        3, "spec §7.3 FULL: 3 seeds (the claims read \"in >= 2 of 3 seeds\")")
    d: Annotated[int, Field(ge=2, le=1024, multiple_of=2)] = param(
        32, "launchers 256 (RNN hidden, DeltaNet, Mamba); 32 for 2 CPU cores (spec §7.3: 32-64)")
    layers: Annotated[int, Field(ge=1, le=8)] = param(
        1, "DGC launchers 1 layer (RNN, Transformer, DeltaNet); IMM ones 2: 1 for the CPU budget")
    # <= 500,000: 8.3x the paper profile's 60,000
    steps: PosInt = param(
        1000, "launchers 30K (DGC) / 60K (IMM) steps; 1K with the early-stop rule on 2 CPU cores "
        "(3K took ~4 min per group of 3 seeds, over an hour for the grid)", le=500000)
    # <= 2,000: 7.8x the paper profile's 256
    batch: PosInt = param(32, "launchers 64-256; 32 for the CPU budget", le=2000)
    lr: Annotated[float, Field(gt=0.0, le=1.0)] = param(
        0.001, "launchers 3e-4 (RWKV-7 3e-5) at d = 256; 1e-3 for 32-wide models (spec §7.3)")
    # <= 300,000: each 10x the largest setting, 30,000 steps
    run_settings: dict[str, dict[str, Annotated[float, Field(ge=0.0, le=300000.0)]]] = param(
        {}, "per task / family / \"task/family\" overrides of d, layers, steps, batch, lr, "
        "weight_decay, clip (clip 0 = none); none on CPU: one setting for every family, as the "
        "launchers' per-family ones are tuned for 30K-60K GPU steps")
    # <= 500,000: as steps, which bounds it (eval_every <= steps)
    eval_every: PosInt = param(
        100, "validation every 100 steps (ours: spec §6.4's early-stop rule names no interval)",
        le=500000)
    # <= 10,000: 5x the paper profile's 2,000
    val_n: PosInt = param(128, "in-distribution validation examples (released: 20K-30K)", le=10000)
    # <= 10,000: 5x the paper profile's 2,000
    test_n: PosInt = param(
        256, "test examples per length bin (frozen in data/linear_rnns/testsets; released: "
        "10K-30K)", le=10000)
    # <= 4,294,967,295: a 32-bit seed, what every generator here accepts
    test_seed: Annotated[int, Field(ge=0, le=4294967295)] = param(1, "seed of the frozen test sets")
    dgc_id_bits: Annotated[int, Field(ge=2, le=12)] = param(
        5, "decision: fixed 5-bit node ids for our dgc (spec's 6 bits for N <= 36)")
    p_bucket: Annotated[float, Field(gt=0.0, lt=1.0)] = param(
        0.5, "decision: Bernoulli(1/2) buckets for our dgc (the released default p)")
    bins: dict[Task, list[Bin]] = param(
        {"dgc": [[2, 6], [7, 12], [13, 18]],
         "imm_f2": [[1, 32], [33, 64], [65, 96]],
         "imm_z_zero": [[1, 10], [11, 20], [21, 30]],
         "imm_z_pos": [[1, 10], [11, 20], [21, 30]],
         "s5": [[1, 16], [17, 32], [33, 64]],
         "parity": [[3, 20], [21, 40], [41, 80]],
         "dgc_paper": [[2, 6], [7, 12], [13, 18]],
         "imm_mod": [[1, 16], [17, 32], [33, 48]],
         "imm_z_paper": [[1, 10], [11, 20], [21, 30]]},
        "first bin trains (in-distribution), the others are OOD; the paper variants keep the "
        "released shapes at CPU size: dgc_paper [2, n], [n+1, 2n], [2n+1, 3n] with n = 6 (released "
        "n = 100); imm_mod and imm_z_paper [1, T], [T+1, T+g], [T+g+1, T+2g] with T = g = 16 and "
        "T = g = 10 (launchers: T = g = 100)")
    margin: Annotated[float, Field(ge=0.0, le=1.0)] = param(
        0.15, "spec §7.3: winner beats loser by >= 0.15 on the first OOD bin")
    device: Literal["cpu", "cuda", "auto"] = param("cpu", "cpu | cuda | auto")
    # <= 604,800: a week of wall clock
    max_train_seconds: Annotated[float, Field(ge=0.0, le=6e5)] = param(
        0.0, "wall-clock cap per run in seconds (0 means none; GPU check only)")
    select: Literal["best", "last"] = param(
        "best", "the released scripts keep the best in-distribution validation weights")
    sweep_executor: Literal["local", "slurm", "debug"] = param(
        "local", "submitit executor: local subprocesses here, slurm on a cluster, debug in-process")
    workers: Annotated[int, Field(ge=1, le=256)] = param(
        2, "jobs at once (local) or SLURM array parallelism; runs are single-threaded: same "
        "results for any count")
    SMOKE = {
        "n_seeds": (2, "two seeds: the batched-seed path"),
        "families": (["rnn", "gru", "deltanet", "transformer"], "one of each readout and kind"),
        "d": (8, "tiny models"),
        "steps": (3, "a few steps"),
        "batch": (4, "tiny batches"),
        "eval_every": (3, "one evaluation"),
        "val_n": (8, "tiny validation set"),
        "test_n": (8, "tiny test bins"),
        "dgc_id_bits": (3, "N < 8"),
        "sweep_executor": ("debug", "in-process: a subprocess per job costs ~2 s (torch import)"),
        "bins": (
            {"dgc": [[2, 3], [4, 5], [6, 7]],
             "imm_f2": [[1, 3], [4, 6], [7, 9]],
             "imm_z_zero": [[1, 3], [4, 6], [7, 9]],
             "imm_z_pos": [[1, 3], [4, 6], [7, 9]],
             "s5": [[1, 3], [4, 6], [7, 9]],
             "parity": [[1, 3], [4, 6], [7, 9]],
             "dgc_paper": [[2, 3], [4, 6], [7, 9]],
             "imm_mod": [[1, 3], [4, 6], [7, 9]],
             "imm_z_paper": [[1, 3], [4, 6], [7, 9]]},
            "short sequences"),
    }
    PAPER = {
        "tasks": (["dgc_paper", "imm_mod", "imm_z_paper"], "the paper's three tasks (Figure 2a-c)"),
        "families": (["rnn", "gru", "diag_pos", "deltanet", "rwkv7", "transformer"],
                     "the paper's five families (diag_pos for Mamba) and the IMM launchers' GRU"),
        "d": (256, "launchers: d_model / hidden 256"),
        "layers": (2, "IMM launchers: 2 layers (DGC ones per family, run_settings)"),
        "steps": (60000, "IMM launchers: 60K steps (DGC: 30K, run_settings)"),
        "batch": (256, "IMM launchers: batch 256"),
        "lr": (0.0003, "launchers: lr 3e-4"),
        "run_settings": (
            {"imm_mod": {"weight_decay": 0.001}, "imm_z_paper": {"weight_decay": 0.001},
             "dgc_paper": {"steps": 30000, "layers": 1},
             "dgc_paper/rnn": {"batch": 256, "weight_decay": 0.0001},
             "dgc_paper/gru": {"batch": 256, "weight_decay": 0.0001},
             "dgc_paper/transformer": {"d": 64, "batch": 64, "weight_decay": 0.01},
             "dgc_paper/deltanet": {"batch": 128, "weight_decay": 0.01, "clip": 0.0},
             "dgc_paper/rwkv7": {"layers": 2, "batch": 64, "lr": 0.00003, "clip": 0.5},
             "dgc_paper/diag_pos": {"layers": 2, "batch": 256}},
            "the released launchers: dgc/{rnn,transformer,delta,rwkv,mamba}.sh and the IMM "
            "launchers' wd 1e-3 (data/linear_rnns/hyperparameters.csv)"),
        "eval_every": (500, "launchers log every 500 steps"),
        "val_n": (2000, "validation examples (released: 20K-30K)"),
        "test_n": (2000, "test examples per bin (released: 10K-30K)"),
        "dgc_id_bits": (9, "N <= 300 needs 9-bit ids"),
        "bins": (
            {"dgc": [[2, 100], [101, 200], [201, 300]],
             "imm_f2": [[1, 100], [101, 200], [201, 300]],
             "imm_z_zero": [[1, 100], [101, 200], [201, 300]],
             "imm_z_pos": [[1, 100], [101, 200], [201, 300]],
             "s5": [[1, 100], [101, 200], [201, 300]],
             "parity": [[3, 40], [41, 128], [129, 256]],
             "dgc_paper": [[2, 100], [101, 200], [201, 300]],
             "imm_mod": [[1, 100], [101, 200], [201, 300]],
             "imm_z_paper": [[1, 100], [101, 200], [201, 300]]},
            "released: dgc n = 100; the IMM launchers' T = 100 data folders (gen.py's own defaults "
            "T_train 50, T_gap 100 are not what the launchers read)"),
        "device": ("auto", "cuda when available"),
        "workers": (1, "one GPU: one job at a time"),
    }

    def jobs(self) -> int:
        """One sweep run per (task, family), its seeds batched in it."""
        return len(self.tasks) * len(self.families)

    @model_validator(mode="after")
    def _bins_cover_tasks(self):
        """Every task trained has an in-distribution bin and an OOD one; DGC's N fit the ids;
        run_settings name known tasks and families and known settings."""
        for t, bins in self.bins.items():
            check_bins(f"bins[{t!r}]", bins)
        for t in self.tasks:
            if len(self.bins.get(t, [])) < 2:
                raise ValueError(f"bins[{t!r}] needs an in-distribution bin and >= 1 OOD bin")
        if "dgc" in self.tasks and max(hi for _, hi in self.bins["dgc"]) >= 2 ** self.dgc_id_bits:
            raise ValueError(f"bins['dgc'] reaches N = {max(hi for _, hi in self.bins['dgc'])}, "
                             f"but dgc_id_bits = {self.dgc_id_bits} numbers nodes below "
                             f"{2 ** self.dgc_id_bits}; allowed: N < 2^dgc_id_bits")
        if "dgc_paper" in self.tasks and self.bins["dgc_paper"][0][0] < 2:
            raise ValueError(f"bins['dgc_paper'] starts at N = {self.bins['dgc_paper'][0][0]}; "
                             "allowed: N >= 2 (the released generator forces an interior node)")
        names = set(Task.__args__) | set(Family.__args__)
        for key, over in self.run_settings.items():
            parts = key.split("/")
            ok = (len(parts) == 1 and key in names) or (
                len(parts) == 2 and parts[0] in Task.__args__ and parts[1] in Family.__args__)
            if not ok:
                raise ValueError(f"run_settings key {key!r}: allowed are a task, a family or "
                                 "'task/family'")
            for k, v in over.items():
                if k not in SETTING_KEYS:
                    raise ValueError(f"run_settings[{key!r}] sets {k!r} = {v}; allowed: "
                                     f"{SETTING_KEYS}")
                if k in ("d", "layers", "steps", "batch") and (v < 1 or v != int(v)):
                    raise ValueError(f"run_settings[{key!r}][{k!r}] = {v}; allowed: a whole "
                                     "number >= 1")
        return self
