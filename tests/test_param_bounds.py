"""Every numeric parameter has a finite range, so no valid-looking value can ask for unbounded work.

Issue 43 found n_train = 10^9, width = 10^6 and steps = 10^8 accepted by their schemas (and
`gd_perceptron-07 width=1e6` at 3 GB after 13 s): a size without an upper bound is a size the
params check cannot refuse. This walks every class deriving `NotebookParams` in every paper's
`lib/<paper>/schema.py` (those its declaration names and the bases they share) and requires of
every int and float, also those inside lists, tuples and dict values, a finite lower and upper
bound (ge/gt and le/lt, on the field or on an Annotated element type). That each profile's value
(default, SMOKE, PAPER) lies inside its range is checked by
tests/test_consistency.py::test_schema_defaults_validate_in_every_profile, not here.
"""
from __future__ import annotations

import importlib
import inspect
import math
import typing
from typing import Any, Iterator

import pytest
from pydantic import ValidationError

from lib.companion import papers, params

# Fields of NotebookParams itself, whose range lib/companion/params.py owns: a seed is a label,
# not a size (any integer >= 0 costs the same), so it needs no upper bound.
BASE_FIELDS = frozenset(params.NotebookParams.model_fields)


def schema_classes() -> list[tuple[str, type]]:
    """(paper, class) for every NotebookParams subclass defined in a paper's schema module."""
    found = []
    for paper in papers.names():
        module = importlib.import_module(f"lib.{paper}.schema")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if (issubclass(cls, params.NotebookParams) and cls is not params.NotebookParams
                    and cls.__module__ == module.__name__):
                found.append((paper, cls))
    for notebook in papers.all_notebooks():       # every declared class is among them
        cls = params.schema_for(notebook)
        assert (notebook.split("/")[0], cls) in found, f"{notebook}: {cls} not in its module"
    return found


def _bounds(items: Any) -> dict[str, Any]:
    """The ge/gt/le/lt that metadata items (pydantic FieldInfo or annotated_types) carry."""
    out: dict[str, Any] = {}
    for item in items:
        for inner in getattr(item, "metadata", None) or [item]:
            for name in ("ge", "gt", "le", "lt"):
                if getattr(inner, name, None) is not None:
                    out[name] = getattr(inner, name)
    return out


def numeric_leaves(annotation: Any, cons: dict, where: str) -> Iterator[tuple[str, dict]]:
    """(place, bounds) of every int or float an annotation holds: itself, list/tuple elements,
    dict values; bools and Literals are not numbers here."""
    if typing.get_origin(annotation) is typing.Annotated:
        base, *meta = typing.get_args(annotation)
        yield from numeric_leaves(base, {**cons, **_bounds(meta)}, where)
        return
    origin = typing.get_origin(annotation)
    if annotation in (int, float):
        yield where, cons
    elif origin in (list, tuple, set, frozenset):
        for arg in typing.get_args(annotation):
            if arg is not Ellipsis:
                yield from numeric_leaves(arg, {}, f"{where}[]")
    elif origin is dict:
        yield from numeric_leaves(typing.get_args(annotation)[1], {}, f"{where}{{}}")
    elif origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        for arg in typing.get_args(annotation):
            yield from numeric_leaves(arg, cons, where)


def _finite(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def unbounded(cls: type) -> list[str]:
    """'<field>[...]: lacks a lower/upper bound' for each numeric place of the class without one."""
    out = []
    for key, field in cls.model_fields.items():
        if key in BASE_FIELDS:
            continue
        for place, cons in numeric_leaves(field.annotation, _bounds(field.metadata), key):
            lower = [cons[n] for n in ("ge", "gt") if n in cons]
            upper = [cons[n] for n in ("le", "lt") if n in cons]
            missing = [side for side, got in (("lower", lower), ("upper", upper))
                       if not (got and all(map(_finite, got)))]
            if missing:
                out.append(f"{place}: no finite {' or '.join(missing)} bound")
    return out


CLASSES = schema_classes()


def test_the_walk_finds_every_kind_of_number():
    # the walker itself: a scalar, a list element, a nested list element, a dict value
    from pydantic import Field

    from lib.companion.schema import Width

    class Probe(params.NotebookParams):
        a: int = params.param(1, "scalar", ge=0)
        b: list[Width] = params.param([1], "list of bounded")
        c: list[list[typing.Annotated[float, Field(gt=0.0)]]] = params.param([[1.0]], "nested")
        d: dict[str, typing.Annotated[int, Field(ge=0, le=9)]] = params.param({}, "dict")
        e: float = params.param(1.0, "two-sided", ge=-1.0, le=math.inf)
        f: bool = params.param(True, "not a number")

    assert unbounded(Probe) == ["a: no finite upper bound", "c[][]: no finite upper bound",
                                "e: no finite upper bound"]


@pytest.mark.parametrize("paper, cls", CLASSES, ids=[f"{p}.{c.__name__}" for p, c in CLASSES])
def test_every_numeric_parameter_has_a_finite_range(paper, cls):
    missing = unbounded(cls)
    assert not missing, (f"lib/{paper}/schema.py {cls.__name__}: " + "; ".join(missing) +
                         " (declare le/lt with its reason, e.g. '<= 10x the paper's value')")


@pytest.mark.parametrize("paper, cls", CLASSES, ids=[f"{p}.{c.__name__}" for p, c in CLASSES])
def test_each_scalar_bound_is_enforced(paper, cls):
    # pydantic keeps one le of a field whose type and Field() both carry one (the type's, here),
    # so a field may declare its upper bound in one place only, and the value just past it must
    # be refused naming the field
    for key, field in cls.model_fields.items():
        if key in BASE_FIELDS or field.annotation not in (int, float):
            continue
        uppers = [(n, getattr(m, n)) for m in field.metadata for n in ("le", "lt")
                  if getattr(m, n, None) is not None]
        assert len(uppers) == 1, f"lib/{paper}/schema.py {cls.__name__}.{key}: upper bounds " \
            f"{uppers}, declared twice (in its type and in param(...)); keep one"
        name, top = uppers[0]
        past = top if name == "lt" else (top + 1 if field.annotation is int else top * 1.5 + 1)
        with pytest.raises(ValidationError, match=key):
            cls(**{key: past})


def list_keys() -> list[tuple[str, str]]:
    """(notebook, key) of every parameter whose default is a list."""
    out = []
    for nb in papers.all_notebooks():
        cfg = params.schema_for(nb)()
        out += [(nb, k) for k in cfg.section_keys() if isinstance(getattr(cfg, k), list)]
    return out


@pytest.mark.parametrize("notebook, key", list_keys(), ids=lambda x: x)
def test_every_list_parameter_is_bounded_in_length(notebook, key):
    """Issue 60: 114 of 137 list parameters took any length (2,000 in-bound widths used 6.66 GB
    and died in a MemoryError naming no key). A thousand in-bound values are refused by name."""
    cls = params.schema_for(notebook)
    default = getattr(cls(), key)
    if not default:
        pytest.skip(f"{notebook}: {key} defaults to an empty list")
    long = (default * (1000 // len(default) + 1))[:1000]
    with pytest.raises(params.ParamsError) as err:
        params.validate(notebook, {**cls().model_dump(), key: long})
    message = str(err.value)
    assert key in message, message
    own = [getattr(m, "max_length", None) for m in cls.model_fields[key].metadata]
    if key not in cls.DISTINCT + cls.INCREASING and not any(own):
        assert f"holds a list of 1000 values; allowed: at most {cls.LIST_MAX}" in message
