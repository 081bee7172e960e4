"""YAML as the companion reads it: duplicate keys refused, scientific notation read as numbers,
and a syntax error told in one line (file, line, column, what was expected).

PyYAML follows YAML 1.1, which keeps the last of two equal keys without a word and reads `1e-3`
as a string; DVC's own loader (YAML 1.2) reads it as a float. Reading floats the 1.2 way keeps
the runner and `dvc exp run -S` agreeing on what a value is.
"""
from __future__ import annotations

import re
from typing import Any

import yaml

# YAML 1.2's float: a mantissa with or without a dot, an optional signed or unsigned exponent.
FLOAT_12 = re.compile(r"^[-+]?(?:\d[\d_]*\.[\d_]*|\.[\d_]+|\d[\d_]*)(?:[eE][-+]?\d+)$"
                      r"|^[-+]?(?:\d[\d_]*\.[\d_]*|\.[\d_]+)$"
                      r"|^[-+]?\.(?:inf|Inf|INF)$|^\.(?:nan|NaN|NAN)$")


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


StrictLoader.add_implicit_resolver("tag:yaml.org,2002:float", FLOAT_12,
                                   list("-+0123456789."))


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
