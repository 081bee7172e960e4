import pytest
from pydantic import ValidationError

from lib.completep_rl.schema import CoordCheck


def test_defaults_and_profiles_validate():
    CoordCheck()
    for profile in ("smoke", "paper"):
        CoordCheck(**{k: v for k, (v, _) in CoordCheck.overrides(profile).items()})


@pytest.mark.parametrize("bad, key", [({"widths": [128, 32]}, "widths"),
                                      ({"check_points": 300}, "check_points"),
                                      ({"width_depth": 3}, "width_depth"),
                                      ({"ntk_variant": "sgd"}, "ntk_variant")])
def test_bad_values_are_refused_naming_the_key(bad, key):
    with pytest.raises(ValidationError, match=key):
        CoordCheck(**bad)
