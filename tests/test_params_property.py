"""Property: every bad edit of params.yaml is refused before compute, naming its key path.

Hypothesis draws a notebook, one of its keys and a value its schema cannot accept (wrong type,
outside the declared range, non-finite, an unknown key, a contradiction between two keys), puts
it in the notebook's section, in its `smoke:` overrides or in a `-p` override, and checks that
reading and validating the parameters (what the `params` stage and the runner do before any
notebook runs) raises `ParamsError` whose message names the key. Good edits and the real file's
three profiles must validate. tests/params_edits.py holds the generators; its command line runs
the same edits as a counted fuzz run.
"""
from __future__ import annotations

import math
import typing
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lib.companion import generate, papers, params, runner
from tests import params_edits as pe

pytestmark = pytest.mark.heavy

RAW = generate.defaults()       # the committed defaults, whatever an experiment left
NOTEBOOKS = pe.notebooks()
SETTINGS = settings(max_examples=150, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])
WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=12)


def bad(annotation: typing.Any, cons: dict, default: typing.Any) -> st.SearchStrategy:
    """Values of no schema of this type and range."""
    base, inner = pe.field_info(annotation)
    cons = {**inner, **cons}
    origin = typing.get_origin(base)
    options: list[st.SearchStrategy] = []
    if origin is typing.Literal:
        return WORD.filter(lambda w: w not in typing.get_args(base)) | st.integers()
    if base is int:
        options += [WORD, st.floats(allow_nan=False, allow_infinity=False)
                    .filter(lambda x: not x.is_integer()), st.booleans()]
        if "ge" in cons:
            options.append(st.integers(max_value=cons["ge"] - 1))
        if "gt" in cons:
            options.append(st.integers(max_value=cons["gt"]))
        if "le" in cons:
            options.append(st.integers(min_value=cons["le"] + 1))
        if "lt" in cons:
            options.append(st.integers(min_value=cons["lt"]))
    elif base is float:
        options += [WORD, st.booleans(), st.sampled_from([math.inf, -math.inf, math.nan])]
        if "ge" in cons:
            options.append(st.floats(max_value=cons["ge"], exclude_max=True))
        if "gt" in cons:
            options.append(st.floats(max_value=cons["gt"]))
        if "le" in cons:
            options.append(st.floats(min_value=cons["le"], exclude_min=True,
                                     allow_infinity=False))
        if "lt" in cons:
            options.append(st.floats(min_value=cons["lt"], allow_infinity=False))
    elif origin is list:
        (elem,) = typing.get_args(base)
        options += [WORD, st.integers()]
        if cons.get("min_length"):
            options.append(st.just([]))
        if isinstance(default, list) and default:
            first = default[0]
            options.append(bad(elem, {}, first).map(lambda v: [v, *default[1:]]))
    elif origin is dict:
        options += [WORD, st.integers()]
        keys = typing.get_args(typing.get_args(base)[0])
        if default:
            any_value = next(iter(default.values()))
            options.append(WORD.filter(lambda w: w not in keys).map(
                lambda w: {**default, w: any_value}))
    elif base is str:
        options.append(st.integers())
    return st.one_of(options)


@st.composite
def bad_edit(draw) -> tuple[str, str, typing.Any, str]:
    """(notebook, key, value, where): where is section | smoke | override."""
    notebook, schema = draw(st.sampled_from(NOTEBOOKS))
    key = draw(st.sampled_from(schema.section_keys()))
    paper, stem = notebook.split("/")
    stem = pe.section_name(RAW, paper, stem)
    base, cons = pe.constraints(schema, key)
    value = draw(bad(schema.model_fields[key].annotation, cons, RAW[paper][stem][key]))
    return notebook, key, value, draw(st.sampled_from(["section", "smoke", "override"]))


def refusal(notebook: str, tmp: Path, edit: dict | None = None, pair: str | None = None) -> str:
    """The message with which reading + validating the notebook's parameters refuses, or ''."""
    try:
        if pair is not None:
            params.validate(notebook, params.merge(RAW, notebook, None,
                                                   runner.parse_overrides([pair])))
        else:
            tmp.write_text(pe.render(RAW, edit))
            raw = params.read_file(tmp)
            for profile in params.PROFILES:
                params.validate(notebook, params.merge(raw, notebook, profile))
    except params.ParamsError as err:
        return str(err)
    return ""


@SETTINGS
@given(bad_edit())
def test_bad_value_refused_by_name(tmp_path, case):
    notebook, key, value, where = case
    paper, stem = notebook.split("/")
    stem = pe.section_name(RAW, paper, stem)
    if where == "override":
        message = refusal(notebook, tmp_path / "p.yaml", pair=f"{key}={pe.scalar(value)}")
    else:
        path = [paper, stem, key] if where == "section" else [paper, stem, "smoke", key]
        message = refusal(notebook, tmp_path / "p.yaml",
                          {"kind": "value", "values": [[path, value]]})
    assert message, f"accepted: {notebook} {where} {key} = {value!r}"
    assert key in message and (where == "override" or f"{paper}.{stem}" in message), message


@SETTINGS
@given(st.sampled_from(NOTEBOOKS), WORD, st.sampled_from(["section", "smoke", "profile"]))
def test_unknown_key_refused_by_name(tmp_path, notebook_schema, word, where):
    notebook, schema = notebook_schema
    paper, stem = notebook.split("/")
    stem = pe.section_name(RAW, paper, stem)
    if word in schema.model_fields or word in params.PROFILES:
        return
    path = {"section": [paper, stem, word], "smoke": [paper, stem, "smoke", word],
            "profile": [paper, stem, word, schema.section_keys()[0]]}[where]
    message = refusal(notebook, tmp_path / "p.yaml", {"kind": "unknown", "values": [[path, 1]]})
    assert word in message and f"{paper}.{stem}" in message, message


def text_and_cross_edits() -> list[dict]:
    """Every cross-field edit; of the text-level ones (duplicate key, syntax error, spelling),
    the first two of each kind per notebook (the rest differ only in the key)."""
    out = []
    for nb, schema in NOTEBOOKS:
        edits = pe.section_edits(nb, schema, RAW)
        out += [e for e in edits if e["kind"] == "cross"]
        for kind in ("duplicate", "syntax", "spelling"):
            out += [e for e in edits if e["kind"] == kind][:2]
    return out


@pytest.mark.parametrize("edit", text_and_cross_edits(),
                         ids=lambda e: f"{e['kind']}-{e.get('notebook') or '.'.join(e['path'])}")
def test_text_and_cross_field_edits_refused_by_name(tmp_path, edit):
    notebook = edit.get("notebook") or "/".join(edit["path"][:2])
    message = refusal(notebook, tmp_path / "p.yaml", edit)
    assert pe.names_all(message, edit["names"]), message or f"accepted: {edit}"


def block_edits() -> list[dict]:
    """Every profile-block edit of the first notebook, the last one (a block cut short, else
    set to a list) of each of the others, and the whole file cut at each line inside its last
    section's blocks (issue 60: each ran its profile on the default values)."""
    out = []
    for n, (nb, schema) in enumerate(NOTEBOOKS):
        edits = pe.block_edits(nb, schema, RAW)
        out += edits if n == 0 else edits[-1:]
    last = papers.all_notebooks()[-1]
    return out + [{**e, "notebook": last} for e in pe.block_cuts(RAW)]


@pytest.mark.parametrize("edit", block_edits(), ids=lambda e: f"{e['class']}-{e['notebook']}")
def test_profile_blocks_cut_or_not_a_mapping_refused_by_name(tmp_path, edit):
    message = refusal(edit["notebook"], tmp_path / "p.yaml", edit)
    assert pe.names_all(message, edit["names"]), message or f"accepted: {edit}"


def good(annotation: typing.Any, cons: dict) -> st.SearchStrategy | None:
    """Values inside a plain int or float field's range; None for other fields."""
    if annotation is int and "multiple_of" not in cons:
        low = cons.get("ge", cons.get("gt", -10 ** 6 - 1) + 1)
        high = cons.get("le", cons.get("lt", 10 ** 6 + 1) - 1)
        return st.integers(min_value=low, max_value=high)
    if annotation is float:
        return st.floats(min_value=cons.get("ge", cons.get("gt", -1e6)),
                         max_value=cons.get("le", cons.get("lt", 1e6)),
                         exclude_min="gt" in cons, exclude_max="lt" in cons,
                         allow_nan=False, allow_infinity=False)
    return None


def related(schema: type, notebook: str) -> set[str]:
    """Keys some rule across keys of the schema reads (good values there may contradict)."""
    keys = {k for pair in schema.AT_MOST for k in pair}
    keys |= {k for k in schema.model_fields if k.endswith(("_min", "_max"))}
    keys |= {k for values, names in pe.CROSS.get(notebook, []) for k in [*values, *names]}
    return keys


@SETTINGS
@given(st.data())
def test_good_values_validate(tmp_path, data):
    notebook, schema = data.draw(st.sampled_from(NOTEBOOKS))
    keys = [k for k in schema.section_keys() if k not in related(schema, notebook)
            and good(*pe.constraints(schema, k)) is not None]
    if not keys:
        return
    key = data.draw(st.sampled_from(keys))
    value = data.draw(good(*pe.constraints(schema, key)))
    paper, stem = notebook.split("/")
    edit = {"kind": "value", "values": [[[paper, stem, key], value]]}
    assert refusal(notebook, tmp_path / "p.yaml", edit) == ""


@pytest.mark.parametrize("text", ["1e-3", "2.5e+2", "0.5", "3."])
def test_scientific_spellings_of_a_float_validate(tmp_path, text):
    edit = {"kind": "spelling", "path": ["gd_perceptron", "reduction", "equiv_eta"],
            "text": text}
    assert refusal("gd_perceptron/01_reduction", tmp_path / "p.yaml", edit) == ""


def test_every_profile_of_the_real_file_validates():
    checked = params.check_all()
    assert sorted(checked) == sorted(nb for nb, _ in NOTEBOOKS)


@pytest.mark.parametrize("notebook, schema", NOTEBOOKS, ids=[nb for nb, _ in NOTEBOOKS])
def test_declared_rules_name_real_keys(notebook, schema):
    declared = [k for pair in schema.AT_MOST for k in pair] + list(schema.DISTINCT) \
        + list(schema.INCREASING)
    assert set(declared) <= set(schema.model_fields), (notebook, declared)
    assert papers.schema_class(notebook) is schema
