"""lib/ptnas/schema.py: bad values are refused by name, before any compute."""
import pytest
from pydantic import ValidationError

from lib.ptnas import schema


@pytest.mark.parametrize("cls, values, name", [
    (schema.Bench, {"widths": []}, "widths"),                       # an empty search space
    (schema.Bench, {"depth_min": 3, "depth_max": 2}, "depth_min"),
    (schema.Bench, {"pad_widths": [32]}, "pad_widths"),             # narrower than the widths
    (schema.Bench, {"fidelity_epoch": 5}, "fidelity_epoch"),        # not a recorded epoch
    (schema.Bench, {"gt_epoch": 9}, "gt_epoch"),                    # not the last epoch
    (schema.Bench, {"epochs": [3, 1]}, "epochs"),
    (schema.Bench, {"datasets": ["iris"]}, "datasets"),
    (schema.ProxiesSearch, {"budgets": [30.0, 5.0]}, "budgets"),
    (schema.ProxiesSearch, {"k_grid": [1, 1]}, "k_grid"),
    (schema.Identities, {"batch_sizes": [1, 8]}, "batch_sizes"),    # lacks the reference batch
])
def test_bad_values_named(cls, values, name):
    with pytest.raises(ValidationError, match=name):
        cls(**values)
