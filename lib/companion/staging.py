"""One run of a notebook at a time, its outputs staged apart and swapped in only on success.

A stage's outputs are persistent for DVC (it does not delete them before the command), so a run
that fails, is killed or runs out of disk leaves the last good figures, tables, claims and
executed copy in place: the kernel writes into results/.staging/<paper>__<stem>/ (laid out like
results/, through `paths.STAGING_ENV`), and `swap` moves each output in after the run has
finished. The swap is recoverable: a journal (results/.staging/<paper>__<stem>.swap.json) names
each output and the inode of its new version before the first rename, each output is replaced in
one atomic step (an exchange of the two paths where Linux offers it), and `recover` finishes a
swap that a kill interrupted, so each output is wholly old or wholly new and the notebook's outputs
end all new. A lock per notebook (flock: released by the kernel of the operating system when its
holder dies, however it dies) refuses a second run beside the first.
"""
from __future__ import annotations

import ctypes
import errno
import fcntl
import json
import os
import shutil
import sys
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
    """An empty staging folder for the notebook (a killed run's leftovers removed, its
    interrupted swap finished first). The caller holds the notebook's lock."""
    recover(notebook, held=True)
    folder = paths.staging_dir(notebook)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


def staged(folder: Path, output: Path) -> Path:
    """Where an output under results/ is written inside a staging folder."""
    return folder / output.relative_to(paths.RESULTS)


def journal_file(notebook: str) -> Path:
    """The journal of the notebook's swap in progress (absent when none is)."""
    folder = paths.staging_dir(notebook)
    return folder.with_name(folder.name + ".swap.json")


def swap(notebook: str, folder: Path) -> None:
    """Move each staged output into results/, the claims file last (an output the run did not
    write is removed, as DVC would find it missing); then remove the journal and the staging
    folder. Raises OSError (the journal kept, for `recover`) when the file system refuses."""
    plan = []
    with workspace_paths():
        outputs = sorted(stage_outputs(notebook), key=lambda p: p == paths.claims_file(notebook))
    for target in outputs:
        source = staged(folder, target)
        plan.append([str(target.relative_to(paths.RESULTS)),
                     os.lstat(source).st_ino if source.exists() else None])
    journal = journal_file(notebook)
    tmp = journal.with_name(journal.name + ".tmp")
    tmp.write_text(json.dumps({"notebook": notebook, "outputs": plan}) + "\n")
    tmp.replace(journal)
    _finish(notebook, plan, folder)


def recover(notebook: str, held: bool = False) -> bool:
    """Finish the notebook's swap a kill or a refusing file system interrupted (every output
    then new), unless another live run holds its lock (`held`: the caller holds it); True when
    there was one to finish."""
    journal = journal_file(notebook)
    if not journal.exists() or (not held and is_locked(notebook)):
        return False
    try:
        plan = json.loads(journal.read_text())["outputs"]
    except (ValueError, KeyError, TypeError):       # cut before its atomic rename: not begun
        journal.unlink(missing_ok=True)
        return False
    _finish(notebook, plan, paths.staging_dir(notebook))
    return True


def recover_all() -> list[str]:
    """`recover` for every notebook with a swap journal; the notebooks whose swap it finished. A
    swap the file system still refuses is left for later, said in one line naming the cause (it
    keeps no other notebook's swap, nor the ledger, from going on)."""
    done = []
    for journal in sorted((paths.RESULTS / ".staging").glob("*.swap.json")):
        try:
            notebook = json.loads(journal.read_text())["notebook"]
        except (ValueError, KeyError, TypeError, OSError):
            journal.unlink(missing_ok=True)
            continue
        try:
            if recover(notebook):
                done.append(notebook)
        except OSError as err:
            print(f"warning: {notebook}: its new outputs are not yet in results/: "
                  f"{refusal(notebook, err)}; its previous outputs are shown until then",
                  file=sys.stderr)
    return done


def unwritable(notebook: str) -> str:
    """Why the notebook's outputs cannot be written in results/ ("" when they can): the first of
    their places on a read-only file system or not writable, named with the fix."""
    for target in stage_outputs(notebook):
        place = target if target.exists() else target.parent
        while not place.exists():
            place = place.parent
        name = place.relative_to(paths.ROOT) if place.is_relative_to(paths.ROOT) else place
        if os.statvfs(place).f_flag & os.ST_RDONLY:
            return (f"{name} is on a read-only file system (a read-only mount): mount it "
                    "read-write, then run again")
        if not os.access(place, os.W_OK):
            return f"{name} is read-only: make it writable (`chmod -R u+w {name}`), then run again"
    return ""


def refusal(notebook: str, err: OSError) -> str:
    """The real cause of a swap the file system refused, in words with its fix."""
    with workspace_paths():
        place = unwritable(notebook)
    if place:
        return place
    if err.errno in (errno.ENOSPC, errno.EDQUOT):
        return "no space left on the disk that holds results/: free some, then run again"
    if err.errno == errno.EXDEV:
        return ("results/.staging and the outputs are on different file systems (a mount inside "
                "results/?): keep results/ on one, then run again")
    return f"{err.strerror or err}: fix that, then run again"


def _finish(notebook: str, plan: list, folder: Path) -> None:
    """Bring each output of the plan to its new version (done ones, recognised by inode, are
    left), then drop the journal and the staging folder with the old versions in it."""
    trash = folder / ".old"
    for relative, inode in plan:
        target, source = paths.RESULTS / relative, folder / relative
        new_in_place = target.exists() and inode is not None and os.lstat(target).st_ino == inode
        if new_in_place:
            continue
        old = trash / relative
        if inode is None:                    # the run did not write it
            if target.exists() or target.is_symlink():
                old.parent.mkdir(parents=True, exist_ok=True)
                _move(target, old)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists():
            _move(source, target)
        elif not (source.is_dir() and _exchange(source, target)):
            if source.is_dir() or target.is_dir():     # no exchange here: old out, new in
                old.parent.mkdir(parents=True, exist_ok=True)
                _move(target, old)
                _move(source, target)
            else:
                _move(source, target)                # a file: os.replace is atomic
    journal_file(notebook).unlink(missing_ok=True)
    shutil.rmtree(folder, ignore_errors=True)


def _move(source: Path, target: Path) -> None:
    """One rename (the step a kill can fall between; tests stop the process here)."""
    os.replace(source, target)


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _renameat2():
    """libc's renameat2, looked up once; None where the C library lacks it (macOS, old glibc)."""
    try:
        call = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return None
    call.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    return call


_RENAMEAT2 = _renameat2()


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one atomic step (Linux renameat2 RENAME_EXCHANGE); False where the
    system or the file system lacks it."""
    renameat2 = _RENAMEAT2
    if renameat2 is None:
        return False
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), f"{a} <-> {b}")
