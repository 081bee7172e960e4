"""lib/ttfs_snn/schema.py: bad values are refused by name, before any compute."""
import pytest
from pydantic import ValidationError

from lib.ttfs_snn import schema


def test_defaults_and_profiles_validate():
    for cls in (schema.Census, schema.InitNorm, schema.Decoders):
        cls()
        for profile in ("smoke", "paper"):
            cls(profile=profile, **{k: v for k, (v, _) in cls.overrides(profile).items()})


@pytest.mark.parametrize("cls, values, name", [
    (schema.Census, {"T_list": [0, 8]}, "T_list"),                  # T < 1
    (schema.Decoders, {"T": 0}, "T"),
    (schema.InitNorm, {"T": -3}, "T"),
    (schema.Census, {"pool_kinds": ["avg", "median"]}, "pool_kinds"),  # not a pooling kind
    (schema.Census, {"pool_kinds": ["avg", "avg"]}, "pool_kinds"),     # an arm twice
    (schema.Census, {"T_list": [16, 8]}, "T_list"),                    # not increasing
    (schema.Census, {"n_images": 5010}, "n_images"),                   # beyond the held-out pool
    (schema.InitNorm, {"n_train": 1005}, "n_train"),                   # not 10 per class
    (schema.InitNorm, {"n_init": 1000, "n_stats": 1000}, "n_stats"),   # more than the digits
    (schema.InitNorm, {"digits": "yes"}, "digits"),
    (schema.Decoders, {"decoders": ["rate"]}, "decoders"),
    (schema.Decoders, {"encoding": "rate"}, "encoding"),
])
def test_bad_values_named(cls, values, name):
    with pytest.raises(ValidationError, match=name):
        cls(**values)
