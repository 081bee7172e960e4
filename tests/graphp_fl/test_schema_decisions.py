"""Parameters refused by key before compute; each decision rule both ways."""
import pytest
import torch
from pydantic import ValidationError

from lib.graphp_fl import decisions
from lib.graphp_fl.schema import ClosedForm, Federated


@pytest.mark.parametrize("cls, kw, key", [
    (ClosedForm, {"weights": [0.5, 0.5]}, "weights"), (ClosedForm, {"weights": [1.0]}, "weights"),
    (ClosedForm, {"dim_low": 9, "dim_high": 4}, "dim_low"),
    (Federated, {"topo_every": 40}, "topo_every"), (Federated, {"threshold": 1.0}, "threshold"),
    (Federated, {"n_nodes": 8, "n_comm": 5}, "n_nodes"),
    (Federated, {"frpa_variant": "both"}, "frpa_variant")])
def test_bad_parameters_are_refused_by_key(cls, kw, key):
    with pytest.raises(ValidationError, match=key):
        cls(**kw)


def test_defaults_validate():
    assert ClosedForm().n_instances == 1000 and Federated().rounds == 30


def test_rules_both_ways():
    assert decisions.denoises([0.7, 0.5], [0.6, 0.4])
    assert not decisions.denoises([0.7, 0.39], [0.6, 0.4])
    slope, se = decisions.slope_and_se([0, 1, 2, 3], [0.0, 0.1, 0.21, 0.3])
    assert decisions.gain_rises(slope, se) and abs(slope - 0.1) < 0.01
    assert not decisions.gain_rises(*decisions.slope_and_se([0, 1, 2, 3], [0.1, -0.1, 0.1, -0.1]))
    with pytest.raises(ValueError):
        decisions.slope_and_se([1, 1, 1], [0, 1, 2])
    assert decisions.forgets_less([0.1, 0.2], [0.3, 0.2])
    assert not decisions.forgets_less([0.2], [0.2])
    assert decisions.at_least([0.8], [0.8]) and not decisions.at_least([0.7], [0.8])


def test_fisher_scale_has_unit_mean():
    f = (torch.rand(3, 4, 2) + 0.1, torch.rand(3, 5))
    scaled = decisions.fisher_scale(f)
    mean = sum(s.flatten(1).sum(1) for s in scaled) / 13
    assert torch.allclose(mean, torch.ones(3))


