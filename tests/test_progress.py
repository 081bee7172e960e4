"""Progress inside a stage (lib.companion.progress): `make repro`'s status line says which stages
run, the cell of each of its code cells, its grid's runs done of the total and the time left
from its committed time; in place on a terminal, a plain line now and then elsewhere. End to end
in a copy: a toy notebook's own cell reads what the runner and the sweep engine told it, and
nothing of it is left behind or reaches the executed notebook."""
import io
import json
import os
import sys
from pathlib import Path

import pytest

from lib.companion import parallel, paths, progress
from tests import project_copy
from tests.project_copy import run

GRID = "caffnet/02_piecewise_fit"


@pytest.fixture
def results(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    return tmp_path


def test_a_grid_stage_says_its_cell_its_runs_and_the_time_left(results):
    progress.start(GRID, 15, 18)
    progress.cell(GRID, 7, 15, 18)
    progress.write(progress.runs_file(GRID), {"done": 12, "total": 18})
    # 12 of 18 runs done: a third of the 360 s expected is left
    assert parallel.describe(GRID, 200.0, 360.0) == f"{GRID} cell 7/15 runs 12/18 ~2 min left"
    progress.write(progress.runs_file(GRID), {"done": 30, "total": 40})   # it ran more sweeps
    assert "runs 30/40 ~90 s left" in parallel.describe(GRID, 200.0, 360.0)
    progress.clear(GRID)
    assert parallel.describe(GRID, 5.0, None) == GRID


def test_a_stage_without_a_grid_says_its_time_so_far_of_the_expected(results):
    notebook = "graphflow/01_kv_accounting"
    progress.cell(notebook, 3, 9, None)
    try:
        assert parallel.describe(notebook, 40.0, 90.0) == f"{notebook} cell 3/9 40 s of ~90 s"
    finally:
        progress.clear(notebook)


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_status_line_updates_in_place_on_a_terminal_and_is_a_plain_line_elsewhere(results):
    progress.cell(GRID, 2, 15, 18)
    tty = Terminal()
    line = parallel.StatusLine(tty)
    line.show({GRID: (0.0, 100.0)})
    line.show({GRID: (0.0, 100.0)})
    line.say("[1/2] ok")
    shown = tty.getvalue()
    assert shown.count("\r\x1b[K") == 3 and shown.count("\n") == 1, shown   # two draws, a clear
    assert f"running: {GRID} cell 2/15 runs 0/18" in shown
    log = io.StringIO()
    plain = parallel.StatusLine(log, every=0.0)
    plain.show({GRID: (0.0, None)})
    assert log.getvalue() == f"running: {GRID} cell 2/15 runs 0/18\n"
    quiet = parallel.StatusLine(io.StringIO(), every=3600.0)    # not yet time for a plain line
    quiet.show({GRID: (0.0, None)})
    assert quiet.stream.getvalue() == ""


DECLARATION = """\
short: toy
title: A Toy Paper With a Grid
authors: [Nobody]
arxiv: "0000.00000"
notebooks:
- stem: 01_grid
  params: Grid
  figures:
  - name: 01_grid
    caption: the grid's squares
    claims: [grid.sum]
"""
SCHEMA = '''\
"""Parameters of the toy paper."""
from lib.companion.params import param
from lib.companion.sweep import SweepParams


class Grid(SweepParams):
    """A grid of squares."""

    n: int = param(3, "grid points", ge=1, le=10)

    def jobs(self) -> int:
        return self.n
'''
NOTEBOOK = '''\
# %% [markdown]
# # A toy grid

# %% tags=["parameters"]

# %%
from lib.companion import notebook, plotting, sweep

nb = notebook.start("toy/01_grid", globals())


def square(k):
    return k * k


found = sweep.run_params(square, [(k,) for k in range(nb.cfg.n)], nb.cfg, "toy/01_grid")

# %%
import json
import os

from lib.companion import progress

with open(os.environ["PROBE"], "w") as probe:
    json.dump(progress.state("toy/01_grid"), probe)

# %%
fig, ax = plotting.figure()
ax.bar(range(nb.cfg.n), found)
nb.save_figure(fig)
nb.ledger.exact("grid.sum", "the squares add up", source="toy", provenance="derived",
                expected=sum(k * k for k in range(nb.cfg.n)), measured=int(sum(found)))
nb.finish()
'''


@pytest.mark.heavy
def test_the_runner_and_the_sweep_tell_a_running_cell_where_it_is(tmp_path_factory):
    root = project_copy.with_toy(tmp_path_factory.mktemp("progress") / "companion", {
        "notebooks/toy/paper.yaml": DECLARATION, "notebooks/toy/01_grid.py": NOTEBOOK,
        "lib/toy/__init__.py": '"""A toy paper."""\n', "lib/toy/schema.py": SCHEMA})
    probe = root / "probe.json"
    os.environ["PROBE"] = str(probe)           # conftest's fixture restores the environment
    run([sys.executable, "-m", "dvc", "repro", "params", "infra", "data"], root)
    run([sys.executable, "-m", "lib.companion.runner", "notebooks/toy/01_grid.py"], root)
    # code cells: the parameters cell, papermill's injected one, the grid, the probe, the end
    assert json.loads(probe.read_text()) == {"cell": 4, "cells": 5, "runs": 3, "runs_done": 3}
    logs = root / "results" / "logs"
    assert not list(logs.glob("toy__01_grid.*.json")) if logs.exists() else True
    executed = (root / "results/toy/executed/01_grid.ipynb").read_text()
    assert "runs_done" not in json.dumps([c.get("outputs") for c in
                                          json.loads(executed)["cells"]])
    assert Path(root / "results/toy/claims/01_grid.json").exists()
