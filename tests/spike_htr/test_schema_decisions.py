"""Parameters refused by key before compute, and each decision rule both ways."""
import pytest
from pydantic import ValidationError

from lib.spike_htr import decisions
from lib.spike_htr.schema import Recognizers, Reducer


@pytest.mark.parametrize("cls, key, value", [(Recognizers, "T", 0),
                                              (Recognizers, "train_fonts", []),
                                              (Recognizers, "reduce_r", 1.2),
                                              (Reducer, "ratios", [0.0]),
                                              (Reducer, "ratios", [1.2])])
def test_bad_parameters_are_refused_by_key(cls, key, value):
    with pytest.raises(ValidationError, match=key):
        cls(**{key: value})


def test_defaults_validate():
    assert Recognizers().T == 2 and Reducer().ratios[0] == 1.0


def test_rules_both_ways():
    assert decisions.learns(0.3, 0.4) and not decisions.learns(0.41, 0.4)
    assert not decisions.learns(1.0, 1.5)
    assert decisions.snn_threshold(400) == 0.90 and decisions.snn_threshold(800) == 0.65
    assert decisions.snn_threshold(399) is None
    assert decisions.small_rise(0.43, 0.40, 0.05) and not decisions.small_rise(0.46, 0.40, 0.05)
    assert decisions.threshold_ok(10, 32, 0.41, 0.40)
    assert not decisions.threshold_ok(23, 32, 0.41, 0.40)
    assert decisions.coarse_helps([0.5, 0.5], [0.4, 0.45])
    assert not decisions.coarse_helps([0.4], [0.5])
    with pytest.raises(ValueError):
        decisions.coarse_helps([], [])


def test_pooled_cer_and_line_edits():
    from lib.spike_htr import ctc
    rows = ctc.line_edits([[1, 2], [], [3]], [[1, 3], [4, 4], [3]])     # 1, 2, 0 edits
    assert rows.tolist() == [[1, 2], [2, 2], [0, 1]]
    assert decisions.pooled_cer(rows[:, 0], rows[:, 1]) == 3 / 5
    assert decisions.pooled_cer(rows[:, 0], rows[:, 1]) == ctc.cer([[1, 2], [], [3]],
                                                                    [[1, 3], [4, 4], [3]])
    with pytest.raises(ValueError):
        decisions.pooled_cer([0], [0])


def test_snn_check_must_not_pass_the_run():
    with pytest.raises(ValidationError, match="snn_check_at"):
        Recognizers(snn_steps=300, snn_check_at=400)
