"""Parameter schemas of the linear_rnns notebooks (validated by lib.companion.params before compute)."""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from lib.companion.params import NotebookParams

PosInt = Annotated[int, Field(ge=1)]


class Scans(NotebookParams):
    """01_scans_and_depth: four scans, round counts, gate-DAG depth, tent map (spec §5)."""

    exact_T: list[PosInt] = Field(min_length=1)          # lengths of the exact (Fraction) check
    exact_dims: list[PosInt] = Field(min_length=1)       # state sizes d of the exact check
    exact_seeds: PosInt                                  # random instances per (T, d, family)
    float_log2_T: Annotated[int, Field(ge=1, le=20)]     # float64 check at T = 2^this
    float_d: PosInt
    count_log2_T_max: Annotated[int, Field(ge=1, le=24)]  # round counts up to T = 2^this
    circuit_T: list[PosInt] = Field(min_length=2)        # gate-DAG depth check
    circuit_dims: list[PosInt] = Field(min_length=1)
    tent_k_max: Annotated[int, Field(ge=1, le=20)]       # tau^k pieces for k <= this


class LComplete(NotebookParams):
    """02_l_complete_rnn: the ReLU counter RNN for sorted DGC and the reduction (spec §4.1-4.2)."""

    k_max: Annotated[int, Field(ge=1, le=7)]             # exhaustive domain: k <= k_max
    n_random: PosInt                                     # random instances
    random_k_max: Annotated[int, Field(ge=2)]            # their largest k
    p_edge: Annotated[float, Field(gt=0.0, le=1.0)]      # P(vertex has an out-edge)
    chain_ks: list[PosInt] = Field(min_length=1)         # long chains 1 -> ... -> k
    reduction_n_max: Annotated[int, Field(ge=1, le=5)]   # reduction exhaustive for |V| <= this


class PDNC1(NotebookParams):
    """05_pd_equals_nc1: DFA/DWFA -> PD LRNN, S5 word problem, PD closure (spec §4.5)."""

    n_automata: PosInt                                   # random DFAs and DWFAs
    max_states: Annotated[int, Field(ge=1, le=64)]       # n <= this
    max_sigma: Annotated[int, Field(ge=1, le=16)]        # |Sigma| <= this
    n_words: PosInt                                      # words per DFA
    dwfa_words: PosInt                                   # words per DWFA (exact Fractions: slower)
    max_len: PosInt                                      # word length <= this
    s5_words: PosInt                                     # S5 words
    closure_products: PosInt                             # random PD products checked
    closure_d: Annotated[int, Field(ge=1, le=32)]        # their size


class Arithmetic(NotebookParams):
    """04_arithmetic_circuits: unrolled form, Q -> Z lift and its typo, bit growth (spec §2.6, §5)."""

    n_instances: PosInt                                  # random rational LRNNs
    max_T: PosInt                                        # their length
    max_d: Annotated[int, Field(ge=1, le=8)]             # their state size
    n_streams: PosInt                                    # random IMM streams for bit growth
    bits_T: PosInt                                       # stream length of the bit-growth check


class SingleLayer(NotebookParams):
    """07_single_layer_hankel: 1-layer LRNN = WFA, Hankel ranks, the thresholding gap (spec §4.7)."""

    n_wfas: PosInt                                       # random WFAs
    max_states: Annotated[int, Field(ge=1, le=8)]        # n <= this
    sigma: Annotated[int, Field(ge=1, le=4)]             # alphabet size
    n_words: PosInt                                      # words per WFA
    max_len: PosInt                                      # word length <= this
    hankel_len: Annotated[int, Field(ge=1, le=4)]        # prefixes/suffixes up to this length
    score_N_max: Annotated[int, Field(ge=3, le=60)]      # F(s, t) matrices up to N x N


class DPLR(NotebookParams):
    """06_dplr_equals_pnc1: RWKV-7 overwrites, IMM and WFA compilers, Householder programs,
    the router obstruction (spec §4.6)."""

    imm_streams: PosInt                                  # random IMM streams
    imm_max_N: Annotated[int, Field(ge=1, le=35)]        # N <= this (int64 exact below 3^35)
    wfa_count: PosInt                                    # random WFAs compiled to overwrites
    wfa_max_states: Annotated[int, Field(ge=1, le=8)]
    wfa_words: PosInt                                    # words per WFA
    wfa_max_len: PosInt
    householder_matrices: PosInt                         # random 9x9 matrices through the program
    router_max_order: Annotated[int, Field(ge=6)]        # orders searched up to this (1404)


class PComplete(NotebookParams):
    """03_p_complete_rnn: fractional stacks, 2-stack machine, TM, monotone CVP (spec §4.3)."""

    roundtrip_depth: PosInt                              # exact round trips up to this depth
    roundtrip_trials: PosInt                             # random bit strings per depth
    float_max_depth: Annotated[int, Field(ge=2, le=64)]  # float64 round trips up to this depth
    gap_max_depth: Annotated[int, Field(ge=2, le=16)]    # all 2^depth stacks for the margins
    anbncn_max_len: Annotated[int, Field(ge=0, le=11)]   # exhaustive strings up to this length
    tm_inputs: PosInt                                    # random inputs of the increment TM
    tm_max_bits: PosInt                                  # their length
    cvp_circuits: PosInt                                 # random monotone circuits
    cvp_inputs: Annotated[int, Field(ge=1, le=10)]       # inputs per circuit (all assignments)
    cvp_gates: PosInt                                    # gates per circuit


class Landscape(NotebookParams):
    """00_landscape: class-inclusion diagram and the landscape table (spec §1.1)."""

    context_log2: list[Annotated[int, Field(ge=1, le=40)]] = Field(min_length=2)  # n = 2^k


class Audit(NotebookParams):
    """09_audit_released: released-generator bug, Figure 2a, hyperparameters (spec §6, §9)."""

    examples_per_bin: PosInt                             # generated examples per length bin
    bins: list[list[PosInt]] = Field(min_length=1)       # [N_min, N_max] per bin
    p_bucket: Annotated[float, Field(gt=0.0, lt=1.0)]    # Bernoulli bucket probability
    sink_examples: PosInt                                # examples run through the counter RNN
    sink_N_max: PosInt                                   # their largest N


class TrainedModels(NotebookParams):
    """08_trained_models: seven model families trained on T1-T5 (spec §6, §7.3)."""

    tasks: list[Literal["dgc", "imm_f2", "imm_z_zero", "imm_z_pos", "s5", "parity"]] = Field(min_length=1)
    families: list[Literal["rnn", "diag_pos", "diag_neg", "pd", "deltanet", "rwkv7", "transformer"]] = \
        Field(min_length=1)
    n_seeds: Annotated[int, Field(ge=1, le=10)]          # seeds per (task, family)
    d: Annotated[int, Field(ge=2, le=1024, multiple_of=2)]  # model width (even: 2 heads)
    layers: Annotated[int, Field(ge=1, le=8)]
    steps: PosInt                                        # step cap
    batch: PosInt
    lr: Annotated[float, Field(gt=0.0, le=1.0)]
    eval_every: PosInt                                   # steps between validations
    val_n: PosInt                                        # validation examples
    test_n: PosInt                                       # test examples per bin
    test_seed: Annotated[int, Field(ge=0)]               # seed of the (frozen) test sets
    dgc_id_bits: Annotated[int, Field(ge=2, le=12)]      # fixed node-id width
    p_bucket: Annotated[float, Field(gt=0.0, lt=1.0)]    # Bernoulli bucket probability
    bins: dict[str, list[Annotated[list[PosInt], Field(min_length=2, max_length=2)]]]  # per task
    margin: Annotated[float, Field(ge=0.0, le=1.0)]      # ordering margin on the first OOD bin
    device: Literal["cpu", "cuda", "auto"]
    max_train_seconds: Annotated[float, Field(ge=0.0)]   # per-run training cap (0 = none)
    select: Literal["best", "last"]                      # weights evaluated: best ID validation or last
    workers: Annotated[int, Field(ge=1, le=64)]          # CPU processes training runs in parallel

    @model_validator(mode="after")
    def _bins_cover_tasks(self):
        for t in self.tasks:
            if len(self.bins.get(t, [])) < 2:
                raise ValueError(f"bins[{t!r}] needs an in-distribution bin and >= 1 OOD bin")
        if "dgc" in self.tasks and max(hi for _, hi in self.bins["dgc"]) >= 2 ** self.dgc_id_bits:
            raise ValueError("dgc bins need N < 2^dgc_id_bits")
        return self


SECTIONS = {"00_landscape": Landscape, "01_scans_and_depth": Scans,
            "02_l_complete_rnn": LComplete, "03_p_complete_rnn": PComplete,
            "04_arithmetic_circuits": Arithmetic, "05_pd_equals_nc1": PDNC1,
            "06_dplr_equals_pnc1": DPLR, "07_single_layer_hankel": SingleLayer,
            "08_trained_models": TrainedModels, "09_audit_released": Audit}
