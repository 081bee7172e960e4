"""The CPU seconds a command costs, its whole process tree counted: user + system time of the
command and of every process below it, the ones orphaned on the way included.

    python -I lib/companion/cpu_meter.py --out usage.json -- CMD [ARGS...]

The meter makes itself the child subreaper of what it starts (Linux's PR_SET_CHILD_SUBREAPER):
a process whose parent exits before it (a notebook kernel its runner did not wait for, a job a
sweep left running) is re-parented to the meter, not to init, so the meter reaps it and its
time is counted in the meter's RUSAGE_CHILDREN; a plain wait4 on the command would lose it. One
meter per command, so that commands run side by side are counted apart. It imports the standard
library only: any tree's commands can be metered (run it with -I, so no module of this folder or
of PYTHONPATH shadows one of the standard library's).
"""
from __future__ import annotations

import argparse
import ctypes
import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

PR_SET_CHILD_SUBREAPER = 36
GRACE_S = 30.0             # how long orphans may take to end after the command did


def become_subreaper() -> bool:
    """Adopt this process's orphaned descendants; False where the system cannot (not Linux)."""
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (AttributeError, OSError):
        return False


def children() -> list[int]:
    """This process's living children (from /proc), orphans adopted included."""
    me, found = os.getpid(), []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == me:
            found.append(int(stat.parent.name))
    return found


def reap_all(grace_s: float) -> int:
    """Reap every child until none is left: those still running after `grace_s` are killed
    (SIGKILL) and then reaped. Returns how many had to be killed."""
    deadline, killed = time.monotonic() + grace_s, 0
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return killed
        if pid:
            continue
        if time.monotonic() > deadline:
            for pid in children():
                try:
                    os.kill(pid, signal.SIGKILL)
                    killed += 1
                except ProcessLookupError:
                    pass
            deadline = float("inf")
        time.sleep(0.05)


def measure(cmd: list[str], grace_s: float = GRACE_S) -> dict:
    """Run `cmd` (its output to this process's), reap its whole tree; its exit status, wall
    time and the tree's CPU seconds."""
    subreaper = become_subreaper()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    child = subprocess.Popen(cmd)
    # an interrupt reaches the command's process group (a terminal's Ctrl-C) or, sent to the
    # meter alone, is passed on; the meter itself waits to count what ends
    signal.signal(signal.SIGINT, lambda *_: child.send_signal(signal.SIGINT))
    signal.signal(signal.SIGTERM, lambda *_: child.send_signal(signal.SIGTERM))
    rc = child.wait()
    wall = time.monotonic() - start
    killed = reap_all(grace_s)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    user, system = after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime
    return {"rc": rc, "cpu_s": user + system, "user_s": user, "sys_s": system, "wall_s": wall,
            "maxrss_kb": after.ru_maxrss, "orphans_killed": killed, "subreaper": subreaper}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="where the usage JSON goes")
    parser.add_argument("--grace", type=float, default=GRACE_S,
                        help="seconds orphans may run on after the command ends")
    parser.add_argument("cmd", nargs=argparse.REMAINDER, help="-- CMD [ARGS...]")
    args = parser.parse_args(argv)
    cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    if not cmd:
        parser.error("no command given (after --)")
    usage = measure(cmd, args.grace)
    args.out.write_text(json.dumps(usage, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
