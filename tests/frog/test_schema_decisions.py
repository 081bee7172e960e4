"""lib/frog/schema.py refuses bad values by name; lib/frog/decisions.py's rules both ways."""
import math

import pytest
import torch
from pydantic import ValidationError

from lib.frog import decisions, schema


@pytest.mark.parametrize("cls, values, name", [
    (schema.Roles, {"n_tx": 100}, "n_users"),                  # fewer rows than users
    (schema.Roles, {"n_items": 500, "n_tx": 450}, "n_items"),
    (schema.Roles, {"test_fraction": 0.001}, "test_fraction"),  # no test user
    (schema.Roles, {"n_probe": 500}, "n_probe"),
    (schema.Roles, {"depth": 1}, "depth"),
    (schema.Sweep, {"depths": [1, 2, 3]}, "depths"),           # K = 4 missing
    (schema.Sweep, {"depths": [2, 1, 4]}, "depths"),           # not increasing
])
def test_bad_values_named(cls, values, name):
    with pytest.raises(ValidationError, match=name):
        cls(**values)


def test_paired_interval_and_above_zero():
    mean, low, high = decisions.paired_interval([0.1, 0.2, 0.3])
    # t_{0.975, 2} = 4.302653; sd 0.1, n 3 -> half width 4.302653 * 0.1 / sqrt 3
    assert math.isclose(high - mean, 4.302653 * 0.1 / math.sqrt(3), rel_tol=1e-6)
    assert decisions.above_zero([0.2, 0.25, 0.3])                # half width 0.124
    assert not decisions.above_zero([0.3, -0.2, 0.1])           # mean > 0, CI spans 0
    assert math.isnan(decisions.paired_interval([0.2])[1])
    with pytest.raises(ValueError):
        decisions.above_zero([0.2])


def test_rules_both_ways():
    assert decisions.catches_up(0.01, 0.3) and not decisions.catches_up(0.3, 0.3)
    assert decisions.gate_selects(0.6, 0.8, 0.7) and not decisions.gate_selects(0.4, 0.8, 0.7)
    assert not decisions.gate_selects(0.6, 0.6, 0.7)
    assert decisions.role_matters_more(0.3, 0.0) and not decisions.role_matters_more(0.0, 0.0)
    assert decisions.fd_consistent([0.5, 0.6], [0.4, 0.5])
    assert not decisions.fd_consistent([0.5, 0.3], [0.4, 0.5])
    assert decisions.learned([0.5, 0.61]) and not decisions.learned([0.5, 0.59])


def test_fd_residual_per_replica():
    pred, h = torch.zeros(2, 3, 2), torch.ones(2, 3, 2)
    h[1] = 2.0
    assert decisions.fd_residual(pred, h).tolist() == [2.0, 8.0]


