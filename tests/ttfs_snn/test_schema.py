"""lib/ttfs_snn/schema.py: bad values are refused by name, before any compute."""
import pytest
from pydantic import ValidationError

from lib.ttfs_snn import schema


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


@pytest.mark.parametrize("key, value, allowed", [("T_list", [0, 8], "greater than or equal to 1"),
                                                 ("pool_kinds", ["avg", "median"], "'avg'"),
                                                 ("T_list", 8, "list")])
def test_params_error_names_the_key_path_and_what_is_allowed(key, value, allowed):
    from lib.companion import params
    values = {**schema.Census().model_dump(), key: value}
    with pytest.raises(params.ParamsError) as err:
        params.validate("ttfs_snn/01_single_spike_pooling", values)
    text = str(err.value)
    assert f"ttfs_snn.single_spike_pooling.{key}" in text and allowed in text
    assert repr(value if not isinstance(value, list) else value[0 if key == "T_list" else 1]) \
        in text
