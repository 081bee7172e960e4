"""YAML as the companion reads it: the reading DVC itself uses, a syntax error or duplicate key
told in one line (file, line, column, what was expected).

DVC parses params.yaml with ruamel.yaml's safe loader (YAML 1.2: `050` is fifty, `5:00` a string,
`1e-3` a float, `yes` a string), and records in dvc.lock what it read. Reading it any other way
(PyYAML follows YAML 1.1: octal `050` is forty, `5:00` is 300) lets dvc.lock record a value the
notebook never used, so every YAML file of the companion is read here, by that same call.
"""
from __future__ import annotations

import re
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.constructor import DuplicateKeyError
from ruamel.yaml.error import MarkedYAMLError, YAMLError

DUPLICATE = re.compile(r'found duplicate key "(.*?)"')
# One loader for the process: building one costs more than parsing a small document.
_LOADER = YAML(typ="safe")


class YamlError(ValueError):
    """A YAML file or value the companion refuses, said in one line."""


def first_line(text: str, key: str, duplicate) -> int | str:
    """The 1-based line where `key` first appears at the duplicate's column, above it."""
    pattern = re.compile(r"^ {%d}%s\s*:" % (duplicate.column, re.escape(key)))
    lines = text.splitlines()[:duplicate.line]
    return next((i + 1 for i, line in enumerate(lines) if pattern.match(line)), "?")


def load(text: str, source: str = "<string>") -> Any:
    """Parse `text` (named `source` in messages) as DVC does (`dvc.utils.serialize.parse_yaml`:
    ruamel.yaml, typ="safe"), refusing duplicate keys."""
    try:
        return _LOADER.load(text)
    except DuplicateKeyError as err:
        found = DUPLICATE.search(str(err.problem))
        key = found.group(1) if found else "?"
        where = err.problem_mark
        raise YamlError(f"{source}:{where.line + 1}:{where.column + 1}: duplicate key {key!r} "
                        f"(first at line {first_line(text, key, where)}); YAML would keep only "
                        "one of them") from None
    except MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        where = f"{source}:{mark.line + 1}:{mark.column + 1}" if mark else source
        what = " ".join(str(p) for p in (err.context, err.problem) if p)
        raise YamlError(f"{where}: not valid YAML: {what}") from None
    except YAMLError as err:
        raise YamlError(f"{source}: not valid YAML: {' '.join(str(err).split())}") from None
