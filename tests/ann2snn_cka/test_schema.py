"""lib/ann2snn_cka/schema.py and data.py: bad values refused by name before compute; the data
the notebooks read."""
import numpy as np
import pytest
from pydantic import ValidationError

from lib.ann2snn_cka import data, schema


@pytest.mark.parametrize("cls, values, name", [
    (schema.Finetune, {"T_ft": [0]}, "T_ft"),                       # T < 1
    (schema.Gap, {"T_max": 0}, "T_max"),
    (schema.Noise, {"T_high": -1}, "T_high"),
    (schema.Finetune, {"cka_weighting": "inverse"}, "cka_weighting"),  # unknown weighting
    (schema.Finetune, {"cka_grad": "half"}, "cka_grad"),
    (schema.Finetune, {"arms": ["kl_only", "kl_only"]}, "arms"),
    (schema.Finetune, {"arms": ["mse"]}, "arms"),
    (schema.Gap, {"v0_list": [1.0]}, "v0_list"),                     # v0 outside [0, 1)
    (schema.Gap, {"calib_mode": "max"}, "calib_mode"),
    (schema.Gap, {"n_calib": 30000}, "n_calib"),
    (schema.Noise, {"sigmas": [0.3, 0.1]}, "sigmas"),
    (schema.Gap, {"n_test": 10010}, "n_test"),
])
def test_bad_values_named(cls, values, name):
    with pytest.raises(ValidationError, match=name):
        cls(**values)


def test_params_error_names_the_key_path():
    from lib.companion import params
    values = {**schema.Finetune().model_dump(), "cka_weighting": "inverse"}
    with pytest.raises(params.ParamsError) as err:
        params.validate("ann2snn_cka/02_closed_loop_finetune", values)
    assert "cka_weighting" in str(err.value) and "'adaptive'" in str(err.value)


def test_the_split_and_the_normalisation():
    split = data.fashion_mnist(200, 50)
    assert split.x_train.shape == (200, 1, 28, 28) and split.x_test.shape == (50, 1, 28, 28)
    assert np.bincount(split.y_train.numpy()).tolist() == [20] * 10
    assert 0.0 <= float(split.x_train.min()) and float(split.x_train.max()) <= 1.0
    full = data.fashion_mnist(20000, 10)
    assert abs(float(full.x_train.mean()) - data.MEAN) < 0.005
    assert abs(float(full.x_train.std()) - data.STD) < 0.005
    with pytest.raises(ValueError, match="n_train = 205"):
        data.fashion_mnist(205, 10)
    with pytest.raises(ValueError, match="n_test = 0"):
        data.test_images(0)
