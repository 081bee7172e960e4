"""A claim decided otherwise on a second CPU code path is `inconclusive` in the ledger
(lib/companion/codepaths.py), and only such a claim."""
from __future__ import annotations

import pytest

from lib.companion import codepaths


def claim(cid: str, status: str, kind: str = "statistical") -> dict:
    return {"id": cid, "kind": kind, "status": status, "tolerance": "median over 5 seeds",
            "measured": "0.5"}


RECORD = {"notebooks": {"p/01_x": {"claims": {
    "p.flips": {"kind": "statistical", "here": "pass", "there": "fail"},
    "p.holds": {"kind": "statistical", "here": "fail", "there": "fail"},
    "p.exact": {"kind": "exact", "here": "pass", "there": "fail"},
    "p.unsure": {"kind": "qualitative", "here": "inconclusive", "there": "pass"},
    "p.to_inconclusive": {"kind": "qualitative", "here": "deviation", "there": "inconclusive"},
    "p.skipped_there": {"kind": "statistical", "here": "pass", "there": "skipped"}}}}}


def test_a_claim_whose_status_moves_on_the_second_path_is_inconclusive_with_both_statuses():
    doc = {"notebook": "p/01_x", "claims": [
        claim("p.flips", "pass"), claim("p.holds", "fail"), claim("p.exact", "pass", "exact"),
        claim("p.unsure", "inconclusive", "qualitative"),
        claim("p.to_inconclusive", "deviation", "qualitative"), claim("p.skipped_there", "pass"),
        claim("p.not_recorded", "pass")]}
    out = {c["id"]: c for c in codepaths.apply([doc], RECORD)[0]["claims"]}
    assert out["p.flips"]["status"] == "inconclusive"
    assert "second CPU code path: fail (here: pass)" in out["p.flips"]["tolerance"]
    assert out["p.flips"]["tolerance"].startswith("median over 5 seeds; ")
    assert out["p.to_inconclusive"]["status"] == "inconclusive"
    for kept in ("p.holds", "p.exact", "p.unsure", "p.skipped_there", "p.not_recorded"):
        assert out[kept]["status"] == next(c for c in doc["claims"] if c["id"] == kept)["status"]
    assert out["p.holds"]["second_path"] == "fail" and "second_path" not in out["p.not_recorded"]
    assert doc["claims"][0]["status"] == "pass"          # the notebook's own document untouched


def test_an_unfinished_notebook_is_left_as_its_run_left_it():
    doc = {"notebook": "p/01_x", "run": {"state": "failed"}, "claims": [claim("p.flips", "pass")]}
    assert codepaths.apply([doc], RECORD)[0]["claims"][0]["status"] == "pass"


def test_the_record_compares_each_claim_with_its_numbers():
    here = {"claims": [{"id": "p.a", "kind": "statistical", "status": "pass", "measured": "0.5"},
                       {"id": "p.b", "kind": "exact", "status": "pass", "measured": "[1, 2]"}]}
    there = {"claims": [{"id": "p.a", "status": "fail", "measured": "0.4"},
                        {"id": "p.b", "status": "pass", "measured": "[1, 2]"}]}
    got = codepaths.compare_notebook(here, there)
    assert got["p.a"] == {"kind": "statistical", "here": "pass", "there": "fail",
                          "max_rel_diff": pytest.approx(0.1 / 0.5, rel=1e-12)}
    assert got["p.b"]["max_rel_diff"] == 0.0
    assert codepaths.compare_notebook(here, {"claims": []})["p.a"]["there"] == "absent"
