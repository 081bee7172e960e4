"""One run of a notebook at a time, its outputs staged apart and swapped in only on success.

A stage's outputs are persistent for DVC (it does not delete them before the command), so a run
that fails, is killed or runs out of disk leaves the last good figures, tables, claims and
executed copy in place: the kernel writes into results/.staging/<paper>__<stem>/ (laid out like
results/, through `paths.STAGING_ENV`), and `swap` moves each output in, one rename each, after
the run has finished. A lock per notebook (flock: released by the kernel of the operating system
when its holder dies, however it dies) refuses a second run beside the first.
"""
from __future__ import annotations

import fcntl
import os
import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from lib.companion import papers, paths


class Busy(RuntimeError):
    """Another process holds the notebook's lock."""


@contextmanager
def workspace_paths() -> Iterator[None]:
    """Inside the block `paths` gives the workspace's places, even in a staged run."""
    saved = os.environ.pop(paths.STAGING_ENV, None)
    try:
        yield
    finally:
        if saved is not None:
            os.environ[paths.STAGING_ENV] = saved


def stage_outputs(notebook: str) -> list[Path]:
    """The outputs of a notebook's stage under results/ (dvc.yaml's `outs` are these)."""
    with workspace_paths():
        return [paths.executed_file(notebook), paths.figures_dir(notebook),
                paths.tables_dir(notebook), paths.claims_file(notebook),
                *(paths.plot_file(notebook, p.table)
                  for p in papers.notebook_entry(notebook).plots)]


def staged_claims_file(notebook: str) -> Path:
    """Where a staged run of the notebook keeps the claims it has recorded so far."""
    with workspace_paths():
        return staged(paths.staging_dir(notebook), paths.claims_file(notebook))


@contextmanager
def lock(notebook: str) -> Iterator[None]:
    """Hold the notebook's lock for the block; raise Busy naming the holder when it is taken."""
    path = paths.lock_file(notebook)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "unknown"
            raise Busy(f"{notebook} is being run by another process (pid {holder}, lock "
                       f"{path.relative_to(paths.ROOT)}): wait for it, or end it by its pid; "
                       "its outputs are not touched until it finishes") from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def is_locked(notebook: str) -> bool:
    """Is a run of the notebook in progress (its lock held by a live process)?"""
    path = paths.lock_file(notebook)
    if not path.exists():
        return False
    with path.open("a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(handle, fcntl.LOCK_UN)
    return False


def fresh(notebook: str) -> Path:
    """An empty staging folder for the notebook (a killed run's leftovers removed)."""
    folder = paths.staging_dir(notebook)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


def staged(folder: Path, output: Path) -> Path:
    """Where an output under results/ is written inside a staging folder."""
    return folder / output.relative_to(paths.RESULTS)


def swap(notebook: str, folder: Path) -> None:
    """Move each staged output into results/ (an output the run did not write is removed, as
    DVC would find it missing); remove the staging folder."""
    for target in stage_outputs(notebook):
        source = staged(folder, target)
        old = target.with_name(target.name + ".old")
        _remove(old)
        if target.exists():
            target.rename(old)
        if source.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            source.rename(target)
        _remove(old)
    shutil.rmtree(folder, ignore_errors=True)


def _remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)
