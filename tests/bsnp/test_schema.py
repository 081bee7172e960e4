"""lib/bsnp/schema.py: bad values are refused by name, before any compute."""
import pytest
from pydantic import ValidationError

from lib.bsnp import schema


@pytest.mark.parametrize("cls, values, name", [
    (schema.Ablation, {"n_r": 1}, "n_r"),                         # fewer than 2 points
    (schema.Ablation, {"n_fixed": 1}, "n_fixed"),
    (schema.Ablation, {"nc_low": 60}, "nc_low"),                  # above nc_high
    (schema.Ablation, {"rho0": 0.001}, "rho0"),                   # below the grid resolution
    (schema.Sparsity, {"noise_list": [0.1, 0.05]}, "noise_list"),  # not increasing
    (schema.Family, {"fd_sizes": [63, 31]}, "fd_sizes"),
])
def test_bad_values_named(cls, values, name):
    with pytest.raises(ValidationError, match=name):
        cls(**values)
