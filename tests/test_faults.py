"""Faults, reproduced: nothing committed, nothing missing from the ledger, the last good results
kept, a message that names what happened.

In a throwaway copy of the project (git repository, bundled remote, data pulled from it) a toy
paper's notebook records three claims from a data file, with a nap between the first and the
others so that a run can be caught in the middle. Each test injects one fault of the issue: a
flipped byte in data/, a corrupt object in the remote, a raise before the last claim, a failing
exact claim, SIGKILL of the runner, the death of the `dvc` that started it, two runs at once,
a kill at each step of the output swap, a swap the file system refuses, a run past its time limit.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from tests import project_copy

pytestmark = pytest.mark.heavy

NOTEBOOK = "toy/01_faults"
# its stage, as `dvc` names it from the root: the paper's own dvc.yaml holds it
STAGE = "notebooks/toy/dvc.yaml:toy-01_faults"
DECLARATION = """\
short: toy
title: A Toy Paper for Faults
authors: [Nobody]
arxiv: "0000.00000"
notebooks:
- stem: 01_faults
  params: Faults
  data:
  - gd_perceptron/table1_tyurin2025.csv
  figures:
  - name: 01_faults
    caption: one line
    claims: [rows]
"""
SCHEMA = '''\
"""Parameters of the toy paper."""
from lib.companion.params import NotebookParams, param


class Faults(NotebookParams):
    """01_faults: three claims, a nap between the first and the others."""

    nap_s: float = param(0.0, "seconds between the first claim and the others", ge=0)
    wrong: int = param(0, "added to the last exact claim's measurement (non-zero fails it)")
    spawn: bool = param(False, "start, before the nap, the processes a sweep's jobs would be")
'''
SOURCE = '''\
# %% [markdown]
# # A toy notebook with faults to inject

# %% tags=["parameters"]

# %%
import time

import pandas as pd

from lib.companion import notebook, paths, plotting

nb = notebook.start("toy/01_faults", globals())
cfg, ledger = nb.cfg, nb.ledger
rows = len(pd.read_csv(paths.data_file("gd_perceptron/table1_tyurin2025.csv")))
ledger.exact("rows", "the table has its rows", source="toy", provenance="derived",
             expected=rows, measured=rows)
pd.DataFrame({"x": [0.1 + 0.2]}).to_csv(nb.tables / "x.csv", index=False)
pd.DataFrame({"nap_s": [cfg.nap_s]}).to_csv(nb.tables / "nap.csv", index=False)
fig, ax = plotting.figure()
ax.plot([0, 1], [0, rows])
ax.set_title(f"nap {cfg.nap_s} s")
nb.save_figure(fig)                                   # the cell's last value: shown

# %%
if cfg.spawn:      # a child, one in its own session, and one whose parent has already exited
    import subprocess as sp
    import sys
    nap = [sys.executable, "-c", "import time; time.sleep(600)"]
    quiet = {"stdout": sp.DEVNULL, "stderr": sp.DEVNULL}    # none holds the runner's pipes
    orphan = (f"import subprocess as s; print(s.Popen({nap!r}, stdout=s.DEVNULL, "
              "stderr=s.DEVNULL).pid)")
    pids = [sp.Popen(nap, **quiet).pid, sp.Popen(nap, start_new_session=True, **quiet).pid,
            int(sp.run([sys.executable, "-c", orphan], capture_output=True).stdout)]
    (paths.ROOT / "spawned.pids").write_text(" ".join(map(str, pids)))

# %%
time.sleep(cfg.nap_s)
ledger.exact("two", "1 + 1 = 2", source="toy", provenance="derived", expected=2, measured=1 + 1)

# %%
ledger.exact("three", "1 + 2 = 3", source="toy", provenance="derived", expected=3,
             measured=1 + 2 + cfg.wrong)
nb.finish()
'''
INJECTED = '# %%\nraise RuntimeError("injected before the last claim")\n\n'


def env() -> dict:
    return {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}


def run(cmd: list[str], cwd: Path, ok: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run(cmd, cwd=cwd, env=env(), capture_output=True, text=True, timeout=600)
    if ok:
        assert done.returncode == 0, f"{' '.join(cmd)} failed:\n{done.stdout}\n{done.stderr}"
    return done


def py(root: Path, *args: str, ok: bool = True) -> subprocess.CompletedProcess:
    return run([sys.executable, *args], root, ok)


def dvc(root: Path, *args: str, ok: bool = True) -> subprocess.CompletedProcess:
    return py(root, "-m", "dvc", *args, ok=ok)


def outputs(root: Path) -> dict[str, bytes]:
    """The toy stage's outputs, byte for byte."""
    folder = root / "results" / "toy"
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def record(root: Path) -> dict:
    return json.loads(py(root, "-c", "import json; from lib.companion import runs; "
                         f"print(json.dumps(runs.read({NOTEBOOK!r})))").stdout)


def ledger_of(root: Path) -> list[dict]:
    py(root, "-m", "lib.companion.ledger")
    doc = json.loads((root / "results" / "claims.json").read_text())
    return [c for c in doc["claims"] if c["paper"] == "toy"]


def git_clean(root: Path, path: str) -> bool:
    """Neither the working tree nor the index differs from the commit at `path`."""
    return not run(["git", "status", "--porcelain", "--", path], root).stdout.strip()


def wait_for(check, what: str, timeout_s: float = 240.0):
    """Poll until check() holds. The default is generous: before the first claim, DVC collects
    the project's stages (seconds, but two busy cores beside another test worker are slow)."""
    start = time.monotonic()
    while time.monotonic() - start < timeout_s:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def running(root: Path) -> subprocess.Popen:
    """A runner of the toy notebook napping after its first claim (returned once it naps)."""
    proc = subprocess.Popen([sys.executable, "-m", "lib.companion.runner",
                             "notebooks/toy/01_faults.py", "-p", "nap_s=60"], cwd=root, env=env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    staged = root / "results/.staging/toy__01_faults/toy/claims/01_faults.json"
    wait_for(lambda: staged.exists() and '"toy.rows"' in staged.read_text(), "the first claim")
    return proc


def below(pid: int) -> list[int]:
    """Every process below a process (lib.companion.runner's own reading of /proc)."""
    from lib.companion import processes
    return processes.descendants(pid)


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    # a zombie (dead, not yet reaped by its parent) counts as gone
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"


@pytest.fixture(scope="module")
def root(project_template, tmp_path_factory) -> Path:
    root = project_copy.clone(project_template, tmp_path_factory.mktemp("faults") / "companion", {
        "notebooks/toy/paper.yaml": DECLARATION, "notebooks/toy/01_faults.py": SOURCE,
        "lib/toy/__init__.py": '"""A toy paper."""\n', "lib/toy/schema.py": SCHEMA})
    dvc(root, "repro", "-q", STAGE)
    run(["git", "add", "-A"], root)
    run(["git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "repro"], root)
    return root


@pytest.fixture
def good(root) -> dict[str, bytes]:
    """The outputs of a good run; after the test, its inputs and run record restored (each test
    checks that the outputs are still the good run's, byte for byte, so its record is too)."""
    before = outputs(root)
    run_record = root / "results/runs/toy/01_faults.json"
    saved = run_record.read_bytes()
    source = root / "notebooks/toy/01_faults.py"
    saved_source = source.read_bytes()            # as generated, its parameters cell filled
    assert before and json.loads(saved)["state"] == "ok"
    yield before
    source.write_bytes(saved_source)
    run(["git", "checkout", "-q", "--", "notebooks/toy/params.yaml"], root)
    run_record.write_bytes(saved)
    shutil.rmtree(root / "results/.staging/toy__01_faults", ignore_errors=True)   # a killed run's


def test_good_run_rounds_its_tables_and_leaves_nothing_behind(root, good):
    assert good["tables/01_faults/x.csv"] == b"x\n0.3\n"          # 0.30000000000000004 in full
    assert not list((root / "results/.staging").glob("*"))
    executed = good["executed/01_faults.ipynb"].decode()     # the same wherever it ran
    assert str(root) not in executed and ".staging" not in executed
    assert ledger_of(root) and {c["status"] for c in ledger_of(root)} == {"pass"}


def test_flipped_byte_in_data_stops_the_pipeline_and_is_not_committed(root, good):
    target = root / "data/gd_perceptron/table1_tyurin2025.csv"
    data = bytearray(target.read_bytes())
    data[len(data) // 2] ^= 0x01
    target.write_bytes(bytes(data))
    for cmd in (["repro", STAGE], ["repro"]):
        done = dvc(root, *cmd, ok=False)
        assert done.returncode != 0, done.stdout
        assert "data/gd_perceptron/table1_tyurin2025.csv: modified" in done.stderr
        assert "dvc checkout --force data.dvc" in done.stderr
        assert git_clean(root, "data.dvc"), "dvc repro re-hashed the corrupt file into data.dvc"
    direct = py(root, "-m", "lib.companion.runner", "notebooks/toy/01_faults.py", ok=False)
    assert direct.returncode == 1 and "table1_tyurin2025.csv: modified" in direct.stderr
    assert outputs(root) == good and record(root)["state"] == "ok"
    dvc(root, "checkout", "-q", "--force", "data.dvc")                   # the way back it names
    py(root, "-m", "lib.companion.datafiles", "--check")


def test_corrupt_remote_object_is_named_and_refused(root, good):
    remote = root / "dvc-remote/files/md5"
    # an object data.dvc needs: the remote also keeps objects of earlier data versions, which a
    # pull never reads, so corrupting one of those would show nothing
    digest = yaml.safe_load((root / "data.dvc").read_text())["outs"][0]["md5"]
    needed = sorted(e["md5"] for e in json.loads((remote / digest[:2] / digest[2:]).read_text()))
    victim = remote / needed[0][:2] / needed[0][2:]
    original = victim.read_bytes()
    try:
        victim.write_bytes(original[:-1] + bytes([original[-1] ^ 0x01]))
        done = py(root, "-m", "lib.companion.datafiles", "--verify-remote", ok=False)
        assert done.returncode == 1 and str(victim.relative_to(root)) in done.stderr
        fresh = root.parent / "fresh"
        run(["git", "clone", "-q", str(root), str(fresh)], root.parent)
        (fresh / "dvc-remote").mkdir(exist_ok=True)
        run(["cp", "-r", str(root / "dvc-remote"), str(fresh)], root.parent)
        pulled = dvc(fresh, "pull", "data.dvc", ok=False)
        assert pulled.returncode != 0                      # the remote's `verify` refuses it
        status = dvc(fresh, "status", "data.dvc")
        assert "up to date" not in status.stdout
    finally:
        victim.write_bytes(original)


@pytest.mark.parametrize("fault", ["raise", "exact claim fails"])
def test_failed_run_keeps_results_and_shows_every_claim(root, good, fault):
    source = root / "notebooks/toy/01_faults.py"
    if fault == "raise":
        text = SOURCE.replace('# %%\nledger.exact("three"', INJECTED + '# %%\nledger.exact("three"')
        source.write_text(text)
        expected = {"toy.rows": "pass", "toy.two": "pass", "toy.three": "error"}
        said = "RuntimeError: injected before the last claim"
    else:
        params = root / "notebooks/toy/params.yaml"
        params.write_text(params.read_text().replace("wrong: 0", "wrong: 1"))
        expected = {"toy.rows": "pass", "toy.two": "pass", "toy.three": "fail"}
        said = "ClaimFailed: exact claim toy.three failed"
    done = dvc(root, "repro", STAGE, ok=False)
    assert done.returncode != 0 and said in done.stderr
    assert outputs(root) == good, "a failed run touched the last good outputs"
    rec = record(root)
    assert rec["state"] == "failed" and said in rec["error"] and rec["cell"] is not None
    assert {c["id"]: c["status"] for c in ledger_of(root)} == expected
    status = json.loads(dvc(root, "status", "--json", STAGE).stdout)
    changed = [out for item in status.get(STAGE, []) for out in item.get("changed outs", {})]
    assert changed == ["results/runs/toy/01_faults.json"], status    # the record: run it again
    book = root / "build/faults-book"                 # the book's pages (Sphinx is tested apart)
    py(root, "-c", f"from lib.companion import report; import datetime as dt; report."
                   f"write_sources(__import__('pathlib').Path({str(book)!r}), dt.datetime.now())")
    index = (book / "index.md").read_text()
    chapter = (book / "toy/index.md").read_text()
    assert "01\\_faults failed" in index and "01\\_faults failed" in chapter
    assert "error" in chapter and "01\\_faults failed in cell" in chapter
    assert (root / "results/failed/toy/01_faults.ipynb").exists()


def test_sigkill_mid_run_keeps_results_and_ends_the_kernel(root, good):
    proc = running(root)
    kernels = below(proc.pid)
    assert kernels, "no kernel under the runner"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    wait_for(lambda: all(gone(k) for k in kernels), "the kernel to end with its runner", 10)
    assert outputs(root) == good
    rec = record(root)
    assert rec["state"] == "interrupted" and [c["id"] for c in rec["recorded"]] == ["toy.rows"]
    assert {c["id"]: c["status"] for c in ledger_of(root)} == {
        "toy.rows": "pass", "toy.two": "error", "toy.three": "error"}


def test_killing_dvc_ends_its_runner_and_kernel(root, good):
    params = root / "notebooks/toy/params.yaml"
    params.write_text(params.read_text().replace("nap_s: 0.0", "nap_s: 60.0"))
    proc = subprocess.Popen([sys.executable, "-m", "dvc", "repro", STAGE], cwd=root,
                            env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    staged = root / "results/.staging/toy__01_faults/toy/claims/01_faults.json"
    wait_for(lambda: staged.exists() and '"toy.rows"' in staged.read_text(), "the first claim")
    tree = below(proc.pid)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    wait_for(lambda: all(gone(p) for p in tree), "the runner and kernel to end with dvc", 15)
    assert outputs(root) == good
    assert record(root)["state"] == "interrupted"


def test_two_runs_at_once_the_second_refused_by_name(root, good):
    first = running(root)
    try:
        second = py(root, "-m", "lib.companion.runner", "notebooks/toy/01_faults.py", ok=False)
        assert second.returncode == 1
        assert f"being run by another process (pid {first.pid}" in second.stderr
        assert record(root)["state"] == "running"
    finally:
        first.kill()
        first.wait(timeout=30)
    assert outputs(root) == good


def output_groups(root: Path) -> dict[str, dict[str, bytes]]:
    """The toy stage's outputs, each (a file, or a folder's files) as a whole."""
    out = {}
    for target in py(root, "-c", "from lib.companion import staging; print('\\n'.join(str(p) "
                     f"for p in staging.stage_outputs({NOTEBOOK!r})))").stdout.split():
        path = Path(target)
        files = sorted(path.rglob("*")) if path.is_dir() else [path] if path.exists() else []
        out[str(path.relative_to(root))] = {str(f.relative_to(path)): f.read_bytes()
                                            for f in files if f.is_file()}
    return out


def restore(root: Path, good: dict[str, bytes]) -> None:
    folder = root / "results" / "toy"
    shutil.rmtree(folder)
    for name, data in good.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)


KILL_AT = """
import os, signal, sys
from lib.companion import runner, staging
steps, move, exchange = [0], staging._move, staging._exchange
def step():
    if steps[0] == {k}:
        os.kill(os.getpid(), signal.SIGKILL)
    steps[0] += 1
def _move(a, b):
    step(); move(a, b)
def _exchange(a, b):
    step(); return exchange(a, b)
staging._move, staging._exchange = _move, _exchange
sys.exit(runner.main(["notebooks/toy/01_faults.py", "-p", "nap_s=0.001"]))
"""


@pytest.fixture(scope="module")
def new_groups(root) -> dict[str, dict[str, bytes]]:
    """The outputs of a complete run with nap_s=0.001 (they differ from the good run's)."""
    before = outputs(root)
    record_file = root / "results/runs/toy/01_faults.json"
    saved = record_file.read_bytes()
    py(root, "-m", "lib.companion.runner", "notebooks/toy/01_faults.py", "-p", "nap_s=0.001")
    groups = output_groups(root)
    restore(root, before)
    record_file.write_bytes(saved)
    return groups


@pytest.mark.parametrize("k", range(5))
def test_kill_at_each_step_of_the_swap_leaves_each_output_whole(root, good, new_groups, k):
    old_groups = output_groups(root)
    assert all(old_groups[n] != new_groups[n] for n in old_groups if "claims" not in n)
    done = py(root, "-c", KILL_AT.format(k=k), ok=False)
    killed = done.returncode == -signal.SIGKILL
    assert killed or done.returncode == 0, done.stderr[-2000:]
    now = output_groups(root)
    for name, files in now.items():     # each output wholly old or wholly new, none missing
        assert files in (old_groups[name], new_groups[name]), f"step {k}: {name} is mixed"
        assert files, f"step {k}: {name} is missing"
    journal = root / "results/.staging/toy__01_faults.swap.json"
    assert journal.exists() == killed
    if killed:
        assert {c["id"] for c in ledger_of(root)} == {"toy.rows", "toy.two", "toy.three"}
        py(root, "-c", "from lib.companion import staging; print(staging.recover_all())")
    assert output_groups(root) == new_groups, f"step {k}: the swap was not finished"
    assert not journal.exists() and not (root / "results/.staging/toy__01_faults").exists()
    restore(root, good)


def test_refused_swap_is_a_failed_run_and_is_finished_later(root, good, new_groups):
    script = KILL_AT.replace("os.kill(os.getpid(), signal.SIGKILL)",
                             "raise OSError(18, 'Invalid cross-device link')").format(k=1)
    done = py(root, "-c", script, ok=False)
    assert done.returncode == 1 and "could not be moved into results/" in done.stderr
    rec = record(root)
    assert rec["state"] == "failed" and "Invalid cross-device link" in rec["error"]
    py(root, "-c", "from lib.companion import staging; staging.recover_all()")
    assert output_groups(root) == new_groups
    restore(root, good)


def test_plain_dvc_repro_reruns_an_interrupted_stage(root, good):
    proc = running(root)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert record(root)["state"] == "interrupted"
    status = dvc(root, "status", STAGE).stdout
    assert "results/runs/toy/01_faults.json" in status, status
    dvc(root, "repro", STAGE)
    assert record(root)["state"] == "ok" and outputs(root) == good
    assert {c["status"] for c in ledger_of(root)} == {"pass"}


def test_run_past_its_time_limit_is_ended_naming_the_cell(root, good):
    spawned = root / "spawned.pids"
    spawned.unlink(missing_ok=True)
    done = py(root, "-m", "lib.companion.runner", "notebooks/toy/01_faults.py", "-p",
              "nap_s=120", "-p", "spawn=true", "--timeout", "20", ok=False)
    assert done.returncode == 1
    assert "ran past its time limit of 20 s" in done.stderr, done.stderr[-2000:]
    assert "time.sleep(cfg.nap_s)" in done.stderr, done.stderr[-2000:]
    assert record(root)["state"] == "failed" and outputs(root) == good
    # what the kernel started ends with it (a sweep's local jobs would otherwise run on)
    pids = [int(p) for p in spawned.read_text().split()]
    assert len(pids) == 3
    wait_for(lambda: all(gone(p) for p in pids), "the kernel's processes to end with it", 10)


def test_timeout_reaches_the_runner_through_dvc(root, good):
    """`make repro TIMEOUT=20` exports COMPANION_TIMEOUT=20; a `dvc repro` started with it ends
    the hung stage after 20 s, saying where the limit came from and how to raise it."""
    params = root / "notebooks/toy/params.yaml"
    params.write_text(params.read_text().replace("nap_s: 0.0", "nap_s: 120.0"))
    done = subprocess.run([sys.executable, "-m", "dvc", "repro", STAGE], cwd=root,
                          env={**env(), "COMPANION_TIMEOUT": "20"}, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode != 0
    said = done.stdout + done.stderr
    assert "ran past its time limit of 20 s (set by TIMEOUT=20)" in said, said[-2000:]
    assert "make repro TIMEOUT=SECONDS" in said
    assert record(root)["state"] == "failed" and outputs(root) == good
