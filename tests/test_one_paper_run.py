"""A one-paper `make repro` leaves every other paper's tracked files as they are: in a fresh copy
of the project (no results but the committed summary) a toy paper's stages run, then the ledger,
as `make repro PAPER=toy` runs them (its book build writes only results/report, untracked).

The claims summary (results/claims_summary.json, in git) keeps the committed row of every paper
with no results in the copy, byte for byte; only the toy's own files, its row and the root lock
(the stages every paper shares) may change. Committed, then run again from a copy with no
results, the run leaves `git status` clean.
"""
import json
import shutil
import sys
from pathlib import Path

import pytest

from lib.companion import papers
from tests import project_copy
from tests.project_copy import run

pytestmark = pytest.mark.heavy

SUMMARY = "results/claims_summary.json"
ALLOWED = {"notebooks/toy/dvc.lock", "dvc.lock", SUMMARY}     # the toy's, and what all share


@pytest.fixture(scope="module")
def root(project_template, tmp_path_factory) -> Path:
    files = project_copy.value_toy("01_alone", "Alone", "A Toy Paper Run Alone")
    return project_copy.clone(project_template, tmp_path_factory.mktemp("alone") / "companion",
                              files)


def repro_one_paper(root: Path) -> None:
    """What `make repro PAPER=toy` runs before its book: the stages, then the ledger."""
    run([sys.executable, "-m", "lib.companion.parallel", "--jobs", "1",
         "notebooks/toy/dvc.yaml"], root)
    run([sys.executable, "-m", "lib.companion.ledger"], root)


def changed(root: Path) -> set[str]:
    status = run(["git", "status", "--porcelain", "--untracked-files=no"], root).stdout
    return {line[3:] for line in status.splitlines()}


def test_a_one_paper_run_keeps_every_other_papers_rows(root):
    committed = (root / SUMMARY).read_text()
    others = json.loads(committed)
    assert set(papers.names()) <= set(others), "the committed summary lacks a paper"
    repro_one_paper(root)
    assert changed(root) <= ALLOWED, f"tracked files of other papers changed: {changed(root)}"
    now = json.loads((root / SUMMARY).read_text())
    assert now["toy"]["pass"] == 1
    rest = {k: v for k, v in now.items() if k not in ("toy", "all")}
    assert json.dumps(rest, indent=1, sort_keys=True) + "\n" == committed, \
        "the other papers' summary rows are not the committed ones, byte for byte"
    assert now["all"] == {s: sum(r[s] for k, r in now.items() if k != "all") for s in now["all"]}
    ledger = json.loads((root / "results/claims.json").read_text())
    assert ledger["carried"] == sorted(papers.names())
    assert "not run in this workspace" in (root / "results/CLAIMS.md").read_text()


def test_run_again_from_a_fresh_copy_leaves_git_status_clean(root):
    run(["git", "add", "-A"], root)
    run(["git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "toy run"], root)
    kept = {p: (root / p).read_bytes() for p in (SUMMARY, "results/codepaths.json")}
    shutil.rmtree(root / "results")                   # as a fresh clone of this commit has it
    for name, data in kept.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    repro_one_paper(root)
    assert changed(root) == set(), f"a one-paper run changed tracked files: {changed(root)}"
