"""Load and validate params.yaml: one schema, clear errors, before any compute.

Layout of params.yaml (see the file itself for the reasons behind each value):

    profile: default          # smoke | default | paper
    seed: 0
    <paper>:
      <notebook stem>:
        <key>: <value>        # the `default` profile
        smoke: {<key>: <value>}   # overrides, one comment per change
        paper: {<key>: <value>}

Each paper's `lib/<paper>/schema.py` declares `SECTIONS = {stem: pydantic model}`. Unknown keys,
wrong types and out-of-range values raise `ParamsError` naming the key path, the value and what is
allowed. `python -m lib.companion.params --check` validates every notebook under every profile.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path
from typing import Any, Literal, Mapping

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from lib.companion import paths

PROFILES = ("smoke", "default", "paper")
TOP_KEYS = ("profile", "seed", *paths.PAPERS)


class ParamsError(ValueError):
    """A parameter is unknown, of the wrong type or out of range."""


class NotebookParams(BaseModel):
    """Keys every notebook takes; each notebook's schema extends this."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    profile: Literal["smoke", "default", "paper"] = "default"
    seed: int = Field(0, ge=0, description="every random draw derives from this")


def schema_for(notebook: str) -> type[NotebookParams]:
    """The pydantic model of a notebook's parameters, from lib/<paper>/schema.py."""
    paper, stem = paths.split_notebook(notebook)
    sections = importlib.import_module(f"lib.{paper}.schema").SECTIONS
    if stem not in sections:
        raise ParamsError(f"notebook {notebook!r} has no schema; lib/{paper}/schema.py knows "
                          f"{sorted(sections)}")
    return sections[stem]


def read_file(path=None) -> dict[str, Any]:
    """Parse params.yaml and check its top level (profile, seed, one section per paper)."""
    path = path or paths.PARAMS_FILE
    with open(path) as fh:
        raw = yaml.safe_load(fh) or {}
    if not isinstance(raw, dict):
        raise ParamsError(f"{path}: the top level must be a mapping, got {type(raw).__name__}")
    for key in raw:
        if key not in TOP_KEYS:
            raise ParamsError(f"{path}: unknown top-level key {key!r}; allowed: {list(TOP_KEYS)}")
    if raw.get("profile", "default") not in PROFILES:
        raise ParamsError(f"{path}: profile = {raw['profile']!r}; allowed: {list(PROFILES)}")
    seed = raw.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ParamsError(f"{path}: seed = {seed!r}; allowed: an integer >= 0")
    return raw


def _section(raw: Mapping[str, Any], notebook: str) -> dict[str, Any]:
    paper, stem = paths.split_notebook(notebook)
    section = (raw.get(paper) or {}).get(stem)
    if section is None:
        raise ParamsError(f"params.yaml has no section {paper}.{stem} for notebook {notebook!r}")
    if not isinstance(section, dict):
        raise ParamsError(f"params.yaml: {paper}.{stem} must be a mapping")
    return section


def _format(error: ValidationError, where: str, profile: str) -> str:
    lines = [f"invalid parameters for {where} (profile {profile}):"]
    for err in error.errors():
        key = ".".join(str(p) for p in err["loc"])
        lines.append(f"  {where}.{key} = {err['input']!r}: {err['msg']}")
    return "\n".join(lines)


def merge(raw: Mapping[str, Any], notebook: str, profile: str | None = None,
          overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Section defaults, then the profile's overrides, then explicit overrides (unvalidated)."""
    profile = profile or raw.get("profile", "default")
    if profile not in PROFILES:
        raise ParamsError(f"profile = {profile!r}; allowed: {list(PROFILES)}")
    section = _section(raw, notebook)
    values = {k: v for k, v in section.items() if k not in PROFILES}
    prof = section.get(profile) or {}
    if not isinstance(prof, dict):
        raise ParamsError(f"params.yaml: {notebook.replace('/', '.')}.{profile} must be a mapping")
    for key in prof:
        if key not in values:
            raise ParamsError(f"params.yaml: {notebook.replace('/', '.')}.{profile}.{key} "
                              f"overrides a key the section does not define; defined: "
                              f"{sorted(values)}")
    values.update(prof)
    values.update({"profile": profile, "seed": raw.get("seed", 0)})
    values.update(overrides or {})
    return values


def validate(notebook: str, values: Mapping[str, Any]) -> NotebookParams:
    """Check a full set of values against the notebook's schema; raise ParamsError if bad."""
    schema = schema_for(notebook)
    try:
        return schema(**values)
    except ValidationError as err:
        where = notebook.replace("/", ".")
        raise ParamsError(_format(err, where, values.get("profile", "?"))) from None


def resolve(notebook: str, profile: str | None = None,
            overrides: Mapping[str, Any] | None = None) -> NotebookParams:
    """Validated parameters of one notebook from params.yaml (+ profile + overrides)."""
    raw = read_file()
    return validate(notebook, merge(raw, notebook, profile, overrides))


def from_namespace(notebook: str, namespace: Mapping[str, Any]) -> NotebookParams:
    """Validate the values a notebook holds after its parameters cell (papermill-injected or not)."""
    fields = schema_for(notebook).model_fields
    missing = [k for k in fields if k not in namespace]
    if missing:
        raise ParamsError(f"{notebook}: parameters cell does not define {missing}")
    return validate(notebook, {k: namespace[k] for k in fields})


def notebooks_in_file(raw: Mapping[str, Any]) -> list[str]:
    """Every notebook id that has a section in params.yaml."""
    return [f"{paper}/{stem}" for paper in paths.PAPERS for stem in (raw.get(paper) or {})]


def check_all(path=None) -> list[str]:
    """Validate every section under every profile; return the notebook ids checked."""
    raw = read_file(path)
    checked = []
    for notebook in notebooks_in_file(raw):
        for profile in ("default", "smoke", "paper"):  # the profile users run first
            validate(notebook, merge(raw, notebook, profile))
        checked.append(notebook)
    return checked


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lib.companion.params", description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="validate the whole params.yaml")
    parser.add_argument("--stamp", help="on success also write this file (the DVC check stage)")
    args = parser.parse_args(argv)
    if not args.check:
        parser.error("nothing to do: pass --check")
    try:
        checked = check_all()
    except ParamsError as err:
        print(f"params.yaml is invalid:\n{err}", file=sys.stderr)
        return 2
    if args.stamp:
        # Constant content: downstream stages re-run only when their own params change.
        stamp = Path(args.stamp)
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text("params.yaml validated\n")
    print(f"params.yaml OK: {len(checked)} notebook sections x {len(PROFILES)} profiles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
