"""Execute a jupytext notebook headless with papermill, the way every DVC stage does.

    python -m lib.companion.runner notebooks/<paper>/<stem>.py [--out EXECUTED.ipynb] [--profile P]
                         [-p key=value ...] [--prepare-only]

Parameters are merged (params.yaml section, profile overrides, -p overrides) and validated before
any compute. The kernel runs with the repository root as its working directory. Volatile metadata
(timestamps, durations) is stripped from the executed copy. On error the failing cell's source
and traceback are printed and the exit status is non-zero.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import time
from pathlib import Path

import jupytext
import nbformat

from lib.companion import params, paths, yamlio

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
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i}"  # jupytext and papermill draw random ids
        for key in VOLATILE_CELL_KEYS:
            cell.metadata.pop(key, None)
        if cell.cell_type == "code":
            cell["outputs"] = without_progress_bars(cell.get("outputs", []))
    return nb


def clean_outputs(notebook: str) -> None:
    """Remove the notebook's previous figures, tables and claims: stages rewrite them whole."""
    shutil.rmtree(paths.figures_dir(notebook), ignore_errors=True)
    shutil.rmtree(paths.tables_dir(notebook), ignore_errors=True)
    shutil.rmtree(paths.plots_dir(notebook), ignore_errors=True)
    paths.claims_file(notebook).unlink(missing_ok=True)


def report_failure(err: Exception, out: Path) -> None:
    """Print the failing cell and its traceback, readable without opening the notebook."""
    source = getattr(err, "source", None)
    tb = getattr(err, "traceback", None)
    print("\n=== notebook failed ===", file=sys.stderr)
    if source is not None:
        print(f"--- cell {getattr(err, 'exec_count', '?')} ---\n{source}\n--- traceback ---",
              file=sys.stderr)
        print(ANSI.sub("", "\n".join(tb or [str(err)])), file=sys.stderr)
    else:
        print(str(err), file=sys.stderr)
    print(f"executed copy (with the error): {out}", file=sys.stderr)


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
    """Validate, execute, strip and write; return a process exit status."""
    import papermill  # deferred: slow import, not needed for --help or validation errors

    notebook = paths.notebook_id(source)
    cfg = params.resolve(notebook, profile, overrides)
    out = out or paths.executed_file(notebook)
    out.parent.mkdir(parents=True, exist_ok=True)
    if not prepare_only:
        clean_outputs(notebook)
    nb = load_notebook(paths.notebook_source(notebook))
    start = time.perf_counter()
    try:
        result = papermill.execute_notebook(
            nb, str(out), parameters=cfg.model_dump(), kernel_name="python3",
            language="python", cwd=str(paths.ROOT), progress_bar=not prepare_only,
            prepare_only=prepare_only)
    except papermill.PapermillExecutionError as err:
        report_failure(err, out)
        return 1
    nbformat.write(strip_volatile(result), str(out))
    if not prepare_only:
        record_timing(notebook, cfg.profile, time.perf_counter() - start)
    print(f"{notebook} ({cfg.profile}) -> {out}", file=sys.stderr)
    return 0


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
    except params.ParamsError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
