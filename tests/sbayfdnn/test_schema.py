"""lib/sbayfdnn/schema.py: bad values are refused by name, before any compute."""
import pytest
from pydantic import ValidationError

from lib.sbayfdnn import schema


@pytest.mark.parametrize("cls, values, name", [
    (schema.PriorRule, {"J": 22}, "J = 22"),                  # support 4/19 wider than R (0.2)
    (schema.PriorRule, {"J": 24, "degree": 4}, "below the support's resolution"),
    (schema.Comparison, {"support_min": 0.5}, "support_min"),  # above support_max
    (schema.Comparison, {"s0": 0.01}, "s0"),                   # spike not below slab
    (schema.Comparison, {"links": ["sin", "sin"]}, "links"),
    (schema.Comparison, {"links": ["cube"]}, "links"),
    (schema.Comparison, {"n_train": 10, "lasso_cv": 20}, "lasso_cv"),
    (schema.Consistency, {"ns": [100, 50]}, "ns"),
    (schema.Consistency, {"level": 1.0}, "level"),
    (schema.Consistency, {"J": 4, "degree": 3}, "no interior knot"),
    (schema.PriorRule, {"norm2_max": 0.003}, "norm2_max"),     # below tau* = 3.64e-3
])
def test_bad_values_named(cls, values, name):
    with pytest.raises(ValidationError, match=name):
        cls(**values)


def test_resolution_message_names_what_is_allowed():
    with pytest.raises(ValidationError, match=r"allowed: J >= 23"):
        schema.PriorRule(J=20)
