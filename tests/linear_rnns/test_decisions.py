"""Each claim rule of lib/linear_rnns/decisions.py on hand-built inputs: one that holds, one not.

Expected outcomes follow from the rule's own statement (thresholds in the docstrings), never
from a run.
"""
import pandas as pd
import pytest

from lib.companion import rules
from lib.linear_rnns import decisions, train

CHAIN = ["TC0", "NC1", "PNC1", "L", "NL", "P"]


def test_seeds_needed_two_of_three_generalised():
    # ceil(2n/3): 1 of 1, 2 of 2, 2 of 3, 3 of 4, 4 of 5, 4 of 6
    need = [rules.seeds_needed(n, decisions.SEED_FRACTION) for n in range(1, 7)]
    assert need == [1, 2, 2, 3, 4, 4]


def test_seeds_needed_matches_train():
    # train.py keeps its own copy (the checkpoints' code digest covers it): they must not drift
    assert all(rules.seeds_needed(n, decisions.SEED_FRACTION) == train.seeds_needed(n)
               for n in range(1, 10))


def test_classes_separated_holds_when_uppers_precede_lowers():
    assert decisions.classes_separated(["NC1", "PNC1"], ["L", "P"], CHAIN)


def test_classes_separated_fails_on_overlap():
    # an upper bound at L equals the lowest lower bound L: not strictly below
    assert not decisions.classes_separated(["NC1", "L"], ["L", "P"], CHAIN)


def test_ordering_holds_two_of_three_seeds():
    assert decisions.ordering_holds([0.3, 0.1, 0.2], 0.15)      # 0.3 and 0.2 clear 0.15


def test_ordering_holds_fails_with_one_of_three():
    assert not decisions.ordering_holds([0.3, 0.1, 0.2], 0.25)  # only 0.3 clears 0.25


def test_ordering_holds_zero_margin_accepts_ties():
    # ">=" orderings use margin 0: equal accuracies (gap 0) count, a negative gap does not
    assert decisions.ordering_holds([0.0], 0.0)
    assert not decisions.ordering_holds([-0.01], 0.0)


def test_ordering_holds_matches_train_ordering_checks():
    # the same hand-built grid through train.ordering_checks gives the same decisions
    rows = [dict(task="parity", family=f, seed=s, bin_index=b, accuracy=acc)
            for s, gap in enumerate((0.3, 0.1, 0.2)) for b in (0, 1, 2)
            for f, acc in (("diag_neg", 0.5 + gap), ("diag_pos", 0.5))]
    for margin in (0.15, 0.25):
        out = train.ordering_checks(pd.DataFrame(rows), margin)
        assert [decisions.ordering_holds(r.gaps, r.margin) for r in out.itertuples()] \
            == out.holds.tolist()


def test_ordering_holds_refuses_zero_seeds():
    # with no seeds "0 of 0" would pass vacuously: the rule raises instead
    with pytest.raises(ValueError):
        decisions.ordering_holds([], 0.15)


def test_high_in_enough_seeds_holds():
    assert decisions.high_in_enough_seeds([0.95, 0.5, 0.91])     # 2 of 3 at >= 0.9


def test_high_in_enough_seeds_fails():
    assert not decisions.high_in_enough_seeds([0.95, 0.5, 0.89])  # 1 of 3 at >= 0.9


def test_beats_majority_at_the_margin():
    assert decisions.beats_majority(0.05) and decisions.beats_majority(0.2)


def test_beats_majority_fails_below_margin():
    assert not decisions.beats_majority(0.049)


def test_only_first_stays_high_holds():
    assert decisions.only_first_stays_high([100.0, 98.6, 96.5], [72.4, 50.0])


def test_only_first_stays_high_fails_when_first_drops():
    assert not decisions.only_first_stays_high([100.0, 94.0], [50.0])   # below the 95 floor


def test_only_first_stays_high_fails_when_another_keeps_up():
    assert not decisions.only_first_stays_high([100.0, 96.5], [97.0])   # 97 >= worst 96.5


def test_beats_majority_matches_train_learned_checks():
    # task a: best family rnn is 0.1 above its majority 0.5 (holds); task b: best 0.02 (fails)
    rows = [dict(task=t, family=f, seed=0, bin_index=0, accuracy=acc, majority=0.5)
            for t, accs in (("a", (0.6, 0.55)), ("b", (0.52, 0.4)))
            for f, acc in zip(("rnn", "pd"), accs)]
    out = train.learned_checks(pd.DataFrame(rows), decisions.LEARNED_MARGIN)
    assert out.best.tolist() == ["rnn", "rnn"] and out.holds.tolist() == [True, False]
    assert [decisions.beats_majority(g) for g in out.gap] == out.holds.tolist()


def test_ordering_precondition_needs_the_winner_to_learn_in_distribution():
    # winner 0.04 above its ID majority (< 0.05): the OOD ordering compares an untrained winner
    assert not decisions.ordering_precondition(0.04, [0.3, 0.0], strict=True, ood_margin=0.15)
    assert decisions.ordering_precondition(0.05, [0.0, 0.0], strict=True, ood_margin=0.15)


def test_ordering_precondition_ge_orderings_need_someone_above_majority_ood():
    # ">=" with both families at the OOD majority baseline (gaps 0.01, -0.02) is a tie: unmet
    assert not decisions.ordering_precondition(0.2, [0.01, -0.02], strict=False, ood_margin=0.15)
    # both at one shortcut 0.05 above the baseline: still below the 0.15 margin, unmet
    assert not decisions.ordering_precondition(0.2, [0.05, 0.05], strict=False, ood_margin=0.15)
    # the loser 0.16 above the OOD majority: the ">=" comparison can fail, so it is met
    assert decisions.ordering_precondition(0.2, [0.0, 0.16], strict=False, ood_margin=0.15)
    # the winner must still have learned in distribution
    assert not decisions.ordering_precondition(0.0, [0.3, 0.3], strict=False, ood_margin=0.15)


def test_mean_majority_gaps_averages_seeds_per_task_and_family():
    # rnn: (0.9 - 0.5 + 0.7 - 0.5) / 2 = 0.3 on bin 0; pd: 0.5 - 0.5 = 0; bin 1 ignored
    rows = [dict(task="a", family="rnn", seed=0, bin_index=0, accuracy=0.9, majority=0.5),
            dict(task="a", family="rnn", seed=1, bin_index=0, accuracy=0.7, majority=0.5),
            dict(task="a", family="pd", seed=0, bin_index=0, accuracy=0.5, majority=0.5),
            dict(task="a", family="pd", seed=0, bin_index=1, accuracy=1.0, majority=0.5)]
    gaps = decisions.mean_majority_gaps(pd.DataFrame(rows), 0)
    assert gaps == pytest.approx({("a", "rnn"): 0.3, ("a", "pd"): 0.0})


def test_halves_each_step_exact():
    from fractions import Fraction
    assert decisions.halves_each_step([Fraction(1), Fraction(1, 2), Fraction(1, 4)])
    assert not decisions.halves_each_step([Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)])


def test_halves_each_step_refuses_one_value():
    with pytest.raises(ValueError):
        decisions.halves_each_step([1])


def test_conflicting_models_finds_disagreeing_sources():
    nan = float("nan")
    configs = [dict(model="all", batch=64, lr=1e-4), dict(model="A", batch=64, lr=1e-4),
               dict(model="B", batch=nan, lr=1e-4), dict(model="C", batch=64, lr=3e-4)]
    # A and B agree with "all" (B's batch is unstated), C's lr differs from "all"'s
    assert decisions.conflicting_models(configs, ["batch", "lr"]) == ["C"]


def test_conflicting_models_none_for_one_configuration():
    assert decisions.conflicting_models([dict(model="A", batch=64, lr=1e-4)], ["batch", "lr"]) == []


def test_misfits_names_the_runs_below_the_floor():
    acc = {("rnn", 0): 1.0, ("rnn", 1): 0.94, ("gru", 0): 0.95}
    assert decisions.misfits(acc) == ["rnn/s1"]                 # 0.95 is the floor, inclusive
    assert decisions.misfits(acc, floor=0.9) == []
    with pytest.raises(ValueError, match="zero runs"):
        decisions.misfits({})


def test_intervals_containing_counts_closed_intervals():
    assert decisions.intervals_containing([0, 1, 2], [1, 2, 3], [1, 0.5, 2]) == 2   # ends count
    with pytest.raises(ValueError):
        decisions.intervals_containing([0], [1, 2], [0.5])


def test_bin_specific_cut():
    assert decisions.bin_specific_cut([0.551, 0.5], [0.546, 0.5], 0.55)
    assert not decisions.bin_specific_cut([0.549], [0.546], 0.55)       # holds on both
    assert not decisions.bin_specific_cut([0.56], [0.55], 0.55)         # fails on both


