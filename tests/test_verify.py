"""lib/companion/verify.py's comparisons on hand-made locks, listings and claims documents."""
from __future__ import annotations

import json

from lib.companion import verify


def test_outputs_that_differ_or_are_missing_are_named():
    committed = {"stages": {"a": {"outs": [{"path": "r/a.json", "md5": "1"}]},
                            "b": {"outs": [{"path": "r/b", "md5": "2.dir"}]},
                            "report": {"outs": [{"path": "r/report", "md5": "9.dir"}]}}}
    rerun = {"stages": {"a": {"outs": [{"path": "r/a.json", "md5": "1"}]},
                        "report": {"outs": [{"path": "r/report", "md5": "8.dir"}]}}}
    rows = verify.differences(verify.outs(committed), verify.outs(rerun))
    assert rows == [("b", "r/b", "2.dir", "(not re-run)")]      # the book's build time aside


def test_files_inside_a_folder_come_from_the_two_listings(tmp_path):
    def put(cache, md5, listing):
        path = cache / "files" / "md5" / md5[:2] / (md5[2:] + ".dir")
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps([{"relpath": k, "md5": v} for k, v in listing.items()]))
    old, new = tmp_path / "old", tmp_path / "new"
    put(old, "aa11", {"x.csv": "1", "y.csv": "2", "gone.csv": "3"})
    put(new, "bb22", {"x.csv": "1", "y.csv": "5", "new.csv": "4"})
    assert verify.files_differing(old, new, "aa11.dir", "bb22.dir") == ["gone.csv", "new.csv",
                                                                        "y.csv"]
    assert verify.files_differing(old, new, "cc33.dir", "bb22.dir") is None


def test_claims_whose_status_changes():
    old = {"claims": [{"id": "p.a", "status": "pass"}, {"id": "p.b", "status": "fail"}]}
    new = {"claims": [{"id": "p.a", "status": "pass"}, {"id": "p.b", "status": "inconclusive"},
                      {"id": "p.c", "status": "pass"}]}
    assert verify.status_changes(old, new) == ["p.b: fail -> inconclusive", "p.c: absent -> pass"]
