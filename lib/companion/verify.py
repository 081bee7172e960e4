"""`make verify [PAPER=…]`: re-run the pipeline in a fresh clone and say what matches dvc.lock.

    python -m lib.companion.verify [--paper PAPER] [--scratch build/verify] [--keep]
    python -m lib.companion.verify --against DIR [--paper PAPER]

The first form clones the repository's HEAD into a scratch folder (sharing git's objects),
restores data/ from the bundled remote, runs the stages there (every one, or one paper's and the
root stages they need) and compares the md5 of every output with HEAD's dvc.lock files. The
second compares this workspace's results with another checkout's, e.g. another machine's run
(DIR holds its notebooks/<paper>/dvc.lock files and results/), without running anything.

For each output it says equal or not (the files that differ inside a folder); for a claims file
that differs, each claim whose status or measured value differs, with the largest relative
difference of its numbers; and the two sides' fingerprints (lib.companion.fingerprint) side by
side, with the fields they differ in. The report is printed and saved to results/verify/report.md
(the book links it). The book (the `report` stage) records when it was built, so it is left out;
run records are compared without their fingerprints.

Exit 1 when a claim's status differs (or a claim is on one side only), or when any output differs
between two runs with the same fingerprint (one environment on one kind of CPU must repeat its
bytes); 0 when everything matches, or when only bytes differ between two fingerprints and every
claim keeps its status, which it says plainly.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from lib.companion import fingerprint, numerics, papers, paths, yamlio

SKIPPED_STAGES = ("report",)           # the book records its build time
REPORT = paths.RESULTS / "verify" / "report.md"
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?inf|nan")


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


def relative_difference(a: str, b: str) -> float | None:
    """The largest relative difference between the numbers of two measured texts of one claim
    (0.0 when they are the same text); None when the texts differ in more than their numbers."""
    if a == b:
        return 0.0
    if NUMBER.sub("#", a) != NUMBER.sub("#", b):
        return None
    worst = 0.0
    for x, y in zip(map(float, NUMBER.findall(a)), map(float, NUMBER.findall(b))):
        if x == y or (math.isnan(x) and math.isnan(y)):
            continue
        scale = max(abs(x), abs(y))
        worst = max(worst, math.inf if not math.isfinite(scale) else abs(x - y) / scale)
    return worst


@dataclass
class ClaimsDiff:
    """How one claims file's two versions differ: per claim (id, status here, there, relative
    difference of measured), only the claims that differ in some way; and how many are the same."""

    path: str
    rows: list[tuple[str, str, str, float | None]] = field(default_factory=list)
    same: int = 0

    @property
    def status_changes(self) -> list[tuple[str, str, str, float | None]]:
        return [r for r in self.rows if r[1] != r[2]]


def claims_diff(path: str, old: dict, new: dict) -> ClaimsDiff:
    """Claim by claim, what differs between two versions of a claims document."""
    before = {c["id"]: c for c in old.get("claims", [])}
    after = {c["id"]: c for c in new.get("claims", [])}
    out = ClaimsDiff(path)
    for cid in sorted(set(before) | set(after)):
        a, b = before.get(cid), after.get(cid)
        if a is None or b is None:
            out.rows.append((cid, a["status"] if a else "absent", b["status"] if b else "absent",
                             None))
            continue
        rel = relative_difference(a["measured"], b["measured"])
        if a["status"] == b["status"] and rel == 0.0:
            out.same += 1
        else:
            out.rows.append((cid, a["status"], b["status"], rel))
    return out


@dataclass
class Side:
    """One set of results: where its locks and files are, and how to read an output's bytes."""

    name: str
    root: Path
    caches: tuple[Path, ...]
    locks: dict[str, str]            # lock file (relative) -> its text
    by_name: dict[str, dict] = field(default_factory=dict)    # fingerprints seen, by short name

    def read(self, path: str, md5: str) -> bytes | None:
        """The bytes of a file output at the version `md5`: from a DVC cache, or the file itself
        when its bytes are that version."""
        for cache in self.caches:
            obj = cached(cache, md5)
            if obj is not None:
                return obj.read_bytes()
        here = self.root / path
        if here.is_file():
            data = here.read_bytes()
            if hashlib.md5(data).hexdigest() == md5:
                return data
        return None

    def listing(self, path: str, md5: str) -> dict[str, str] | None:
        """{file: md5} inside a folder output: its `.dir` listing, or the folder on disk."""
        for cache in self.caches:
            obj = cached(cache, md5)
            if obj is not None:
                return {e["relpath"]: e["md5"] for e in json.loads(obj.read_text())}
        folder = self.root / path
        if not folder.is_dir():
            return None
        return {str(f.relative_to(folder)): hashlib.md5(f.read_bytes()).hexdigest()
                for f in sorted(folder.rglob("*")) if f.is_file()}

    def outputs(self) -> dict[str, tuple[str, str]]:
        out: dict[str, tuple[str, str]] = {}
        for text in self.locks.values():
            out |= outs(yamlio.load(text))
        return out

    def fingerprints(self, outputs: dict[str, tuple[str, str]]) -> Counter:
        """How many run records of this side carry each fingerprint (by its short name)."""
        seen: Counter = Counter()
        for path, (_, md5) in outputs.items():
            if not is_run_record(path):
                continue
            data = self.read(path, md5)
            made_by = json.loads(data).get("made_by") if data else None
            name = fingerprint.ident(made_by) if made_by else "none"
            self.by_name[name] = made_by or {}
            seen[name] += 1
        return seen


def is_run_record(path: str) -> bool:
    return path.startswith("results/runs/") and path.endswith(".json")


def is_claims_file(path: str) -> bool:
    return "/claims/" in path and path.endswith(".json")


def without_fingerprint(data: bytes | None) -> dict | None:
    if data is None:
        return None
    doc = json.loads(data)
    doc.pop("made_by", None)
    return doc


@dataclass
class Comparison:
    """What verify found: the outputs compared, those that differ, the claims files' diffs, the
    two sides' fingerprints."""

    equal: list[str]
    differing: list[tuple[str, str, str, str, list[str] | None]]   # stage, path, a, b, files
    claims: list[ClaimsDiff]
    unreadable: list[str]
    prints: tuple[Counter, Counter]
    fingerprint_docs: tuple[dict, dict]

    @property
    def status_changes(self) -> list[tuple[str, str, str, str, float | None]]:
        return [(d.path, *row) for d in self.claims for row in d.status_changes]

    @property
    def same_fingerprint(self) -> bool:
        a, b = self.prints
        return set(a) == set(b) and len(a) == 1 and "none" not in a

    @property
    def result_outputs_differ(self) -> bool:
        return any(not is_run_record(row[1]) for row in self.differing)

    def exit_code(self) -> int:
        if self.status_changes or self.unreadable:
            return 1
        return 1 if self.same_fingerprint and self.differing else 0


def compare(a: Side, b: Side, paper: str | None = None) -> Comparison:
    """Output by output, what differs between two sides."""
    left, right = a.outputs(), b.outputs()
    if paper:                          # the root's outputs one paper's stages did not need
        left = {p: v for p, v in left.items() if p in right}
    rows = differences(left, right)
    equal = sorted(set(left) - {r[1] for r in rows})
    differing, claims, unreadable = [], [], []
    for stage, path, old, new in rows:
        files = None
        if old.endswith(".dir") and new.endswith(".dir"):
            la, lb = a.listing(path, old), b.listing(path, new)
            if la is not None and lb is not None:
                files = sorted(k for k in set(la) | set(lb) if la.get(k) != lb.get(k))
        if is_run_record(path) and "(" not in old + new:
            ra, rb = without_fingerprint(a.read(path, old)), without_fingerprint(b.read(path, new))
            if ra is not None and ra == rb:
                equal.append(path)          # only the fingerprint differs: shown below
                continue
        differing.append((stage, path, old, new, files))
        if is_claims_file(path) and "(" not in old + new:
            da, db = a.read(path, old), b.read(path, new)
            if da is None or db is None:
                unreadable.append(path)
            else:
                claims.append(claims_diff(path, json.loads(da), json.loads(db)))
    prints = (a.fingerprints(left), b.fingerprints(right))
    common = (a.by_name.get(prints[0].most_common(1)[0][0], {}) if prints[0] else {},
              b.by_name.get(prints[1].most_common(1)[0][0], {}) if prints[1] else {})
    return Comparison(sorted(equal), differing, claims, unreadable, prints, common)


def render(cmp: Comparison, a: Side, b: Side) -> str:
    """The report as markdown (printed as it is, saved to REPORT)."""
    n = len(cmp.equal) + len(cmp.differing)
    lines = [f"# verify: {a.name} against {b.name}", "",
             f"{len(cmp.equal)} of {n} outputs equal; {len(cmp.differing)} differ.", ""]
    fa, fb = cmp.fingerprint_docs
    lines += ["## Fingerprints", "",
              f"- {a.name}: {fingerprint.summary(fa) if fa else 'none recorded'}"
              f" ({sum(cmp.prints[0].values())} run records)",
              f"- {b.name}: {fingerprint.summary(fb) if fb else 'none recorded'}"
              f" ({sum(cmp.prints[1].values())} run records)", ""]
    diffs = fingerprint.differences(fa, fb) if fa and fb else []
    if diffs:
        lines += ["| field | " + a.name + " | " + b.name + " |", "|---|---|---|",
                  *(f"| {k} | {x} | {y} |" for k, x, y in diffs), ""]
    elif fa and fb:
        lines += ["The two fingerprints are the same: one environment on one kind of CPU, so every "
                  "byte must repeat.", ""]
    for side, prints in zip((a, b), cmp.prints):
        if len(prints) > 1:
            lines += [f"{side.name}'s runs carry {len(prints)} fingerprints: "
                      + ", ".join(f"{k} ({v})" for k, v in prints.most_common()), ""]
    lines += ["## Outputs that differ", ""]
    for stage, path, old, new, files in cmp.differing:
        lines.append(f"- `{path}` ({stage}): {old[:12]} / {new[:12]}"
                     + (f"; files: {', '.join(files)}" if files else ""))
    if not cmp.differing:
        lines.append("none")
    lines += ["", "## Claims", ""]
    for d in cmp.claims:
        lines.append(f"- `{d.path}`: {d.same} claims identical"
                     + (", these differ:" if d.rows else ""))
        for cid, x, y, rel in d.rows:
            what = "same status" if x == y else f"STATUS {x} -> {y}"
            diff = ("measured differs in its text" if rel is None else
                    f"largest relative difference in measured {rel:.2g}")
            lines.append(f"  - `{cid}`: {what}; {diff}")
    for path in cmp.unreadable:
        lines.append(f"- `{path}`: one version is not at hand (run `make repro` here first)")
    lines += ["", "## Verdict", "", verdict(cmp), ""]
    lines += ["## Every output", "", "| output | " + a.name + " vs " + b.name + " |", "|---|---|",
              *(f"| `{p}` | equal |" for p in cmp.equal),
              *(f"| `{row[1]}` | differs |" for row in cmp.differing)]
    return "\n".join(lines) + "\n"


def verdict(cmp: Comparison) -> str:
    """The one paragraph that says what the comparison means."""
    changes = cmp.status_changes
    if changes:
        return (f"FAIL: {len(changes)} claim(s) change status: "
                + "; ".join(f"{cid} {x} -> {y}" for _, cid, x, y, _ in changes))
    if cmp.unreadable:
        return "FAIL: a differing claims file could not be read on one side (listed above)."
    if not cmp.differing:
        return "PASS: every output is byte-identical."
    worst = max((r[3] for d in cmp.claims for r in d.rows if r[3] is not None), default=0.0)
    if cmp.same_fingerprint:
        return (f"FAIL: {len(cmp.differing)} output(s) differ although both sides have the same "
                "fingerprint (one environment, one kind of CPU): a result that does not repeat.")
    return (f"PASS (verdicts): every claim keeps its status. Only bytes differ, between two "
            f"fingerprints (above): last bits inside each claim's tolerance; the largest relative "
            f"difference in a measured value is {worst:.2g}.")


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


def rerun(scratch: Path, paper: str | None, jobs: int) -> int:
    """The stages in the scratch clone, on `jobs` workers as `make repro` runs them (pinned,
    with this environment's python first on PATH)."""
    env = numerics.pin(dict(os.environ))
    env["PATH"] = f"{Path(sys.executable).parent}:{env.get('PATH', '')}"
    target = [f"notebooks/{paper}/dvc.yaml"] if paper else []
    return subprocess.run([sys.executable, "-m", "lib.companion.parallel", "--jobs", str(jobs),
                           *target], cwd=scratch, env=env).returncode


def head_side(workspace: Path, scratch: Path, paper: str | None) -> Side:
    """HEAD's locks, their outputs' bytes from this workspace (its cache and files)."""
    locks = {lock: subprocess.run(["git", "show", f"HEAD:{lock}"], cwd=scratch,
                                  capture_output=True, text=True, check=True).stdout
             for lock in lock_files(scratch, paper)}
    return Side("committed", workspace, (workspace / ".dvc" / "cache",), locks)


def checkout_side(name: str, root: Path, paper: str | None) -> Side:
    """A checkout's own locks and files (the scratch clone, or another machine's results)."""
    return Side(name, root, (root / ".dvc" / "cache",),
                {lock: (root / lock).read_text() for lock in lock_files(root, paper)})


def write_report(text: str) -> None:
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lib.companion.verify",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--paper", help="one paper's stages (default: every stage)")
    parser.add_argument("--against", type=Path, metavar="DIR",
                        help="compare with another checkout's results instead of re-running")
    parser.add_argument("--scratch", type=Path, default=paths.ROOT / "build" / "verify")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--keep", action="store_true", help="keep the scratch clone")
    args = parser.parse_args(argv)
    if args.paper is not None and args.paper not in papers.names():
        print(f"--paper {args.paper!r}: not a declared paper; declared: {list(papers.names())}",
              file=sys.stderr)
        return 2
    if args.against is not None:
        if not (args.against / "dvc.lock").exists():
            print(f"--against {args.against}: not a checkout with results (no dvc.lock there)",
                  file=sys.stderr)
            return 2
        a = checkout_side("this workspace", paths.ROOT, args.paper)
        b = checkout_side(str(args.against), args.against, args.paper)
    else:
        clone(paths.ROOT, args.scratch)
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=args.scratch,
                              capture_output=True, text=True, check=True).stdout.strip()
        print(f"verifying {head} (HEAD; uncommitted changes are not part of it) in {args.scratch}")
        if rerun(args.scratch, args.paper, args.jobs) != 0:
            print("the re-run failed in the scratch clone (above): nothing compared",
                  file=sys.stderr)
            return 1
        a = head_side(paths.ROOT, args.scratch, args.paper)
        b = checkout_side("re-run", args.scratch, args.paper)
    cmp = compare(a, b, args.paper)
    text = render(cmp, a, b)
    print(text)
    write_report(text)
    print(f"(saved to {REPORT.relative_to(paths.ROOT)})")
    if args.against is None and not args.keep:
        shutil.rmtree(args.scratch, ignore_errors=True)
    return cmp.exit_code()


if __name__ == "__main__":
    sys.exit(main())
