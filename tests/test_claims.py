"""lib.companion.claims: hard claims stop the notebook, soft ones are recorded whatever they say."""
import json
from fractions import Fraction

import pytest

from lib.companion import claims, paths
from lib.companion import ledger as ledger_stage


@pytest.fixture
def ledger(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    return claims.Ledger("gd_perceptron/01_reduction", {"profile": "smoke"})


def test_exact_pass_and_fail(ledger):
    assert ledger.exact("a", "1/2 = 2/4", source="s", provenance="derived",
                        expected=Fraction(1, 2), measured=Fraction(2, 4)).status == "pass"
    with pytest.raises(claims.ClaimFailed, match="exact claim gd_perceptron.b failed"):
        ledger.exact("b", "3 = 4", source="s", provenance="derived", expected=3, measured=4)
    written = json.loads(paths.claims_file("gd_perceptron/01_reduction").read_text())
    assert [c["status"] for c in written["claims"]] == ["pass", "fail"]


def test_bound_edges_are_inclusive(ledger):
    assert ledger.bound("b", "x in [0, 1]", source="s", provenance="derived", measured=1.0,
                        lower=0.0, upper=1.0, why="a probability").status == "pass"
    with pytest.raises(claims.ClaimFailed):
        ledger.bound("c", "x <= 1", source="s", provenance="derived", measured=1.5, upper=1.0,
                     why="a probability")


def test_bound_needs_its_why(ledger):
    with pytest.raises(ValueError, match="say why the bounds"):
        ledger.bound("b", "x <= 1", source="s", provenance="derived", measured=0.5, upper=1.0,
                     why=" ")


def test_skip_is_recorded_with_its_reason(ledger):
    c = ledger.skip("k", "a large-d check", source="s", provenance="derived", kind="bound",
                    expected="[0, 1]", reason="smoke stops at d = 64")
    assert (c.status, c.measured) == ("skipped", "not checked: smoke stops at d = 64")
    with pytest.raises(ValueError, match="needs its reason"):
        ledger.skip("k2", "x", source="s", provenance="derived", kind="exact", expected=1,
                    reason="")


def test_claims_render_as_html_rows(ledger):
    c = ledger.exact("a", "1 < 2 & so on", source="s", provenance="derived", expected=1,
                     measured=1)
    row = c._repr_html_()
    assert "<table>" in row and "gd_perceptron.a" in row and "1 &lt; 2 &amp; so on" in row
    assert ledger._repr_html_().count("<tr>") == 2  # header and one claim
    assert "pass 1" in ledger._repr_html_()


def test_statistical_failure_is_recorded_not_raised(ledger):
    c = ledger.statistical("s", "A beats B", source="s", provenance="reconstructed",
                           expected="A > B", measured="A < B", holds=False,
                           rests_on="one seed")
    assert c.status == "fail"
    assert (c.stability, c.rests_on) == (None, "one seed")


def test_deviation_needs_its_check(ledger):
    shown = ledger.deviation("d", "paper says x", source="s", kind="exact", expected="x",
                             measured="y", evidence="counter-example", shown="x" != "y",
                             power="exact string comparison")
    assert shown.status == "deviation"
    assert "power: exact string comparison" in shown.tolerance
    not_shown = ledger.deviation("d2", "paper says x", source="s", kind="exact", expected="x",
                                 measured="x", evidence="counter-example", shown="x" != "x",
                                 power="exact")
    assert not_shown.status == "fail"
    with pytest.raises(ValueError, match="rests_on"):       # neither the check nor replicates
        ledger.deviation("d3", "s", source="s", kind="statistical", expected=1, measured=2,
                         evidence="e", power="p")
    with pytest.raises(ValueError, match="evidence"):
        ledger.deviation("d4", "s", source="s", kind="exact", expected=1, measured=2,
                         evidence=" ", shown=True, power="p")
    with pytest.raises(ValueError, match="power"):
        ledger.deviation("d5", "s", source="s", kind="exact", expected=1, measured=2,
                         evidence="e", shown=True, power=" ")


def test_unmet_precondition_is_inconclusive(ledger):
    args = dict(source="s", provenance="reconstructed", expected="A > B", measured="0.5 vs 0.5")
    untrained = ledger.statistical("o1", "A beats B", holds=True, **args, rests_on="one seed",
                                   requires=(False, "A and B fit the training bin"))
    assert untrained.status == "inconclusive"
    assert "NOT met" in untrained.tolerance
    trained = ledger.qualitative("o2", "A beats B", holds=False, **args, rests_on="one seed",
                                 requires=(True, "A and B fit the training bin"))
    assert (trained.status, trained.tolerance) == ("fail", "requires A and B fit the training "
                                                           "bin: met")
    with pytest.raises(ValueError, match="precondition"):
        ledger.statistical("o3", "s", holds=True, **args, rests_on="r", requires=(True, ""))


def test_bad_provenance(ledger):
    with pytest.raises(ValueError, match="provenance"):
        ledger.exact("e", "x", source="s", provenance="guess", expected=1, measured=1)


def test_duplicate_id_refused(ledger):
    ledger.exact("a", "x", source="s", provenance="derived", expected=1, measured=1)
    with pytest.raises(ValueError, match="recorded twice"):
        ledger.exact("a", "x", source="s", provenance="derived", expected=1, measured=1)


def test_merge_writes_json_markdown_and_summary(ledger):
    ledger.exact("a", "x", source="s", provenance="derived", expected=1, measured=1)
    ledger.statistical("s", "y", source="s", provenance="paper", expected="e", measured="m",
                       holds=False, rests_on="one run")
    ledger.write()
    summary = ledger_stage.merge()["summary"]
    counts = {"pass": 1, "fail": 1, "error": 0, "deviation": 0, "inconclusive": 0, "skipped": 0}
    assert summary == {"gd_perceptron": counts, "all": counts}
    md = paths.ledger_files()["markdown"].read_text()
    assert "| pass | `gd_perceptron.a` |" in md and "## gd_perceptron" in md


def test_merge_keeps_the_summary_rows_of_papers_with_no_results_here(ledger):
    """A one-paper run in a fresh clone: the other papers' rows of the summary (the committed
    ones) stay byte for byte, and claims.json and CLAIMS.md name them as carried; a paper with
    results here gets its row from them."""
    committed = {"gd_perceptron": {"pass": 9, "fail": 0, "error": 0, "deviation": 0,
                                   "inconclusive": 0, "skipped": 0},
                 "caffnet": {"pass": 30, "fail": 4, "error": 0, "deviation": 0,
                             "inconclusive": 1, "skipped": 0},
                 "nonesuch": {"pass": 1}}                         # not a declared paper: dropped
    summary_file = paths.ledger_files()["summary"]
    summary_file.write_text(json.dumps(committed, indent=1, sort_keys=True) + "\n")
    ledger.exact("a", "x", source="s", provenance="derived", expected=1, measured=1)
    ledger.write()
    doc = ledger_stage.merge()
    assert doc["carried"] == ["caffnet"]
    written = json.loads(summary_file.read_text())
    assert written["caffnet"] == committed["caffnet"] and "nonesuch" not in written
    assert written["gd_perceptron"]["pass"] == 1                 # from its results here
    md = paths.ledger_files()["markdown"].read_text()
    assert "## caffnet" in md and "not run in this workspace" in md and "pass 30" in md
    assert json.loads(paths.ledger_files()["json"].read_text())["carried"] == ["caffnet"]


def test_a_statistical_claim_says_what_it_rests_on(ledger):
    args = dict(source="s", provenance="reconstructed", expected="A > B", measured="m")
    with pytest.raises(ValueError, match="samples= and decide="):
        ledger.statistical("r1", "A beats B", holds=True, **args)
    with pytest.raises(ValueError, match="without decide"):
        ledger.statistical("r2", "A beats B", samples=[1.0, 2.0], **args)
    with pytest.raises(ValueError, match="cannot be resampled"):
        ledger.statistical("r3", "A beats B", samples=[1.0], decide=lambda s: True, **args)
    with pytest.raises(ValueError, match="rule handed over"):    # holds must be the rule's
        ledger.statistical("r4", "A beats B", holds=False, samples=[1.0, 2.0],
                           decide=lambda s: min(s) > 0, **args)


def test_stability_is_the_share_of_resamples_repeating_the_decision(ledger):
    args = dict(source="s", provenance="reconstructed", expected="mean > 0", measured="m")
    steady = ledger.statistical("st1", "A beats B", samples=[1.0, 1.2, 0.9, 1.1, 1.05],
                                decide=lambda s: sum(s) / len(s) > 0, **args)
    assert (steady.status, steady.stability) == ("pass", 1.0)
    # one seed of five carries the whole effect: a resample without it (probability
    # (4/5)^5 = 0.33) flips the decision, so the pass is noise
    lucky = ledger.statistical("st2", "A beats B", samples=[-0.1, -0.1, -0.1, -0.1, 1.0],
                               decide=lambda s: sum(s) / len(s) > 0, **args)
    assert lucky.status == "inconclusive"
    assert abs(lucky.stability - (1 - 0.8 ** 5)) < 0.08
    assert "unstable" in lucky.tolerance
    again = ledger.statistical("st3", "A beats B", samples=[-0.1, -0.1, -0.1, -0.1, 1.0],
                               decide=lambda s: sum(s) / len(s) > 0, **args)
    assert again.stability == claims.resampled("gd_perceptron.st3", [-0.1] * 4 + [1.0],
                                               lambda s: sum(s) / len(s) > 0).stability


def test_compare_is_a_deviation_only_when_the_opposite_is_shown(ledger):
    from lib.companion import rules
    args = dict(source="s", provenance="paper", expected="A beats B", measured="m",
                decide=lambda d: rules.beyond(d), opposite=lambda d: rules.opposite_beyond(d),
                power="paired difference beyond 2 s.e. the other way over >= 3 seeds")
    assert ledger.compare("c1", "A beats B", samples=[1.0, 1.1, 0.9, 1.0], **args).status \
        == "pass"
    opposite = ledger.compare("c2", "A beats B", samples=[-1.0, -1.1, -0.9, -1.0], **args)
    assert (opposite.status, opposite.provenance) == ("deviation", "derived")
    assert "power:" in opposite.tolerance
    # under-powered (two seeds) or noisy: a fail or inconclusive, never "the paper is wrong"
    assert ledger.compare("c3", "A beats B", samples=[-1.0, -1.1], **args).status == "fail"
    assert ledger.compare("c4", "A beats B", samples=[-1.0, 0.5, -0.2, 0.1], **args).status \
        in ("fail", "inconclusive")
