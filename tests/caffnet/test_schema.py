"""lib/caffnet/schema.py: bad values are refused by name, before any compute."""
import pytest
from pydantic import ValidationError

from lib.caffnet import schema


@pytest.mark.parametrize("cls, values, name", [
    (schema.Guarantee, {"naive_instances": 300}, "naive_instances"),     # more than n_instances
    (schema.Piecewise, {"log_every": 5000}, "log_every"),                # more than epochs
    (schema.Piecewise, {"lr": 0.5}, "lr"),                               # above 0.1
    (schema.Optimisation, {"penalty_reduction": "max"}, "penalty_reduction"),
    (schema.Optimisation, {"n_eval": 2}, "n_eval"),                      # below 8
])
def test_bad_values_named(cls, values, name):
    with pytest.raises(ValidationError, match=name):
        cls(**values)


@pytest.mark.parametrize("executor, workers, seeds, groups", [
    ("inline", 1, 3, [(0, 1, 2)]),                  # the default: one ensemble of every seed
    ("debug", 4, 3, [(0, 1, 2)]),                   # in the kernel too
    ("local", 2, 5, [(0, 1), (2, 3, 4)]),           # the paper profile: one group per worker
    ("local", 8, 3, [(0,), (1,), (2,)]),            # never an empty run
])
def test_pwc_seed_groups_cover_every_seed_once(executor, workers, seeds, groups):
    cfg = schema.Piecewise(executor=executor, workers=workers, seeds=seeds)
    assert cfg.seed_groups() == groups
    assert cfg.jobs() == len(groups) * 2                                  # lr and the paper's lr
