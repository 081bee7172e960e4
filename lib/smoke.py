"""Prepare a throwaway smoke-profile copy of the project for nbval (`make test`).

    python -m lib.smoke build/smoke

Copies lib/, notebooks/, data/ and params.yaml (with `profile: smoke`) into the target, then writes
each notebook with the smoke parameters injected (papermill prepare-only) at the copy's root as
<paper>__<stem>.ipynb. nbval runs them there, so the kernel imports the copy's `lib` and every
result lands under the copy's results/: the workspace's `default` results are never touched.
"""
from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

import yaml

from lib import params, paths

COPIED = ("lib", "notebooks", "data")


def make_copy(target: Path) -> Path:
    """A fresh copy of the code, notebooks and data with params.yaml switched to smoke."""
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    for name in COPIED:
        shutil.copytree(paths.ROOT / name, target / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.ipynb", ".ipynb_checkpoints"))
    raw = params.read_file()
    raw["profile"] = "smoke"
    (target / "params.yaml").write_text(yaml.safe_dump(raw, sort_keys=False))
    return target


def prepare(target: Path) -> list[Path]:
    """Write every notebook with smoke parameters injected; return the prepared paths."""
    import papermill

    from lib import runner

    raw = params.read_file()
    prepared = []
    for notebook in params.notebooks_in_file(raw):
        cfg = params.validate(notebook, params.merge(raw, notebook, "smoke"))
        nb = runner.load_notebook(paths.notebook_source(notebook))
        out = target / f"{notebook.replace('/', '__')}.ipynb"
        result = papermill.execute_notebook(nb, str(out), parameters=cfg.model_dump(),
                                            kernel_name="python3", language="python",
                                            prepare_only=True, progress_bar=False)
        import nbformat
        nbformat.write(runner.strip_volatile(result), str(out))
        prepared.append(out)
    return prepared


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lib.smoke", description=__doc__.split("\n")[0])
    parser.add_argument("target", type=Path)
    args = parser.parse_args(argv)
    target = make_copy(args.target.resolve())
    for out in prepare(target):
        print(out.relative_to(paths.ROOT) if out.is_relative_to(paths.ROOT) else out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
