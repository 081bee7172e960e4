"""Bad edits of params.yaml, generated from the schemas, and a judge of how each is refused.

Shared by the property test (tests/test_params_property.py) and the fuzz run:

    python -m tests.params_edits [--n 450] [--seed 0] [--tree DIR]

generates edits of every kind (wrong types, out-of-range and non-finite values, unknown keys at
every level, duplicate keys, contradictions between keys, YAML spellings, oddities and syntax
errors, bad `-p` overrides; empty and truncated files, missing sections, a section's own
`seed:`/`profile:`, profile blocks emptied, cut or set to a scalar, lists of a thousand in-bound
values, huge valid-looking sizes, 5,000-digit integers, 5,000-deep nesting, a 1 MB string), applies
each to the params.yaml of the tree (this repository, or an older checkout given by --tree, in a
subprocess there) and counts how each was met: refused naming the key path, refused unclearly (a
traceback, no key named, or a message longer than MESSAGE_MAX characters), or accepted.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import re
import subprocess
import sys
import tempfile
import typing
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PROFILES = ("smoke", "default", "paper")
MESSAGE_MAX = 5000      # a refusal is read by a person: a value echoed whole is unclear
# the kinds no schema declares (the rest are read off each field's type and range)
OUTSIDE = ("root_key", "huge", "digits", "deep", "big_string", "yaml_oddity", "empty",
           "truncated", "unknown", "profile_block", "block_cut", "long_list")
NOT_BLOCKS = (None, 0, [], "x", 1.5, [{"a": 1}])    # what a profile block set by hand may read
HUGE = (10 ** 9, 10 ** 12)                         # sizes that look valid and cost days or TiB
ODDITIES = [   # (line replacing `key: value`, kind of name the refusal must give)
    ("{pad}{key}: !!python/object:os.system echo", "LINE"),      # a tag the safe loader refuses
    ("{pad}{key}: *nowhere", "LINE"),                            # an alias never anchored
    ("{pad}{key}: 5\x00", "LINE"),                               # a control character
    ("{pad}{key}: !!binary aGVsbG8=", "KEY"),                    # bytes
    ("{pad}{key}: !!set {{a, b}}", "KEY"),                       # a set
    ("{pad}{key}: !!timestamp 2001-12-14", "KEY"),               # a date
    ("{pad}{key}: &x [*x]", "KEY"),                              # a list that holds itself
    ("{pad}{key}: &a [&b [&c [&d [&e [&f [&g [1, 1, 1]]]]]]]", "KEY"),
    ("{pad}{key}:", "KEY"),                                      # null
    ("{pad}<<: {{no_such_key: 1}}\n{pad}{key}: 1", "MERGED"),    # a merge key brings in a key
]

# Numeric keys without a lower bound on purpose (a sign is meaningful): no sign edits for them.
SIGNED = {"sweep_log10_min": "log10 of the smallest step", "sweep_log10_max": "log10 exponent",
          "scale_powers": "powers of 2, negative ones shrink", "eps_log10": "log10 of epsilon",
          "delta_log10": "log10 of delta", "freqs": "frequencies, 0 is the constant one"}
# Rules across keys that the schema states in its validators, one bad edit each.
CROSS = {
    "gd_perceptron/07_real_data": [({"class_neg": 0}, ["class_pos", "class_neg"])],
    "linear_rnns/08_trained_models": [
        ({"bins": {"dgc": [[6, 2], [7, 12]]}}, ["bins", "dgc"]),
        ({"bins": {"dgc": [[2, 6], [5, 12]]}}, ["bins", "dgc"]),
        ({"bins": {"dgc_paper": [[2, 6]]}}, ["bins", "dgc_paper"]),   # a trained task, one bin
        ({"tasks": ["dgc"], "dgc_id_bits": 3}, ["bins", "dgc_id_bits"]),
        ({"tasks": ["dgc", "dgc"]}, ["tasks"]),
        ({"families": ["rnn", "rnn"]}, ["families"]),
    ],
    "linear_rnns/09_audit_released": [({"bins": [[100, 1], [101, 200]]}, ["bins"]),
                                      ({"bins": [[1, 100], [50, 200]]}, ["bins"])],
    "equivariance/07_attention_heads": [({"d_head": 7}, ["d_head", "d"])],
    **{f"sbayfdnn/{stem}": [({"J": 20}, ["J", "support's resolution"]),
                            ({"degree": 5}, ["J", "degree"]),
                            ({"s0": 0.005}, ["s0", "s1"])]
       for stem in ("01_prior_and_pip", "02_simulation", "03_consistency")},
}
CROSS["ptnas/01_ptproxy_identities"] = [({"batch": 3}, ["batch_sizes", "batch"])]
CROSS["ptnas/02_minibench"] = [({"pad_widths": [16, 32, 64]}, ["pad_widths", "widths"]),
                               ({"fidelity_epoch": 5}, ["fidelity_epoch", "epochs"]),
                               ({"gt_epoch": 9}, ["gt_epoch", "epochs"])]
for stem in ("02_ablation", "03_sparsity_noise"):
    CROSS[f"bsnp/{stem}"] = [({"rho0": 0.001}, ["rho0", "grid"])]
# the digits hold both of 02's batches (init and statistics) only up to their 1 797 images
CROSS["ttfs_snn/02_init_normalisation"] = [({"n_init": 1000, "n_stats": 1000},
                                            ["n_init", "n_stats", "digits"])]
# tau* is a function of (width, lam, s0, s1): the grid rule relates all five keys
CROSS["sbayfdnn/01_prior_and_pip"].append(
    ({"norm2_max": 0.001}, ["norm2_max", "tau*", "width", "lam", "s0", "s1"]))


# ---------------------------------------------------------------- writing params.yaml
def scalar(value: Any) -> str:
    """A YAML flow scalar that YAML 1.1 and 1.2 loaders read alike."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, float):
        if math.isnan(value):
            return ".nan"
        if math.isinf(value):
            return ".inf" if value > 0 else "-.inf"
        text = repr(value)
        if "e" in text:                           # 1e-05 -> 1.0e-05: YAML 1.1 needs the dot
            mant, exp = text.split("e")
            mant = mant if "." in mant else mant + ".0"
            text = f"{mant}e{'' if exp[0] in '+-' else '+'}{exp}"
        return text
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(scalar(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {scalar(v)}" for k, v in value.items()) + "}"
    if isinstance(value, str):
        return json.dumps(value)
    return str(value)


def dump(raw: dict) -> tuple[list[str], dict[tuple, int]]:
    """params.yaml lines for a nested mapping, and the line index of every key path."""
    lines: list[str] = []
    where: dict[tuple, int] = {}

    def emit(mapping: dict, path: tuple, depth: int) -> None:
        for key, value in mapping.items():
            where[path + (key,)] = len(lines)
            pad = "  " * depth
            if isinstance(value, dict) and value and depth < 3:
                lines.append(f"{pad}{key}:")
                emit(value, path + (key,), depth + 1)
            else:
                lines.append(f"{pad}{key}: {scalar(value)}")
    emit(raw, (), 0)
    return lines, where


def set_path(raw: dict, path: tuple, value: Any) -> dict:
    """A copy of raw with the value at path replaced (missing mappings created)."""
    out = json.loads(json.dumps(raw, allow_nan=True))
    node = out
    for key in path[:-1]:
        node = node.setdefault(key, {})
    node[path[-1]] = value
    return out


def render(raw: dict, edit: dict) -> str:
    """The text of params.yaml after the edit (structured or text-level)."""
    kind = edit["kind"]
    path = tuple(edit.get("path", ()))
    if kind == "file":
        return edit["text"]
    if kind == "truncate":
        return ("\n".join(dump(raw)[0]) + "\n")[:edit["at"]]
    if kind in ("value", "unknown", "cross"):
        doc = raw
        for sub_path, value in edit["values"]:
            doc = set_path(doc, tuple(sub_path), value)
        return "\n".join(dump(doc)[0]) + "\n"
    lines, where = dump(raw)
    if path not in where:
        lines, where = dump(set_path(raw, path, 0))
    i = where[path]
    pad = lines[i][:len(lines[i]) - len(lines[i].lstrip())]
    if kind == "spelling":
        lines[i] = f"{pad}{path[-1]}: {edit['text']}"
    elif kind == "duplicate":                    # after the key's whole block
        end = i + 1
        while end < len(lines) and len(lines[end]) - len(lines[end].lstrip()) > len(pad):
            end += 1
        lines.insert(end, f"{pad}{path[-1]}: {edit['text']}")
    elif kind == "syntax":
        lines[i] = edit["text"].format(pad=pad, key=path[-1], line=lines[i].strip())
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- generating edits
def field_info(annotation: Any) -> tuple[Any, dict]:
    """(bare type, constraints) of a possibly Annotated type."""
    cons: dict[str, Any] = {}
    if typing.get_origin(annotation) is typing.Annotated:
        base, *meta = typing.get_args(annotation)
        for m in meta:
            for item in getattr(m, "metadata", [m]):
                cons.update(range_of(item))
        return base, cons
    return annotation, cons


def constraints(schema: type, key: str) -> tuple[Any, dict]:
    """A field's bare type and its range (from the field and from an Annotated type)."""
    field = schema.model_fields[key]
    base, cons = field_info(field.annotation)
    for m in field.metadata:
        cons.update(range_of(m))
    return base, cons


def range_of(item: Any) -> dict:
    """The range constraints one pydantic/annotated_types metadata item carries."""
    names = ("ge", "gt", "le", "lt", "min_length", "max_length", "multiple_of")
    return {n: getattr(item, n) for n in names if getattr(item, n, None) is not None}


def bad_values(annotation: Any, cons: dict, key: str) -> list[tuple[Any, str]]:
    """Values no schema of this type and range may accept, each with its kind."""
    base, inner_cons = field_info(annotation)
    cons = {**inner_cons, **cons}
    origin = typing.get_origin(base)
    out: list[tuple[Any, str]] = []
    if origin is typing.Literal:
        return [("not-a-choice", "type"), (3, "type")]
    if base is bool:
        return [("yes", "type"), (2, "type")]
    if base is int:
        out += [("abc", "type"), (2.5, "type"), (True, "type"), ([1], "type")]
        if "ge" in cons:
            out.append((cons["ge"] - 1, "range"))
        if "gt" in cons:
            out.append((cons["gt"], "range"))
        if "le" in cons:
            out.append((cons["le"] + 1, "range"))
        if "lt" in cons:
            out.append((cons["lt"], "range"))
        if not {"ge", "gt"} & set(cons) and key not in SIGNED:
            out += [(-1, "sign"), (0, "sign")]
        return out
    if base is float:
        out += [("abc", "type"), (True, "type"), ([1.0], "type"), (math.inf, "nonfinite"),
                (-math.inf, "nonfinite"), (math.nan, "nonfinite")]
        if "ge" in cons:
            out.append((cons["ge"] - 0.5, "range"))
        if "gt" in cons:
            out.append((float(cons["gt"]), "range"))
        if "le" in cons:
            out.append((cons["le"] + 0.5, "range"))
        if "lt" in cons:
            out.append((float(cons["lt"]), "range"))
        if not {"ge", "gt"} & set(cons) and key not in SIGNED:
            out += [(-1.0, "sign"), (0.0, "sign")]
        return out
    if origin is list:
        (elem,) = typing.get_args(base)
        out += [("abc", "type"), (5, "type"), ({"a": 1}, "type")]
        if cons.get("min_length"):
            out.append(([], "range"))
        return out + [(["ELEMENT", v], kind) for v, kind in bad_values(elem, {}, key)]
    if origin is dict:
        return [([1], "type"), ("abc", "type")]
    if base is str:
        return [(5, "type")]
    return []


def into_first_element(default: Any, marker: Any) -> Any:
    """The default list with its first element (recursively) replaced by the marked value;
    None where the default has no such element."""
    if not (isinstance(marker, list) and marker[:1] == ["ELEMENT"]):
        return marker
    if not isinstance(default, list) or not default:
        return None
    inner = into_first_element(default[0], marker[1])
    return None if inner is None else [inner, *default[1:]]


def notebooks() -> list[tuple[str, type]]:
    from lib.companion import papers
    return [(f"{p}/{nb.stem}", papers.schema_class(f"{p}/{nb.stem}")) for p in papers.names()
            for nb in papers.paper(p).notebooks]


def section_name(raw: dict, paper: str, stem: str) -> str:
    """The notebook's section in `raw`: its stem in older trees, the stem without its number
    since sections had to be keys DVC's `-S` accepts."""
    return stem if stem in raw[paper] else stem.split("_", 1)[1]


def section_edits(notebook: str, schema: type, raw: dict) -> list[dict]:
    """Every bad edit of one notebook's section: values, overrides, cross-field rules, text."""
    paper, stem = notebook.split("/")
    stem = section_name(raw, paper, stem)      # the key path below uses the section's name
    section = raw[paper][stem]
    name = f"{paper}.{stem}"
    edits: list[dict] = []
    for key in schema.section_keys():
        field = schema.model_fields[key]
        default = section.get(key)
        for value, kind in bad_values(field.annotation, constraints(schema, key)[1], key):
            if isinstance(value, list) and value[:1] == ["ELEMENT"]:
                value = into_first_element(default, value)
                if value is None:
                    continue
            for where in ((paper, stem, key), (paper, stem, "smoke", key)):
                edits.append({"kind": "value", "class": kind, "notebook": notebook,
                              "values": [[list(where), value]], "names": [name, key]})
            edits.append({"kind": "override", "class": kind, "notebook": notebook,
                          "pair": f"{key}={scalar(value)}", "names": [key]})
        for text in (".inf", ".nan") if field.annotation is float else ():
            edits.append({"kind": "spelling", "class": "nonfinite", "path": [paper, stem, key],
                          "text": text, "names": [name, key]})
        if field.annotation is int:
            edits += [{"kind": "spelling", "class": "spelling", "path": [paper, stem, key],
                       "text": t, "names": [name, key]} for t in ("yes", "5:00", "~", "1e4")]
        edits.append({"kind": "duplicate", "class": "duplicate", "path": [paper, stem, key],
                      "text": scalar(default), "names": [key, "line"]})
        edits.append({"kind": "syntax", "class": "syntax", "path": [paper, stem, key],
                      "text": "{pad}{key}: [1, 2", "names": ["LINE"]})
        edits.append({"kind": "syntax", "class": "syntax", "path": [paper, stem, key],
                      "text": "{pad} \t{line}", "names": ["LINE"]})
        if isinstance(default, dict) and default:         # an unknown key beside known ones
            edits.append({"kind": "unknown", "class": "unknown", "notebook": notebook,
                          "values": [[[paper, stem, key, "no_such_task"],
                                      next(iter(default.values()))]],
                          "names": [name, key, "no_such_task"]})
        if key.endswith("_min") and f"{key[:-4]}_max" in schema.model_fields:
            edits += crossing(schema, notebook, [paper, stem], section, key, f"{key[:-4]}_max")
    for small, big in getattr(schema, "AT_MOST", ()):
        edits += crossing(schema, notebook, [paper, stem], section, small, big)
    for key in getattr(schema, "DISTINCT", ()) + getattr(schema, "INCREASING", ()):
        if len(section[key]) >= 2:
            edits.append({"kind": "cross", "class": "cross", "notebook": notebook,
                          "values": [[[paper, stem, key], [section[key][0], *section[key]]]],
                          "names": [name, key]})
    for key in getattr(schema, "INCREASING", ()):
        if len(section[key]) >= 2:
            edits.append({"kind": "cross", "class": "cross", "notebook": notebook,
                          "values": [[[paper, stem, key], section[key][::-1]]],
                          "names": [name, key]})
    for values, names in CROSS.get(notebook, []):
        edits.append({"kind": "cross", "class": "cross", "notebook": notebook,
                      "values": [[[paper, stem, k], {**section[k], **v} if isinstance(v, dict)
                                  else v] for k, v in values.items()],
                      "names": [name, *names]})
    edits += [
        {"kind": "unknown", "class": "unknown", "notebook": notebook,
         "values": [[[paper, stem, "no_such_key"], 1]], "names": [name, "no_such_key"]},
        {"kind": "unknown", "class": "unknown", "notebook": notebook,
         "values": [[[paper, stem, "smoke", "no_such_key"], 1]], "names": ["no_such_key"]},
        {"kind": "unknown", "class": "unknown", "notebook": notebook,
         "values": [[[paper, stem, "fast", schema.section_keys()[0]], 1]], "names": ["fast"]},
        {"kind": "override", "class": "unknown", "notebook": notebook,
         "pair": "no_such_key=1", "names": ["no_such_key"]},
    ]
    for edit in edits:                           # the path names the section, not the stem
        edit.setdefault("notebook", notebook)
    return edits


def in_range(schema: type, key: str, value: Any) -> bool:
    """Does `value` keep to the key's own declared range (so only a rule across keys breaks)?"""
    cons = constraints(schema, key)[1]
    return all(op(value, cons[c]) for c, op in (
        ("ge", lambda v, b: v >= b), ("gt", lambda v, b: v > b),
        ("le", lambda v, b: v <= b), ("lt", lambda v, b: v < b)) if c in cons)


def crossing(schema: type, notebook: str, at: list[str], section: dict, small: str,
             big: str) -> list[dict]:
    """One edit that puts `small` above `big`, each inside its own range: small raised past
    big, else big lowered under small; none when both leave their ranges."""
    step = 1 if isinstance(section[small], int) else 0.5 * max(abs(section[small]), 1e-3)
    for key, value in ((small, section[big] + step), (big, section[small] - step)):
        if in_range(schema, key, value) and value != section[key]:
            return [{"kind": "cross", "class": "cross", "notebook": notebook,
                     "values": [[[*at, key], value]], "names": [".".join(at), small, big]}]
    return []


def size_like(annotation: Any) -> bool:
    """An int field, or a list whose elements are ints (a size, a count, a grid of them)."""
    base = field_info(annotation)[0]
    if base is int:
        return True
    return typing.get_origin(base) is list and field_info(typing.get_args(base)[0])[0] is int


def outside_edits(notebook: str, schema: type, raw: dict) -> list[dict]:
    """The edits no schema declares: a section's own seed/profile, huge valid-looking sizes,
    5,000-digit integers, 5,000-deep nesting, a 1 MB string or key, YAML oddities."""
    paper, stem = notebook.split("/")
    stem = section_name(raw, paper, stem)
    section, name = raw[paper][stem], f"{paper}.{stem}"
    edits: list[dict] = []
    for key, value in (("seed", 3), ("profile", "paper")):
        for where in ((paper, stem, key), (paper, stem, "smoke", key), (paper, stem, "paper", key)):
            edits.append({"kind": "value", "class": "root_key", "notebook": notebook,
                          "values": [[list(where), value]], "names": [name, key]})
    for key in schema.section_keys():
        default = section.get(key)
        if key in SIGNED:
            continue
        if size_like(schema.model_fields[key].annotation):
            for n in HUGE if not key.endswith("seed") else ():   # a seed of 10^9 is a seed
                value = n if not isinstance(default, list) else [n, *default[1:]]
                if isinstance(default, list) and (not default or isinstance(default[0], list)):
                    continue
                edits.append({"kind": "value", "class": "huge", "notebook": notebook,
                              "values": [[[paper, stem, key], value]], "names": [name, key]})
            edits.append({"kind": "spelling", "class": "digits", "path": [paper, stem, key],
                          "text": "7" * 5000, "names": [key, "LINE"]})
        if isinstance(default, list) and default:    # in-bound values, far too many of them
            edits.append({"kind": "value", "class": "long_list", "notebook": notebook,
                          "values": [[[paper, stem, key], (default * 1000)[:1000]]],
                          "names": [name, key]})
        if isinstance(default, dict) and default:    # a block below the key: text edits of
            continue                                 # its line would only break the block
        edits.append({"kind": "spelling", "class": "deep", "path": [paper, stem, key],
                      "text": "[" * 5000 + "]" * 5000, "names": [f"{name}.{key}"]})
        edits.append({"kind": "spelling", "class": "deep", "path": [paper, stem, key],
                      "text": "{a: " * 5000 + "1" + "}" * 5000, "names": [f"{name}.{key}"]})
        edits.append({"kind": "spelling", "class": "big_string", "path": [paper, stem, key],
                      "text": json.dumps("x" * 10 ** 6), "names": [name, key, "characters"]})
        for text, wants in ODDITIES:
            names = {"LINE": ["LINE"], "KEY": [name, key],
                     "MERGED": [name, "no_such_key"]}[wants]
            edits.append({"kind": "syntax", "class": "yaml_oddity", "path": [paper, stem, key],
                          "text": text, "names": names})
    edits.append({"kind": "unknown", "class": "unknown", "notebook": notebook,
                  "values": [[[paper, stem, "k" * 1000], 1]], "names": [name, "kkkk", "..."]})
    return edits


def block_edits(notebook: str, schema: type, raw: dict) -> list[dict]:
    """A section's `smoke:`/`paper:` blocks set to what is not a block of overrides, emptied
    or missing a declared override (issue 60: each ran its profile on the default values)."""
    paper, stem = notebook.split("/")
    stem = section_name(raw, paper, stem)
    name, section = f"{paper}.{stem}", raw[paper][stem]
    edits = []
    for profile in ("smoke", "paper"):
        declared = list(schema.overrides(profile))
        path = [paper, stem, profile]
        for value in (*NOT_BLOCKS, *(({},) if declared else ())):
            edits.append({"kind": "value", "class": "profile_block", "notebook": notebook,
                          "values": [[path, value]], "names": [f"{name}.{profile}"]})
        for key in declared[:2]:
            kept = {k: v for k, v in section[profile].items() if k != key}
            edits.append({"kind": "value", "class": "profile_block", "notebook": notebook,
                          "values": [[path, kept or None]], "names": [f"{name}.{profile}"]})
    return edits


def block_cuts(raw: dict) -> list[dict]:
    """The whole file cut at the end of each line inside its last section's profile blocks."""
    lines, where = dump(raw)
    paper = next(reversed(raw))
    section = next(reversed(raw[paper]))
    blocks = [where[(paper, section, p)] for p in ("smoke", "paper")
              if (paper, section, p) in where]
    starts = [sum(len(x) + 1 for x in lines[:i]) for i in range(len(lines) + 1)]
    return [{"kind": "truncate", "class": "block_cut", "at": starts[i + 1],
             "names": ["params.yaml", f"{paper}.{section}.", "cut short"]}
            for i in range(min(blocks, default=len(lines)), len(lines) - 1)]


def file_edits(raw: dict) -> list[dict]:
    """Whole-file edits: empty files, and the file cut after each section and inside lines."""
    from lib.companion import papers
    edits = [{"kind": "file", "class": "empty", "text": t, "names": ["params.yaml", "empty"]}
             for t in ("", "\n", "# nothing\n", "---\n", "~\n", "null\n")]
    lines, where = dump(raw)
    text = "\n".join(lines) + "\n"
    starts = [sum(len(x) + 1 for x in lines[:i]) for i in range(len(lines) + 1)]
    order = [(p.short, nb.section) for p in papers.all_papers() for nb in p.notebooks]
    last = where[order[-1]]
    for (paper, section) in order[1:]:              # cut just before a section: the rest is gone
        edits.append({"kind": "truncate", "class": "truncated", "at": starts[where[(paper,
                      section)]], "names": ["params.yaml", expected_cut(text, starts[where[
                          (paper, section)]])]})
    rng = random.Random(7)
    for at in sorted(rng.sample(range(1, starts[last]), 120)):   # cut inside a line
        edits.append({"kind": "truncate", "class": "truncated", "at": at,
                      "names": ["params.yaml", expected_cut(text, at)]})
    return edits


def expected_cut(text: str, at: int) -> str:
    """What a refusal of `text` cut at `at` must name: a position when what is left is not
    YAML, else the first declared paper or section that is gone."""
    from lib.companion import papers, yamlio
    try:
        left = yamlio.load(text[:at]) or {}
    except yamlio.YamlError:
        return "LINE"
    for p in papers.all_papers():
        have = left.get(p.short)
        if not isinstance(have, dict):
            return repr(p.short)
        for nb in p.notebooks:
            if nb.section not in have:
                return f"{p.short}.{nb.section}"
    return "LINE"


def all_edits(raw: dict) -> list[dict]:
    """The bad edits of every notebook plus the file-level ones."""
    edits = [e for nb, schema in notebooks() for e in section_edits(nb, schema, raw)]
    edits += [e for nb, schema in notebooks() for e in outside_edits(nb, schema, raw)]
    edits += [e for nb, schema in notebooks() for e in block_edits(nb, schema, raw)]
    edits += file_edits(raw) + block_cuts(raw)
    from lib.companion import papers
    edits += [{"kind": "unknown", "class": "unknown", "values": [[[p, "no_such_section"], {}]],
               "names": [f"{p}.no_such_section"]} for p in papers.names()]
    edits += [{"kind": "unknown", "class": "unknown", "values": [[[k], 1]], "names": [k]}
              for k in ("sed", "profiles", "gd_perceptrn")]
    first = next(iter(raw[next(p for p in raw if isinstance(raw[p], dict))]))
    edits += [
        {"kind": "unknown", "class": "unknown", "values": [[["no_such_paper"], {}]],
         "names": ["no_such_paper"]},
        {"kind": "unknown", "class": "unknown", "values": [[["gd_perceptron", "99_missing"],
                                                            {"x": 1}]],
         "names": ["99_missing"]},
        {"kind": "value", "class": "range", "values": [[["seed"], -1]], "names": ["seed"]},
        {"kind": "value", "class": "type", "values": [[["seed"], "abc"]], "names": ["seed"]},
        {"kind": "value", "class": "type", "values": [[["profile"], "fast"]],
         "names": ["profile"]},
        {"kind": "duplicate", "class": "duplicate", "path": ["seed"], "text": "1",
         "names": ["seed", "line"]},
        {"kind": "syntax", "class": "syntax", "path": ["gd_perceptron", first],
         "text": "{pad}{key}: : x", "names": ["LINE"]},
    ]
    return edits


# ---------------------------------------------------------------- judging a tree
def names_all(message: str, names: list[str]) -> bool:
    """The message is one ParamsError naming every item (LINE: a file:line:column position)."""
    return "Traceback" not in message and len(message) <= MESSAGE_MAX and all(
        re.search(r":\d+:\d+: ", message) if n == "LINE" else n in message for n in names)


def judge(edits: list[dict], raw: dict, tmp: Path) -> list[str]:
    """How this tree meets each edit: 'refused', 'unclear' or 'accepted' (run inside the tree)."""
    import lib
    if Path(lib.__file__).with_name("companion").is_dir():
        from lib.companion import params, runner
    else:                                        # an older checkout: lib/params.py, lib/runner.py
        from lib import params, runner  # type: ignore[no-redef]
    out = []
    for edit in edits:
        try:
            if edit["kind"] == "override":
                params.validate(edit["notebook"], params.merge(
                    raw, edit["notebook"], None, runner.parse_overrides([edit["pair"]])))
            else:
                tmp.write_text(render(raw, edit))
                params.check_all(tmp)
        except params.ParamsError as err:
            named = names_all(str(err), edit["names"])
            out.append("refused" if named else "unclear")
        except Exception:                        # noqa: BLE001 - any other error is unclear
            out.append("unclear")
        else:
            out.append("accepted")
    return out


def read_raw(tree: Path) -> dict:
    """The tree's own params.yaml as data (with the loader of this repository)."""
    sys.path.insert(0, str(ROOT))
    from lib.companion import yamlio
    doc = yamlio.load((tree / "params.yaml").read_text(), "params.yaml")
    for path in sorted((tree / "notebooks").glob("*/params.yaml")):   # one file per paper
        doc.update(yamlio.load(path.read_text(), str(path)))
    return _in_order(doc)


def _in_order(doc: dict) -> dict:
    """The document with its papers in the declared reading order (how a refusal lists them)."""
    from lib.companion import papers
    names = [p for p in papers.names() if p in doc]
    return {**{k: v for k, v in doc.items() if k not in names}, **{p: doc[p] for p in names}}


def _worker(tree: str, edits_file: str, raw_file: str) -> None:
    """Entry point inside another tree: judge the edits there, print the outcomes as JSON."""
    sys.path.insert(0, tree)
    edits = json.loads(Path(edits_file).read_text())
    raw = json.loads(Path(raw_file).read_text())
    with tempfile.TemporaryDirectory() as d:
        print(json.dumps(judge(edits, raw, Path(d) / "params.yaml")))


def stratified(edits: list[dict], n: int, seed: int) -> list[dict]:
    """n edits drawn in turn from each class (type, range, cross, ...), so that the rare kinds
    are not drowned by the many wrong-type edits."""
    rng = random.Random(seed)
    pools: dict[str, list[dict]] = {}
    for edit in edits:
        pools.setdefault(edit["class"], []).append(edit)
    for pool in pools.values():
        rng.shuffle(pool)
    out: list[dict] = []
    while len(out) < n and any(pools.values()):
        for cls in sorted(pools):
            if pools[cls] and len(out) < n:
                out.append(pools[cls].pop())
    return out


def run(tree: Path, n: int, seed: int, outside: bool = False) -> tuple[list[dict], list[str]]:
    """Sample n edits (generated from this repository's schemas; with `outside`, of the kinds no
    schema declares only) and judge them in `tree`."""
    sys.path.insert(0, str(ROOT))
    edits = [e for e in all_edits(read_raw(ROOT)) if not outside or e["class"] in OUTSIDE]
    edits = stratified(edits, n, seed)
    raw = read_raw(tree)
    with tempfile.TemporaryDirectory() as d:
        Path(d, "edits.json").write_text(json.dumps(edits))
        Path(d, "raw.json").write_text(json.dumps(raw))
        code = (f"import runpy; m = runpy.run_path({str(Path(__file__))!r}); "
                f"m['_worker']({str(tree)!r}, {d + '/edits.json'!r}, {d + '/raw.json'!r})")
        done = subprocess.run([sys.executable, "-c", code], cwd=tree, capture_output=True,
                              text=True, check=True)
    return edits, json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.params_edits", description=__doc__)
    parser.add_argument("--n", type=int, default=450, help="edits to sample (default 450)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tree", type=Path, default=ROOT, help="checkout to judge")
    parser.add_argument("--outside", action="store_true",
                        help=f"only the kinds no schema declares: {', '.join(OUTSIDE)}")
    parser.add_argument("--list", choices=("accepted", "unclear"), action="append", default=[],
                        help="print the edits met this way")
    args = parser.parse_args(argv)
    edits, outcomes = run(args.tree.resolve(), args.n, args.seed, args.outside)
    total = Counter(outcomes)
    print(f"{len(edits)} edits judged in {args.tree}: " +
          ", ".join(f"{k} {total[k]}" for k in ("refused", "unclear", "accepted")))
    by_class: dict[str, Counter] = {}
    for edit, outcome in zip(edits, outcomes):
        by_class.setdefault(edit["class"], Counter())[outcome] += 1
    for cls, counts in sorted(by_class.items()):
        print(f"  {cls:10s} " + ", ".join(f"{k} {counts[k]}" for k in ("refused", "unclear",
                                                                        "accepted")))
    for edit, outcome in zip(edits, outcomes):
        if outcome in args.list:
            print(f"{outcome}: {json.dumps(edit)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
