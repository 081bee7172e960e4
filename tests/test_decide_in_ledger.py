"""Compute in the notebook, decide in the ledger: a paper whose claims the ledger decides has no
notebook stage that depends on its thresholds (lib/<paper>/decisions.py), so changing one re-runs
the claims stage (and the book after it) and never a notebook; the ledger then decides with it."""
from __future__ import annotations

import json
import sys

import pytest

from lib.companion import generate, papers, paths, yamlio
from tests import project_copy

DECIDED_IN_LEDGER = [p for p in papers.names() if not generate.imports_decisions(p)]


@pytest.mark.parametrize("paper", DECIDED_IN_LEDGER)
def test_no_notebook_stage_depends_on_the_papers_thresholds(paper):
    stages = yamlio.load(paths.paper_pipeline_file(paper).read_text())["stages"]
    module = f"lib/{paper}/decisions.py"
    for name, stage in stages.items():
        assert module not in stage["deps"] and f"lib/{paper}" not in stage["deps"], name
    claims = yamlio.load((paths.ROOT / "dvc.yaml").read_text())["stages"]["claims"]["deps"]
    assert module in claims and f"notebooks/{paper}/claims.yaml" in claims


@pytest.mark.heavy
def test_a_threshold_change_re_runs_the_ledger_not_the_notebook(project_template, tmp_path):
    if "graphflow" not in DECIDED_IN_LEDGER:
        pytest.skip("graphflow's claims are not decided in the ledger")
    root = project_copy.clone(project_template, tmp_path / "copy", {})
    py = sys.executable
    project_copy.run([py, "-m", "lib.companion.params", "--set-profile", "smoke"], root)
    project_copy.run([py, "-m", "dvc", "repro", "-q", "notebooks/graphflow/dvc.yaml"], root)
    status = ["-m", "dvc", "status", "--json", "notebooks/graphflow/dvc.yaml"]
    assert json.loads(project_copy.run([py, *status], root).stdout) == {}

    def four_x() -> str:
        project_copy.run([py, "-m", "lib.companion.ledger"], root)
        doc = json.loads((root / "results" / "claims.json").read_text())
        return next(c for c in doc["claims"] if c["id"] == "graphflow.ratio.4x")["status"]

    before = four_x()
    decisions = root / "lib" / "graphflow" / "decisions.py"
    decisions.write_text(decisions.read_text().replace("FOUR_X = 4.0", "FOUR_X = 1.0"))
    assert json.loads(project_copy.run([py, *status], root).stdout) == {}, \
        "a threshold changed and DVC would re-run the notebook"
    assert (before, four_x()) == ("fail", "pass"), "the ledger kept the old threshold"
    cache = root / "lib" / "graphflow" / "cache.py"                # control: a kernel changed
    cache.write_text(cache.read_text() + "\n# changed\n")
    changed = json.loads(project_copy.run([py, *status], root).stdout)
    assert list(changed) == ["notebooks/graphflow/dvc.yaml:graphflow-01_kv_accounting"]
