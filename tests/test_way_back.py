"""The way back after `dvc exp run -S`, end to end in a copy of the project with a toy paper whose
results were made and committed there (the other papers never run, as in a fresh clone):

- a refused value: the refusal names the key, the file that holds it and the command that undoes
  it, `git status` shows the file, and `make restore` (lib.companion.restore) leaves git status
  clean with every output in place, the toy's stage up to date;
- an experiment that ran: `make restore` brings the committed outputs back from DVC's cache;
- and when the cache lacks the committed outputs, it runs the stage again rather than delete
  anything (a plain `dvc checkout` deletes every output whose object is not in the cache, and
  fails on the papers this copy never ran).
"""
import json
import sys
from pathlib import Path

import pytest

from lib.companion import yamlio
from tests import project_copy
from tests.project_copy import run

pytestmark = pytest.mark.heavy

PARAMS = "notebooks/toy/params.yaml"
STAGE = "notebooks/toy/dvc.yaml:toy-01_back"
OUTPUTS = ("results/toy/claims/01_back.json", "results/toy/executed/01_back.ipynb",
           "results/toy/figures/01_back/01_back.png")


@pytest.fixture(scope="module")
def root(project_template, tmp_path_factory) -> Path:
    """The copy, its toy results made and committed with their locks and ledger summary."""
    files = project_copy.value_toy("01_back", "Back", "A Toy Paper to Go Back From")
    root = project_copy.clone(project_template, tmp_path_factory.mktemp("back") / "companion",
                              files)
    run([sys.executable, "-m", "lib.companion.parallel", "--jobs", "1",
         "notebooks/toy/dvc.yaml"], root)
    run([sys.executable, "-m", "lib.companion.ledger"], root)
    commit(root, "toy results")
    return root


def commit(root: Path, message: str) -> None:
    run(["git", "add", "-A"], root)
    run(["git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", message], root)


def git_status(root: Path) -> list[str]:
    return run(["git", "status", "--porcelain", "--untracked-files=no"], root).stdout.splitlines()


def measured(root: Path) -> int:
    claims = json.loads((root / "results/toy/claims/01_back.json").read_text())["claims"]
    return int(claims[0]["measured"])


def restore(root: Path) -> str:
    done = run([sys.executable, "-m", "lib.companion.restore"], root)
    return done.stdout + done.stderr


def back_where_committed(root: Path) -> None:
    assert git_status(root) == [], f"not clean after make restore: {git_status(root)}"
    assert all((root / p).is_file() for p in OUTPUTS), "an output is missing"
    assert measured(root) == 3
    status = run([sys.executable, "-m", "dvc", "status", STAGE], root).stdout
    assert "changed" not in status and "not in cache" not in status, status


def test_a_refused_value_names_its_file_and_the_way_back_restores_all(root):
    done = run([sys.executable, "-m", "dvc", "exp", "run", "-S",
                f"{PARAMS}:toy.back.value=-5", STAGE], root, ok=False)
    said = done.stdout + done.stderr
    assert done.returncode != 0
    assert "toy.back.value = -5" in said and "greater than or equal to 0" in said, said
    assert f"{PARAMS}: toy.back.value: 3 -> -5" in said, said          # which file holds it
    assert f"`git checkout {PARAMS}`" in said and "make restore" in said, said
    assert f" M {PARAMS}" in git_status(root)                       # never unnoticed
    said = restore(root)
    assert "toy.back.value: 3 -> -5 (the committed values go back)" in said, said
    back_where_committed(root)


def test_an_experiment_that_ran_goes_back_from_the_cache(root):
    run([sys.executable, "-m", "dvc", "exp", "run", "-S", f"{PARAMS}:toy.back.value=7", STAGE],
        root)
    assert measured(root) == 7
    said = restore(root)
    assert f"restored from the cache: {STAGE}" in said, said
    back_where_committed(root)


def test_without_the_committed_outputs_in_the_cache_the_stage_runs_again(root):
    lock = yamlio.load((root / "notebooks/toy/dvc.lock").read_text())
    committed = [o["md5"] for o in lock["stages"]["toy-01_back"]["outs"]]
    run([sys.executable, "-m", "dvc", "exp", "run", "-S", f"{PARAMS}:toy.back.value=9", STAGE],
        root)
    cache = root / ".dvc" / "cache" / "files" / "md5"
    gone = [cache / md5[:2] / md5[2:] for md5 in committed]
    for obj in gone:                          # as in a clone whose results came from elsewhere
        obj.unlink(missing_ok=True)
    said = restore(root)
    assert f"run again (made from other inputs, and the cache lacks the committed outputs): " \
           f"{STAGE}" in said, said
    back_where_committed(root)
