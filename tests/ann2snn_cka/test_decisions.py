"""lib/ann2snn_cka/decisions.py: each rule on hand-built numbers, both ways."""
import math

from lib.ann2snn_cka import decisions as d


def test_gap_and_ratios():
    assert d.gap_at_low_T(0.84, 0.50, 0.80) and not d.gap_at_low_T(0.84, 0.60, 0.80)
    assert not d.gap_at_low_T(0.84, 0.16, 0.83)                     # T = 8 gap below 0.02
    assert d.ratio_at_least(0.99, 1.0, 0.99) and not d.ratio_at_least(0.98, 1.0, 0.99)
    assert d.fidelity_threshold(4) == 0.80 and d.fidelity_threshold(8) == 0.99


def test_seed_rules():
    assert d.gains_every_seed([0.5, 0.6], 0.2, 0.3)
    assert not d.gains_every_seed([0.5, 0.49], 0.2, 0.3)
    assert not d.gains_every_seed([], 0.2, 0.3)
    assert math.isclose(d.mean_difference([0.7, 0.8], [0.6, 0.8]), 0.05)


def test_noise_rules():
    assert math.isclose(d.relative_degradation(0.6, 0.8), 0.75)
    assert math.isnan(d.relative_degradation(0.1, 0.0))
    assert d.at_least_everywhere([0.8, 0.7], [0.8, 0.6]) and not d.at_least_everywhere([0.8], [0.9])


def test_coefficient_of_variation():
    assert d.cv([1.0, 1.0]) == 0.0 and math.isclose(d.cv([1.0, 3.0]), 0.5)


