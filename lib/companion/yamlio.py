"""YAML as the companion reads it: duplicate keys refused, scalars typed as YAML 1.2 types them,
and a syntax error told in one line (file, line, column, what was expected).

PyYAML follows YAML 1.1, which keeps the last of two equal keys without a word, reads `1e-3` as
a string, `010` as 8, `1_000` as 1000, `yes`/`off` as booleans and `2026-12-01` as a date; DVC's
own loader (YAML 1.2 core schema) reads 0.001, 10, and strings for the others. Typing scalars the
1.2 way keeps the runner and `dvc exp run -S` agreeing on what a value is; the spellings on which
the two disagree stay strings here, so a schema expecting a number refuses them by name.
"""
from __future__ import annotations

import re
from typing import Any

import yaml

# The YAML 1.2 core schema's booleans, decimal integers and floats (no octal, no underscores).
BOOL_12 = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
INT_12 = re.compile(r"^[-+]?[0-9]+$")
FLOAT_12 = re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$"
                      r"|^[-+]?\.(?:inf|Inf|INF)$|^\.(?:nan|NaN|NAN)$")
RETYPED = ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
           "tag:yaml.org,2002:timestamp")


class YamlError(ValueError):
    """A YAML file or value the companion refuses, said in one line."""


class StrictLoader(yaml.SafeLoader):
    """SafeLoader that refuses duplicate keys and reads 1e-3 as a float."""

    def construct_mapping(self, node, deep=False):
        seen: dict[Any, Any] = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                mark = key_node.start_mark
                raise YamlError(f"{mark.name}:{mark.line + 1}:{mark.column + 1}: duplicate key "
                                f"{key!r} (first at line {seen[key].line + 1}); YAML would keep "
                                "only the last one")
            seen[key] = key_node.start_mark
        return super().construct_mapping(node, deep=deep)


StrictLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag not in RETYPED]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
for _tag, _pattern, _first in (("bool", BOOL_12, "tTfF"), ("int", INT_12, "-+0123456789"),
                               ("float", FLOAT_12, "-+0123456789.")):
    StrictLoader.add_implicit_resolver(f"tag:yaml.org,2002:{_tag}", _pattern, list(_first))
# 1.1 reads a leading 0 as octal; 1.2's core integers are decimal
StrictLoader.add_constructor("tag:yaml.org,2002:int",
                             lambda loader, node: int(loader.construct_scalar(node), 10))


def load(text: str, source: str = "<string>") -> Any:
    """Parse `text` (named `source` in messages) with the strict loader."""
    try:
        loader = StrictLoader(text)
        loader.name = source
        try:
            return loader.get_single_data()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        where = f"{source}:{mark.line + 1}:{mark.column + 1}" if mark else source
        what = " ".join(str(p) for p in (err.context, err.problem) if p)
        raise YamlError(f"{where}: not valid YAML: {what}") from None
    except yaml.YAMLError as err:
        raise YamlError(f"{source}: not valid YAML: {err}") from None
