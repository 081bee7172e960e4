"""Benchmark: the pipeline's own cost, `dvc status` (whole, and one paper's: `make status
PAPER=`), `dvc repro --dry` (`make plan`) and `generate --check`, against the number of
notebook stages, from today's papers to four times as many (synthetic copies of every paper),
this tree's per-paper layout beside the single root pipeline of an earlier commit.

    python bench/companion_pipeline.py [--copies 1 2 3 4] [--old 1359a73] [--repeats 3]
                                       [--cap 30]

Each side runs in a scratch copy of its tree (this one's tracked files; the old commit's
`git archive`) where every paper is copied k times: notebooks/<p>/ and lib/<p>/ as <p>_k<k>,
the paper's name replaced as a word in their text, then the tree's own generator writes its
params and dvc.yaml files (and so, on the old side, the one params.yaml that grows with them).
Nothing has run there (no outputs): what is timed is DVC collecting the stages and reading
their parameters and locks, the cost every `dvc status`, `dvc exp run` and `dvc repro` pays
before its first stage. Before timing, the two layouts must agree on the stages: `dvc status`
lists the same stage names (without the dvc.yaml prefix), the dry run plans the same stages in
a topological order of the same graph, and both generators find their files current.

Bound: none in flops; the figure is each side's growth exponent in the stage count (linear is
1). Writes results/bench/companion_pipeline.json.

Measured on the development machine (2 cores, the other busy at times, one run): see the
closing note of the change that added it; the old layout's `dvc status` grows with an exponent
near 2 (it re-reads the whole params.yaml once per stage), this tree's near 1.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

from lib.companion import benchmark, papers, paths

STAGE_LINE = re.compile(r"^Running stage '(?:[^']*:)?([^']+)'", re.M)
NOTEBOOK_STAGE = re.compile(r"^[a-z][a-z0-9_]*-\d\d_")


def run(cmd: list[str], cwd: Path, ok: tuple[int, ...] = (0,)) -> str:
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if done.returncode not in ok:
        raise SystemExit(f"{' '.join(cmd)} in {cwd} exited {done.returncode}:\n{done.stderr}")
    return done.stdout


def this_tree(dst: Path) -> None:
    """The files git tracks here (and untracked ones it does not ignore), without results."""
    names = run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                paths.ROOT).split()
    for name in names:
        src = paths.ROOT / name
        if src.is_file() and not name.startswith(("dvc-remote/", "results/")):
            (dst / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst / name)


def old_tree(rev: str, dst: Path) -> None:
    """The tree of commit `rev` (git archive)."""
    tar = subprocess.run(["git", "archive", rev], cwd=paths.ROOT, capture_output=True,
                         check=True).stdout
    with tarfile.open(fileobj=BytesIO(tar)) as archive:
        archive.extractall(dst, filter="data")
    shutil.rmtree(dst / "dvc-remote", ignore_errors=True)


def multiply(root: Path, copies: int) -> None:
    """Copy every paper copies - 1 times as <paper>_k<k>: its notebooks folder and package, the
    paper's name replaced as a word (ids, imports, the declaration's short name)."""
    shorts = sorted(p.parent.name for p in (root / "notebooks").glob("*/paper.yaml"))
    for k in range(2, copies + 1):
        for short in shorts:
            name = f"{short}_k{k}"
            word = re.compile(rf"\b{short}\b")
            for folder in (root / "notebooks" / short, root / "lib" / short):
                for src in folder.rglob("*"):
                    if not src.is_file() or "__pycache__" in src.parts or src.name == "dvc.lock":
                        continue
                    dst = root / folder.parent.name / name / src.relative_to(folder)
                    dst.parent.mkdir(parents=True, exist_ok=True)
                    if src.suffix in (".py", ".yaml"):
                        dst.write_text(word.sub(name, src.read_text()))
                    else:
                        shutil.copy2(src, dst)


def scratch(side: str, rev: str, copies: int, base: Path) -> Path:
    """A git repository holding the side's tree with `copies` copies of each paper, its
    derived files written by its own generator."""
    root = base / f"{side}_{copies}"
    root.mkdir()
    this_tree(root) if side == "per_paper" else old_tree(rev, root)
    multiply(root, copies)
    run([sys.executable, "-m", "lib.companion.generate", "--write"], root)
    run(["git", "init", "-q"], root)
    run(["git", "add", "-A"], root)
    run(["git", "-c", "user.email=b@b", "-c", "user.name=b", "commit", "-qm", "bench"], root)
    return root


def stage_count(root: Path) -> int:
    """The notebook stages of a tree: one per declared notebook."""
    text = "".join(p.read_text() for p in (root / "notebooks").glob("*/paper.yaml"))
    return len(re.findall(r"^- stem:", text, re.M))


def one_paper(root: Path) -> list[str]:
    """`dvc status`'s targets for one paper (the first declared): its dvc.yaml, or in the old
    layout the names of its stages in the root dvc.yaml."""
    short = "gd_perceptron"
    pipeline = root / "notebooks" / short / "dvc.yaml"
    if pipeline.exists():
        return [str(pipeline.relative_to(root))]
    stems = re.findall(r"^- stem: (\S+)", (root / "notebooks" / short / "paper.yaml").read_text(),
                       re.M)
    return [f"{short}-{stem}" for stem in stems]


def commands(root: Path) -> dict[str, list[str]]:
    plan = [sys.executable, "-m", "lib.companion.plan"]
    if not (root / "lib" / "companion" / "plan.py").exists():      # the old tree: DVC's own
        plan = [sys.executable, "-m", "dvc", "repro", "--dry"]
    status = [sys.executable, "-m", "dvc", "status", "--json"]
    return {"dvc_status": status, "dvc_status_one_paper": [*status, *one_paper(root)],
            "dvc_repro_dry": plan,
            "generate_check": [sys.executable, "-m", "lib.companion.generate", "--check"]}


def outcome(kind: str, root: Path) -> object:
    """What a command says, in a form both layouts share: the notebook stages `dvc status` lists
    (the new layout adds an `infra` stage), the notebook stages the dry run plans, the
    generator's verdict. The old layout's dry run stops at the first missing input: its plan is
    what it printed until then, compared as a subset."""
    cmd = commands(root)[kind]
    if kind in ("dvc_status", "dvc_status_one_paper"):
        names = (name.split(":")[-1] for name in json.loads(run(cmd, root)))
        return sorted(n for n in names if NOTEBOOK_STAGE.match(n))
    if kind == "dvc_repro_dry":
        return [n for n in STAGE_LINE.findall(run(cmd, root, ok=(0, 255)))
                if NOTEBOOK_STAGE.match(n)]
    return run(cmd, root) == ""


def agree(kind: str):
    def same(old: object, new: object) -> bool:
        if kind == "dvc_repro_dry":
            return set(old) <= set(new) and bool(new)
        return old == new
    return same


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--copies", type=int, nargs="+", default=[1, 2, 3, 4])
    parser.add_argument("--old", default="1359a73", help="the commit of the root-pipeline layout")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cap", type=float, default=30.0)
    args = parser.parse_args()
    if any(c < 1 for c in args.copies):
        raise SystemExit(f"--copies {args.copies}: each must be at least 1")
    base = Path(tempfile.mkdtemp(prefix="companion_pipeline_"))
    try:
        trees: dict[tuple[str, int], Path] = {}
        per_copy = stage_count(paths.ROOT)
        sizes = [c * per_copy for c in args.copies]

        def tree(side: str, size: int) -> Path:
            key = (side, size // per_copy)
            if key not in trees:
                trees[key] = scratch(side, args.old, key[1], base)
            return trees[key]

        curves = {}
        for kind in ("dvc_status", "dvc_status_one_paper", "dvc_repro_dry", "generate_check"):
            def prepare(size: int, kind: str = kind) -> dict[str, benchmark.Run]:
                old, new = tree("old", size), tree("per_paper", size)     # built untimed
                return {f"root pipeline ({args.old})": lambda: outcome(kind, old),
                        "per-paper pipeline": lambda: outcome(kind, new)}
            curves[kind] = benchmark.curve("notebook stages", sizes, prepare, agree(kind),
                                           repeats=args.repeats, cap_s=args.cap, label=kind)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    benchmark.write_curves("companion_pipeline", "the pipeline's own cost (DVC and the generator)",
                           "none: the growth exponent in the stage count is the figure",
                           curves, papers=len(papers.names()), stages_per_copy=per_copy)
    return 0


if __name__ == "__main__":
    sys.exit(main())
