"""Execute a jupytext notebook headless with papermill, the way every DVC stage does.

    python -m lib.companion.runner notebooks/<paper>/<stem>.py [--out EXECUTED.ipynb] [--profile P]
                         [-p key=value ...] [--prepare-only] [--timeout SECONDS]

Parameters are merged (params.yaml section, profile overrides, -p overrides) and validated before
any compute, and the data files the notebook reads are checked against data.dvc. One run of a
notebook at a time (a lock); its outputs are written into a staging folder and swapped in only when
it finishes, so a failed or killed run leaves the last good results (lib.companion.staging). Its
run record (lib.companion.runs) says how it ended. The kernel runs with the repository root as its
working directory and ends when the runner does; the runner ends, taking its kernel with it, when
the process that started it (DVC, make) dies or it is sent SIGTERM or SIGHUP, and when it runs past
its time limit (--timeout, COMPANION_TIMEOUT, else a multiple of its recorded time). What differs
between runs or machines and is not a result (timestamps, durations, the Python patch version,
progress bars and their cursor moves, the repository's and the environment's absolute paths in
warnings) is stripped from the executed copy, and staged tables are rounded to the ledger's
precision (lib.companion.tables). On error the failing cell's source and traceback are printed and
the exit status is non-zero.
"""
from __future__ import annotations

import argparse
import errno
import json
import math
import os
import re
import shutil
import sys
import threading
import time
from pathlib import Path

import jupytext
import nbformat

from lib.companion import (
    datafiles,
    fingerprint,
    numerics,
    papers,
    params,
    paths,
    processes,
    progress,
    runs,
    staging,
    tables,
    yamlio,
)

ANSI = re.compile(r"\x1b\[[0-9;]*m")
VOLATILE_CELL_KEYS = ("execution", "papermill")
# A tqdm bar as it reaches stderr: "\r<desc>:  40%|####   | 4/10 [00:05<00:07, 1.2it/s]"; its
# elapsed time and rate differ on every run, so the executed copy (a DVC output) keeps none.
PROGRESS_BAR = re.compile(r"\r?[^\r\n]*\d+%\|[^|\n]*\| *\d+/\d+ \[[^\]\n]*\]")
# Terminal control sequences (nested bars move the cursor up: "\x1b[A", as many as the timing
# gives): no result is in them.
CONTROL = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
# A whole-notebook time limit: TIMEOUT_FACTOR times the run's estimated time (its recorded time
# scaled by its sizes), at least TIMEOUT_FLOOR_S (a kernel's start on a busy machine), so only a
# hang reaches it; set for a run by --timeout, or TIMEOUT_ENV (`make repro TIMEOUT=...`, or a
# `dvc repro` started with it). Without an estimate (no recorded time, or the profile grows a
# size the estimate does not scale), the profile's generous TIMEOUT_S.
TIMEOUT_S = {"smoke": 600, "default": 4 * 3600, "paper": 14 * 86400}
TIMEOUT_FACTOR = 5
TIMEOUT_FLOOR_S = 300
TIMEOUT_ENV = "COMPANION_TIMEOUT"
RAISE_LIMIT = (f"to allow longer: `make repro TIMEOUT=SECONDS`, `{TIMEOUT_ENV}=SECONDS dvc repro "
               "...`, or the runner's `--timeout SECONDS`")
# A notebook's time budget per profile (smoke's 10 s, the default profile's 5 minutes) and how
# many times over it an estimate may go before the run is refused unless accepted
# (--accept-cost, or COMPANION_ACCEPT_COST=1 for a run DVC starts: `make repro ALLOW_LONG=1`).
BUDGET_S = {"smoke": 10, "default": 300, "paper": 86400}
REFUSE_OVER = 20
ACCEPT_ENV = "COMPANION_ACCEPT_COST"
# `make repro EXECUTOR=... WORKERS=...`: where every notebook whose grid goes through the sweep
# engine sends its runs, and how many at once, for this run. Results do not depend on either
# (lib/companion/sweep.py), so they are not in the params stamps DVC tracks; the run records
# the values it used. The environment variable, the keys it sets, and its allowed values.
PLACEMENT = {"COMPANION_EXECUTOR": (("executor", "sweep_executor"), ("debug", "local", "slurm")),
             "COMPANION_WORKERS": (("workers",), None)}
PLACED = {"executor", "sweep_executor", "workers", "device"}    # where it runs, not how much


def parse_overrides(pairs: list[str]) -> dict:
    """-p key=value pairs, each value parsed as YAML (so 3 is an int, 0.5 a float)."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.isidentifier():
            raise params.ParamsError(f"-p {pair!r}: expected key=value with a Python identifier")
        try:
            out[key] = yamlio.load(value, f"-p {key}")
        except yamlio.YamlError as err:
            raise params.ParamsError(str(err)) from None
    return out


def load_notebook(source: Path) -> nbformat.NotebookNode:
    """Read the percent .py source as a notebook with an explicit python3 kernel."""
    nb = jupytext.read(source)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nb.metadata.setdefault("language_info", {"name": "python"})
    return nb


def local_places() -> list[tuple[str, str]]:
    """This machine's absolute paths as they appear in warnings, with what replaces each: the
    environment's (site-packages) and the repository's (lib/...), longest first."""
    places = {sys.prefix: "<env>", sys.base_prefix: "<python>", str(paths.ROOT): "."}
    return sorted(places.items(), key=lambda kv: -len(kv[0]))


# where ipykernel files a cell's code for tracebacks and warnings: /tmp/ipykernel_<pid>/<hash>.py;
# the pid differs on every run (the hash is of the cell's code, the same everywhere)
KERNEL_CELL_DIR = re.compile(r"[^\s\"'()]*/ipykernel_\d+/")


def portable(text: str) -> str:
    """Stream text with this machine's absolute paths, and the kernel's per-run cell folder,
    replaced by names true on any machine and run."""
    for place, name in local_places():
        text = text.replace(place + "/", name + "/")
    return KERNEL_CELL_DIR.sub("<cell>/", text)


def without_progress_bars(outputs: list) -> list:
    """Cell outputs less the progress bars and cursor moves in stderr streams (and the streams
    they empty), absolute paths made portable, and adjacent streams of one name merged (where
    the kernel split its text depends on timing)."""
    kept: list = []
    for out in outputs:
        if out.get("output_type") == "stream":
            text = "".join(out["text"]) if isinstance(out["text"], list) else out["text"]
            if out.get("name") == "stderr":
                text = CONTROL.sub("", PROGRESS_BAR.sub("", text))
                if not text.strip():
                    continue
            text = portable(text)
            last = kept[-1] if kept else None
            if last is not None and last.get("output_type") == "stream" \
                    and last.get("name") == out.get("name"):
                last["text"] += text
                continue
            out["text"] = text
        kept.append(out)
    return kept


def strip_volatile(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Remove timestamps, durations and progress bars so that reruns differ only where results
    differ."""
    nb.metadata.pop("papermill", None)
    nb.metadata.get("language_info", {}).pop("version", None)   # 3.11.2 and 3.11.7 give one result
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i}"  # jupytext and papermill draw random ids
        for key in VOLATILE_CELL_KEYS:
            cell.metadata.pop(key, None)
        if cell.cell_type == "code":
            cell["outputs"] = without_progress_bars(cell.get("outputs", []))
    return nb


def cause(err: BaseException) -> str:
    """The real cause of a failed run in one line: the time limit, a killed kernel, a full disk,
    memory, else the exception's last line."""
    name = getattr(err, "ename", None) or type(err).__name__
    value = ANSI.sub("", str(getattr(err, "evalue", None) or err)).strip()
    if isinstance(err, TimeLimit):
        return str(err)
    if name == "DeadKernelError" or "Kernel died" in value:
        return ("its kernel was killed (out of memory, or a signal from outside: `dmesg` names "
                "an out-of-memory kill); lower the sizes or free memory, then run again")
    if getattr(err, "errno", None) == errno.ENOSPC or "No space left on device" in value:
        return "no space left on the disk: free some (`df -h .`), then run again"
    if name == "MemoryError":
        return (f"out of memory ({name}{': ' + value if value else ''}); lower the sizes or "
                "free memory, then run again")
    last = value.splitlines()[-1] if value else ""
    return f"{name}: {yamlio.cut(last, 300)}" if last else name


def report_failure(notebook: str, err: BaseException, out: Path | None) -> None:
    """Print the failing cell and its traceback (readable without opening the notebook), then one
    line naming the real cause; a failure outside any cell is that line alone."""
    source = getattr(err, "source", None)
    tb = getattr(err, "traceback", None)
    if source is not None and not isinstance(err, TimeLimit):
        print(f"\n=== notebook failed ===\n--- cell {getattr(err, 'exec_count', '?')} ---\n"
              f"{source}\n--- traceback ---", file=sys.stderr)
        print(ANSI.sub("", "\n".join(tb or [str(err)])), file=sys.stderr)
    kept = f" (the executed copy with the error: {out})" if out is not None else ""
    print(f"error: {notebook} failed: {cause(err)}; the previous results are kept and the ledger "
          f"shows this notebook's claims as `error`{kept}", file=sys.stderr)


def failure_detail(err: BaseException) -> dict:
    """The run record's account of an error: the cell (when a cell raised) and the exception."""
    if getattr(err, "ename", None):
        return {"cell": getattr(err, "exec_count", None),
                "error": f"{err.ename}: {ANSI.sub('', str(err.evalue)).strip()}"[:2000]}
    return {"cell": None, "error": f"{type(err).__name__}: {err}"[:2000]}


# ---------------------------------------------------------------- ending with the parent
def watched_ancestors() -> list[int]:
    """The processes whose death ends this run: the parent, and the grandparent when the
    parent is only the shell DVC or make started the command in."""
    parent = os.getppid()
    watched = [parent]
    try:
        if Path(f"/proc/{parent}/comm").read_text().strip() in ("sh", "bash", "dash", "zsh"):
            watched.append(processes.parent_of(parent))
    except (OSError, ValueError, IndexError):
        pass                                    # no /proc: the parent alone
    return [p for p in watched if p > 1]


def kill_kernel() -> None:
    """SIGKILL the kernel and everything it started (a sweep's local jobs, their workers)."""
    processes.kill_below(os.getpid())


def end_with_parents(ancestors: list[int], period_s: float = 0.5) -> threading.Thread:
    """A daemon thread that, once a watched ancestor is gone, kills the kernel and exits: an
    orphaned run would keep writing beside the next one."""
    parent = os.getppid()
    return processes.watch(
        lambda: os.getppid() != parent or not all(processes.alive(p) for p in ancestors),
        "runner: the process that started this run is gone; ending the kernel", 3,
        "end-with-parents", period_s)


def timing_file(notebook: str, profile: str = "default") -> Path:
    """Wall time of the last run in a profile (not a DVC output: it differs on every run; read by
    the report and the cost plan). The default profile's at results/timings/, another's in its
    own folder there, so a paper-profile run leaves the default timing the plan scales from."""
    folder = paths.timings_dir() if profile == "default" else paths.timings_dir() / profile
    return folder / f"{notebook.replace('/', '__')}.json"


def sizes(cfg: params.NotebookParams) -> dict[str, float]:
    """The values of the keys the schema says its cost grows with (its COST), as numbers."""
    return {k: float(getattr(cfg, k)) for k in type(cfg).COST}


def record_timing(notebook: str, cfg: params.NotebookParams, seconds: float) -> None:
    """Write the wall time of a finished run, with its sizes, to its timing file."""
    out = timing_file(notebook, cfg.profile)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"notebook": notebook, "profile": cfg.profile,
                               "wall_s": round(seconds, 2), "sizes": sizes(cfg),
                               "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}))


def scale(now: dict[str, float], then: dict[str, float]) -> float:
    """How many times a timed run's cost a run of `now`'s sizes costs: the product of the sizes'
    ratios (cost linear in each COST key; `then` holds the same keys, each > 0)."""
    return math.prod(value / then[key] for key, value in now.items())


def estimate_s(notebook: str, cfg: params.NotebookParams) -> float | None:
    """This run's wall time, estimated from the last timed run on this machine (in its profile,
    else the default profile) scaled by its sizes; None without a comparable timed run."""
    for profile in dict.fromkeys((cfg.profile, "default")):
        try:
            last = json.loads(timing_file(notebook, profile).read_text())
            break
        except (OSError, ValueError):
            continue
    else:
        return None
    now, then = sizes(cfg), last.get("sizes") or {}
    if not now or set(then) != set(now) or not all(v > 0 for v in then.values()):
        return None
    return float(last["wall_s"]) * scale(now, then)


def committed_s(notebook: str, cfg: params.NotebookParams) -> float | None:
    """This run's wall time from the stage's committed time (docs/timings.json, the schema's
    default values) scaled by its sizes: what a fresh clone knows. None without one, or when the
    run changes a value the scale leaves out (the estimate would be low)."""
    try:
        entry = json.loads(paths.TIMINGS_SNAPSHOT.read_text())["stages"][notebook]
        wall_s = float(entry["wall_s"]) if entry.get("profile") == "default" else None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    base = type(cfg)()                               # what the committed time was measured with
    now, then = sizes(cfg), entry.get("sizes") or sizes(base)
    if wall_s is None or set(now) != set(then) or not all(v > 0 for v in then.values()):
        return None
    scaled = set(now) | set(getattr(type(cfg), "COST_INPUTS", ())) | PLACED
    if any(getattr(cfg, k) != getattr(base, k) for k in cfg.section_keys() if k not in scaled):
        return None
    return wall_s * scale(now, then)


def time_limit_s(notebook: str, cfg: params.NotebookParams,
                 given: float | None) -> tuple[float, str]:
    """The run's time limit and where it comes from: --timeout, else TIMEOUT_ENV, else
    TIMEOUT_FACTOR times its estimated time (at least TIMEOUT_FLOOR_S), else the profile's
    TIMEOUT_S. A bad value is refused naming where it was set, before any compute."""
    if given is not None:
        if not given > 0:
            raise params.ParamsError(f"--timeout {given:g}: allowed: a number of seconds > 0")
        return given, "set by --timeout"
    text = os.environ.get(TIMEOUT_ENV, "")
    if text:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and value > 0):
            raise params.ParamsError(f"{TIMEOUT_ENV} (make repro's TIMEOUT) = {text!r}: "
                                     "allowed: a number of seconds > 0")
        return value, f"set by TIMEOUT={text}"
    est = estimate_s(notebook, cfg)
    if est is None:
        est = committed_s(notebook, cfg)
    if est is None:
        return TIMEOUT_S[cfg.profile], (f"the {cfg.profile} profile's limit: no estimate from a "
                                        "recorded time")
    limit = max(TIMEOUT_FLOOR_S, TIMEOUT_FACTOR * est)
    return limit, (f"{TIMEOUT_FACTOR}x its estimated {est:,.0f} s, at least "
                   f"{TIMEOUT_FLOOR_S} s")


def check_cost(notebook: str, cfg: params.NotebookParams, accept: bool) -> None:
    """Print the estimate of a run over its profile's budget; refuse one over REFUSE_OVER times
    the budget unless accepted (ParamsError naming the keys that make it long, and how to
    accept). The estimate scales this machine's last timed run, else the stage's committed time
    (docs/timings.json), so a fresh clone refuses too."""
    est, source = estimate_s(notebook, cfg), "its last timed run here"
    if est is None:
        est, source = committed_s(notebook, cfg), "its committed time (docs/timings.json)"
    budget = BUDGET_S[cfg.profile]
    if est is None or est <= budget:
        return
    base = sizes(type(cfg)())
    grown = [f"{k} = {v:g} (default {base[k]:g})" for k, v in sizes(cfg).items() if v > base[k]]
    said = (f"{notebook}: estimated {est:,.0f} s ({est / 3600:,.1f} h) for profile {cfg.profile} "
            f"(budget {budget} s), {source} scaled by its sizes"
            + (f"; long because of {', '.join(grown)}" if grown else ""))
    if est > REFUSE_OVER * budget and not (accept or os.environ.get(ACCEPT_ENV) == "1"):
        raise params.ParamsError(f"{said}: over {REFUSE_OVER}x the budget, so not started; to "
                                 f"run it: `make repro ALLOW_LONG=1`, `{ACCEPT_ENV}=1 dvc repro "
                                 "...`, or the runner's --accept-cost")
    print(f"note: {said}", file=sys.stderr)


def placement(notebook: str, overrides: dict) -> dict:
    """The overrides with the environment's executor and worker count (PLACEMENT) applied to a
    notebook whose schema has those keys; an explicit -p wins. A bad value is refused naming the
    variable, before any run."""
    fields = params.schema_for(notebook).model_fields
    out = dict(overrides)
    for env, (keys, allowed) in PLACEMENT.items():
        value = os.environ.get(env, "")
        if not value:
            continue
        if allowed is not None and value not in allowed:
            raise params.ParamsError(f"{env} = {value!r}: allowed: one of {', '.join(allowed)}")
        if allowed is None and not (value.isdigit() and int(value) >= 1):
            raise params.ParamsError(f"{env} = {value!r}: allowed: an integer >= 1")
        key = next((k for k in keys if k in fields), None)
        if key is not None and key not in out:
            out[key] = value if allowed is not None else int(value)
    return out


def run(source: Path, out: Path | None, profile: str | None, overrides: dict,
        prepare_only: bool = False, timeout_s: float | None = None,
        accept_cost: bool = False) -> int:
    """Validate, then (unless only preparing) execute under the notebook's lock; return a
    process exit status."""
    notebook = paths.notebook_id(source)
    cfg = params.resolve(notebook, profile, placement(notebook, overrides))
    if prepare_only:
        return prepare(notebook, cfg, out)
    limit = time_limit_s(notebook, cfg, timeout_s)
    check_cost(notebook, cfg, accept_cost)
    blocked = staging.unwritable(notebook)
    if blocked:                               # known before any compute: say it now
        print(f"error: {notebook}: its outputs cannot be written: {blocked}", file=sys.stderr)
        return 1
    try:
        datafiles.check(papers.notebook_entry(notebook).data)
        staging.recover_all()            # swaps a kill interrupted: their outputs all new
        with staging.lock(notebook):
            return execute(notebook, cfg, out, limit)
    except (datafiles.DataError, staging.Busy) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1


ENGINE = "companion-progress"           # papermill's engine, telling progress which cell runs


def grid_runs(cfg: params.NotebookParams) -> int | None:
    """How many runs the notebook's grid hands to the sweep engine (None: it has no grid)."""
    count = getattr(cfg, "jobs", None)
    try:
        return int(count()) if callable(count) else None
    except NotImplementedError:
        return None


def register_progress_engine(notebook: str, cfg: params.NotebookParams) -> None:
    """papermill's nbclient engine, registered as ENGINE, writing the notebook's progress file
    (lib.companion.progress) as each code cell starts."""
    from papermill.engines import NBClientEngine, papermill_engines
    runs_total = grid_runs(cfg)

    class ProgressEngine(NBClientEngine):
        @classmethod
        def execute_managed_notebook(cls, nb_man, kernel_name, **kwargs):
            code = [i for i, c in enumerate(nb_man.nb.cells) if c.cell_type == "code"]
            number = {index: n + 1 for n, index in enumerate(code)}
            started = nb_man.cell_start

            def cell_start(cell, cell_index=None, **more):
                if cell_index in number:
                    progress.cell(notebook, number[cell_index], len(code), runs_total)
                return started(cell, cell_index, **more)
            nb_man.cell_start = cell_start
            progress.start(notebook, len(code), runs_total)
            return super().execute_managed_notebook(nb_man, kernel_name, **kwargs)
    papermill_engines.register(ENGINE, ProgressEngine)


def prepare(notebook: str, cfg: params.NotebookParams, out: Path | None) -> int:
    """Write the notebook with its parameters injected and nothing executed (nbval's input)."""
    import papermill
    out = out or paths.executed_file(notebook)
    out.parent.mkdir(parents=True, exist_ok=True)
    result = papermill.execute_notebook(
        load_notebook(paths.notebook_source(notebook)), str(out), parameters=cfg.model_dump(),
        kernel_name="python3", language="python", cwd=str(paths.ROOT), progress_bar=False,
        prepare_only=True)
    nbformat.write(strip_volatile(result), str(out))
    return 0


def execute(notebook: str, cfg: params.NotebookParams, out: Path | None,
            timeout: tuple[float, str]) -> int:
    """Run the notebook into a staging folder, then swap its outputs in; a failure (an error,
    the time limit, a refused swap) leaves the previous outputs and records how it failed."""
    import papermill  # deferred: slow import, not needed for --help or validation errors

    folder = staging.fresh(notebook)
    executed = staging.staged(folder, paths.executed_file(notebook))
    executed.parent.mkdir(parents=True, exist_ok=True)
    numerics.pin()                       # the kernel and what it starts take one CPU code path
    made_by = fingerprint.of_environment()           # ... in this environment, on this CPU
    runs.write(notebook, "running", cfg.profile, made_by=made_by)
    os.environ[paths.STAGING_ENV] = f"{notebook}={folder}"
    os.environ["COMPANION_RUNNER_PID"] = str(os.getpid())     # the kernel ends with this process
    os.environ[progress.ENV] = str(progress.runs_file(notebook))     # its sweeps' progress
    register_progress_engine(notebook, cfg)
    end_with_parents(watched_ancestors())
    processes.end_on_signals(f"runner: {notebook} ended by a signal; its kernel and jobs with it")
    limit = time_limit(timeout[0])
    start = time.perf_counter()
    try:
        result = papermill.execute_notebook(
            load_notebook(paths.notebook_source(notebook)), str(executed),
            parameters=cfg.model_dump(), kernel_name="python3", language="python",
            cwd=str(paths.ROOT), progress_bar=True, engine_name=ENGINE)
    except Exception as err:                  # a cell raised, the kernel died, the disk filled
        limit.cancel()
        failure = (TimeLimit(notebook, *timeout, running_cell(executed))
                   if limit.expired.is_set() else err)
        kept = keep_failed_copy(notebook, executed)
        report_failure(notebook, failure, kept)
        runs.write(notebook, "failed", cfg.profile, **failure_detail(failure),
                   recorded=runs.staged_claims(notebook), made_by=made_by)
        shutil.rmtree(folder, ignore_errors=True)
        return 1
    finally:
        limit.cancel()
        os.environ.pop(paths.STAGING_ENV, None)
        os.environ.pop(progress.ENV, None)
        progress.clear(notebook)
    nbformat.write(strip_volatile(result), str(executed))
    for kind in ("tables", "plots"):
        tables.round_folder(folder / notebook.split("/")[0] / kind)
    try:
        staging.swap(notebook, folder)
    except OSError as err:                    # read-only, full, another file system
        print(f"error: {notebook}: its outputs could not be moved into results/: "
              f"{staging.refusal(notebook, err)}; the previous outputs are kept, and the next run "
              "or `python -m lib.companion.ledger` finishes the move", file=sys.stderr)
        runs.write(notebook, "failed", cfg.profile, cell=None,
                   error=f"the outputs could not be swapped in: {err}"[:2000], recorded=[],
                   made_by=made_by)
        return 1
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(paths.executed_file(notebook), out)
    paths.failed_copy(notebook).unlink(missing_ok=True)
    runs.write(notebook, "ok", cfg.profile, made_by=made_by)
    record_timing(notebook, cfg, time.perf_counter() - start)
    print(f"{notebook} ({cfg.profile}) -> {out or paths.executed_file(notebook)}",
          file=sys.stderr)
    return 0


class TimeLimit(RuntimeError):
    """The notebook ran past its time limit; the kernel was ended."""

    def __init__(self, notebook: str, seconds: float, why: str, cell: str) -> None:
        super().__init__(f"{notebook} ran past its time limit of {seconds:,.0f} s ({why}) and "
                         f"was ended in {cell}; {RAISE_LIMIT}")


def time_limit(seconds: float) -> threading.Timer:
    """A timer that, once `seconds` have passed, ends the kernel (papermill then raises) and
    sets its `expired` event."""
    def expire() -> None:
        timer.expired.set()
        kill_kernel()
    timer = threading.Timer(seconds, expire)
    timer.expired = threading.Event()
    timer.daemon = True
    timer.start()
    return timer


def running_cell(executed: Path) -> str:
    """The last cell papermill started in the staged executed copy (the one running when the
    kernel was ended), as 'cell N (its first line)'; 'an unknown cell' when the copy does not
    say."""
    try:
        nb = nbformat.read(str(executed), as_version=4)
    except Exception:                       # not written yet, or cut mid-write by the kill
        return "an unknown cell"
    started = [i for i, cell in enumerate(nb.cells)
               if cell.metadata.get("papermill", {}).get("start_time")]
    if not started:
        return "an unknown cell"
    source = nb.cells[started[-1]].source
    first = next((ln for ln in source.splitlines() if ln.strip() and not ln.startswith("#")), "")
    return f"cell {started[-1]} ({first[:80]})"


def keep_failed_copy(notebook: str, executed: Path) -> Path | None:
    """Move the executed copy of a failed run (with its error) to results/failed/."""
    if not executed.exists():
        return None
    target = paths.failed_copy(notebook)
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(str(executed), target)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lib.companion.runner",
                                     description="execute a notebook with validated params")
    parser.add_argument("notebook", type=Path, help="notebooks/<paper>/<stem>.py")
    parser.add_argument("--out", type=Path, help="executed .ipynb (default: results/...)")
    parser.add_argument("--profile", choices=params.PROFILES, help="default: params.yaml's")
    parser.add_argument("-p", dest="pairs", action="append", default=[], metavar="KEY=VALUE",
                        help="override one parameter (YAML value)")
    parser.add_argument("--prepare-only", action="store_true",
                        help="inject parameters without executing (used for nbval)")
    parser.add_argument("--timeout", type=float, metavar="SECONDS",
                        help=f"end the run after this long (default: ${TIMEOUT_ENV}, else "
                             f"{TIMEOUT_FACTOR}x its estimated time, at least {TIMEOUT_FLOOR_S} "
                             "s, else per profile: "
                             + ", ".join(f"{k} {v:g} s" for k, v in TIMEOUT_S.items()) + ")")
    parser.add_argument("--accept-cost", action="store_true",
                        help=f"run even when the estimate is over {REFUSE_OVER}x the profile's "
                             "budget")
    args = parser.parse_args(argv)
    try:
        return run(args.notebook, args.out, args.profile, parse_overrides(args.pairs),
                   args.prepare_only, args.timeout, args.accept_cost)
    except params.ParamsError as err:
        print(f"error: {err}{params.where_held()}", file=sys.stderr)
        return 2
    except papers.DeclarationError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:                # before the run's own handler (validation, lock)
        print(f"runner: {args.notebook} interrupted (Ctrl-C) before it ran", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
