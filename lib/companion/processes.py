"""A run's processes, read from /proc, and the watchers that end them with the run (issue 60).

A run is a chain: make or DVC -> the runner -> its kernel (its own session) -> a sweep's jobs
(submitit's controller and its task, in the kernel's group). Any link may be killed without a
chance to clean up (SIGKILL, `timeout`, a CI cancel, a closed terminal), so each watches the one
above it: the runner its parent (`lib.companion.runner`), the kernel the runner
(`lib.companion.notebook`), a local job the kernel that submitted it (`lib.companion.sweep`),
and whichever sees its watched process gone ends everything below itself, then itself.
"""
from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Callable


def parent_of(pid: int) -> int:
    """A process's parent pid, from /proc (the field after the parenthesised command name)."""
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def started(pid: int) -> int | None:
    """A process's start time in clock ticks since boot (None when it is gone): with the pid,
    names one process even after the pid is reused."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19])
    except (OSError, ValueError, IndexError):
        return None


def alive(pid: int) -> bool:
    """Whether a process with this pid exists (a zombie counts until it is reaped)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def descendants(pid: int) -> list[int]:
    """Every process below a process (its children, theirs, ...), from one read of /proc."""
    below: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            below.setdefault(parent_of(int(stat.parent.name)), []).append(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    out, todo = [], [pid]
    while todo:
        kids = below.get(todo.pop(), [])
        out += kids
        todo += kids
    return out


def kill_below(pid: int) -> None:
    """SIGKILL every process below `pid` and their process groups but the caller's own (a job
    whose parent died first, adopted by init, is still reached through its group). Twice: a
    process may start another between the read of /proc and the kill."""
    own = os.getpgrp()
    for _ in range(2):
        tree = descendants(pid)
        groups = set()
        for child in tree:
            try:
                groups.add(os.getpgid(child))
            except ProcessLookupError:
                pass
        for group in groups - {own}:
            try:
                os.killpg(group, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        for child in tree:
            try:
                os.kill(child, signal.SIGKILL)
            except ProcessLookupError:
                pass


def end_below_and_exit(why: str, status: int) -> None:
    """Say why on stderr (a closed one is no reason to stay), kill everything below this
    process, and exit at once with `status`."""
    try:
        print(why, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass
    kill_below(os.getpid())
    os._exit(status)


def watch(gone: Callable[[], bool], why: str, status: int, name: str,
          period_s: float = 0.5) -> threading.Thread:
    """A daemon thread that, once `gone()` holds, ends this process and everything below it."""
    def loop() -> None:
        while not gone():
            time.sleep(period_s)
        end_below_and_exit(why, status)
    thread = threading.Thread(target=loop, name=name, daemon=True)
    thread.start()
    return thread


def watch_process(pid: int, why: str, status: int, name: str,
                  period_s: float = 0.5) -> threading.Thread:
    """`watch` for the process `pid` (as it is now: a later process given its pid is not it)."""
    birth = started(pid)
    return watch(lambda: started(pid) != birth, why, status, name, period_s)


def end_on_signals(why: str, signals: tuple[int, ...] = (signal.SIGTERM, signal.SIGHUP,
                                                          signal.SIGINT)) -> None:
    """On SIGTERM, SIGHUP or SIGINT (`timeout`, a CI cancel, a closed terminal, Ctrl-C) end
    everything below this process and exit with 128 + the signal, saying `why` and which signal
    in one line (no traceback)."""
    def handler(signum: int, _frame) -> None:
        end_below_and_exit(f"{why} ({signal.Signals(signum).name})", 128 + signum)
    for sig in signals:
        signal.signal(sig, handler)
