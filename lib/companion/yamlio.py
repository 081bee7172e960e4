"""YAML as the companion reads it: the reading DVC itself uses, a syntax error or duplicate key
told in one line (file, line, column, what was expected).

DVC parses params.yaml with ruamel.yaml's safe loader (YAML 1.2: `050` is fifty, `5:00` a string,
`1e-3` a float, `yes` a string), and records in dvc.lock what it read. Reading it any other way
(PyYAML follows YAML 1.1: octal `050` is forty, `5:00` is 300) lets dvc.lock record a value the
notebook never used, so every YAML file of the companion is read here, by that same call.
What no file of ours needs is refused here too, by position: a number of more digits than Python
converts (MAX_DIGITS) and nesting deeper than MAX_DEPTH. `shown` is how a message quotes a value:
cut to a readable length, whatever its size.
"""
from __future__ import annotations

import re
import reprlib
import sys
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.constructor import DuplicateKeyError
from ruamel.yaml.error import MarkedYAMLError, YAMLError

DUPLICATE = re.compile(r'found duplicate key "(.*?)"')
MAX_DEPTH = 32          # no file of ours nests deeper than a handful of levels
MAX_DIGITS = 4300       # Python's own limit on converting a digit string to an int
SHOWN = 80              # characters of a value a message quotes
# One loader for the process: building one costs more than parsing a small document.
_LOADER = YAML(typ="safe")
# repr with bounds: a value built of repeated aliases is never printed whole
_REPR = reprlib.Repr()
_REPR.maxlevel = 6
_REPR.maxtuple = _REPR.maxlist = _REPR.maxdict = _REPR.maxset = _REPR.maxfrozenset = 12
_REPR.maxstring = _REPR.maxlong = _REPR.maxother = sys.maxsize   # cut() shortens the whole


class YamlError(ValueError):
    """A YAML file or value the companion refuses, said in one line."""


def first_line(text: str, key: str, duplicate) -> int | str:
    """The 1-based line where `key` first appears at the duplicate's column, above it."""
    pattern = re.compile(r"^ {%d}%s\s*:" % (duplicate.column, re.escape(key)))
    lines = text.splitlines()[:duplicate.line]
    return next((i + 1 for i, line in enumerate(lines) if pattern.match(line)), "?")


def shown(value: Any, limit: int = SHOWN) -> str:
    """repr(value) as a message quotes it: at most `limit` characters, then an ellipsis and the
    full length; an integer too long to print and a structure too deep to print said in words."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 256:
        return f"<an integer of about {int(value.bit_length() * 0.30103) + 1} digits>"
    try:
        return cut(_REPR.repr(value), limit)
    except (RecursionError, ValueError):
        return f"<a {type(value).__name__} too deep or too long to print>"


def cut(text: str, limit: int = SHOWN) -> str:
    """`text` as a message quotes it: at most `limit` characters, then an ellipsis and the
    full length."""
    text = str(text)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def depth_error(doc: Any) -> str | None:
    """The key path where `doc` nests deeper than MAX_DEPTH, said in words (None: it does not);
    iterative, so that any depth can be measured, and each mapping or list visited once, so that
    aliases repeated (a "billion laughs") or pointing back at themselves cost no more than the
    text."""
    stack, seen = [(doc, 0, "")], set()
    while stack:
        node, depth, where = stack.pop()
        if depth > MAX_DEPTH:
            return (f"nested more than {MAX_DEPTH} levels deep at {cut(where) or 'the top'}; "
                    f"allowed: at most {MAX_DEPTH} levels")
        if isinstance(node, (dict, list)):
            if id(node) in seen:
                continue
            seen.add(id(node))
        if isinstance(node, dict):
            stack += [(v, depth + 1, f"{where}.{k}" if where else str(k)) for k, v in node.items()]
        elif isinstance(node, list):
            stack += [(v, depth + 1, f"{where}[{i}]") for i, v in enumerate(node)]
    return None


def long_number(text: str, source: str) -> str:
    """Where the first number of more than MAX_DIGITS digits is, said in one line."""
    found = re.search(r"\d[\d_]{%d,}" % MAX_DIGITS, text)
    if not found:
        return f"{source}: a number too long to read; allowed: at most {MAX_DIGITS} digits"
    line = text.count("\n", 0, found.start()) + 1
    column = found.start() - (text.rfind("\n", 0, found.start()) + 1) + 1
    digits = sum(c.isdigit() for c in found.group())
    key = re.match(r"\s*-?\s*([^:#\s][^:#]*?)\s*:", text.splitlines()[line - 1][:column])
    what = f"the value of {cut(key.group(1))!r} is " if key else ""
    return (f"{source}:{line}:{column}: {what}a number of {digits:,} digits; allowed: at most "
            f"{MAX_DIGITS} digits")


def load(text: str, source: str = "<string>") -> Any:
    """Parse `text` (named `source` in messages) as DVC does (`dvc.utils.serialize.parse_yaml`:
    ruamel.yaml, typ="safe"), refusing duplicate keys, numbers too long to convert and nesting
    deeper than MAX_DEPTH."""
    try:
        doc = _LOADER.load(text)
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
        where = source
        if isinstance(getattr(err, "position", None), int):     # a character no YAML allows
            line = text.count("\n", 0, err.position) + 1
            column = err.position - (text.rfind("\n", 0, err.position) + 1) + 1
            where = f"{source}:{line}:{column}"
        what = cut(" ".join(str(err).split()), 200)
        raise YamlError(f"{where}: not valid YAML: {what}") from None
    except ValueError as err:            # int(): more digits than Python converts
        if "digits" not in str(err):
            raise
        raise YamlError(long_number(text, source)) from None
    except RecursionError:
        raise YamlError(f"{source}: nested too deeply to read; allowed: at most {MAX_DEPTH} "
                        "levels") from None
    deep = depth_error(doc)
    if deep:
        raise YamlError(f"{source}: {deep}")
    return doc


def leaves(doc: Any, prefix: str = "") -> dict[str, Any]:
    """Every key path of a nested mapping with its value ("a.b.c": value); lists are values."""
    if not isinstance(doc, dict):
        return {prefix: doc}
    return {k: v for key, sub in doc.items()
            for k, v in leaves(sub, f"{prefix}.{key}" if prefix else str(key)).items()}
