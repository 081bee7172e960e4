"""lib/companion/verify.py's comparisons on hand-made locks, listings and claims documents."""
from __future__ import annotations

import hashlib
import json

import yaml

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


def test_the_relative_difference_of_two_measured_texts():
    assert verify.relative_difference("0.5 (3 of 4 seeds)", "0.5 (3 of 4 seeds)") == 0.0
    assert abs(verify.relative_difference("[1.0, 2e-3]", "[1.0, 2.002e-3]") - 0.002 / 2.002) < 1e-12
    assert verify.relative_difference("pass on 3 seeds", "pass on 4 seeds") == 0.25
    assert verify.relative_difference("converged", "diverged") is None


def claims_doc(**statuses_and_values):
    return {"claims": [{"id": k, "status": s, "measured": m}
                       for k, (s, m) in statuses_and_values.items()]}


def side(tmp_path, name, files, made_by):
    """A checkout with one claims file and one run record, and its dvc.lock naming them."""
    root = tmp_path / name
    lock = {"schema": "2.0", "stages": {"p-01": {"outs": []}}}
    record = {"state": "ok", "made_by": made_by}
    for rel, doc in {**files, "results/runs/p/01.json": record}.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(doc))
        lock["stages"]["p-01"]["outs"].append(
            {"path": rel, "md5": hashlib.md5(path.read_bytes()).hexdigest()})
    return verify.Side(name, root, (), {"dvc.lock": yaml.safe_dump(lock)})


PINS = {"MKL_CBWR": "AVX2"}
INTEL = {"lock": "x", "cpu": {"vendor": "GenuineIntel", "model": "Xeon"}, "pins": PINS}
AMD = {"lock": "x", "cpu": {"vendor": "AuthenticAMD", "model": "EPYC"}, "pins": PINS}


def test_bytes_that_differ_between_two_machines_with_every_status_kept_pass_and_say_so(tmp_path):
    a = side(tmp_path, "a", {"results/p/claims/01.json": claims_doc(**{"p.x": ("pass", "0.5012")})},
             INTEL)
    b = side(tmp_path, "b", {"results/p/claims/01.json": claims_doc(**{"p.x": ("pass", "0.5013")})},
             AMD)
    cmp = verify.compare(a, b)
    assert [row[1] for row in cmp.differing] == ["results/p/claims/01.json"]
    assert cmp.exit_code() == 0
    text = verify.render(cmp, a, b)
    assert "PASS (verdicts): every claim keeps its status" in text
    assert "| cpu.vendor | GenuineIntel | AuthenticAMD |" in text
    assert "`p.x`: same status; largest relative difference in measured 0.0002" in text


def test_a_claim_whose_status_differs_fails(tmp_path):
    a = side(tmp_path, "a", {"results/p/claims/01.json": claims_doc(**{"p.x": ("pass", "0.51")})},
             INTEL)
    b = side(tmp_path, "b", {"results/p/claims/01.json": claims_doc(**{"p.x": ("fail", "0.49")})},
             AMD)
    cmp = verify.compare(a, b)
    assert cmp.exit_code() == 1
    assert "STATUS pass -> fail" in verify.render(cmp, a, b)


def test_any_byte_that_differs_under_one_fingerprint_fails(tmp_path):
    a = side(tmp_path, "a", {"results/p/tables/t.json": {"v": 1.0}}, AMD)
    b = side(tmp_path, "b", {"results/p/tables/t.json": {"v": 1.0000001}}, AMD)
    cmp = verify.compare(a, b)
    assert cmp.same_fingerprint and cmp.exit_code() == 1
    assert "although both sides have the same fingerprint" in verify.render(cmp, a, b)
    same = verify.compare(a, side(tmp_path, "c", {"results/p/tables/t.json": {"v": 1.0}}, AMD))
    assert same.exit_code() == 0 and not same.differing


def test_run_records_that_differ_only_in_their_fingerprint_are_equal(tmp_path):
    a = side(tmp_path, "a", {}, INTEL)
    b = side(tmp_path, "b", {}, AMD)
    cmp = verify.compare(a, b)
    assert cmp.differing == [] and cmp.exit_code() == 0
    assert "PASS: every output is byte-identical" in verify.render(cmp, a, b)
