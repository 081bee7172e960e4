"""lib/calpro/schema.py refuses bad values by name."""
import pytest
from pydantic import ValidationError

from lib.calpro import schema


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
