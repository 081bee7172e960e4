"""The infrastructure stamp: one small file naming, with its md5, every lib/companion module a
notebook stage runs, so that each stage depends on that one file instead of listing the modules.

    python -m lib.companion.infra --stamp results/infra.ok

DVC re-runs the `infra` stage when one of those modules, or requirements.lock, changes; the stamp's
content changes with it, and so every notebook stage re-runs: exactly those an infrastructure edit
or another locked environment can affect. Modules
that only some papers import (beyond what the runner and notebook.start run) are listed in those
papers' stages instead (lib.companion.generate).
"""
from __future__ import annotations

import argparse
import ast
import functools
import hashlib
import re
import sys
from pathlib import Path

from lib.companion import paths

# What every notebook stage runs: the runner, and notebook.start in the kernel.
STAGE_ROOTS = ("runner", "notebook")


def lib_imports(source: Path) -> tuple[str, ...]:
    """What a source file imports from the project's `lib` package, as dotted names below it
    ("companion.params", "spiking", "gd_perceptron.exact"), at any depth of the file (a deferred
    import counts). Each version of a file is read once per process."""
    return _lib_imports(source, source.stat().st_mtime_ns)


# An import statement that names lib, at any indentation, continued over lines in parentheses
# or after a backslash: only these are parsed (a whole file's parse costs ten times more).
LIB_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+lib[\w.]*[ \t]+import[ \t]*(?:\([^)]*\)|"
                        r"[^\n]*(?:\\\n[^\n]*)*)|import[ \t]+lib[\w.]*[^\n]*)", re.M)


@functools.lru_cache(maxsize=None)
def _lib_imports(source: Path, mtime_ns: int) -> tuple[str, ...]:
    found: list[str] = []
    for node in (n for m in LIB_IMPORT.finditer(source.read_text()) for n in _parsed(m.group(0))):
        if isinstance(node, ast.ImportFrom) and node.module == "lib":
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module == "lib.companion":
            found += [f"companion.{a.name}" for a in node.names]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("lib."):
            found.append(node.module.removeprefix("lib."))
        elif isinstance(node, ast.Import):
            found += [a.name.removeprefix("lib.") for a in node.names
                      if a.name.startswith("lib.")]
    return tuple(found)


def module_imports(source: Path) -> set[str]:
    """The lib modules a file imports, as dotted names below lib, with `from lib.x import y`
    counted as x.y too (y may be a module): what `lib_imports` gives, and the names it drops."""
    found: set[str] = set()
    for node in (n for m in LIB_IMPORT.finditer(source.read_text()) for n in _parsed(m.group(0))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("lib"):
            base = (node.module or "").removeprefix("lib").lstrip(".")
            found.add(base)
            found.update(f"{base}.{a.name}".lstrip(".") for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name.removeprefix("lib.") for a in node.names
                         if a.name.startswith("lib."))
    return found - {""}


def _parsed(snippet: str) -> list[ast.stmt]:
    """The statement a matched import line holds; none for prose that only looks like one."""
    try:
        return ast.parse(snippet.strip()).body
    except SyntaxError:
        return []


def companion_modules(source: Path) -> list[str]:
    """The lib.companion modules a source file imports, by module name."""
    return [name.split(".")[1] for name in lib_imports(source)
            if name.startswith("companion.")]


def closure(*roots: str) -> list[str]:
    """The named lib/companion modules and every lib/companion module they import, followed
    through the source (a new import is a new dependency), sorted."""
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        source = paths.ROOT / "lib" / "companion" / f"{name}.py"
        if source.exists():                       # a package folder (book_site) has no source
            todo += companion_modules(source)
    return sorted(seen)


def module_files(names: list[str]) -> tuple[str, ...]:
    """The files of lib/companion modules, with the two package __init__ files they load."""
    return ("lib/__init__.py", "lib/companion/__init__.py",
            *(f"lib/companion/{n}.py" for n in names
              if (paths.ROOT / "lib" / "companion" / f"{n}.py").exists()))


def files(*roots: str) -> tuple[str, ...]:
    """The files of the named modules' closure: a stage's infrastructure dependencies."""
    return module_files(closure(*roots))


# the locked environment every stage runs in: a new lock re-runs every stage
LOCK_FILE = "requirements.lock"


def stage_files() -> tuple[str, ...]:
    """What the stamp covers: the modules every notebook stage runs, this one, and the lock."""
    return (*files("infra", *STAGE_ROOTS), LOCK_FILE)


def stamp_text(names: tuple[str, ...]) -> str:
    """One line per file, "md5  path", in the order given (md5sum's format)."""
    return "".join(f"{hashlib.md5((paths.ROOT / n).read_bytes()).hexdigest()}  {n}\n"
                   for n in names)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lib.companion.infra",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--stamp", type=Path, required=True, help="the stamp file to write")
    args = parser.parse_args(argv)
    args.stamp.parent.mkdir(parents=True, exist_ok=True)
    args.stamp.write_text(stamp_text(stage_files()))
    print(f"infrastructure stamp: {len(stage_files())} files -> {args.stamp}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
