"""No job outlives its run (issue 60): `dvc repro` of a notebook whose grid runs on submitit's
local executor, or its stand-in for a cluster, killed with SIGKILL or ended with SIGTERM or
SIGHUP, leaves none of the jobs it started alive 10 s later.

In a throwaway copy of the project a toy paper's notebook hands two runs to the sweep engine;
each run writes its pid to a file and naps for ten minutes. The test waits for both pids, records
every process below `dvc` and the jobs' own pids (never a name), signals `dvc`, and polls.
"""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lib.companion import processes
from tests import project_copy

pytestmark = pytest.mark.heavy

STAGE = "notebooks/toy/dvc.yaml:toy-01_naps"
DECLARATION = """\
short: toy
title: A Toy Paper Whose Grid Naps
authors: [Nobody]
arxiv: "0000.00000"
notebooks:
- stem: 01_naps
  params: Naps
  figures: []
"""
SCHEMA = '''\
"""Parameters of the toy paper."""
from lib.companion import sweep
from lib.companion.params import param


class Naps(sweep.SweepParams):
    """01_naps: a grid of runs that nap."""

    runs: int = param(2, "runs in the grid", ge=1, le=4)
    nap_s: float = param(0.0, "how long each run naps", ge=0, le=3600)

    def jobs(self) -> int:
        return self.runs
'''
JOBS = '''\
"""A run that says its pid, then naps."""
import os
import time
from pathlib import Path


def nap(i: int, seconds: float, folder: str) -> int:
    """Write this process's pid to `folder`/<i>.pid, then sleep."""
    (Path(folder) / f"{i}.pid").write_text(str(os.getpid()))
    time.sleep(seconds)
    return i
'''
SOURCE = '''\
# %% [markdown]
# # A toy notebook whose grid naps

# %% tags=["parameters"]

# %%
from lib.companion import notebook, paths, sweep
from lib.toy import jobs

nb = notebook.start("toy/01_naps", globals())
cfg = nb.cfg
where = paths.ROOT / "naps"
where.mkdir(exist_ok=True)
done = sweep.run_params(jobs.nap, [(i, cfg.nap_s, str(where)) for i in range(cfg.runs)], cfg,
                        "toy/01_naps", progress=False)
nb.finish()
'''


def gone(pid: int) -> bool:
    """Not running: no such process, or a zombie not yet reaped."""
    try:
        os.kill(pid, 0)
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except (ProcessLookupError, FileNotFoundError):
        return True


def wait_for(check, what: str, timeout_s: float) -> None:
    start = time.monotonic()
    while time.monotonic() - start < timeout_s:
        if check():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture(scope="module")
def root(project_template, tmp_path_factory) -> Path:
    return project_copy.clone(project_template, tmp_path_factory.mktemp("orphans") / "companion", {
        "notebooks/toy/paper.yaml": DECLARATION, "notebooks/toy/01_naps.py": SOURCE,
        "lib/toy/__init__.py": '"""A toy paper."""\n', "lib/toy/schema.py": SCHEMA,
        "lib/toy/jobs.py": JOBS})


def kernel_of(job: int) -> int:
    """The kernel that submitted a local job: its controller's parent."""
    return processes.parent_of(processes.parent_of(job))


def kill_mid_sweep(root: Path, sig: int, executor: str, extra_env: dict,
                   target: str) -> list[int]:
    """Start `dvc repro` of the napping grid, wait for both jobs, send `sig` to `target`: dvc,
    its whole process group (as `timeout`, a CI cancel and a closed terminal do), or the kernel
    alone; return the pids that were below dvc and the jobs' own."""
    params = root / "notebooks/toy/params.yaml"
    text = params.read_text()
    params.write_text(text.replace("nap_s: 0.0", "nap_s: 600.0"))
    naps = root / "naps"
    for old in naps.glob("*.pid"):
        old.unlink()
    env = {**project_copy.env(), "COMPANION_EXECUTOR": executor, "COMPANION_WORKERS": "2",
           **extra_env}
    proc = subprocess.Popen([sys.executable, "-m", "dvc", "repro", "-q", STAGE], cwd=root,
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        wait_for(lambda: len(list(naps.glob("*.pid"))) == 2, "both jobs to start", 240)
        pids = processes.descendants(proc.pid)
        jobs = [int(p.read_text()) for p in naps.glob("*.pid")]
        pids += jobs
        if target == "group":
            os.killpg(proc.pid, sig)          # its own session: the group is dvc's and its own
        elif target == "kernel":
            os.kill(kernel_of(jobs[0]), sig)
        else:
            proc.send_signal(sig)
        proc.wait(timeout=60)
    finally:
        params.write_text(text)
    return sorted(set(pids))


STANDIN = ("slurm", {"COMPANION_SLURM_CLUSTER": "local"})
CASES = {"dvc-SIGKILL-local": ("dvc", signal.SIGKILL, ("local", {})),
         "dvc-SIGTERM-standin": ("dvc", signal.SIGTERM, STANDIN),
         "group-SIGKILL-local": ("group", signal.SIGKILL, ("local", {})),
         "group-SIGTERM-standin": ("group", signal.SIGTERM, STANDIN),
         "group-SIGHUP-local": ("group", signal.SIGHUP, ("local", {})),
         "kernel-SIGKILL-local": ("kernel", signal.SIGKILL, ("local", {}))}


@pytest.mark.parametrize("case", CASES)
def test_jobs_end_with_their_run(root, case):
    target, sig, (executor, extra) = CASES[case]
    pids = kill_mid_sweep(root, sig, executor, extra, target)
    try:
        wait_for(lambda: all(gone(p) for p in pids), "every job to end with its run", 10)
    finally:
        for pid in pids:                   # the processes this test started, by pid
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def test_ctrl_c_of_make_repros_stages_is_quiet_and_leaves_no_job(root, tmp_path):
    """Ctrl-C (SIGINT to the terminal's process group) of `make repro`'s stage runner
    (lib.companion.parallel) mid-sweep: status 130, no traceback, nothing printed after the
    Ctrl-C (the wrapper around it says what it left, in one line), and no job left running.
    Issue 60: 69-194 lines and 2-5 tracebacks."""
    params = root / "notebooks/toy/params.yaml"
    text = params.read_text()
    params.write_text(text.replace("nap_s: 0.0", "nap_s: 600.0"))
    naps = root / "naps"
    for old in naps.glob("*.pid"):
        old.unlink()
    said = tmp_path / "said.txt"
    env = {**project_copy.env(), "COMPANION_EXECUTOR": "local", "COMPANION_WORKERS": "2"}
    try:
        with said.open("w") as out:
            proc = subprocess.Popen([sys.executable, "-m", "lib.companion.parallel", "--jobs",
                                     "1", "notebooks/toy/dvc.yaml"], cwd=root, env=env,
                                    stdout=out, stderr=subprocess.STDOUT,
                                    start_new_session=True)
            wait_for(lambda: len(list(naps.glob("*.pid"))) == 2, "both jobs to start", 240)
            pids = processes.descendants(proc.pid) + [int(p.read_text())
                                                      for p in naps.glob("*.pid")]
            before = said.read_text()
            os.killpg(proc.pid, signal.SIGINT)
            assert proc.wait(timeout=60) == 130
    finally:
        params.write_text(text)
    try:
        wait_for(lambda: all(gone(p) for p in pids), "every job to end with Ctrl-C", 10)
    finally:
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    after = said.read_text()[len(before):]
    assert "Traceback" not in after and len(after.strip().splitlines()) <= 1, after
