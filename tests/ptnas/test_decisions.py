"""lib/ptnas/decisions.py: each rule shown holding and failing."""
import numpy as np

from lib.ptnas import decisions as d


def test_rel_gap():
    assert d.rel_gap_at_most([1e-9, 0.0], d.F64_REL_MAX)
    assert not d.rel_gap_at_most([1e-6], d.F64_REL_MAX)
    assert not d.rel_gap_at_most([], d.F64_REL_MAX)
    assert not d.rel_gap_at_most([np.nan], 1.0)


def test_monotone_rules():
    assert d.increasing([0.1, 0.2, 0.5]) and not d.increasing([0.1, 0.1])
    assert d.non_increasing([0.3, 0.3, 0.0]) and not d.non_increasing([0.1, 0.2])


def test_not_saturated():
    assert d.not_saturated([0.75, 0.975], "accuracy")[1]
    assert not d.not_saturated([0.996, 1.0], "auc")[1]
    assert not d.not_saturated([-0.10, -0.11], "neg_log_loss")[1]


def test_ranks_first_and_beats_all():
    assert d.ranks_first({"a": 0.5, "b": 0.4}, "a") == (True, 0.09999999999999998)
    assert not d.ranks_first({"a": 0.5, "b": 0.6}, "a")[0]
    assert d.beats_all(0.1, {"x": 0.2}) and not d.beats_all(0.1, {"x": 0.1})


def test_speedup():
    assert d.speedup(10.0, 5.0) == 2.0
    assert d.speedup(10.0, float("inf")) == 0.0


def test_median_ratio_within_and_ranking_kept():
    r = np.array([[1.0, 1.0 + 2e-5], [1.0, 1.0 - 1e-5], [1.0, 1.5]])   # nets x batch sizes
    assert d.median_ratio_within(r, 1e-4)          # medians 1 and 1 + 2e-5
    assert not d.median_ratio_within(r + 1e-3, 1e-4)
    s = np.array([[1.0, 2.0], [2.0, 4.0], [3.0, 5.0]])
    assert d.ranking_kept(s, 0, 0.999)
    assert not d.ranking_kept(s[:, ::-1] * [1, -1], 0, 0.999)
