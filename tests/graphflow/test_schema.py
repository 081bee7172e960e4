"""Bad parameters are refused by key before any compute."""
import pytest
from pydantic import ValidationError

from lib.graphflow.schema import Accounting


@pytest.mark.parametrize("bad, key", [
    ({"rhos": [0.0, 1.5]}, "rhos"), ({"workflows": [0, 10]}, "workflows"),
    ({"heads": 3}, "d_model = 64 is not a multiple of heads = 3"),
    ({"error_workflows": 180}, "error_workflows = 180 exceeds"),  # inside its bound, past the rule
    ({"n_eval": 50}, "n_eval = 50 exceeds error_workflows"),
    ({"n_check": 41}, "n_check = 41 exceeds"),
    ({"index_dtype": "int16", "d_model": 512, "layers": 8}, "index_dtype"),
    ({"block_min": 40}, "block_min = 40 exceeds block_max"),
    ({"workflows": [20, 10]}, "falls from 20 to 10"),
])
def test_bad_params_name_the_key(bad, key):
    with pytest.raises(ValidationError, match=key):
        Accounting(**bad)
