"""Throwaway copies of the project, for the tests that run the runner and DVC on a whole pipeline
(tests/test_faults.py, test_parallel.py, test_new_paper.py, test_decide_in_ledger.py).

The expensive part is made once per test session (per xdist worker): `template` copies the
tracked and unignored files, writes the generated files, commits them to a new git repository,
pulls data/ from the bundled remote and measures the runner's fingerprint of this environment
(lib.companion.fingerprint caches it under build/fingerprints/). Each test module then takes its
own `clone` of it (git's local clone, the ignored data/, DVC cache and fingerprint cache copied)
and adds its files: a module's faults, experiments and commits never reach another's copy.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

from lib.companion import paths

# what git does not carry from the template to a clone: the data DVC pulled (and its cache, for
# `dvc checkout`), the fingerprint the template measured
IGNORED = ("data", ".dvc/cache", "build/fingerprints")


def env() -> dict:
    """This environment with its Python first on PATH (DVC's stage commands call `python`)."""
    return {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}


def run(cmd: list[str], cwd: Path, ok: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run(cmd, cwd=cwd, env=env(), capture_output=True, text=True, timeout=900)
    if ok:
        assert done.returncode == 0, \
            f"{' '.join(cmd)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def commit(root: Path, message: str) -> None:
    run(["git", "add", "-A"], root)
    run(["git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", message], root)


def template(root: Path) -> Path:
    """Copy the tracked and unignored files to `root`, write the generated files, commit it all
    to a new git repository, pull data/ from the bundled remote and measure the fingerprint a
    runner started from this (pinned) environment records."""
    tracked = run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                  paths.ROOT).stdout.split()
    for name in tracked:
        src = paths.ROOT / name
        if src.is_file():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_bytes(src.read_bytes())
    run([sys.executable, "-m", "lib.companion.generate", "--write"], root)
    run(["git", "init", "-q"], root)
    commit(root, "base")
    run([sys.executable, "-m", "dvc", "pull", "-q", "data.dvc"], root)
    run([sys.executable, "-c", "from lib.companion import fingerprint, numerics; "
         "fingerprint.of_environment(numerics.pin(dict(__import__('os').environ)))"], root)
    return root


def clone(source: Path, root: Path, files: dict[str, str]) -> Path:
    """A copy of the template `source` at `root` (a git clone, with what git leaves out),
    `files` (path: text) added, the generated files written and committed."""
    run(["git", "clone", "-q", str(source), str(root)], source.parent)
    for name in IGNORED:
        if (source / name).exists():
            shutil.copytree(source / name, root / name)
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    if files:
        run([sys.executable, "-m", "lib.companion.generate", "--write"], root)
        commit(root, "toy")
    return root


def value_toy(stem: str, cls: str, title: str) -> dict[str, str]:
    """The files of a toy paper `toy` with one notebook `stem` that draws its one parameter
    `value` and records it as the exact claim `toy.<stem's word>.value`'s measured value (the
    paper the one-paper-run and way-back tests run)."""
    word = stem.split("_", 1)[1]
    declaration = (f"short: toy\ntitle: {title}\nauthors: [Nobody]\narxiv: \"0000.00000\"\n"
                   f"notebooks:\n- stem: {stem}\n  params: {cls}\n  figures:\n  - name: {stem}\n"
                   f"    caption: the value\n    claims: [{word}.value]\n")
    schema = ('"""Parameters of the toy paper."""\n'
              "from lib.companion.params import NotebookParams, param\n\n\n"
              f"class {cls}(NotebookParams):\n    \"\"\"One value.\"\"\"\n\n"
              '    value: int = param(3, "written to the ledger", ge=0, le=100)\n')
    notebook = ("# %% [markdown]\n# # A toy notebook\n\n# %% tags=[\"parameters\"]\n\n# %%\n"
                "from lib.companion import notebook, plotting\n\n"
                f"nb = notebook.start(\"toy/{stem}\", globals())\n"
                "fig, ax = plotting.figure()\nax.bar([0], [nb.cfg.value])\nnb.save_figure(fig)\n"
                f"nb.ledger.exact(\"{word}.value\", \"the value is kept\", source=\"toy\", "
                "provenance=\"derived\",\n"
                "                expected=nb.cfg.value, measured=int(nb.cfg.value * 1))\n"
                "nb.finish()\n")
    return {"notebooks/toy/paper.yaml": declaration, f"notebooks/toy/{stem}.py": notebook,
            "lib/toy/__init__.py": '"""A toy paper."""\n', "lib/toy/schema.py": schema}
