"""The rules deciding linear_rnns's statistical and qualitative claims (spec §1.1, §6.5, §7.3).

Each function takes the measured numbers a notebook computed and returns whether the claim
holds; thresholds are arguments whose defaults are the named constants below, each with its
source. Nothing here draws, trains or reads files, so each rule is tested on hand-built inputs
(tests/linear_rnns/test_decisions.py) and can be seen to fail.

The seed count is rules.seeds_needed with SEED_FRACTION; `ordering_holds` restates the rule
behind `train.seeds_needed` and the `holds` column of `train.ordering_checks`: train.py is part of
the checkpoints' code digest, so it keeps its own copy, and a test pins that the two agree.
"""
from __future__ import annotations

from collections.abc import Sequence

from lib.companion.rules import seeds_needed

SEED_FRACTION = (2, 3)       # "in >= 2 of 3 seeds" (spec §7.3 soft checks)
RNN_HIGH = 0.9               # T1: "nonlinear RNN >= 0.9 on all bins" (spec §7.3 table)
LEARNED_MARGIN = 0.05        # beat the majority baseline by 5 points (reconstructed; §6.5 [I])
NEAR_PERFECT_PERCENT = 95.0  # "near-perfect" in Figure 2a (reconstructed; RNN 96.5-100%)
IN_DISTRIBUTION_FLOOR_PERCENT = 80.0  # spec §9.11: "ID accuracy below 80%" contradicts the prose
FITS_IN_DISTRIBUTION = 0.95  # "fits the in-distribution data": >= 95% (reconstructed, as above)
REPAIRED_SHORTCUT_MAX = 0.56  # spec §7.2 row 09: shortcut <= 56% on the repaired generator
FAMILY_ALPHA = 0.05          # family-wise error of a set of Wilson intervals (Bonferroni)
# S1's sensitivity audit (repro/src/claim6_generator_sensitivity.py): the repaired generator at
# p in {0.1, 0.5, 0.9}, 3 seeds, 10,000 examples per bin, N drawn from [max(lo, 2), hi], and the
# check "max endpoint-shortcut accuracy < 0.55"
S1_SHORTCUT_CUT = 0.55
S1_P = (0.1, 0.5, 0.9)
S1_BINS = ((2, 100), (101, 200), (201, 300))
S1_SEEDS = 3
S1_EXAMPLES = 10000


def _in_enough_seeds(hits: Sequence[bool]) -> bool:
    """At least ceil(2n/3) of the n per-seed outcomes hold; no seeds at all is an error."""
    if not hits:
        raise ValueError("no seeds to decide on: a claim over zero seeds cannot fail")
    return sum(hits) >= seeds_needed(len(hits), SEED_FRACTION)


def misfits(id_accuracy: dict[tuple[str, int], float],
            floor: float = FITS_IN_DISTRIBUTION) -> list[str]:
    """The (family, seed) runs whose in-distribution accuracy is below `floor` ("every model fits
    the in-distribution data", §6.5: the claim holds iff this list is empty)."""
    if not id_accuracy:
        raise ValueError("no runs to decide on: a claim over zero runs cannot fail")
    return [f"{fam}/s{seed}" for (fam, seed), acc in id_accuracy.items() if acc < floor]


def classes_separated(upper: Sequence[str], lower: Sequence[str], chain: Sequence[str]) -> bool:
    """Every `upper` class strictly precedes every `lower` class in the chain (spec §1.1)."""
    pos = {c: i for i, c in enumerate(chain)}
    return max(pos[c] for c in upper) < min(pos[c] for c in lower)


def ordering_holds(gaps: Sequence[float], margin: float) -> bool:
    """Winner - loser >= margin (spec §7.3: 0.15, or 0 for ">=") in ceil(2n/3) of the n seeds."""
    return _in_enough_seeds([g >= margin for g in gaps])


def high_in_enough_seeds(min_acc_per_seed: Sequence[float], threshold: float = RNN_HIGH) -> bool:
    """Worst-bin accuracy >= threshold (spec §7.3 T1: 0.9) in ceil(2n/3) of the n seeds."""
    return _in_enough_seeds([a >= threshold for a in min_acc_per_seed])


def beats_majority(gap: float, margin: float = LEARNED_MARGIN) -> bool:
    """Accuracy - majority baseline >= margin (reconstructed 0.05; spec §6.5 [I] baselines)."""
    return gap >= margin


def only_first_stays_high(first: Sequence[float], others_last_bin: Sequence[float],
                          floor: float = NEAR_PERFECT_PERCENT) -> bool:
    """First model >= floor in every bin, others below its worst in the last (Fig. 2a, §6.5)."""
    worst = min(first)
    return worst >= floor and all(v < worst for v in others_last_bin)


def ordering_precondition(winner_id_gap: float, pair_ood_gaps: Sequence[float], strict: bool,
                          id_margin: float = LEARNED_MARGIN,
                          *, ood_margin: float) -> bool:
    """When an OOD ordering of two families means something (spec §6.5 [I], §7.3).

    The expected winner must have learned the task in distribution (its mean ID accuracy beats
    the ID majority baseline by >= id_margin): a winner that never fit its training bin says
    nothing about length generalisation. A ">=" ordering (strict False, margin 0) also needs one
    of the pair to generalise, i.e. to beat the first-OOD-bin majority baseline by the spec's
    "much better" margin (ood_margin, 0.15, spec §7.3; the baseline is the trivial loser): two
    families at the baseline, or at one shared shortcut just above it, tie, and a tie "passes"
    ">=" whatever the models can do.
    """
    if not beats_majority(winner_id_gap, id_margin):
        return False
    return strict or max(pair_ood_gaps) >= ood_margin


def mean_majority_gaps(df, bin_index: int) -> dict[tuple[str, str], float]:
    """Mean over seeds of accuracy - majority baseline on one bin, per (task, family).

    df has columns task, family, seed, bin_index, accuracy, majority (the per-bin majority
    baseline of the frozen test set, the same for every family and seed).
    """
    part = df[df.bin_index == bin_index]
    gaps = (part.accuracy - part.majority).groupby([part.task, part.family]).mean()
    return {key: float(v) for key, v in gaps.items()}


def intervals_containing(lo: Sequence[float], hi: Sequence[float],
                         values: Sequence[float]) -> int:
    """How many intervals [lo_i, hi_i] contain values_i (closed at both ends)."""
    if not len(lo) == len(hi) == len(values):
        raise ValueError(f"{len(lo)} lower, {len(hi)} upper bounds and {len(values)} values")
    return sum(a <= v <= b for a, b, v in zip(lo, hi, values))


def bin_specific_cut(ours: Sequence[float], theirs: Sequence[float], cut: float) -> bool:
    """A cut 'every value < cut' that holds on `theirs` and fails on `ours` (S1's shortcut cut:
    closed-form accuracies over its p grid on its bin vs on ours)."""
    return max(theirs) < cut <= max(ours)


def halves_each_step(values: Sequence) -> bool:
    """values[i + 1] == values[i] / 2 for every i (exact for Fractions): geometric decay to 0,
    so no depth-independent margin exists (spec §4.3 base-2 stack); needs two values at least."""
    if len(values) < 2:
        raise ValueError("halving needs at least two depths")
    return all(b * 2 == a for a, b in zip(values, values[1:]))


def conflicting_models(configs: Sequence[dict], fields: Sequence[str]) -> list[str]:
    """Models whose applicable configurations disagree (spec §6.4, §9.8).

    configs: one dict per (source, model) with the `fields`; model "all" applies to every named
    model. Two configurations conflict when a field stated in both (not None / NaN) differs.
    Returns the named models with at least one conflicting pair, in first-seen order.
    """
    def stated(v) -> bool:
        return v is not None and v == v                       # NaN != NaN: unstated

    def conflict(a: dict, b: dict) -> bool:
        return any(stated(a[f]) and stated(b[f]) and a[f] != b[f] for f in fields)

    models = list(dict.fromkeys(c["model"] for c in configs if c["model"] != "all"))
    out = []
    for m in models:
        mine = [c for c in configs if c["model"] in (m, "all")]
        if any(conflict(a, b) for i, a in enumerate(mine) for b in mine[i + 1:]):
            out.append(m)
    return out
