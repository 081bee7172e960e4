"""lib.companion.timings: the stage table, paper totals against budgets, timed commands, and the
times a text states."""
import json
import sys

import pytest

from lib.companion import papers, paths, timings


@pytest.fixture
def results(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    return tmp_path


def test_paper_totals_sum_measured_stages_and_carry_the_budget():
    p = papers.paper("bsnp")
    stages = {n: {"profile": "default", "wall_s": 10.0 * (i + 1)}
              for i, n in enumerate(p.notebook_ids())}
    stages[p.notebook_ids()[0]] = None                            # one not run
    t = timings.paper_totals(stages)["bsnp"]
    n = len(p.notebook_ids())
    assert t == {"measured": n - 1, "stages": n, "wall_s": sum(10.0 * k for k in range(2, n + 1)),
                 "cores_s": timings.on_cores([10.0 * k for k in range(2, n + 1)]),
                 "budget_s": timings.BUDGET_S, "allowance_s": timings.ALLOWANCE_S}
    assert timings.paper_totals(stages)["linear_rnns"]["budget_s"] is None    # in depth


@pytest.mark.parametrize("times, cores, expected", [
    ([], 2, 0.0), ([5.0], 2, 5.0), ([3.0, 3.0, 2.0, 2.0, 2.0], 2, 7.0),   # 3+2+2 | 3+2
    ([540.0, 20.0, 13.0], 2, 540.0), ([1.0, 2.0, 3.0], 1, 6.0)])
def test_on_cores_is_the_longest_first_schedule(times, cores, expected):
    assert timings.on_cores(times, cores) == expected


@pytest.mark.parametrize("cores_s, said", [(179.0, "within"), (180.0, "within"),
                                            (250.0, "within allowance"), (301.0, "over")])
def test_verdict_against_budget_then_allowance(cores_s, said):
    total = {"measured": 2, "cores_s": cores_s, "budget_s": 180, "allowance_s": 300}
    assert timings.verdict(total) == said
    assert timings.verdict({**total, "budget_s": None}) == ""


def test_collect_reads_the_runner_records_and_marks_missing_stages(results):
    nid = papers.all_notebooks()[0]
    target = timings.stage_file(nid)
    target.parent.mkdir(parents=True)
    target.write_text(json.dumps({"notebook": nid, "profile": "default", "wall_s": 12.5}))
    doc = timings.collect()
    assert doc["stages"][nid] == {"profile": "default", "wall_s": 12.5, "sizes": None,
                                  "finished": None}
    assert all(doc["stages"][n] is None for n in papers.all_notebooks()[1:])
    assert "not run" in timings.table(doc) and "12.5" in timings.table(doc)


def test_the_end_of_a_run_shows_the_stages_it_ran(results, capsys):
    """`make repro`'s end table (`--ran NAME`): the stages whose last run finished while the
    command NAME ran, and their papers' totals, not a row for every stage of the project."""
    def stage(nid: str, finished: str) -> None:
        target = timings.stage_file(nid)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps({"notebook": nid, "profile": "default", "wall_s": 7.0,
                                      "finished": finished}))
    caffnet = papers.paper("caffnet").notebook_ids()
    stage(caffnet[0], "2026-01-01T10:00:30Z")                   # during the run
    stage(caffnet[1], "2026-01-01T10:01:00Z")
    stage(papers.paper("bsnp").notebook_ids()[0], "2026-01-01T09:00:00Z")   # an earlier run
    command = timings.command_file("make_repro_caffnet")
    command.parent.mkdir(parents=True)
    command.write_text(json.dumps({"command": "x", "exit": 0, "wall_s": 90.0,
                                   "finished": "2026-01-01T10:01:05Z"}))
    assert timings.main(["--ran", "make_repro_caffnet"]) == 0
    out = capsys.readouterr().out
    assert "the 2 notebook stage(s) make_repro_caffnet ran" in out
    assert caffnet[0] in out and caffnet[1] in out and "not run" not in out
    assert "bsnp" not in out and "gd_perceptron" not in out and "caffnet " in out
    command.write_text(json.dumps({"command": "x", "exit": 0, "wall_s": 5.0,
                                   "finished": "2026-01-01T11:00:00Z"}))
    assert timings.main(["--ran", "make_repro_caffnet"]) == 0
    assert "no notebook stage ran in make_repro_caffnet" in capsys.readouterr().out


def test_run_records_wall_time_and_exit_status(results):
    assert timings.main(["run", "x", "--", sys.executable, "-c", "raise SystemExit(3)"]) == 3
    rec = json.loads(timings.command_file("x").read_text())
    assert rec["exit"] == 3 and rec["wall_s"] >= 0
    assert timings.collect()["commands"] == {"x": {"wall_s": rec["wall_s"], "exit": 3}}


def test_snapshot_refuses_when_a_stage_has_no_timing(results):
    with pytest.raises(SystemExit, match="not every stage has a timing"):
        timings.snapshot("test machine")


def test_snapshot_keeps_only_commands_that_succeeded(results):
    for nid in papers.all_notebooks():
        target = timings.stage_file(nid)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps({"notebook": nid, "profile": "default", "wall_s": 1.0}))
    assert timings.main(["run", "make_test", "--", sys.executable, "-c", "exit(2)"]) == 2
    assert timings.main(["run", "make_repro", "--", sys.executable, "-c", "pass"]) == 0
    assert list(timings.snapshot("test machine")["commands"]) == ["make_repro"]


@pytest.mark.parametrize("text, found", [
    ("took 12.9 minutes and 40 s", ["12.9 min", "40 s"]),
    ("about 5 min, or 2 hours", ["5 min", "2 h"]),
    ("the 5 seeds of 3 papers, 40s", ["40 s"]),
])
def test_stated_times_normalises_units(text, found):
    assert timings.stated_times(text) == found


def test_fmt_time_uses_seconds_below_ten_minutes():
    assert timings.fmt_time(179.6) == "180 s" and timings.fmt_time(2400) == "40.0 min"
