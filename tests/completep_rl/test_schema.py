import pytest
from pydantic import ValidationError

from lib.completep_rl.schema import CoordCheck, LrTransfer


@pytest.mark.parametrize("bad, key", [({"widths": [128, 32]}, "widths"),
                                      ({"check_points": 300}, "check_points"),
                                      ({"width_depth": 3}, "width_depth"),
                                      ({"ntk_variant": "sgd"}, "ntk_variant")])
def test_bad_values_are_refused_naming_the_key(bad, key):
    with pytest.raises(ValidationError, match=key):
        CoordCheck(**bad)


@pytest.mark.parametrize("bad, key", [({"lr_exponents": [-1.0, -2.0]}, "lr_exponents"),
                                      ({"depth_width": 16}, "depth_width"),
                                      ({"width_depth": 3}, "width_depth"),
                                      ({"iterations": 3}, "max_steps"),
                                      ({"minibatches": 3}, "minibatches"),
                                      ({"check_members": 6}, "check_members"),
                                      ({"dtype": "float16"}, "dtype")])
def test_lr_transfer_bad_values_are_refused_naming_the_key(bad, key):
    with pytest.raises(ValidationError, match=key):
        LrTransfer(**bad)
