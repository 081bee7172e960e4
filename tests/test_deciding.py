"""A decided claim's status (lib/companion/deciding.py): the declared rule on the recorded
evidence, its stability, precondition and opposite, with the thresholds recorded by value."""
from __future__ import annotations

import types

import numpy as np
import pytest

from lib.companion import deciding, declared


def median_below(values, threshold=0.5):
    return float(np.median(values)) < threshold


def all_learned(accuracy, floor=0.9):
    return bool((np.asarray(accuracy) >= floor).all())


def worse_beyond(values):
    return float(np.mean(values)) > 0.9


@pytest.fixture(autouse=True)
def rules(monkeypatch):
    """A stand-in decisions module: its rules, plain functions with keyword thresholds."""
    module = types.SimpleNamespace(median_below=median_below, all_learned=all_learned,
                                   worse_beyond=worse_beyond)
    monkeypatch.setattr(declared, "decisions_module", lambda paper: module)


def decl(**extra) -> declared.Declaration:
    return declared.Declaration(notebook="01_x", kind="statistical", statement="it is low",
                                source="x", provenance="derived", rule="median_below", **extra)


def test_the_rule_decides_on_the_evidence_with_its_threshold_recorded_by_value():
    low = deciding.decide("p", "p.a", decl(), {"evidence": {"values": [0.1, 0.2, 0.3, 0.2]}})
    high = deciding.decide("p", "p.a", decl(), {"evidence": {"values": [0.9, 0.8, 0.7, 0.9]}})
    assert (low.status, high.status) == ("pass", "fail")
    assert low.rule == "decisions.median_below" and low.args == {"threshold": 0.5}
    assert low.stability == 1.0 and "4 replicates" in low.rests_on
    assert "median_below(threshold=0.5): holds" in low.tolerance


def test_a_decision_resamples_do_not_repeat_is_inconclusive():
    split = deciding.decide("p", "p.a", decl(), {"evidence": {"values": [0.1, 0.9, 0.2, 0.8,
                                                                         0.45, 0.55]}})
    assert split.status == "inconclusive" and split.stability < deciding.STABILITY_MIN


def test_an_unmet_precondition_makes_it_inconclusive_and_says_so():
    d = decl(requires={"rule": "all_learned", "what": "every seed learned"})
    rec = {"evidence": {"values": [0.1, 0.2, 0.1], "accuracy": [0.95, 0.5, 0.99]}}
    got = deciding.decide("p", "p.a", d, rec)
    assert got.status == "inconclusive"
    assert got.precondition == "requires every seed learned [all_learned(floor=0.9)]: NOT met"


def test_one_replicate_is_decided_once_and_says_what_it_rests_on():
    got = deciding.decide("p", "p.a", decl(), {"evidence": {"values": [0.2]},
                                               "rests_on": "one seed (seed 0)"})
    assert (got.status, got.stability, got.rests_on) == ("pass", None, "one seed (seed 0)")


def test_the_papers_opposite_shown_stably_is_a_deviation():
    d = decl(opposite={"rule": "worse_beyond", "power": "mean above 0.9 over 5 seeds"})
    got = deciding.decide("p", "p.a", d, {"evidence": {"values": [0.95, 0.97, 0.99, 0.96,
                                                                  0.98]}})
    assert got.status == "deviation" and "power: mean above 0.9" in got.tolerance
    not_shown = deciding.decide("p", "p.a", d, {"evidence": {"values": [0.6, 0.7, 0.65]}})
    assert not_shown.status == "fail"


def test_evidence_of_unequal_replicates_or_a_missing_parameter_is_refused():
    with pytest.raises(ValueError, match="differ in their number of replicates"):
        deciding.decide("p", "p.a", decl(requires={"rule": "all_learned", "what": "all learned"}),
                        {"evidence": {"values": [0.1, 0.2], "accuracy": [1.0]}})
    with pytest.raises(declared.DeclarationError, match=r"needs \['values'\]"):
        deciding.decide("p", "p.a", decl(), {"evidence": {"other": [0.1, 0.2]}})
