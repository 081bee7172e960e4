"""lib/companion/verdicts.py: the verdict.yaml schema, its error messages, and the check that a
verdict does not contradict the statuses of its claims in the ledger; then every declared
verdict against the current results/claims.json (skipped where the ledger is absent)."""
from __future__ import annotations

import json

import pytest

from lib.companion import papers, paths, verdicts


def ledger(statuses: dict[str, str], profile: str = "default") -> dict:
    """A merged ledger of paper `alpha` (one notebook) holding the given claim statuses."""
    return {"profiles": {"alpha/01_a": profile},
            "claims": [{"id": cid, "paper": "alpha", "status": s} for cid, s in statuses.items()]}


def verdict(*headlines: dict, paper: str = "alpha") -> verdicts.Verdict:
    return verdicts.Verdict(paper=paper, headlines=list(headlines))


def line(verdict_: str, claims: list[str], **extra) -> dict:
    return {"headline": f"a headline ({verdict_})", "verdict": verdict_, "claims": claims, **extra}


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "NOTEBOOKS", tmp_path / "notebooks")
    (tmp_path / "notebooks" / "alpha").mkdir(parents=True)
    verdicts._read.cache_clear()
    yield tmp_path / "notebooks" / "alpha"
    verdicts._read.cache_clear()


def write(folder, text: str):
    path = folder / verdicts.FILE
    path.write_text(text)
    return path


GOOD = """paper: alpha
headlines:
- headline: The effect holds
  verdict: reproduced in miniature
  claims: [alpha.x]
- headline: The benchmark number
  verdict: not attempted
  reason: the data is not offline
  peers:
  - source: the authors' README
    numbers: 91.2 %
"""


def test_a_good_file_loads(folder):
    write(folder, GOOD)
    v = verdicts.load("alpha")
    assert v.profile == "default" and [h.verdict for h in v.headlines] == [
        "reproduced in miniature", "not attempted"]
    assert v.headlines[1].peers[0].numbers == "91.2 %"


def test_no_file_is_no_verdict(folder):
    assert verdicts.load("alpha") is None


@pytest.mark.parametrize("text,named", [
    (GOOD.replace("reproduced in miniature", "reproduced-ish"), "headlines.0.verdict"),
    (GOOD.replace("  claims: [alpha.x]\n", ""), "headlines.0: verdict 'reproduced in miniature' "
                                               "must name at least one claim"),
    (GOOD.replace("  reason: the data is not offline\n", ""), "needs reason"),
    (GOOD.replace("verdict: reproduced in miniature", "verdict: decided against here"),
     "needs scale"),
    (GOOD.replace("verdict: reproduced in miniature", "verdict: not reproduced at our scale"),
     "headlines.0.verdict"),
    (GOOD.replace("The effect holds", "x" * 200), "headline must be at most"),
    (GOOD.replace("paper: alpha\n", "paper: alpha\ncolour: red\n"), "colour"),
    (GOOD.replace("claims: [alpha.x]", "claims: alpha.x"), "headlines.0.claims"),
    (GOOD.replace("claims: [alpha.x]", "claims: [alpha.x, alpha.x]"), "named twice"),
    (GOOD.replace("    numbers: 91.2 %\n", ""), "headlines.1.peers.0.numbers"),
    (GOOD.replace("paper: alpha", "paper: beta"), "the folder is 'alpha'"),
    ("paper: alpha\nheadlines: []\n", "headlines"),
    ("paper: alpha\npaper: alpha\n", "duplicate key"),
    ("- a list\n", "must be a mapping"),
])
def test_a_bad_file_is_refused_naming_file_and_key(folder, text, named):
    path = write(folder, text)
    with pytest.raises(verdicts.VerdictError) as err:
        verdicts.load("alpha")
    assert str(path) in str(err.value) and named in str(err.value), str(err.value)


@pytest.mark.parametrize("kind,statuses,ok", [
    ("reproduced", {"alpha.a": "pass", "alpha.b": "pass"}, True),
    ("reproduced", {"alpha.a": "pass", "alpha.b": "inconclusive"}, False),
    ("reproduced in miniature", {"alpha.a": "deviation"}, False),
    ("reproduced in miniature", {"alpha.a": "error"}, True),       # unchecked, see below
    ("shown wrong", {"alpha.a": "pass", "alpha.b": "deviation"}, True),
    ("shown wrong", {"alpha.a": "fail"}, False),
    ("decided against here", {"alpha.a": "fail", "alpha.b": "inconclusive"}, True),
    ("decided against here", {"alpha.a": "pass", "alpha.b": "fail"}, True),
    ("decided against here", {"alpha.a": "inconclusive"}, False),
    ("decided against here", {"alpha.a": "pass", "alpha.b": "skipped"}, False),
    ("undecided at our scale", {"alpha.a": "pass", "alpha.b": "skipped"}, True),
    ("undecided at our scale", {"alpha.a": "fail", "alpha.b": "inconclusive"}, True),
    ("undecided at our scale", {"alpha.a": "fail"}, False),
    ("undecided at our scale", {"alpha.a": "pass", "alpha.b": "deviation"}, False),
    ("not attempted", {"alpha.a": "skipped"}, True),
    ("not attempted", {"alpha.a": "pass"}, False),
])
def test_a_verdict_against_its_claims_statuses(kind, statuses, ok):
    extra = {"scale": "small", "reason": "why", "price": "5 seeds, about 300 s"}
    v = verdict(line(kind, list(statuses), **extra))
    problems = verdicts.check(v, ledger(statuses))
    assert (problems == []) == ok, problems
    if not ok:                   # the message names the paper, the headline and the claims
        assert problems[0].startswith(f"alpha: headline 'a headline ({kind})'"), problems
        at_least_one = kind in ("shown wrong", "decided against here", "undecided at our scale")
        named = [c for c, s in statuses.items() if at_least_one or s != "pass"]
        assert all(f"{c} is {statuses[c]}" in problems[0] for c in named), problems


def test_a_claim_missing_from_the_ledger_is_named():
    v = verdict(line("reproduced", ["alpha.a", "alpha.gone"]))
    assert verdicts.check(v, ledger({"alpha.a": "pass"})) == [
        "alpha: headline 'a headline (reproduced)' (reproduced): claim alpha.gone is not in "
        "results/claims.json"]


def test_another_profile_or_no_results_is_not_checked():
    v = verdict(line("reproduced", ["alpha.a"]))
    assert verdicts.check(v, ledger({"alpha.a": "fail"}, profile="smoke")) == []
    assert not verdicts.checked_profile(v, ledger({"alpha.a": "fail"}, profile="smoke"))
    assert verdicts.check(v, {"profiles": {}, "claims": []}) == []
    assert verdicts.check(v, ledger({"alpha.a": "fail"})) != []


def test_the_report_refuses_a_contradicted_verdict(folder, monkeypatch):
    from lib.companion import report
    write(folder, GOOD)
    monkeypatch.setattr(papers, "names", lambda: ("alpha",))
    with pytest.raises(report.BookError, match=r"alpha: headline 'The effect holds'.*alpha\.x "
                                               r"is fail"):
        report.load_verdicts(ledger({"alpha.x": "fail"}))
    found, checked = report.load_verdicts(ledger({"alpha.x": "pass"}))
    assert checked == {"alpha"} and found["alpha"].paper == "alpha"


def test_every_paper_declares_verdicts():
    missing = [p for p in papers.names() if not verdicts.verdict_file(p).exists()]
    assert not missing, f"no notebooks/<paper>/verdict.yaml for {missing}"
    for p in papers.names():
        verdicts.load(p)                      # each one is well formed


def test_the_declared_verdicts_agree_with_the_current_ledger():
    merged = paths.ledger_files()["json"]
    if not merged.exists():
        pytest.skip("results/claims.json not built (make repro)")
    doc = json.loads(merged.read_text())
    problems = verdicts.check_all(doc, papers.names())
    assert not problems, "\n".join(problems)


def test_a_claim_its_run_did_not_reach_is_not_a_contradiction():
    """status error: the notebook's last run stopped before the claim; the headline is not
    checked on this build, and the book still builds (with the failed run's warning)."""
    v = verdict(line("reproduced", ["alpha.a", "alpha.b"]))
    statuses = {"alpha.a": "pass", "alpha.b": "error"}
    assert verdicts.check(v, ledger(statuses)) == []
    assert verdicts.unchecked(v.headlines[0], statuses) == ["alpha.b"]


def test_an_undecided_headline_states_its_price(folder):
    (folder / "verdict.yaml").write_text(
        "paper: alpha\nheadlines:\n- headline: a headline\n  verdict: undecided at our scale\n"
        "  claims: [alpha.a]\n  scale: 2 seeds\n")
    with pytest.raises(verdicts.VerdictError, match="needs price: the seeds and steps"):
        verdicts.load("alpha")


def test_every_verdict_has_its_own_badge_colour():
    """The book's stylesheet colours each verdict's label (book.verdict_badge's class), so the
    index tells them apart, and holds no rule for a verdict that no longer exists."""
    import re

    from lib.companion import book
    css = (paths.ROOT / "lib" / "companion" / "book_site" / "_static" / "book.css").read_text()
    ruled = set(re.findall(r"span\.verdict-([a-z-]+) \{", css)) - {"pill"}   # the compact label
    slugs = {re.search(r"verdict-([a-z-]+)", book.verdict_badge(v)).group(1)
             for v in verdicts.VERDICTS}
    assert ruled == slugs
