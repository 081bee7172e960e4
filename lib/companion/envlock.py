"""The one locked environment: requirements.lock against what is installed.

    python -m lib.companion.envlock --check     exit 1 naming each package missing, extra or at
                                                another version than the lock says
    python -m lib.companion.envlock --remove-extra
                                                uninstall what the lock does not hold (make setup,
                                                in the project's own .venv only)

requirements.lock is written by `make lock` (uv pip compile --generate-hashes from pyproject.toml's
direct pins): every package of the environment with its exact version and the sha256 of each of
its files, for CPython 3.11 on Linux x86-64. `make setup` installs it with pip's hash-checking
mode, so what runs the pipeline is what the lock says, byte for byte, on every machine. Its
digest goes into every run's fingerprint (lib.companion.fingerprint).
"""
from __future__ import annotations

import argparse
import hashlib
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from lib.companion import paths

LOCK = paths.ROOT / "requirements.lock"
PROJECT = "icml26-companion"
# what installs the environment rather than belongs to it: never counted as extra
INSTALLERS = frozenset({"pip", "wheel"})
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s\\;]+)", re.M)


class LockError(RuntimeError):
    """The lock file is missing or unreadable."""


def normalise(name: str) -> str:
    """A distribution name as PEP 503 compares it (Foo_Bar.baz and foo-bar-baz are one)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def locked(text: str | None = None) -> dict[str, str]:
    """{normalised name: version} of every package the lock pins."""
    if text is None:
        try:
            text = LOCK.read_text()
        except OSError as err:
            raise LockError(f"{LOCK.name}: cannot be read ({err}); `make lock` writes it") from None
    return {normalise(name): version for name, version in PIN.findall(text)}


def installed() -> dict[str, str]:
    """{normalised name: version} of what this interpreter's environment holds, less the
    project itself."""
    found = {normalise(d.metadata["Name"]): d.version for d in metadata.distributions()
             if d.metadata["Name"]}
    found.pop(PROJECT, None)
    return found


def compare(lock: dict[str, str], have: dict[str, str]) -> dict[str, list[str]]:
    """What differs, one line per package: missing (locked, not installed), extra (installed,
    not locked; installers aside) and other (installed at another version)."""
    return {
        "missing": [f"{n}=={v}" for n, v in sorted(lock.items()) if n not in have],
        "extra": [f"{n}=={v}" for n, v in sorted(have.items())
                  if n not in lock and n not in INSTALLERS],
        "other": [f"{n}: {have[n]} installed, {v} locked" for n, v in sorted(lock.items())
                  if n in have and have[n] != v],
    }


def digest(path: Path = LOCK) -> str:
    """The lock's sha256 (first 16 hex digits): which locked environment a run used ("none"
    where there is no lock, e.g. a copy of the code without it)."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    except FileNotFoundError:
        return "none"


def matches() -> bool:
    """Does this environment hold exactly the lock?"""
    return not any(compare(locked(), installed()).values())


def check() -> int:
    """Print what differs from the lock, naming each package; 0 when nothing does."""
    diff = compare(locked(), installed())
    if not any(diff.values()):
        print(f"environment: {len(locked())} packages, exactly {LOCK.name} ({digest()})")
        return 0
    print(f"environment differs from {LOCK.name} ({sys.prefix}):", file=sys.stderr)
    for what, lines in diff.items():
        for line in lines:
            print(f"  {what}: {line}", file=sys.stderr)
    print("  `make setup` installs the lock (and, in the project's .venv, removes what it does "
          "not hold)", file=sys.stderr)
    return 1


def remove_extra() -> int:
    """Uninstall every installed package the lock does not hold (installers aside)."""
    extra = [line.split("==")[0] for line in compare(locked(), installed())["extra"]]
    if not extra:
        return 0
    print(f"removing {len(extra)} package(s) the lock does not hold: {', '.join(extra)}")
    return subprocess.run([sys.executable, "-m", "pip", "uninstall", "--yes", "--quiet",
                           *extra]).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lib.companion.envlock",
                                     description=__doc__.split("\n")[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--check", action="store_true", help="compare with the lock")
    action.add_argument("--remove-extra", action="store_true",
                        help="uninstall what the lock does not hold")
    args = parser.parse_args(argv)
    try:
        return check() if args.check else remove_extra()
    except LockError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
