"""Execute a jupytext notebook headless with papermill, the way every DVC stage does.

    python -m lib.companion.runner notebooks/<paper>/<stem>.py [--out EXECUTED.ipynb] [--profile P]
                         [-p key=value ...] [--prepare-only]

Parameters are merged (params.yaml section, profile overrides, -p overrides) and validated before
any compute, and the data files the notebook reads are checked against data.dvc. One run of a
notebook at a time (a lock); its outputs are written into a staging folder and swapped in only
when it finishes, so a failed or killed run leaves the last good results (lib.companion.staging).
Its run record (lib.companion.runs) says how it ended. The kernel runs with the repository root as
its working directory and ends when the runner does; the runner ends, taking its kernel with it,
when the process that started it (DVC, make) dies. Volatile metadata (timestamps, durations, the
Python patch version) is stripped from the executed copy, and staged tables are rounded to the
ledger's precision (lib.companion.tables). On error the failing cell's source and traceback are
printed and the exit status is non-zero.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import sys
import threading
import time
from pathlib import Path

import jupytext
import nbformat

from lib.companion import datafiles, numerics, papers, params, paths, runs, staging, tables, yamlio

ANSI = re.compile(r"\x1b\[[0-9;]*m")
VOLATILE_CELL_KEYS = ("execution", "papermill")
# A tqdm bar as it reaches stderr: "\r<desc>:  40%|####   | 4/10 [00:05<00:07, 1.2it/s]"; its
# elapsed time and rate differ on every run, so the executed copy (a DVC output) keeps none.
PROGRESS_BAR = re.compile(r"\r?[^\r\n]*\d+%\|[^|\n]*\| *\d+/\d+ \[[^\]\n]*\]")


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


def without_progress_bars(outputs: list) -> list:
    """Cell outputs less the progress bars in stderr streams (and the streams they empty)."""
    kept = []
    for out in outputs:
        if out.get("output_type") == "stream" and out.get("name") == "stderr":
            text = PROGRESS_BAR.sub("", out["text"])
            if not text.strip():
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


def report_failure(err: BaseException, out: Path | None) -> None:
    """Print the failing cell and its traceback, readable without opening the notebook."""
    source = getattr(err, "source", None)
    tb = getattr(err, "traceback", None)
    print("\n=== notebook failed ===", file=sys.stderr)
    if source is not None:
        print(f"--- cell {getattr(err, 'exec_count', '?')} ---\n{source}\n--- traceback ---",
              file=sys.stderr)
        print(ANSI.sub("", "\n".join(tb or [str(err)])), file=sys.stderr)
    else:
        print(f"{type(err).__name__}: {err}", file=sys.stderr)
    if out is not None:
        print(f"executed copy (with the error): {out}", file=sys.stderr)
    print("the previous results are kept; the ledger shows this notebook's claims as `error`",
          file=sys.stderr)


def failure_detail(err: BaseException) -> dict:
    """The run record's account of an error: the cell (when a cell raised) and the exception."""
    if getattr(err, "ename", None):
        return {"cell": getattr(err, "exec_count", None),
                "error": f"{err.ename}: {ANSI.sub('', str(err.evalue)).strip()}"[:2000]}
    return {"cell": None, "error": f"{type(err).__name__}: {err}"[:2000]}


# ---------------------------------------------------------------- ending with the parent
def parent_of(pid: int) -> int:
    """A process's parent pid, from /proc (the field after the parenthesised command name)."""
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def watched_ancestors() -> list[int]:
    """The processes whose death ends this run: the parent, and the grandparent when the
    parent is only the shell DVC or make started the command in."""
    parent = os.getppid()
    watched = [parent]
    try:
        if Path(f"/proc/{parent}/comm").read_text().strip() in ("sh", "bash", "dash", "zsh"):
            watched.append(parent_of(parent))
    except (OSError, ValueError, IndexError):
        pass                                    # no /proc: the parent alone
    return [p for p in watched if p > 1]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def children(pid: int) -> list[int]:
    """The direct children of a process (its kernel), from /proc."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if parent_of(int(stat.parent.name)) == pid:
                out.append(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return out


def end_with_parents(ancestors: list[int], period_s: float = 0.5) -> threading.Thread:
    """A daemon thread that, once a watched ancestor is gone, kills the kernel and exits: an
    orphaned run would keep writing beside the next one."""
    def watch() -> None:
        parent = os.getppid()
        while True:
            time.sleep(period_s)
            if os.getppid() != parent or not all(alive(p) for p in ancestors):
                print("runner: the process that started this run is gone; ending the kernel",
                      file=sys.stderr)
                for child in children(os.getpid()):
                    try:
                        os.kill(child, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                os._exit(3)
    thread = threading.Thread(target=watch, name="end-with-parents", daemon=True)
    thread.start()
    return thread


def timing_file(notebook: str) -> Path:
    """Wall time of the last run (not a DVC output: it differs on every run; read by the report)."""
    return paths.timings_dir() / f"{notebook.replace('/', '__')}.json"


def record_timing(notebook: str, profile: str, seconds: float) -> None:
    """Write the wall time of a finished run to its timing file."""
    out = timing_file(notebook)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"notebook": notebook, "profile": profile,
                               "wall_s": round(seconds, 2),
                               "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}))


def run(source: Path, out: Path | None, profile: str | None, overrides: dict,
        prepare_only: bool = False) -> int:
    """Validate, then (unless only preparing) execute under the notebook's lock; return a
    process exit status."""
    notebook = paths.notebook_id(source)
    cfg = params.resolve(notebook, profile, overrides)
    if prepare_only:
        return prepare(notebook, cfg, out)
    try:
        datafiles.check(papers.notebook_entry(notebook).data)
        with staging.lock(notebook):
            return execute(notebook, cfg, out)
    except (datafiles.DataError, staging.Busy) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1


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


def execute(notebook: str, cfg: params.NotebookParams, out: Path | None) -> int:
    """Run the notebook into a staging folder, then swap its outputs in; a failure leaves the
    previous outputs and records how it failed."""
    import papermill  # deferred: slow import, not needed for --help or validation errors

    folder = staging.fresh(notebook)
    executed = staging.staged(folder, paths.executed_file(notebook))
    executed.parent.mkdir(parents=True, exist_ok=True)
    runs.write(notebook, "running", cfg.profile)
    os.environ[paths.STAGING_ENV] = f"{notebook}={folder}"
    os.environ["COMPANION_RUNNER_PID"] = str(os.getpid())     # the kernel ends with this process
    numerics.pin()                       # the kernel and what it starts take one CPU code path
    end_with_parents(watched_ancestors())
    start = time.perf_counter()
    try:
        result = papermill.execute_notebook(
            load_notebook(paths.notebook_source(notebook)), str(executed),
            parameters=cfg.model_dump(), kernel_name="python3", language="python",
            cwd=str(paths.ROOT), progress_bar=True)
    except Exception as err:                  # a cell raised, the kernel died, the disk filled
        kept = keep_failed_copy(notebook, executed)
        report_failure(err, kept)
        runs.write(notebook, "failed", cfg.profile, **failure_detail(err),
                   recorded=runs.staged_claims(notebook))
        shutil.rmtree(folder, ignore_errors=True)
        return 1
    finally:
        os.environ.pop(paths.STAGING_ENV, None)
    nbformat.write(strip_volatile(result), str(executed))
    for kind in ("tables", "plots"):
        tables.round_folder(folder / notebook.split("/")[0] / kind)
    staging.swap(notebook, folder)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(paths.executed_file(notebook), out)
    paths.failed_copy(notebook).unlink(missing_ok=True)
    runs.write(notebook, "ok", cfg.profile)
    record_timing(notebook, cfg.profile, time.perf_counter() - start)
    print(f"{notebook} ({cfg.profile}) -> {out or paths.executed_file(notebook)}",
          file=sys.stderr)
    return 0


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
    args = parser.parse_args(argv)
    try:
        return run(args.notebook, args.out, args.profile, parse_overrides(args.pairs),
                   args.prepare_only)
    except (params.ParamsError, papers.DeclarationError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
