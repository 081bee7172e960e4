"""Adding a paper touches only its own places: a throwaway paper, end to end, in a copy.

In a temporary copy of the project we write a paper `toy` with one notebook, touching only
notebooks/toy/, lib/toy/ and nothing else, run `make sync`'s generator, and check that the only
other files that changed are the derived ones; then `dvc repro` runs the new stage, and the
paper's name in the README, its rows in the guide, its smoke entry and report page appear with no
further edit.
"""
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from lib.companion import paths

pytestmark = pytest.mark.heavy

DECLARATION = """\
short: toy
title: A Toy Paper
authors: [Nobody]
arxiv: "0000.00000"
notebooks:
- stem: 01_hello
  params: Hello
  figures:
  - name: 01_hello
    caption: a straight line, to show the figure table grows by itself
  plots:
  - table: line.csv
    x: x
    y: [y]
    title: the line
"""
SCHEMA = '''\
"""Parameters of the toy paper."""
from lib.companion.params import NotebookParams, param


class Hello(NotebookParams):
    """01_hello: one line."""

    slope: float = param(2.0, "the line's slope", gt=0)
    SMOKE = {"slope": (1.0, "any slope will do")}
'''
NOTEBOOK = '''\
# %% [markdown]
# # A toy notebook

# %% tags=["parameters"]

# %%
from lib.companion import notebook, plotting

nb = notebook.start("toy/01_hello", globals())
cfg, ledger = nb.cfg, nb.ledger
fig, ax = plotting.figure()
ax.plot([0, 1], [0, cfg.slope])
nb.save_figure(fig)
(nb.tables / "line.csv").write_text(f"x,y\\n0,0\\n1,{cfg.slope}\\n")
ledger.exact("line.rise", "rise over a unit run equals the slope", source="toy",
             provenance="derived", expected=cfg.slope, measured=cfg.slope * 1.0)
nb.finish()
'''
# what the generator writes for a new paper: its own params and pipeline files, its notebook's
# parameters cell, the README's list of papers and the guide's tables (the papers, the figure
# map); the root dvc.yaml gains its declaration, schema and notebook as inputs of the params,
# claims and report stages (which span papers)
DERIVED = {"notebooks/toy/params.yaml", "notebooks/toy/dvc.yaml", "notebooks/toy/01_hello.py",
           "README.md", "docs/guide/papers.md", "docs/guide/figures.md", "dvc.yaml"}
STAGE = "notebooks/toy/dvc.yaml:toy-01_hello"
PARAMS = "notebooks/toy/params.yaml"


def run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{' '.join(cmd)} failed:\n{done.stdout}\n{done.stderr}"
    return done


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*")
            if p.is_file() and ".git" not in p.parts and "__pycache__" not in p.parts
            and "results" not in p.parts and ".dvc" not in p.parts}


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    if not (paths.DATA).exists():
        pytest.skip("data/ is missing: run `make data` first")
    root = tmp_path_factory.mktemp("project") / "companion"
    tracked = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                             cwd=paths.ROOT, capture_output=True,
                             text=True, check=True).stdout.split()
    for name in tracked:
        src = paths.ROOT / name
        if src.is_file() and not name.startswith("dvc-remote/"):
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, root / name)
    shutil.copytree(paths.DATA, root / "data")
    run(["git", "init", "-q"], root)
    run(["git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "base",
         "--allow-empty"], root)
    return root


def test_new_paper_touches_only_its_places(copy):
    before = snapshot(copy)
    (copy / "notebooks" / "toy").mkdir()
    (copy / "notebooks" / "toy" / "paper.yaml").write_text(DECLARATION)
    (copy / "notebooks" / "toy" / "01_hello.py").write_text(NOTEBOOK)
    (copy / "lib" / "toy").mkdir()
    (copy / "lib" / "toy" / "__init__.py").write_text('"""A toy paper."""\n')
    (copy / "lib" / "toy" / "schema.py").write_text(SCHEMA)
    hand = set(snapshot(copy)) - set(before)
    assert all(p.startswith(("notebooks/toy/", "lib/toy/")) for p in hand)

    run([sys.executable, "-m", "lib.companion.generate", "--write"], copy)
    after = snapshot(copy)
    changed = {p for p in after if before.get(p) != after[p]} - hand | {"notebooks/toy/01_hello.py"}
    assert changed == DERIVED, f"the generator changed {sorted(changed)}"
    cell = (copy / "notebooks" / "toy" / "01_hello.py").read_text()
    assert 'slope = 2.0  # the line\'s slope' in cell
    assert "`toy`" in (copy / "README.md").read_text()
    assert "| `toy` | Nobody, *A Toy Paper* (arXiv 0000.00000) | 1 |" in \
        (copy / "docs/guide/papers.md").read_text()
    assert "`figures/01_hello/01_hello.png` | a straight line" in \
        (copy / "docs/guide/figures.md").read_text()
    run([sys.executable, "-m", "lib.companion.generate", "--check"], copy)


def test_a_change_to_one_papers_parameters_diffs_only_its_places(copy):
    """A new default in toy's schema rewrites toy's params file and parameters cell, nothing of
    another paper and no root file."""
    schema = copy / "lib" / "toy" / "schema.py"
    before = snapshot(copy)
    schema.write_text(SCHEMA.replace("param(2.0,", "param(2.5,"))
    try:
        run([sys.executable, "-m", "lib.companion.generate", "--write"], copy)
        after = snapshot(copy)
        changed = {p for p in after if before.get(p) != after[p]}
        assert changed == {"lib/toy/schema.py", PARAMS, "notebooks/toy/01_hello.py"}, changed
    finally:
        schema.write_text(SCHEMA)
        run([sys.executable, "-m", "lib.companion.generate", "--write"], copy)


def test_new_paper_stage_runs_and_appears_everywhere(copy):
    run([sys.executable, "-m", "dvc", "repro", STAGE], copy)
    assert (copy / "results/toy/figures/01_hello/01_hello.png").exists()
    # one paper's plots: those its dvc.yaml defines (DVC matches a plot by "<file>::<path>")
    plot = json.loads(run([sys.executable, "-m", "dvc", "plots", "show", "--json",
                           "notebooks/toy/dvc.yaml::"], copy).stdout)
    assert "errors" not in plot and list(plot["data"]) == ["results/toy/plots/01_hello/line.csv"]
    assert "the line" in json.dumps(plot["data"])
    assert '"status": "pass"' in (copy / "results/toy/claims/01_hello.json").read_text()
    smoke = run([sys.executable, "-c", "from lib.companion import smoke; "
                 "print(smoke.smoke_list('toy'))"], copy)
    assert "['toy/01_hello']" in smoke.stdout
    run([sys.executable, "-m", "lib.companion.ledger"], copy)
    run([sys.executable, "-m", "lib.companion.report"], copy)
    chapter = (copy / "results/report/toy/index.html").read_text()
    ledger = (copy / "results/report/toy/claims.html").read_text()
    assert "A Toy Paper" in chapter and "line.rise" in chapter and "toy.line.rise" in ledger
    assert "a straight line" in (copy / "results/report/guide/figures.html").read_text()


def test_new_paper_sweeps_with_dvc_experiments(copy):
    run([sys.executable, "-m", "dvc", "repro", STAGE], copy)
    run(["git", "add", "-A"], copy)
    run(["git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "toy"], copy)
    # a key inside a notebook's section: DVC's -S grammar refuses a segment that starts with a
    # digit, hence sections named without the stem's number
    run([sys.executable, "-m", "dvc", "exp", "run", "-S", "seed=1", "-S",
         f"{PARAMS}:toy.hello.slope=3.5", STAGE], copy)
    diff = run([sys.executable, "-m", "dvc", "params", "diff"], copy).stdout
    assert "seed" in diff and "toy.hello.slope" in diff and "3.5" in diff, diff
    claims = json.loads((copy / "results/toy/claims/01_hello.json").read_text())
    assert [float(c["measured"]) for c in claims["claims"]] == [3.5]


def test_the_experiments_table_fits_a_terminal(copy):
    """`make exps` (its very command, from the Makefile): the experiment above beside the
    workspace and its baseline within 100 columns, with the parameters it changed and the claim
    counts over all papers, and no column of file hashes (dvc exp show alone has thousands)."""
    recipe = next(line for line in (paths.ROOT / "Makefile").read_text().splitlines()
                  if " exp show " in line and line.startswith("\t"))
    args = shlex.split(recipe.strip().lstrip("@").replace("$(DVC) ", "").replace("$$", "$"))
    done = subprocess.run([sys.executable, "-m", "dvc", *args], cwd=copy, capture_output=True,
                          text=True, env={**os.environ, "COLUMNS": "100"})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines and all(len(line) <= 100 for line in lines), done.stdout
    assert "toy.hello.slope" in done.stdout and "seed" in done.stdout, done.stdout
    assert "all.pass" in done.stdout and "/" not in lines[1], done.stdout


def test_checks_use_the_committed_defaults_after_an_experiment(copy):
    """The experiment above left its values in params.yaml: the generated-files check passes,
    naming them, and the smoke copy nbval runs holds the schemas' values, not the experiment's."""
    assert "slope: 3.5" in (copy / PARAMS).read_text()
    check = run([sys.executable, "-m", "lib.companion.generate", "--check"], copy)
    assert "toy.hello.slope: 2.0 -> 3.5" in check.stderr and "seed: 0 -> 1" in check.stderr
    run([sys.executable, "-m", "lib.companion.smoke", "build/smoke", "--paper", "toy"], copy)
    prepared = (copy / "build/smoke/toy__01_hello.ipynb").read_text()
    assert "seed = 0" in prepared and "slope = 1.0" in prepared and "3.5" not in prepared
    # the README's way back
    run(["git", "checkout", "params.yaml", PARAMS, "dvc.lock", "notebooks/toy/dvc.lock"], copy)
    run([sys.executable, "-m", "dvc", "checkout", "params", STAGE], copy)   # and its stamp
    claims = json.loads((copy / "results/toy/claims/01_hello.json").read_text())
    assert [float(c["measured"]) for c in claims["claims"]] == [2.0]
    status = run([sys.executable, "-m", "dvc", "status", STAGE], copy).stdout
    assert "changed" not in status, status


def test_a_typo_names_the_key_and_the_nearest_known_one(copy):
    over = subprocess.run([sys.executable, "-m", "lib.companion.runner",
                           "notebooks/toy/01_hello.py", "-p", "slop=3", "--prepare-only"],
                          cwd=copy, capture_output=True, text=True)
    assert over.returncode == 2
    assert "toy.hello.slop = 3: not a parameter of this notebook; did you mean 'slope'? " \
        "allowed: ['slope']" in over.stderr, over.stderr
    text = (copy / PARAMS).read_text()
    (copy / PARAMS).write_text(text.replace("\n  hello:", "\n  helo:"))
    try:
        check = subprocess.run([sys.executable, "-m", "lib.companion.params", "--check"],
                               cwd=copy, capture_output=True, text=True)
    finally:
        (copy / PARAMS).write_text(text)
    assert check.returncode == 2
    assert "toy.helo is not the section of a notebook; did you mean 'hello'?" in check.stderr, \
        check.stderr
