"""lib/calpro/schema.py refuses bad values by name; lib/calpro/decisions.py both ways."""
import pytest
from pydantic import ValidationError

from lib.calpro import decisions, schema


@pytest.mark.parametrize("cls, values, name", [
    (schema.Shift, {"a": 1.5}, "a"),
    (schema.Shift, {"p_shift": 0.0}, "p_shift"),
    (schema.Shift, {"n_cal": 2}, "n_cal"),
    (schema.Shift, {"design": "sideways"}, "design"),
    (schema.Sweep, {"p_sweep": [0.3, 0.15]}, "p_sweep"),
    (schema.Sweep, {"arms": ["p0", "p0", "vanilla"]}, "arms"),
    (schema.Sweep, {"arms": ["p0", "p1"]}, "arms"),
    (schema.Sweep, {"widths": [8, 8]}, "widths"),
])
def test_bad_values_named(cls, values, name):
    with pytest.raises(ValidationError, match=name):
        cls(**values)


def test_decisions_both_ways():
    assert decisions.covers(0.89, 0.1, 0.004) and not decisions.covers(0.85, 0.1, 0.004)
    assert decisions.near(0.70, 0.71, 0.03) and not decisions.near(0.60, 0.71, 0.03)
    good = {"p0": 0.02, "p1": 0.01, "p2": 0.1, "blind": 0.2}
    assert decisions.ordered_drops(good)
    assert not decisions.ordered_drops({**good, "p1": 0.15})
    assert decisions.narrower([-0.1, 0.05]) and not decisions.narrower([0.1, -0.05])
    with pytest.raises(ValueError):
        decisions.narrower([])
    assert decisions.error_reduced(0.06, 0.1) and not decisions.error_reduced(0.08, 0.1)
    assert decisions.grows([0.1, 0.2, 0.3], [0.0, 0.1, 0.2])[1]
    assert not decisions.grows([0.1, 0.2, 0.3], [0.2, 0.1, 0.0])[1]


def test_covers_seeds_counts_every_variance():
    # SE of a mean of 3 independent seeds with variance 1e-4 each: sqrt(3e-4) / 3 = 0.005774
    assert abs(decisions.seed_mean_se([1e-4] * 3) - 0.0057735) < 1e-6
    # 0.885 against 0.9 - 3 SE: passes with SE 0.00577 (0.8827), fails with a test-only SE 0.004
    assert decisions.covers_seeds([0.885] * 3, 0.1, [1e-4] * 3)
    assert not decisions.covers_seeds([0.885] * 3, 0.1, [0.004 ** 2 * 3] * 3)


