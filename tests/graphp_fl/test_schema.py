"""Parameters refused by key before compute; the Fisher scale of choices.py."""
import pytest
import torch
from pydantic import ValidationError

from lib.graphp_fl import choices
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


def test_fisher_scale_has_unit_mean():
    f = (torch.rand(3, 4, 2) + 0.1, torch.rand(3, 5))
    scaled = choices.fisher_scale(f)
    mean = sum(s.flatten(1).sum(1) for s in scaled) / 13
    assert torch.allclose(mean, torch.ones(3))


