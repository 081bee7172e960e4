"""The declarations tell the truth about a run: each notebook saved exactly the figures its
paper.yaml lists, wrote its claims, and every recorded outcome agrees with its evidence.

    pytest tests/report --report-dir build/smoke/results/report      (run by `make test`)

Reads the results folder above the report (the smoke run of `make test`); skipped without it.
"""
import json
from pathlib import Path

import pytest

from lib.companion import claims, ledger, papers


@pytest.fixture(scope="module")
def results(request) -> Path:
    value = request.config.getoption("--report-dir")
    if value is None:
        pytest.skip("needs --report-dir <results>/report (make test passes the smoke run's)")
    return Path(value).resolve().parent


def ran(results: Path, paper: str) -> None:
    """Skip a paper this run left out (make test PAPER=<other>); a paper that ran is checked."""
    if not (results / paper / "claims").exists():
        pytest.skip(f"{paper} was not run")


@pytest.mark.parametrize("notebook", papers.all_notebooks())
def test_saved_figures_are_the_declared_ones(results, notebook):
    paper, stem = notebook.split("/")
    ran(results, paper)
    folder = results / paper / "figures" / stem
    saved = sorted(p.stem for p in folder.glob("*.png")) if folder.exists() else []
    declared = sorted(f.name for f in papers.notebook_entry(notebook).figures)
    assert saved == declared, (f"{notebook} saved {saved} but notebooks/{paper}/paper.yaml "
                               f"declares {declared}: update the declaration, then `make sync`")


@pytest.mark.parametrize("notebook", papers.all_notebooks())
def test_claims_file_was_written(results, notebook):
    paper, stem = notebook.split("/")
    ran(results, paper)
    path = results / paper / "claims" / f"{stem}.json"
    assert path.exists(), f"{notebook} wrote no claims file {path}"
    # an overview notebook may record none: a number nothing can contradict is not a claim


@pytest.mark.parametrize("notebook", papers.all_notebooks())
def test_recorded_outcomes_agree_with_their_evidence(results, notebook):
    """A deviation's measured value differs from what the paper says and it carries its power
    condition; an inconclusive claim names the precondition that was not met or the stability
    that fell short; a statistical or qualitative claim has a stability or says what it rests
    on; every status is one the ledger knows. A claim the notebook left to the ledger is read
    as the ledger decides it."""
    paper, stem = notebook.split("/")
    ran(results, paper)
    doc = ledger.decide_pending(json.loads((results / paper / "claims" / f"{stem}.json")
                                           .read_text()))
    for c in doc["claims"]:
        assert c["status"] in claims.STATUSES, c
        if c["status"] == "deviation":
            assert c["measured"] != c["expected"], f"{c['id']}: deviation without a difference"
            assert "power: " in c["tolerance"], f"{c['id']}: deviation without its power"
        if c["status"] == "inconclusive":
            assert "NOT met" in c["tolerance"] or (
                c["stability"] is not None and c["stability"] < claims.STABILITY_MIN
                and "unstable" in c["tolerance"]), f"{c['id']}: inconclusive without its reason"
        if c["kind"] in ("statistical", "qualitative") and c["status"] not in ("skipped",
                                                                               "error"):
            assert c["stability"] is not None or c["rests_on"], \
                f"{c['id']}: neither a stability nor what it rests on"


@pytest.mark.parametrize("notebook", papers.all_notebooks())
def test_claims_set_beside_figures_were_recorded_once(results, notebook):
    """The book sets each figure's declared claims beside it: every one must be a record of this
    run, and none beside two figures."""
    paper, stem = notebook.split("/")
    ran(results, paper)
    recorded = [c["id"].split(".", 1)[1] for c in
                json.loads((results / paper / "claims" / f"{stem}.json").read_text())["claims"]]
    listed = [c for f in papers.notebook_entry(notebook).figures for c in f.claims]
    assert sorted(set(listed) - set(recorded)) == [], f"{notebook}: declared, never recorded"
    assert len(listed) == len(set(listed)), f"{notebook}: a claim declared beside two figures"


@pytest.mark.parametrize("paper", papers.names())
def test_no_claim_id_is_recorded_by_two_notebooks(results, paper):
    """A claim id names one record of the ledger: two notebooks of a paper never share one."""
    ran(results, paper)
    seen: dict[str, str] = {}
    for path in sorted((results / paper / "claims").glob("*.json")):
        for c in json.loads(path.read_text())["claims"]:
            assert c["id"] not in seen, f"{c['id']}: recorded by {seen[c['id']]} and {path.stem}"
            seen[c["id"]] = path.stem
