"""How the runner's last run of each notebook ended: results/runs/<paper>/<stem>.json.

A run writes `running` before its kernel starts and `ok` or `failed` (with the cell, the exception
and the claims recorded before it) when it ends. A `running` record whose lock is free was
interrupted: killed, out of memory, its machine gone. The claims stage reads these records, so a
notebook that did not finish shows its claims as `error` instead of vanishing from the ledger,
while its last good outputs stay in the workspace. Each record carries the run's fingerprint
(`made_by`: the locked environment, the libraries' builds, the CPU, the pins;
lib.companion.fingerprint) and no time or process id: two clean runs in one environment on one
kind of CPU write the same record, and `make verify` shows two machines' fingerprints side by side.
Each is an output of its notebook's stage (uncached), so a record other than `ok` (a run that
failed, or was killed mid-run) leaves the stage out of date and a plain `dvc repro` runs it again.
"""
from __future__ import annotations

import json
import os
from typing import Any

from lib.companion import paths, staging

WRITTEN = ("running", "ok", "failed")          # what a run writes; `interrupted` is read off


def write(notebook: str, state: str, profile: str, **detail: Any) -> None:
    """Record the state of the notebook's run (atomically: a kill mid-write keeps the last)."""
    if state not in WRITTEN:
        raise ValueError(f"run state {state!r} is not one of {WRITTEN}")
    out = paths.run_record(notebook)
    out.parent.mkdir(parents=True, exist_ok=True)
    doc = {"notebook": notebook, "state": state, "profile": profile, **detail}
    tmp = out.with_name(out.name + f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    tmp.replace(out)


def read(notebook: str) -> dict | None:
    """The notebook's last run record (None when the runner never ran it here); a `running`
    record with nobody holding the lock reads as `interrupted`."""
    path = paths.run_record(notebook)
    if not path.exists():
        return None
    try:
        doc = json.loads(path.read_text())
    except ValueError as err:
        return {"notebook": notebook, "state": "failed", "error": f"unreadable run record: {err}"}
    if doc.get("state") == "running" and not staging.is_locked(notebook):
        doc = {**doc, "state": "interrupted", "recorded": staged_claims(notebook),
               "error": "the run ended before it finished (killed, out of memory or its "
                        "machine gone): no claim after the last one recorded was checked"}
    return doc


def staged_claims(notebook: str) -> list[dict]:
    """The claims an interrupted run had recorded: its staging folder keeps them."""
    try:
        return json.loads(staging.staged_claims_file(notebook).read_text())["claims"]
    except (OSError, ValueError, KeyError):
        return []


def unfinished(record: dict | None) -> bool:
    """Did the last run fail, stop or is it still going?"""
    return record is not None and record.get("state") != "ok"


def describe(record: dict) -> str:
    """One line: how the run ended and where."""
    state = record.get("state", "?")
    if state == "ok":
        return "finished"
    if state == "running":
        return "running now"
    where = f" in cell {record['cell']}" if record.get("cell") is not None else ""
    return f"{state}{where}: {record.get('error', 'no detail')}"
