"""A throwaway copy of the project with a toy paper added, for the tests that run the runner and
DVC on a whole pipeline (tests/test_faults.py, tests/test_parallel.py)."""
import os
import subprocess
import sys
from pathlib import Path

from lib.companion import paths


def env() -> dict:
    """This environment with its Python first on PATH (DVC's stage commands call `python`)."""
    return {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}


def run(cmd: list[str], cwd: Path, ok: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run(cmd, cwd=cwd, env=env(), capture_output=True, text=True, timeout=900)
    if ok:
        assert done.returncode == 0, \
            f"{' '.join(cmd)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def with_toy(root: Path, files: dict[str, str]) -> Path:
    """Copy the tracked and unignored files to `root`, add `files` (path: text), write the
    generated files, commit it all to a new git repository and pull data/ from the bundled
    remote."""
    tracked = run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                  paths.ROOT).stdout.split()
    for name in tracked:
        src = paths.ROOT / name
        if src.is_file():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_bytes(src.read_bytes())
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    run([sys.executable, "-m", "lib.companion.generate", "--write"], root)
    run(["git", "init", "-q"], root)
    run(["git", "add", "-A"], root)
    run(["git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "base"], root)
    run([sys.executable, "-m", "dvc", "pull", "-q", "data.dvc"], root)
    return root
