"""Prepare a throwaway smoke-profile copy of the project for nbval (`make test`).

    python -m lib.companion.smoke build/smoke [--paper PAPER]

Copies lib/, notebooks/, data/, docs/ and requirements.lock into the target with the params
files as the schemas give them (the root's with `profile: smoke`), then writes each notebook with
the smoke parameters injected (papermill prepare-only) at the copy's root as
<paper>__<stem>.ipynb. The parameters are the committed defaults, never the workspace's params
files: an experiment's values (`dvc exp run -S`) stay out of the checks. nbval runs them there,
so the kernel imports the copy's `lib` and every result lands under the copy's
results/: the workspace's `default` results are never touched.
"""
from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

import yaml

from lib.companion import generate, papers, params, paths, yamlio

COPIED = ("lib", "notebooks", "data", "docs")   # docs: the specs and the guide the book shows
# the locked environment a run's fingerprint names (lib.companion.fingerprint)
COPIED_FILES = ("requirements.lock",)


def make_copy(target: Path) -> Path:
    """A fresh copy of the code, notebooks and data with the schemas' params files, the root's
    switched to smoke."""
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    for name in COPIED:
        shutil.copytree(paths.ROOT / name, target / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.ipynb",
                                                      ".ipynb_checkpoints"))
    for name in COPIED_FILES:
        shutil.copyfile(paths.ROOT / name, target / name)
    for path, text in generate.params_files().items():
        if path == paths.PARAMS_FILE:                 # the root's, with the smoke profile
            text = yaml.safe_dump({**yamlio.load(text), "profile": "smoke"}, sort_keys=False)
        (target / path.relative_to(paths.ROOT)).write_text(text)
    return target


def smoke_list(paper: str | None = None) -> list[str]:
    """The notebooks nbval runs: every declared one, or one paper's."""
    if paper is not None and paper not in papers.names():
        raise SystemExit(f"--paper {paper!r}: not a declared paper; declared: "
                         f"{list(papers.names())}")
    return [n for n in papers.all_notebooks() if paper is None or n.startswith(paper + "/")]


def prepare(target: Path, paper: str | None = None) -> list[Path]:
    """Write each notebook with smoke parameters injected; return the prepared paths."""
    from lib.companion import runner

    raw = params.read_all(target)                         # make_copy's: the defaults, smoke
    prepared = []
    for notebook in smoke_list(paper):
        out = target / f"{notebook.replace('/', '__')}.ipynb"
        runner.prepare(notebook, params.validate(notebook, params.merge(raw, notebook, "smoke")),
                       out)
        prepared.append(out)
    return prepared


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lib.companion.smoke",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("target", type=Path)
    parser.add_argument("--paper", help="only this paper's notebooks (default: every paper)")
    args = parser.parse_args(argv)
    smoke_list(args.paper)  # refuse an unknown paper before copying anything
    target = make_copy(args.target.resolve())
    for out in prepare(target, args.paper):
        print(out.relative_to(paths.ROOT) if out.is_relative_to(paths.ROOT) else out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
