"""Notebook 08's parameters (issue 15): run_settings and the new tasks' bins are refused with a
message naming the key, the value and what is allowed."""
import pytest
from pydantic import ValidationError

from lib.linear_rnns import schema, train


def test_schema_setting_keys_are_the_trainers():
    assert schema.SETTING_KEYS == train.SETTING_KEYS


@pytest.mark.parametrize("settings, message", [
    ({"dgc_paper/lstm": {"lr": 0.1}}, "run_settings key 'dgc_paper/lstm'.*allowed"),
    ({"rnn": {"dropout": 0.1}}, "sets 'dropout' = 0.1; allowed"),
    ({"imm_mod": {"layers": 1.5}}, r"\['layers'\] = 1.5; allowed: a whole number"),
])
def test_bad_run_settings_are_refused(settings, message):
    with pytest.raises(ValidationError, match=message):
        schema.TrainedModels(run_settings=settings)


def test_paper_profile_is_valid_and_dgc_paper_needs_two_nodes():
    paper = schema.TrainedModels(**{k: v for k, (v, _) in schema.TrainedModels.PAPER.items()})
    assert train.run_settings("dgc_paper", "rwkv7", paper.run_settings) == \
        {"steps": 30000, "layers": 2, "batch": 64, "lr": 3e-5, "clip": 0.5}
    bins = dict(schema.TrainedModels().bins, dgc_paper=[[1, 6], [7, 12]])
    with pytest.raises(ValidationError, match="N >= 2"):
        schema.TrainedModels(bins=bins)
    with pytest.raises(ValidationError, match="sweep_executor"):
        schema.TrainedModels(sweep_executor="dask")
