"""Where a running notebook stage is: which of its code cells runs, of how many, and how many runs
of its grid the sweep engine has finished, of how many. `make repro` (lib.companion.parallel)
reads it for its status line, since each runner's own output goes to its log.

Two small JSON files per running notebook, beside its log in results/logs/ (never a DVC output,
and holding no clock): `<paper>__<stem>.cells.json`, written by the runner as papermill starts
each code cell, and `<paper>__<stem>.runs.json`, written by the notebook's kernel as its sweeps
finish runs (the runner names the file to the kernel in COMPANION_PROGRESS). Each write replaces
the file whole, so a reader never sees half of one.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from lib.companion import paths

ENV = "COMPANION_PROGRESS"             # the runs file a kernel's sweeps write (set by the runner)
_runs = {"done": 0, "total": 0}         # this kernel's sweeps so far, all calls together


def prefix(notebook: str) -> Path:
    return paths.RESULTS / "logs" / notebook.replace("/", "__")


def cells_file(notebook: str) -> Path:
    return prefix(notebook).with_name(prefix(notebook).name + ".cells.json")


def runs_file(notebook: str) -> Path:
    return prefix(notebook).with_name(prefix(notebook).name + ".runs.json")


def write(path: Path, doc: dict) -> None:
    """Replace `path` with `doc` in one step (a reader sees the old file or the new one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(doc))
    os.replace(tmp, path)


def read(path: Path) -> dict:
    try:
        doc = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return doc if isinstance(doc, dict) else {}


def start(notebook: str, cells: int, runs: int | None) -> None:
    """A run begins: no cell yet of `cells`, its grid's `runs` (None: no grid) expected."""
    clear(notebook)
    write(cells_file(notebook), {"cell": 0, "cells": cells, "runs": runs})


def cell(notebook: str, number: int, cells: int, runs: int | None) -> None:
    """Code cell `number` (from 1) of `cells` has started."""
    write(cells_file(notebook), {"cell": number, "cells": cells, "runs": runs})


def clear(notebook: str) -> None:
    """The run has ended: its progress files go."""
    for path in (cells_file(notebook), runs_file(notebook)):
        path.unlink(missing_ok=True)


def sweep_started(total: int, done: int) -> None:
    """A sweep of `total` runs starts in this kernel, `done` of them finished before (resumed)."""
    _runs["total"] += total
    _runs["done"] += done
    _tell()


def run_done() -> None:
    """One run of the current sweep finished."""
    _runs["done"] += 1
    _tell()


def _tell() -> None:
    where = os.environ.get(ENV)
    if where:
        write(Path(where), dict(_runs))


def state(notebook: str) -> dict:
    """What a running notebook's files say: cell, cells, and runs done of runs total (the
    schema's count of its grid, or the sweeps' own when larger), each absent when unknown."""
    out = read(cells_file(notebook))
    swept = read(runs_file(notebook))
    if swept:
        out["runs_done"] = swept.get("done", 0)
        out["runs"] = max(out.get("runs") or 0, swept.get("total", 0))
    return out
