"""What each claim of a paper says and how it is decided: notebooks/<paper>/claims.yaml.

One entry per claim id (without the paper prefix): the notebook that records it, its kind,
statement, source, provenance and the expected outcome in words; for a claim the ledger decides
(statistical, qualitative), the rule of lib/<paper>/decisions.py that decides it, with the
arguments that are not thresholds (a column, a direction), its precondition and, for a comparison
with the paper, the rule that shows the paper's opposite. The thresholds themselves are the
rules' keyword defaults, the named constants of lib/<paper>/decisions.py: the one place a
threshold is written, which only the claims stage reads, so changing one re-runs the ledger and
the book, never a notebook.

A notebook records what it computed (lib.companion.claims: the measured value, the evidence the
rule reads); the claims stage (lib.companion.ledger) joins record and declaration and decides.
A declaration is checked when it is read: a bad key, kind, provenance or a rule the paper's
decisions module lacks is refused naming the file, the claim and what is allowed.
"""
from __future__ import annotations

import functools
import importlib
import inspect
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from lib.companion import paths, yamlio

FILE = "claims.yaml"
KINDS = ("exact", "bound", "statistical", "qualitative")
DECIDED = ("statistical", "qualitative")


class DeclarationError(ValueError):
    """A claims.yaml that cannot be used, named with the claim and what is allowed."""


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RuleCall(Strict):
    """A rule of the paper's decisions module with its non-threshold arguments."""

    rule: str = Field(pattern=r"^[a-z_][a-z0-9_]*$")
    args: dict[str, Any] = Field(default_factory=dict)


class Precondition(RuleCall):
    """What makes the comparison mean something (e.g. every arm learned the task); unmet, the
    claim is `inconclusive` whatever its rule says."""

    what: str = Field(min_length=3)


class Opposite(RuleCall):
    """The paper's opposite, beyond its uncertainty: shown stably, the claim is a `deviation`."""

    power: str = Field(min_length=3, description="what gives the opposite its power")


class Declaration(Strict):
    """One claim as its paper declares it."""

    notebook: str = Field(pattern=r"^\d\d_[a-z][a-z0-9_]*$")
    kind: Literal["exact", "bound", "statistical", "qualitative"]
    statement: str = Field(min_length=3)
    source: str = Field(min_length=1)
    provenance: Literal["paper", "derived", "reconstructed"]
    expected: str = ""
    why: str = Field("", description="where a tolerance or bounds come from (exact, bound)")
    note: str = Field("", description="where a decided claim's threshold comes from")
    rule: str | None = Field(None, pattern=r"^[a-z_][a-z0-9_]*$")
    args: dict[str, Any] = Field(default_factory=dict)
    requires: Precondition | None = None
    opposite: Opposite | None = None
    deviation: str = Field("", description="a deviation's evidence in words: what the paper "
                                           "says and what differs")
    power: str = Field("", description="what gives a deviation's check its power")

    @model_validator(mode="after")
    def _rule_where_decided(self) -> "Declaration":
        if self.kind in DECIDED and self.rule is None:
            raise ValueError(f"a {self.kind} claim names the rule that decides it (rule: <a "
                             "function of lib/<paper>/decisions.py>)")
        if self.kind not in DECIDED and (self.rule or self.requires or self.opposite):
            raise ValueError(f"an {self.kind} claim decides in its notebook: rule, requires and "
                             "opposite belong to statistical and qualitative claims")
        if self.deviation and not self.power:
            raise ValueError("a deviation says what gives its check its power (power: ...)")
        if self.opposite and self.deviation:
            raise ValueError("a claim is a comparison (opposite) or a deviation, not both")
        return self


def file_of(paper: str, root: Path | None = None) -> Path:
    return (paths.NOTEBOOKS if root is None else root / "notebooks") / paper / FILE


def for_paper(paper: str) -> dict[str, Declaration]:
    """The paper's declared claims by full id ("<paper>.<id>"); {} when it has no claims.yaml."""
    path = file_of(paper)
    if not path.exists():
        return {}
    return _read(path, path.stat().st_mtime_ns, paper)


@functools.lru_cache(maxsize=None)
def _read(path: Path, mtime_ns: int, paper: str) -> dict[str, Declaration]:
    raw = yamlio.load(path.read_text(), str(path)) or {}
    name = f"notebooks/{paper}/{FILE}"
    if not isinstance(raw, dict):
        raise DeclarationError(f"{name}: a mapping of claim ids to their declarations")
    out = {}
    for cid, body in raw.items():
        try:
            decl = Declaration.model_validate(body)
        except ValidationError as err:
            problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'the entry'}: {e['msg']}"
                                 for e in err.errors())
            raise DeclarationError(f"{name}: claim {cid!r}: {problems}") from None
        out[f"{paper}.{cid}"] = decl
    return out


def decisions_module(paper: str):
    """lib/<paper>/decisions.py, imported by name (never by a notebook: the claims stage)."""
    return importlib.import_module(f"lib.{paper}.decisions")


def rule_of(paper: str, name: str):
    """A rule of the paper's decisions module, refused by name when it has none such."""
    module = decisions_module(paper)
    rule = getattr(module, name, None)
    if not callable(rule):
        found = sorted(n for n, v in vars(module).items()
                       if callable(v) and not n.startswith("_") and inspect.isfunction(v)
                       and v.__module__ == module.__name__)
        raise DeclarationError(f"notebooks/{paper}/{FILE}: rule {name!r} is not a function of "
                               f"lib/{paper}/decisions.py; it has: {found}")
    return rule


def check_rules(paper: str) -> None:
    """Every rule the paper's claims name exists in its decisions module (make test)."""
    for decl in for_paper(paper).values():
        for call in (decl, decl.requires, decl.opposite):
            if call is not None and call.rule is not None:
                rule_of(paper, call.rule)
