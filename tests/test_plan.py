"""`make plan` (lib.companion.plan): a table of the stages `make repro` would run, why each would
run, in words, and its seconds: the committed time (docs/timings.json) scaled by the sizes its
schema names, as lib.companion.cost scales a profile; every line fits the terminal."""
import json

import pytest

from lib.companion import cost, params, plan, timings

NOTEBOOK = "caffnet/01_projection_guarantee"        # COST: n_instances (default 200)


class Stage:
    """A DVC stage as `plan.why` reads it: its status only."""

    def __init__(self, changes):
        self.changes = changes

    def status(self):
        return {"x": self.changes} if self.changes else {}


@pytest.mark.parametrize("changes, said", [
    ([{"changed deps": {"results/params/caffnet__01_projection_guarantee.json": "modified"}}],
     "changed: its parameters"),
    ([{"changed deps": {"lib/companion/a.py": "modified", "lib/companion/b.py": "modified",
                        "lib/caffnet": "modified"}}],
     "changed: lib/companion (2 files), lib/caffnet"),
    ([{"changed deps": {"results/params/x.json": "deleted"}},
      {"changed outs": {"results/x.json": "deleted"}}],
     "its inputs are made first; outputs missing"),
    ([{"changed outs": {"results/x.json": "not in cache", "results/y": "modified"}}],
     "outputs changed"),
    (["always changed"], "runs every time"),
    ([], "an input an earlier stage makes"),
])
def test_why_says_in_words_what_dvc_status_says(changes, said):
    assert plan.why(Stage(changes)) == said


def committed_s(notebook: str) -> float:
    return json.loads(timings.SNAPSHOT.read_text())["stages"][notebook]["wall_s"]


def test_the_estimate_is_the_committed_time_scaled_by_the_sizes():
    raw = params.read_all()
    section = raw["caffnet"]["projection_guarantee"]
    assert cost.committed_estimate_s(NOTEBOOK, raw) == pytest.approx(committed_s(NOTEBOOK))
    doubled = {**raw, "caffnet": {**raw["caffnet"], "projection_guarantee": {
        **section, "n_instances": 2 * section["n_instances"]}}}
    assert cost.committed_estimate_s(NOTEBOOK, doubled) == pytest.approx(2 * committed_s(NOTEBOOK))


def test_committed_sizes_come_from_the_schema_when_the_snapshot_has_none():
    doc = cost.committed(NOTEBOOK)
    assert doc["wall_s"] == committed_s(NOTEBOOK)
    assert doc["sizes"] == {"n_instances": 200.0}


def test_the_table_fits_the_terminal_and_totals_on_two_workers():
    steps = [plan.Step("params", "changed: a params file", None),
             plan.Step("caffnet/02_piecewise_fit", "changed: its parameters; " * 8, 300.0),
             plan.Step("caffnet/03_optimisation_proxy", "outputs missing", 100.0),
             plan.Step("graphflow/01_kv_accounting", "never run here", None)]
    text = plan.table(steps)
    assert all(len(line) <= plan.WIDTH for line in text.splitlines()), text
    assert "300" in text and "…" in text
    assert "4 stage(s), 3 of them notebooks: about 300 s on 2 workers (1 without a time)" in text
    assert plan.table([]) == "nothing to run: every stage is up to date"
