"""Verdicts that survive the CPU: every claim decided again on a second code path of the CPU
libraries, and a claim whose status moves recorded `inconclusive`.

    python -m lib.companion.codepaths [--paper PAPER] [--jobs N] [--keep]     (make codepaths)

The pins (lib.companion.numerics) fix every CPU library's kernel but MKL's matrix products (an
Intel CPU takes MKL's AVX2 branch, an AMD CPU MKL's own path) and oneDNN's blocking, so two
machines running one locked environment write different last bits in every notebook that trains
with torch, and a claim decided inside that noise can come out otherwise on another machine. This
re-runs every notebook (or one paper's) in a fresh clone of HEAD on
`COMPANION_NUMERICS=alternative` (numerics.ALTERNATIVE: MKL's COMPATIBLE branch, oneDNN at
SSE4.1: another kernel of each such library, on any x86-64 CPU), compares each claim with this
workspace's, and writes results/codepaths.json: per claim both statuses and the largest relative
difference of its measured numbers. The claims stage reads it (`apply`): a statistical or
qualitative claim whose status differs on the second path is `inconclusive` in the ledger, naming
both statuses. The file is committed beside the results it was made against (their claims files'
md5 are in it); the book says when a notebook re-ran since.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from lib.companion import papers, paths, verify

RECORD = paths.RESULTS / "codepaths.json"
# what a second code path can move: a decision on numbers; exact and bound claims stop their
# notebook when they fail, so they hold on every path that finishes
REDECIDED_KINDS = ("statistical", "qualitative")
DECIDED = ("pass", "fail", "deviation")


def notebooks(paper: str | None = None) -> list[str]:
    """The notebooks to re-decide, in declaration order: every one (a notebook that computes
    with numpy alone shows that the second path leaves it be)."""
    return papers.paper(paper).notebook_ids() if paper else papers.all_notebooks()


def target(notebook: str) -> str:
    paper, stem = notebook.split("/")
    return f"notebooks/{paper}/dvc.yaml:{paper}-{stem}"


def claims_of(root: Path, notebook: str) -> dict | None:
    path = root / paths.claims_file(notebook).relative_to(paths.ROOT)
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def compare_notebook(here: dict, there: dict) -> dict[str, dict]:
    """Per claim of a notebook: its status here and on the second path, and the largest relative
    difference between the two measured texts (None: they differ in more than numbers)."""
    other = {c["id"]: c for c in there.get("claims", [])}
    out = {}
    for c in here.get("claims", []):
        o = other.get(c["id"])
        out[c["id"]] = {"kind": c["kind"], "here": c["status"],
                        "there": o["status"] if o else "absent",
                        "max_rel_diff": (verify.relative_difference(c["measured"], o["measured"])
                                         if o else None)}
    return out


def file_md5(root: Path, notebook: str) -> str:
    path = root / paths.claims_file(notebook).relative_to(paths.ROOT)
    return hashlib.md5(path.read_bytes()).hexdigest() if path.exists() else ""


def run_made_by(root: Path, notebook: str) -> dict:
    path = root / paths.run_record(notebook).relative_to(paths.ROOT)
    try:
        return json.loads(path.read_text()).get("made_by") or {}
    except (OSError, ValueError):
        return {}


def record(chosen: list[str], scratch: Path) -> dict:
    """results/codepaths.json's document: what the second path gave, claim by claim."""
    from lib.companion import fingerprint, numerics
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=paths.ROOT,
                          capture_output=True, text=True, check=True).stdout.strip()
    doc = {"about": "each claim on this workspace's code path (here) and "
                    "on a second one (there: COMPANION_NUMERICS=alternative); written by "
                    "`make codepaths`, read by the claims stage (lib/companion/codepaths.py)",
           "commit": head, "alternative": numerics.ALTERNATIVE, "notebooks": {}}
    for notebook in chosen:
        here, there = claims_of(paths.ROOT, notebook), claims_of(scratch, notebook)
        if here is None or there is None:
            continue
        doc["notebooks"][notebook] = {
            "claims_md5": file_md5(paths.ROOT, notebook),
            "here": fingerprint.summary(run_made_by(paths.ROOT, notebook)),
            "there": fingerprint.summary(run_made_by(scratch, notebook)),
            "claims": compare_notebook(here, there)}
    return doc


def flipped(claim: dict, entry: dict | None) -> str | None:
    """The second path's status when it decides this claim otherwise (None: it held, or the
    claim is not one a code path can move)."""
    if entry is None or claim["kind"] not in REDECIDED_KINDS or claim["status"] not in DECIDED:
        return None
    there = entry.get("there")
    return there if there in DECIDED + ("inconclusive",) and there != claim["status"] else None


def load() -> dict:
    """results/codepaths.json, or an empty record when none was made."""
    try:
        return json.loads(RECORD.read_text())
    except (OSError, ValueError):
        return {"notebooks": {}}


def apply(docs: list[dict], doc: dict | None = None) -> list[dict]:
    """The notebooks' claims documents with each claim a second code path decides otherwise made
    `inconclusive` (and every re-decided claim carrying `second_path`, its status there)."""
    doc = load() if doc is None else doc
    out = []
    for d in docs:
        entries = doc.get("notebooks", {}).get(d["notebook"], {}).get("claims", {})
        claims = []
        for c in d["claims"]:
            entry = entries.get(c["id"])
            there = flipped(c, entry)
            if entry is not None and "run" not in d:
                c = {**c, "second_path": entry.get("there")}
            if there is not None and "run" not in d:
                note = (f"status on a second CPU code path: {there} (here: {c['status']}); a "
                        "decision inside numerical noise (results/codepaths.json)")
                c = {**c, "status": "inconclusive",
                     "tolerance": f"{c['tolerance']}; {note}" if c["tolerance"] else note}
            claims.append(c)
        out.append({**d, "claims": claims})
    return out


def stale(doc: dict | None = None) -> list[str]:
    """The re-decided notebooks whose claims file changed since the record was made."""
    doc = load() if doc is None else doc
    return [n for n, e in doc.get("notebooks", {}).items()
            if e.get("claims_md5") != file_md5(paths.ROOT, n)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lib.companion.codepaths",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--paper", help="one paper's notebooks (default: every paper's)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--scratch", type=Path, default=paths.ROOT / "build" / "codepaths")
    parser.add_argument("--keep", action="store_true", help="keep the scratch clone")
    args = parser.parse_args(argv)
    if args.paper is not None and args.paper not in papers.names():
        print(f"--paper {args.paper!r}: not a declared paper; declared: {list(papers.names())}",
              file=sys.stderr)
        return 2
    chosen = notebooks(args.paper)
    missing = [n for n in chosen if claims_of(paths.ROOT, n) is None]
    if missing:
        print(f"no results here for {', '.join(missing)}: run `make repro` first", file=sys.stderr)
        return 2
    verify.clone(paths.ROOT, args.scratch)
    env = {**os.environ, "COMPANION_NUMERICS": "alternative",
           "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}"}
    print(f"{len(chosen)} notebook(s) on the second code path in {args.scratch}", flush=True)
    done = subprocess.run([sys.executable, "-m", "lib.companion.parallel", "--jobs",
                           str(args.jobs), *(target(n) for n in chosen)],
                          cwd=args.scratch, env=env)
    if done.returncode != 0:
        print("a notebook failed on the second path (above): nothing recorded", file=sys.stderr)
        return 1
    doc = record(chosen, args.scratch)
    if args.paper:                   # one paper's notebooks replace theirs in the record
        doc["notebooks"] = {**{k: v for k, v in load().get("notebooks", {}).items()
                               if not k.startswith(args.paper + "/")}, **doc["notebooks"]}
    RECORD.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    moved = [(n, cid, e["here"], e["there"]) for n, v in doc["notebooks"].items()
             for cid, e in v["claims"].items() if flipped({"kind": e["kind"],
                                                           "status": e["here"]}, e)]
    print(f"{sum(len(v['claims']) for v in doc['notebooks'].values())} claims compared; "
          f"{len(moved)} decided otherwise on the second path:")
    for n, cid, here, there in moved:
        print(f"  {cid}: {here} here, {there} there")
    print(f"written: {RECORD.relative_to(paths.ROOT)} (the claims stage applies it)")
    if not args.keep:
        shutil.rmtree(args.scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
