"""lib/frog/schema.py refuses bad values by name; lib/frog/choices.py's FD residual per replica."""
import pytest
import torch
from pydantic import ValidationError

from lib.frog import choices, schema


@pytest.mark.parametrize("cls, values, name", [
    (schema.Roles, {"n_tx": 100}, "n_users"),                  # fewer rows than users
    (schema.Roles, {"n_items": 500, "n_tx": 450}, "n_items"),
    (schema.Roles, {"test_fraction": 0.001}, "test_fraction"),  # no test user
    (schema.Roles, {"n_probe": 500}, "n_probe"),
    (schema.Roles, {"depth": 1}, "depth"),
    (schema.Sweep, {"depths": [1, 2, 3]}, "depths"),           # K = 4 missing
    (schema.Sweep, {"depths": [2, 3, 4]}, "depths"),           # K = 1 missing
    (schema.Sweep, {"depths": [2, 1, 4]}, "depths"),           # not increasing
])
def test_bad_values_named(cls, values, name):
    with pytest.raises(ValidationError, match=name):
        cls(**values)


def test_fd_residual_per_replica():
    pred, h = torch.zeros(2, 3, 2), torch.ones(2, 3, 2)
    h[1] = 2.0
    assert choices.fd_residual(pred, h).tolist() == [2.0, 8.0]
