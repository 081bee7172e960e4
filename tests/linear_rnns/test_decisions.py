"""Each claim rule of lib/linear_rnns/decisions.py on hand-built inputs: one that holds, one not.

Expected outcomes follow from the rule's own statement (thresholds in the docstrings), never
from a run.
"""
import pandas as pd
import pytest

from lib.linear_rnns import decisions, train

CHAIN = ["TC0", "NC1", "PNC1", "L", "NL", "P"]


def test_seeds_needed_two_of_three_generalised():
    # ceil(2n/3): 1 of 1, 2 of 2, 2 of 3, 3 of 4, 4 of 5, 4 of 6
    assert [decisions.seeds_needed(n) for n in range(1, 7)] == [1, 2, 2, 3, 4, 4]


def test_seeds_needed_matches_train():
    # train.py keeps its own copy (the checkpoints' code digest covers it): they must not drift
    assert all(decisions.seeds_needed(n) == train.seeds_needed(n) for n in range(1, 10))


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
