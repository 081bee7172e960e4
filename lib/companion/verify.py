"""`make verify [PAPER=…]`: re-run the pipeline in a fresh clone and compare it with dvc.lock.

    python -m lib.companion.verify [--paper PAPER] [--scratch build/verify] [--keep]

Clones the repository's HEAD into a scratch folder (sharing git's objects), restores data/ from
the bundled remote, runs `dvc repro` there (every stage, or one paper's and the root stages they
need) and compares the md5 of every output with HEAD's dvc.lock files. It names each output that
differs (the files inside a folder, where the committed folder's listing is in this workspace's
DVC cache) and, for a claims file, the claims whose status would change. Exit 1 on any
difference. The book (the `report` stage) records when it was built, so it is left out.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from lib.companion import numerics, papers, paths, yamlio

SKIPPED_STAGES = ("report",)           # the book records its build time


def lock_files(root: Path, paper: str | None) -> list[str]:
    """The dvc.lock files (relative) verify compares: the root's and every paper's, or one's."""
    names = [paper] if paper else papers.names()
    return ["dvc.lock", *(f"notebooks/{p}/dvc.lock" for p in names
                          if (root / "notebooks" / p / "dvc.lock").exists())]


def outs(lock: dict) -> dict[str, tuple[str, str]]:
    """{output path: (stage, md5)} of a parsed dvc.lock, the skipped stages left out."""
    return {o["path"]: (stage, o.get("md5", "")) for stage, entry in lock.get("stages", {}).items()
            if stage not in SKIPPED_STAGES for o in entry.get("outs", [])}


def differences(committed: dict[str, tuple[str, str]],
                rerun: dict[str, tuple[str, str]]) -> list[tuple[str, str, str, str]]:
    """(stage, path, committed md5, re-run md5) of each output whose hash differs or that one
    side lacks, in path order. An output of a stage the re-run did not reach counts as missing."""
    rows = []
    for path in sorted(set(committed) | set(rerun)):
        stage, old = committed.get(path, (rerun.get(path, ("?", ""))[0], "(absent)"))
        new = rerun.get(path, ("", "(not re-run)"))[1]
        if old != new:
            rows.append((stage, path, old, new))
    return rows


def cached(cache: Path, md5: str) -> Path | None:
    """A DVC 3 cache object by its md5 (`.dir` listings included), if this cache has it."""
    digest = md5.removesuffix(".dir")
    path = cache / "files" / "md5" / digest[:2] / (digest[2:] + (".dir" if md5.endswith(".dir")
                                                                 else ""))
    return path if path.exists() else None


def files_differing(old_cache: Path, new_cache: Path, old: str, new: str) -> list[str] | None:
    """The files inside a folder output whose md5 differ, from the two `.dir` listings (None when
    either listing is not at hand)."""
    a, b = cached(old_cache, old), cached(new_cache, new)
    if a is None or b is None:
        return None
    left = {e["relpath"]: e["md5"] for e in json.loads(a.read_text())}
    right = {e["relpath"]: e["md5"] for e in json.loads(b.read_text())}
    return sorted(k for k in set(left) | set(right) if left.get(k) != right.get(k))


def status_changes(old: dict | None, new: dict | None) -> list[str]:
    """'id: old -> new' for each claim of a claims document whose status differs between two
    versions (a claim one side lacks shows as `absent`)."""
    before = {c["id"]: c["status"] for c in (old or {}).get("claims", [])}
    after = {c["id"]: c["status"] for c in (new or {}).get("claims", [])}
    return [f"{cid}: {before.get(cid, 'absent')} -> {after.get(cid, 'absent')}"
            for cid in sorted(set(before) | set(after)) if before.get(cid) != after.get(cid)]


def committed_json(workspace: Path, path: str, md5: str) -> dict | None:
    """The committed version of a JSON output: from this workspace's DVC cache, or the workspace
    file itself when its bytes are the committed ones."""
    import hashlib
    obj = cached(workspace / ".dvc" / "cache", md5)
    if obj is not None:
        return json.loads(obj.read_text())
    here = workspace / path
    if here.is_file() and hashlib.md5(here.read_bytes()).hexdigest() == md5:
        return json.loads(here.read_text())
    return None


def clone(workspace: Path, scratch: Path) -> None:
    """A fresh clone of HEAD in `scratch` with data/ restored from the bundled remote."""
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "clone", "--quiet", "--shared", str(workspace), str(scratch)],
                   check=True)
    python = sys.executable
    subprocess.run([python, "-m", "lib.companion.datafiles", "--verify-remote"], cwd=scratch,
                   check=True)
    subprocess.run([str(Path(python).parent / "dvc"), "pull", "--quiet", "data.dvc"],
                   cwd=scratch, check=True)


def rerun(scratch: Path, paper: str | None) -> int:
    """`dvc repro` in the scratch clone (pinned, with this environment's python first on PATH)."""
    env = numerics.pin(dict(os.environ))
    env["PATH"] = f"{Path(sys.executable).parent}:{env.get('PATH', '')}"
    target = [f"notebooks/{paper}/dvc.yaml"] if paper else []
    return subprocess.run([str(Path(sys.executable).parent / "dvc"), "repro", *target],
                          cwd=scratch, env=env).returncode


def report(workspace: Path, scratch: Path, paper: str | None) -> int:
    """Compare the scratch clone's outputs with HEAD's dvc.lock files; print what differs."""
    committed, new = {}, {}
    for lock in lock_files(scratch, paper):
        head = subprocess.run(["git", "show", f"HEAD:{lock}"], cwd=scratch, capture_output=True,
                              text=True, check=True).stdout
        committed |= outs(yamlio.load(head))
        new |= outs(yamlio.load((scratch / lock).read_text()))
    if paper:                          # the root's outputs the paper's stages did not need
        committed = {p: v for p, v in committed.items() if p in new}
    rows = differences(committed, new)
    for stage, path, old, fresh in rows:
        print(f"DIFFERS {stage}: {path} (dvc.lock {old[:12]}, re-run {fresh[:12]})")
        if old.endswith(".dir") and fresh.endswith(".dir"):
            inside = files_differing(workspace / ".dvc" / "cache", scratch / ".dvc" / "cache",
                                     old, fresh)
            print("  files: " + (", ".join(inside) if inside is not None else
                                 "(the committed listing is not in this workspace's DVC cache)"))
        if path.endswith(".json") and "/claims/" in path:
            before = committed_json(workspace, path, old)
            changes = status_changes(before, json.loads((scratch / path).read_text())) \
                if before is not None else ["(the committed claims file is not at hand: run "
                                            "`make repro` here first)"]
            for line in changes or ["no claim's status changes"]:
                print(f"  {line}")
    print(f"{len(committed) - len(rows)} of {len(committed)} outputs equal to dvc.lock"
          f"{' (stage report left out: the book records its build time)' if not paper else ''}")
    return 1 if rows else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lib.companion.verify",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--paper", help="one paper's stages (default: every stage)")
    parser.add_argument("--scratch", type=Path, default=paths.ROOT / "build" / "verify")
    parser.add_argument("--keep", action="store_true", help="keep the scratch clone")
    args = parser.parse_args(argv)
    if args.paper is not None and args.paper not in papers.names():
        print(f"--paper {args.paper!r}: not a declared paper; declared: {list(papers.names())}",
              file=sys.stderr)
        return 2
    clone(paths.ROOT, args.scratch)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=args.scratch,
                          capture_output=True, text=True, check=True).stdout.strip()
    print(f"verifying {head} (HEAD; uncommitted changes are not part of it) in {args.scratch}")
    if rerun(args.scratch, args.paper) != 0:
        print("dvc repro failed in the scratch clone (above): nothing compared", file=sys.stderr)
        return 1
    code = report(paths.ROOT, args.scratch, args.paper)
    if not args.keep:
        shutil.rmtree(args.scratch, ignore_errors=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
