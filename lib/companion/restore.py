"""The way back after an experiment (`dvc exp run -S`, refused or not) or an edit of a params file:
the committed parameters, and outputs that are theirs, with nothing deleted that cannot come back.

    python -m lib.companion.restore [--dry-run]          # `make restore`

1. The params files and dvc.lock files that differ from the last commit (what `dvc exp run`
   writes) are checked out from it, each parameter put back named ("key: committed -> now"), and
   the parameter stamps are written again from the committed values.
2. Each stage whose outputs then differ from its committed lock entry is restored from DVC's
   cache when the cache holds every one of its outputs (`dvc checkout` of that stage alone).
   Where it does not, outputs are never deleted: a stage whose outputs were made here from the
   committed inputs (another machine's bytes are committed) keeps them, and says so; one whose
   outputs an experiment made from other inputs is run again (`lib.companion.parallel`); one
   never run here stays unrun. A plain `dvc checkout` instead deletes every output whose
   committed object is not in the cache (all of them, for the papers a fresh clone did not run)
   and fails.
   Only the stages whose lock entries the experiment changed are looked at (a refused run
   changed none: its params file is all there is to put back).
3. When an output changed, the ledger is rebuilt, and the book when there is one. `git status`
   is then clean unless an output re-made here differs from the committed bytes (named).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys

from lib.companion import params, paths, yamlio

# the tracked files `dvc exp run` (and `make repro PROFILE=`) write
PATHSPECS = ("params.yaml", "notebooks/*/params.yaml", "dvc.lock", "notebooks/*/dvc.lock")


def git(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=paths.ROOT, capture_output=True, text=True)


def dvc(*args: str, quiet: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dvc", *args], cwd=paths.ROOT, text=True,
                          capture_output=quiet)


def changed_files() -> list[str]:
    """The params and lock files that differ from the last commit (staged or not), by content
    (params.differ_from_head: git's index can call an edited params file unchanged)."""
    changed = params.differ_from_head(PATHSPECS)
    if changed is None:
        raise SystemExit("restore needs a git checkout with a commit")
    return changed


def lock_entries() -> dict[str, dict]:
    """Every stage's lock entry in the workspace, by the address `dvc status` gives it."""
    out = {}
    for lock in [paths.ROOT / "dvc.lock", *sorted(paths.NOTEBOOKS.glob("*/dvc.lock"))]:
        try:
            stages = (yamlio.load(lock.read_text(), str(lock)) or {}).get("stages") or {}
        except (OSError, yamlio.YamlError):
            continue
        folder = lock.parent.relative_to(paths.ROOT)
        prefix = "" if lock.parent == paths.ROOT else f"{folder}/dvc.yaml:"
        out.update({prefix + name: entry for name, entry in stages.items()})
    return out


def inputs(entry: dict | None) -> object:
    """What a stage's run was made from, as its lock entry records it: command, deps, params."""
    entry = entry or {}
    return (entry.get("cmd"), [(d.get("path"), d.get("md5")) for d in entry.get("deps") or []],
            entry.get("params"))


def stage_status(stages: list[str]) -> dict[str, dict[str, str]]:
    """The outputs `dvc status` finds changed, per stage of `stages`: path -> modified, deleted
    or "not in cache" (the committed object is not in this clone's cache)."""
    if not stages:
        return {}
    done = dvc("status", "--json", *stages)
    if done.returncode != 0:
        raise SystemExit(f"dvc status failed:\n{done.stderr[-2000:]}")
    out = {}
    for stage, changes in json.loads(done.stdout or "{}").items():
        outs = {k: v for c in changes if isinstance(c, dict)
                for k, v in c.get("changed outs", {}).items()}
        if outs:
            out[stage] = outs
    return out


def classify(status: dict[str, dict[str, str]], before: dict[str, dict],
             after: dict[str, dict]) -> dict[str, list[str]]:
    """The notebook stages to check out of the cache, to run again, to keep as made here, and
    never run here (root stages are the ledger's and the book's: rebuilt, never checked out)."""
    plan: dict[str, list[str]] = {"checkout": [], "rerun": [], "kept": [], "unrun": []}
    for stage, outs in status.items():
        if ":" not in stage:
            continue
        missing = [p for p, s in outs.items() if s == "not in cache"]
        if not missing:
            plan["checkout"].append(stage)
        elif not any((paths.ROOT / p).exists() for p in outs):
            plan["unrun"].append(stage)
        elif inputs(before.get(stage)) == inputs(after.get(stage)):
            plan["kept"].append(stage)
        else:
            plan["rerun"].append(stage)
    return plan


def run_module(*args: str) -> bool:
    """python -m <args> from the root, its output shown; True when it succeeded."""
    return subprocess.run([sys.executable, "-m", *args], cwd=paths.ROOT).returncode == 0


def rebuild() -> bool:
    """The ledger from the restored outputs, and the book when there is one."""
    book = (paths.RESULTS / "report" / "index.html").exists()
    return run_module("lib.companion.ledger") and (not book or run_module("lib.companion.report"))


SAID = {"checkout": "restored from the cache",
        "rerun": "run again (made from other inputs, and the cache lacks the committed outputs)",
        "kept": "kept: made here from the committed inputs (the committed bytes are another "
                "machine's: `make verify` compares them)",
        "unrun": "never run here (`make repro PAPER=<paper>` runs them)"}


def put_back(files: list[str]) -> bool:
    """Check the files out of the last commit and, when a params file was among them, write the
    parameter stamps again from the committed values (validating them)."""
    done = git("checkout", "HEAD", "--", *files)
    if done.returncode != 0:
        print(f"git checkout failed: {done.stderr.strip()}", file=sys.stderr)
        return False
    print(f"back to the committed {', '.join(files)}")
    stamps = str((paths.RESULTS / "params").relative_to(paths.ROOT))
    return not any(f.endswith("params.yaml") for f in files) or \
        run_module("lib.companion.params", "--check", "--stamps", stamps)


def restore(dry_run: bool = False) -> int:
    """Put the committed parameters and their outputs back; 0 when done and git status is
    clean, 1 when a step failed or a tracked file still differs (named)."""
    files = changed_files()
    for name in files:
        if name.endswith("params.yaml"):
            changes = "; ".join(params.changed_values(name)) or "formatting only"
            print(f"{name}: {changes} (the committed values go back)")
    if dry_run:
        print(f"would check out {', '.join(files) or 'nothing'}, then restore or re-make the "
              "outputs that differ from the committed locks")
        return 0
    before = lock_entries()
    if files and not put_back(files):
        return 1
    after = lock_entries()
    # only a stage whose lock entry the experiment changed can hold outputs other than the
    # committed ones (a refused run changes none), so DVC hashes nothing else
    moved = sorted(k for k in set(before) | set(after)
                   if ":" in k and before.get(k) != after.get(k))
    plan = classify(stage_status(moved), before, after)
    for key, stages in plan.items():
        if stages:
            print(f"{SAID[key]}: " + (", ".join(stages) if key != "unrun"
                                      else f"{len(stages)} stage(s)"))
    if plan["checkout"] and dvc("checkout", *plan["checkout"], quiet=False).returncode != 0:
        return 1
    if plan["rerun"] and not run_module("lib.companion.parallel", *plan["rerun"]):
        return 1
    ledger_changed = inputs(before.get("claims")) != inputs(after.get("claims"))
    if (plan["checkout"] or plan["rerun"] or ledger_changed) and not rebuild():
        return 1
    left = git("status", "--porcelain", "--untracked-files=no").stdout.splitlines()
    if left:
        print("still differing from the last commit (an output re-made here whose bytes differ "
              "from the committed ones, or your own edits): " + ", ".join(s[3:] for s in left),
              file=sys.stderr)
        return 1
    print("git status is clean: the committed parameters and the outputs they made")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lib.companion.restore",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--dry-run", action="store_true", help="say what it would do, do nothing")
    args = parser.parse_args(argv)
    return restore(args.dry_run)


if __name__ == "__main__":
    sys.exit(main())
