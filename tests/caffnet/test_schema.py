"""lib/caffnet/schema.py: bad values are refused by name, before any compute."""
import pytest
from pydantic import ValidationError

from lib.caffnet import schema


@pytest.mark.parametrize("cls, values, name", [
    (schema.Guarantee, {"naive_instances": 300}, "naive_instances"),     # more than n_instances
    (schema.Piecewise, {"log_every": 5000}, "log_every"),                # more than epochs
    (schema.Piecewise, {"lr": 0.5}, "lr"),                               # above 0.1
    (schema.Optimisation, {"penalty_reduction": "max"}, "penalty_reduction"),
    (schema.Optimisation, {"n_eval": 2}, "n_eval"),                      # below 8
])
def test_bad_values_named(cls, values, name):
    with pytest.raises(ValidationError, match=name):
        cls(**values)
