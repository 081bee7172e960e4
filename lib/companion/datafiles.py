"""data/ is an input: its files are checked against data.dvc, never re-hashed into it.

    python -m lib.companion.datafiles --check [--stamps results/data]   # the `data` stage
    python -m lib.companion.datafiles --verify-remote   # dvc-remote/'s objects against their md5

`dvc repro` re-hashes a changed data source into data.dvc and carries on, so a flipped byte in a
data file would be committed and then blamed on the paper (a claim read off it fails). So no
stage depends on a path inside data/ (DVC would then verify, and re-commit, data.dvc first): the
`data` stage, run on every repro, compares each file with the md5 data.dvc's manifest gives it
(the `.dir` object in .dvc/cache/, or in the bundled remote when the cache lacks it), stops the
pipeline naming every file that differs, with the offline way back, and otherwise writes one
stamp per notebook, the md5s of the files it reads: a notebook stage depends on its stamp, so it
re-runs exactly when data.dvc changes what it reads. The remote check hashes every object the
bundled remote serves: an object whose content does not match its name is corrupt (DVC's
`verify` then refuses to check it out, without saying which).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from lib.companion import papers, paths, yamlio

POINTER = paths.ROOT / "data.dvc"
CACHE = paths.ROOT / ".dvc" / "cache" / "files" / "md5"
REMOTE = paths.ROOT / "dvc-remote" / "files" / "md5"
RESTORE = ("restore it offline with `dvc checkout --force data.dvc` (from .dvc/cache) or "
           "`dvc pull --force data.dvc` (from the bundled remote dvc-remote/); a deliberate "
           "change is `dvc add data` and a commit of data.dvc")


class DataError(RuntimeError):
    """data/ does not match data.dvc, or the bundled remote serves a corrupt object."""


@dataclass(frozen=True)
class Difference:
    """One file of data/ that is not as data.dvc records it."""

    path: str          # relative to data/
    what: str          # modified | missing | not in data.dvc
    expected: str = ""
    found: str = ""

    def __str__(self) -> str:
        detail = f" (md5 {self.found}, data.dvc says {self.expected})" if self.what == \
            "modified" else ""
        return f"data/{self.path}: {self.what}{detail}"


def md5(path: Path) -> str:
    """The md5 of a file's bytes, as DVC 3 hashes it."""
    digest = hashlib.md5()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def object_path(root: Path, digest: str) -> Path:
    """Where a cache or remote keeps the object with this md5 (`.dir` kept in the name)."""
    return root / digest[:2] / digest[2:]


def pointer_hash() -> str:
    """The md5 of data/ as data.dvc records it (a `.dir` hash)."""
    doc = yamlio.load(POINTER.read_text(), str(POINTER))
    outs = doc.get("outs") if isinstance(doc, dict) else None
    if not outs or outs[0].get("path") != "data" or not str(outs[0].get("md5", "")).endswith(
            ".dir"):
        raise DataError(f"{POINTER.name}: expected one output `data` with a .dir md5")
    return outs[0]["md5"]


def manifest() -> dict[str, str]:
    """{path under data/: md5} as data.dvc records it, read from the cache or the remote."""
    digest = pointer_hash()
    for root in (CACHE, REMOTE):
        found = object_path(root, digest)
        if found.exists():
            if md5(found) != digest.removesuffix(".dir"):
                raise DataError(f"{found}: the manifest of data.dvc is corrupt (its md5 is not "
                                "its name); " + RESTORE)
            return {e["relpath"]: e["md5"] for e in json.loads(found.read_text())}
    raise DataError(f"data.dvc's manifest {digest} is in neither .dvc/cache nor dvc-remote/: "
                    "run `dvc pull data.dvc` (make data)")


def under(rel: str, entries: list[str]) -> bool:
    """Is the file `rel` (relative to data/) one of, or inside one of, the declared entries?"""
    return any(rel == e or rel.startswith(e.rstrip("/") + "/") for e in entries)


def differences(expected: dict[str, str], entries: list[str] | None = None) -> list[Difference]:
    """Files of data/ (or of the named files or folders under it) that differ from the
    manifest."""
    def wanted(rel: str) -> bool:
        return entries is None or under(rel, entries)

    out = []
    for rel, digest in sorted(expected.items()):
        if not wanted(rel):
            continue
        path = paths.DATA / rel
        if not path.is_file():
            out.append(Difference(rel, "missing", digest))
        elif (found := md5(path)) != digest:
            out.append(Difference(rel, "modified", digest, found))
    on_disk = sorted(p.relative_to(paths.DATA).as_posix() for p in paths.DATA.rglob("*")
                     if p.is_file()) if paths.DATA.exists() else []
    out += [Difference(rel, "not in data.dvc") for rel in on_disk
            if rel not in expected and wanted(rel)]
    return out


def check(entries: list[str] | None = None) -> dict[str, str]:
    """Raise DataError naming every file of data/ (or of `entries`) that differs from data.dvc;
    return the manifest it checked against ({} when `entries` is empty: nothing to check)."""
    if entries is not None and not entries:
        return {}
    expected = manifest()
    found = differences(expected, entries)
    if found:
        raise DataError("data/ differs from data.dvc, so nothing was run or re-hashed:\n"
                        + "\n".join(f"  {d}" for d in found) + f"\n{RESTORE}")
    return expected


def stamp_file(folder: Path, notebook: str) -> Path:
    """The stamp of the data one notebook reads, inside the `data` stage's output folder."""
    return folder / f"{notebook.replace('/', '__')}.md5"


def write_stamps(folder: Path, expected: dict[str, str]) -> None:
    """For every notebook that reads data, `<md5>  data/<file>` of each file it reads, as the
    manifest (checked against data/ first) records them."""
    folder.mkdir(parents=True, exist_ok=True)
    for notebook in papers.all_notebooks():
        entries = papers.notebook_entry(notebook).data
        if not entries:
            continue
        missing = [e for e in entries if not any(under(rel, [e]) for rel in expected)]
        if missing:
            raise DataError(f"{notebook} reads {missing}, which data.dvc does not hold")
        lines = [f"{digest}  data/{rel}" for rel, digest in sorted(expected.items())
                 if under(rel, entries)]
        stamp_file(folder, notebook).write_text("\n".join(lines) + "\n")


def corrupt_remote_objects(root: Path = REMOTE) -> list[Path]:
    """Objects of the bundled remote whose content does not hash to their name."""
    bad = []
    for path in sorted(root.rglob("*")) if root.exists() else []:
        if path.is_file():
            name = (path.parent.name + path.name).removesuffix(".dir")
            if md5(path) != name:
                bad.append(path)
    return bad


def verify_remote(root: Path = REMOTE) -> None:
    """Raise DataError naming every corrupt object of the bundled remote."""
    bad = corrupt_remote_objects(root)
    if bad:
        raise DataError("the bundled remote serves corrupt objects (content does not match the "
                        "md5 they are named by):\n" + "\n".join(
                            f"  {p.relative_to(paths.ROOT)}" for p in bad)
                        + "\nrestore them from git (`git checkout -- dvc-remote/`) or push a "
                          "good copy (`dvc push`) from a workspace whose cache is sound")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lib.companion.datafiles",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="data/ against data.dvc")
    parser.add_argument("--verify-remote", action="store_true",
                        help="every object of dvc-remote/ against its md5")
    parser.add_argument("--stamps", type=Path,
                        help="with --check, on success write each notebook's data stamp here")
    args = parser.parse_args(argv)
    if not (args.check or args.verify_remote):
        parser.error("nothing to do: pass --check and/or --verify-remote")
    try:
        if args.verify_remote:
            verify_remote()
            print("dvc-remote/: every object matches its md5")
        if args.check:
            expected = check()
            print(f"data/: {len(expected)} files as data.dvc records them")
            if args.stamps:
                write_stamps(args.stamps, expected)
    except DataError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0

if __name__ == "__main__":
    sys.exit(main())
