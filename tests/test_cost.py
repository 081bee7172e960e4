"""The plan before a run (lib.companion.cost, issue 45): a stage's estimate is its timed default
run scaled by its COST sizes; a stage without a timing, or timed at a zero size, says so."""
import json

import pytest

from lib.companion import cost, params, paths

NOTEBOOK = "frog/02_depth_sweep"      # COST (n_seeds, epochs); paper: 5 seeds, 500 epochs


def timing(tmp_path, monkeypatch, **doc):
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    (tmp_path / "timings").mkdir()
    (tmp_path / "timings" / "frog__02_depth_sweep.json").write_text(json.dumps(doc))


def test_estimate_is_the_timed_run_scaled_by_each_cost_key(tmp_path, monkeypatch):
    timing(tmp_path, monkeypatch, notebook=NOTEBOOK, profile="default", wall_s=36.0,
           sizes={"n_seeds": 3.0, "epochs": 150.0})
    row = cost.plan_row(NOTEBOOK, "paper")
    paper = params.resolve(NOTEBOOK, "paper")
    scale = paper.n_seeds / 3 * paper.epochs / 150
    assert row.scale == pytest.approx(scale)
    assert row.cpu_h == pytest.approx(36.0 * scale / 3600)        # default ran inline: one core
    assert (row.jobs, row.executor, row.workers) == (2 * len(paper.depths), "local", 2)
    assert row.wall_h == pytest.approx(row.cpu_h / 2)
    assert "n_users" in row.note                  # the paper's larger database is not in COST


@pytest.mark.parametrize("doc, note", [
    (None, "no default-profile timing"),
    ({"profile": "smoke", "wall_s": 1.0, "sizes": {"n_seeds": 1.0, "epochs": 10.0}},
     "no default-profile timing"),
    ({"profile": "default", "wall_s": 1.0, "sizes": {"n_seeds": 0.0, "epochs": 10.0}},
     "timed with n_seeds = 0: no scale"),
])
def test_a_stage_without_a_usable_timing_says_so(tmp_path, monkeypatch, doc, note):
    if doc is None:
        monkeypatch.setattr(paths, "RESULTS", tmp_path)
    else:
        timing(tmp_path, monkeypatch, notebook=NOTEBOOK, **doc)
    row = cost.plan_row(NOTEBOOK, "paper")
    assert row.cpu_h is None and note in row.note
    text = cost.table([row], "paper")
    assert "total (paper, 0 of 1 stages estimated)" in text and "1 stage(s) without" in text
