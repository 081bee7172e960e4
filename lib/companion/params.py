"""Parameters: declared once in a paper's schema, written to params.yaml, validated before compute.

The source of every parameter is its field in `lib/<paper>/schema.py`: type, range, default
(the `default` profile) and the reason for it, `param(default, why, **range)`; a class's `SMOKE`
and `PAPER` dicts override single keys, each with its reason. `python -m lib.companion.generate`
writes params.yaml and every notebook's parameters cell from them (a test fails on a stale copy).
DVC and the runner read params.yaml, so `dvc exp run -S` and `dvc params diff` work on it.

Layout: what spans papers in the root params.yaml, each paper's sections in its own
notebooks/<paper>/params.yaml (a change to one paper diffs only its own places). DVC's `params`
stage tracks every params file and, once they validate, writes each notebook's stamp: the values
its run sees (`write_stamps`). A notebook stage depends on its stamp alone, so DVC re-runs it
exactly when those values change and reads one small file per stage, not a params file.
Read together the params files are one document, which `read_all` assembles:

    profile: default          # params.yaml: smoke | default | paper
    seed: 0
    <paper>:                  # notebooks/<paper>/params.yaml: this one key at its top
      <section>:              # the notebook's stem without its number: 01_reduction -> reduction
        <key>: <value>        # the `default` profile
        smoke: {<key>: <value>}   # overrides, one comment per change
        paper: {<key>: <value>}

A key path (`<paper>.<section>.<key>`) is the same in messages, `dvc params diff` and
`dvc exp run -S notebooks/<paper>/params.yaml:<paper>.<section>.<key>=...`.
The paper's declaration (notebooks/<paper>/paper.yaml) names each notebook's schema class.
Unknown keys, wrong types and out-of-range values raise `ParamsError` naming the key path, the
value and what is allowed; so do a file cut short (a declared section or key missing, an empty
file) and keys no level holds (a section's own `seed:` or `profile:`, which only the top sets).
Values are quoted cut to a readable length (`yamlio.shown`). `python -m lib.companion.params
--check` validates every notebook under every profile.
"""
from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, ClassVar, Literal, Mapping

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from lib.companion import papers, paths, yamlio

PROFILES = ("smoke", "default", "paper")
Overrides = dict[str, tuple[Any, str]]


def param(default: Any, why: str, **constraints: Any) -> Any:
    """A parameter's one declaration: its default, the reason for it, its range (pydantic's
    ge, le, min_length, ...)."""
    if not why.strip():
        raise ValueError("every parameter needs its reason (why)")
    return Field(default, description=why, **constraints)


class ParamsError(ValueError):
    """A parameter is unknown, of the wrong type or out of range."""


class NotebookParams(BaseModel):
    """Keys every notebook takes; each notebook's schema extends this."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)
    SMOKE: ClassVar[Overrides] = {}
    PAPER: ClassVar[Overrides] = {}
    # Rules across keys, declared per schema: (small, big) pairs with small <= big, list keys
    # whose values must differ (a grid point twice is a claim id twice), list keys that must rise.
    AT_MOST: ClassVar[tuple[tuple[str, str], ...]] = ()
    DISTINCT: ClassVar[tuple[str, ...]] = ()
    INCREASING: ClassVar[tuple[str, ...]] = ()
    # The sizes a notebook's run time grows with, about linearly in each (seeds, steps, epochs):
    # the runner scales its last timed run by them to warn of, or refuse, a run far over budget.
    COST: ClassVar[tuple[str, ...]] = ()
    # The longest list any key may hold where its field declares no max_length of its own: four
    # times the longest in use (15), so that 2,000 in-bound widths are refused by name before
    # compute rather than ending in a MemoryError naming nothing.
    LIST_MAX: ClassVar[int] = 64
    profile: Literal["smoke", "default", "paper"] = param("default", "smoke | default | paper")
    seed: int = param(0, "every random draw derives from this", ge=0)

    @classmethod
    def overrides(cls, profile: str) -> Overrides:
        """The profile's {key: (value, why)} overrides of the defaults (none for `default`)."""
        return {"smoke": cls.SMOKE, "paper": cls.PAPER}.get(profile, {})

    @classmethod
    def section_keys(cls) -> list[str]:
        """The keys of the notebook's own section (profile and seed are top-level)."""
        return [k for k in cls.model_fields if k not in ("profile", "seed")]

    @model_validator(mode="after")
    def _minimum_not_above_maximum(self):
        """Every <x>_min / <x>_max pair of a schema: the minimum must not exceed the maximum."""
        for key in type(self).model_fields:
            if key.endswith("_min") and f"{key[:-4]}_max" in type(self).model_fields:
                top = f"{key[:-4]}_max"
                if getattr(self, key) > getattr(self, top):
                    raise ValueError(f"{key} = {getattr(self, key)!r} exceeds {top} = "
                                     f"{getattr(self, top)!r}; allowed: {key} <= {top}")
        return self

    @model_validator(mode="after")
    def _lists_bounded(self):
        """Every list value (at any depth) of a field that declares no max_length: at most
        LIST_MAX items."""
        for key, field in type(self).model_fields.items():
            if any(getattr(m, "max_length", None) is not None for m in field.metadata):
                continue
            longest = _longest(getattr(self, key))
            if longest > self.LIST_MAX:
                raise ValueError(f"{key} = {yamlio.shown(getattr(self, key))} holds a list of "
                                 f"{longest} values; allowed: at most {self.LIST_MAX} (each value "
                                 "is a run or an array: a longer list costs its time and memory "
                                 "many times over)")
        return self

    @model_validator(mode="after")
    def _declared_rules(self):
        """The schema's AT_MOST, DISTINCT and INCREASING rules, each message naming its keys."""
        for small, big in self.AT_MOST:
            if getattr(self, small) > getattr(self, big):
                raise ValueError(f"{small} = {getattr(self, small)!r} exceeds {big} = "
                                 f"{getattr(self, big)!r}; allowed: {small} <= {big}")
        for key in self.DISTINCT + self.INCREASING:
            values = getattr(self, key)
            repeated = sorted({repr(v) for v in values if values.count(v) > 1})
            if repeated:
                raise ValueError(f"{key} = {values!r} repeats {', '.join(repeated)}; allowed: "
                                 "distinct values")
        for key in self.INCREASING:
            values = getattr(self, key)
            drops = [(a, b) for a, b in zip(values, values[1:]) if b <= a]
            if drops:
                raise ValueError(f"{key} = {values!r} falls from {drops[0][0]!r} to "
                                 f"{drops[0][1]!r}; allowed: increasing values")
        return self


def _longest(value: Any) -> int:
    """The length of the longest list or tuple in a value (nested in lists and dicts too)."""
    if isinstance(value, dict):
        return max((_longest(v) for v in value.values()), default=0)
    if isinstance(value, (list, tuple)):
        return max(len(value), *(_longest(v) for v in value)) if value else 0
    return 0


def schema_for(notebook: str) -> type[NotebookParams]:
    """The pydantic model of a notebook's parameters: the class its paper's declaration names."""
    try:
        return papers.schema_class(notebook)
    except papers.DeclarationError as err:
        raise ParamsError(str(err)) from None


ROOT_KEYS = ("profile", "seed")


def _load(path: Path) -> Any:
    """The document in one params file; an empty, missing, unreadable or malformed file is refused
    naming it."""
    try:
        text = Path(path).read_text()
    except FileNotFoundError:
        raise ParamsError(f"{path} is missing: `make sync` writes it from the schemas") from None
    except (OSError, UnicodeDecodeError) as err:
        raise ParamsError(f"{path}: cannot be read ({err.__class__.__name__}: "
                          f"{getattr(err, 'strerror', None) or err}); it must be a readable "
                          "UTF-8 text file (`make sync` writes it from the schemas)") from None
    try:
        doc = yamlio.load(text, str(path))
    except yamlio.YamlError as err:
        raise ParamsError(str(err)) from None
    if doc is None:
        raise ParamsError(f"{path} is empty (a write cut short?); `make sync` writes it from "
                          "the schemas")
    return doc


def _check_top(raw: Any, path: Path, allowed: tuple[str, ...]) -> dict[str, Any]:
    """The top level of a parameters document: a mapping of allowed keys, a valid profile and
    seed."""
    if not isinstance(raw, dict):
        raise ParamsError(f"{path}: the top level must be a mapping, got {type(raw).__name__} "
                          f"{yamlio.shown(raw)}")
    for key in raw:
        if key not in allowed:
            raise ParamsError(f"{path}: unknown top-level key {yamlio.shown(key)}; "
                              f"{closest(str(key), list(allowed))}allowed: {list(allowed)}")
    if raw.get("profile", "default") not in PROFILES:
        raise ParamsError(f"{path}: profile = {yamlio.shown(raw['profile'])}; allowed: "
                          f"{list(PROFILES)}")
    seed = raw.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ParamsError(f"{path}: seed = {yamlio.shown(seed)}; allowed: an integer >= 0")
    return raw


def read_file(path: Path | str) -> dict[str, Any]:
    """One whole parameters document in one file (profile, seed, a section per paper), as tests
    and tools write it."""
    return _check_top(_load(Path(path)), Path(path), (*ROOT_KEYS, *papers.names()))


def read_all(root: Path | None = None) -> dict[str, Any]:
    """The parameters as DVC runs them: the root params.yaml (profile and seed, both required)
    and each declared paper's notebooks/<paper>/params.yaml (its one top-level key, the paper),
    assembled into one document; every message names the file at fault."""
    top_file = paths.PARAMS_FILE if root is None else root / "params.yaml"
    doc = _check_top(_load(top_file), top_file, ROOT_KEYS)
    missing = [k for k in ROOT_KEYS if k not in doc]
    if missing:
        raise ParamsError(f"{top_file}: missing {missing}; it holds profile and seed "
                          "(`make sync` writes it)")
    doc = dict(doc)
    for paper in papers.names():
        path = paths.paper_params_file(paper, root)
        raw = _load(path)
        if not isinstance(raw, dict) or list(raw) != [paper]:
            found = yamlio.shown(list(raw)) if isinstance(raw, dict) else type(raw).__name__
            raise ParamsError(f"{path}: the top level must be the one key {paper!r} (the "
                              f"paper's sections under it); found {found}")
        doc[paper] = raw[paper]
    return doc


def closest(word: str, known: list[str]) -> str:
    """"did you mean 'x'? " for the known name nearest a mistyped one, else ""."""
    near = difflib.get_close_matches(word, known, n=1, cutoff=0.6)
    return f"did you mean {near[0]!r}? " if near else ""


def file_of(paper: str) -> str:
    """The file that holds a paper's sections, as messages name it."""
    return f"notebooks/{paper}/params.yaml"


def _section(raw: Mapping[str, Any], notebook: str) -> dict[str, Any]:
    where = papers.params_key(notebook)
    paper, name = where.split(".")
    sections = raw.get(paper)
    if not isinstance(sections, dict):
        raise ParamsError(f"{file_of(paper)}: {paper} must be a mapping of the paper's sections, "
                          f"got {yamlio.shown(sections)}")
    section = sections.get(name)
    if section is None:
        raise ParamsError(f"{file_of(paper)} has no section {where} for notebook {notebook!r} "
                          "(a file cut short?); `make sync` writes it from the schemas")
    if not isinstance(section, dict):
        raise ParamsError(f"{file_of(paper)}: {where} must be a mapping, got "
                          f"{yamlio.shown(section)}")
    return section


def _format(error: ValidationError, where: str, profile: str, known: list[str]) -> str:
    lines = [f"invalid parameters for {where} (profile {profile}):"]
    for err in error.errors():
        if not err["loc"]:  # a rule across keys: its message names them
            lines.append(f"  {where}: {err['msg'].removeprefix('Value error, ')}")
            continue
        key = yamlio.cut(".".join(str(p) for p in err["loc"]))
        if err["type"] == "extra_forbidden":
            lines.append(f"  {where}.{key} = {yamlio.shown(err['input'])}: not a parameter of "
                         f"this notebook; {closest(key, known)}allowed: {known}")
        else:
            lines.append(f"  {where}.{key} = {yamlio.shown(err['input'])}: "
                         f"{yamlio.cut(err['msg'], 200)}")
    return "\n".join(lines)


def _blocks(section: Mapping[str, Any], schema: type[NotebookParams], where: str,
            source: str) -> dict[str, dict]:
    """A section's `smoke:` and `paper:` blocks, each a mapping, as strictly read as the section:
    one the schema declares overrides for may not be missing, null or empty, and no block may be
    0, [] or another scalar (each would run its profile on the default values under its own
    name); a `default:` block is refused (the section's own values are the default profile)."""
    if "default" in section:
        raise ParamsError(f"{source}: {where}.default: the default profile's values are the "
                          "section's own keys, never a block; allowed blocks: smoke, paper")
    out = {}
    for profile in ("smoke", "paper"):
        declared = list(schema.overrides(profile))
        block = section.get(profile)
        if declared and (profile not in section or block is None or block == {}):
            said = "missing" if profile not in section else f"= {yamlio.shown(block)}"
            raise ParamsError(f"{source}: {where}.{profile} {said} (a file cut short?): the "
                              f"schema's {profile} profile overrides {declared}; `make sync` "
                              "writes the block from the schema")
        if profile in section and not isinstance(block, dict):
            raise ParamsError(f"{source}: {where}.{profile} = {yamlio.shown(block)}: allowed: "
                              "a mapping of the keys this profile overrides"
                              + (f" (the schema's: {declared})" if declared else ""))
        out[profile] = block or {}
    return out


def merge(raw: Mapping[str, Any], notebook: str, profile: str | None = None,
          overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Section defaults, then the profile's overrides, then explicit overrides (unvalidated).
    Every block of the section is checked, whichever profile is merged: a cut one is refused."""
    profile = profile or raw.get("profile", "default")
    if profile not in PROFILES:
        raise ParamsError(f"profile = {profile!r}; allowed: {list(PROFILES)}")
    section = _section(raw, notebook)
    where = papers.params_key(notebook)
    source = file_of(notebook.partition("/")[0])
    values = {k: v for k, v in section.items() if k not in PROFILES}
    schema = schema_for(notebook)
    blocks = _blocks(section, schema, where, source)
    known = schema.section_keys()
    keys = [*((k, where) for k in section),
            *((k, f"{where}.{p}") for p, block in blocks.items() for k in block)]
    for key, _ in keys:
        if not isinstance(key, str):
            raise ParamsError(f"{source}: {where}: the key {yamlio.cut(json.dumps(key))} reads "
                              f"as a {type(key).__name__}, not a parameter name; allowed: {known}")
    for key, at in keys:
        if key in ROOT_KEYS:
            raise ParamsError(f"{source}: {at}.{key}: the {key} is set once, at the top of "
                              f"params.yaml (`{key}:`; for one run, "
                              f"{'--profile' if key == 'profile' else '-p seed=N'}), never in a "
                              f"section, where it would be ignored; allowed here: {known}")
    missing = [k for k in known if k not in section]
    for key in section:                  # a misspelt key before the key it leaves missing
        if key not in known and key not in PROFILES:
            raise ParamsError(f"{source}: {where}.{yamlio.cut(key)} = "
                              f"{yamlio.shown(section[key])}: not a parameter of this notebook; "
                              f"{closest(key, missing or known)}allowed: {known}")
    if missing:
        raise ParamsError(f"{source}: {where} lacks {missing} (a file cut short?): a section "
                          "holds every parameter of its notebook; `make sync` writes them from "
                          "the schemas")
    for name, block in blocks.items():
        for key in block:
            if key not in values:
                raise ParamsError(f"{source}: {where}.{name}.{yamlio.cut(key)} "
                                  f"overrides a key the section does not define; "
                                  f"{closest(key, sorted(values))}defined: {sorted(values)}")
        lost = [k for k in schema.overrides(name) if k not in block]
        if lost:
            raise ParamsError(f"{source}: {where}.{name} lacks {lost} (a file cut short?): the "
                              f"block holds every override the schema declares for the {name} "
                              "profile; `make sync` writes it from the schema")
    if "profile" in (overrides or {}):
        raise ParamsError(f"an override names the profile "
                          f"({yamlio.shown(overrides['profile'])}): the "
                          f"profile is named once, with --profile (or params.yaml's `profile`), "
                          f"so that its values and its label cannot disagree; allowed: "
                          f"--profile {{{','.join(PROFILES)}}}")
    values.update(blocks.get(profile, {}))
    values.update({"profile": profile, "seed": raw.get("seed", 0)})
    values.update(overrides or {})
    return values


def validate(notebook: str, values: Mapping[str, Any]) -> NotebookParams:
    """Check a full set of values against the notebook's schema; raise ParamsError if bad."""
    schema = schema_for(notebook)
    try:
        return schema(**values)
    except ValidationError as err:
        raise ParamsError(_format(err, papers.params_key(notebook), values.get("profile", "?"),
                                  schema.section_keys())) from None


def resolve(notebook: str, profile: str | None = None,
            overrides: Mapping[str, Any] | None = None) -> NotebookParams:
    """Validated parameters of one notebook from the params files (+ profile + overrides)."""
    raw = read_all()
    return validate(notebook, merge(raw, notebook, profile, overrides))


def from_namespace(notebook: str, namespace: Mapping[str, Any]) -> NotebookParams:
    """Validate what a notebook holds after its parameters cell (papermill-injected or not)."""
    fields = schema_for(notebook).model_fields
    missing = [k for k in fields if k not in namespace]
    if missing:
        raise ParamsError(f"{notebook}: parameters cell does not define {missing}")
    return validate(notebook, {k: namespace[k] for k in fields})


def notebooks_in_file(raw: Mapping[str, Any]) -> list[str]:
    """Every notebook id that has a section in the parameters; a section no notebook declares is
    refused, naming the nearest declared one."""
    found = []
    for paper in papers.all_papers():
        by_section = {nb.section: f"{paper.short}/{nb.stem}" for nb in paper.notebooks}
        sections = raw.get(paper.short) or {}
        if not isinstance(sections, dict):
            raise ParamsError(f"{file_of(paper.short)}: {paper.short} must be a mapping of the "
                              f"paper's sections, got {yamlio.shown(sections)}")
        for name in sections:
            if name not in by_section:
                raise ParamsError(f"{file_of(paper.short)}: {paper.short}.{yamlio.cut(name)} is "
                                  f"not the section of a notebook; "
                                  f"{closest(str(name), list(by_section))}"
                                  f"sections: {list(by_section)}")
            found.append(by_section[name])
    return found


def missing_sections(raw: Mapping[str, Any], path: Path | str | None = None) -> None:
    """Refuse parameters that lack a declared paper or notebook section (a file cut short, an
    emptied one), naming the file and the first missing sections."""
    for paper in papers.all_papers():
        source = file_of(paper.short) if path is None else str(path)
        have = raw.get(paper.short)
        if not isinstance(have, dict):
            raise ParamsError(f"{source}: no sections of paper {paper.short!r} (a file cut "
                              f"short?); expected: {[nb.section for nb in paper.notebooks]}; "
                              "`make sync` writes them from the schemas")
        lost = [f"{paper.short}.{nb.section}" for nb in paper.notebooks if nb.section not in have]
        if lost:
            more = f" and {len(lost) - 3} more" if len(lost) > 3 else ""
            raise ParamsError(f"{source}: missing the section{'s' if len(lost) > 1 else ''} "
                              f"{', '.join(lost[:3])}{more} (a file cut short?): every declared "
                              "notebook has one; `make sync` writes them from the schemas")


def check_all(path: Path | str | None = None) -> list[str]:
    """Validate every section under every profile, of the workspace's params files or of one
    whole document in `path` (every declared section present); return the notebook ids
    checked."""
    return check_document(read_all() if path is None else read_file(path), path)


def check_document(raw: Mapping[str, Any], path: Path | str | None = None) -> list[str]:
    """check_all of a document already read (`path`: the file it came from, for messages)."""
    notebooks_in_file(raw)                       # unknown sections first: a typo names its match
    missing_sections(raw, path)
    checked = []
    for notebook in notebooks_in_file(raw):
        for profile in ("default", "smoke", "paper"):  # the profile users run first
            validate(notebook, merge(raw, notebook, profile))
        checked.append(notebook)
    return checked


def stamp_file(folder: Path, notebook: str) -> Path:
    """The stamp of one notebook's parameters, inside the params stage's output folder."""
    return folder / f"{notebook.replace('/', '__')}.json"


def write_stamps(folder: Path, raw: Mapping[str, Any]) -> None:
    """For every notebook, the values its run sees under the active profile (its section, the
    profile's overrides, profile and seed) as sorted JSON; stamps of notebooks gone are removed."""
    folder.mkdir(parents=True, exist_ok=True)
    written = set()
    for notebook in notebooks_in_file(raw):
        stamp = stamp_file(folder, notebook)
        stamp.write_text(json.dumps(merge(raw, notebook), indent=1, sort_keys=True) + "\n")
        written.add(stamp)
    for old in set(folder.glob("*.json")) - written:
        old.unlink()


def set_profile(profile: str, path: Path | None = None) -> str:
    """Write `profile` into the root params.yaml, its one line (comments kept), as `dvc exp run
    -S profile=...` would; return the profile it held."""
    if profile not in PROFILES:
        raise ParamsError(f"profile = {yamlio.shown(profile)}; allowed: {list(PROFILES)}")
    path = path or paths.PARAMS_FILE
    before = _check_top(_load(path), path, ROOT_KEYS).get("profile")
    text, n = re.subn(r"(?m)^profile:[ \t]*[^\s#]+", f"profile: {profile}", path.read_text(), 1)
    if n != 1:
        raise ParamsError(f"{path}: no `profile:` line at the top level to set")
    path.write_text(text)
    return before


PARAMS_FILES = ("params.yaml", "notebooks/*/params.yaml")


def git_text(*args: str) -> str | None:
    """A git command's output from the repository root (None outside git, or when it fails)."""
    try:
        done = subprocess.run(["git", *args], cwd=paths.ROOT, capture_output=True, text=True,
                              timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def changed_values(name: str) -> list[str]:
    """The values a params file holds that its committed version does not ("key: committed ->
    now"); one line saying so for a file that cannot be read as YAML."""
    before = git_text("show", f"HEAD:{name}")
    try:
        now = yamlio.leaves(yamlio.load((paths.ROOT / name).read_text(), name) or {})
        then = yamlio.leaves(yamlio.load(before, name) or {}) if before is not None else {}
    except (OSError, yamlio.YamlError) as err:
        return [f"(not readable as YAML: {yamlio.cut(str(err))})"]

    def value(doc: dict, key: str) -> str:
        return yamlio.shown(doc[key]) if key in doc else "(absent)"
    return [f"{k}: {value(then, k)} -> {value(now, k)}"
            for k in sorted(set(now) | set(then)) if now.get(k) != then.get(k)]


def differ_from_head(pathspecs: tuple[str, ...]) -> list[str] | None:
    """The files of the last commit under `pathspecs` whose bytes in the workspace are not the
    committed ones (None outside git). Compared by content, not by `git diff`: after a refused
    `dvc exp run -S` git's index can hold the committed blob with the edited file's size and
    time, and `git diff`/`git status` then call the edited file unchanged."""
    names = git_text("ls-files", "--", *pathspecs)             # tracked (ls-tree takes no globs)
    if names is None:
        return None
    changed = []
    for name in names.split():
        path = paths.ROOT / name
        try:
            now = path.read_bytes()
        except OSError:
            changed.append(name)                       # deleted or unreadable
            continue
        done = subprocess.run(["git", "show", f"HEAD:{name}"], cwd=paths.ROOT,
                              capture_output=True, timeout=30)
        if done.returncode != 0 or done.stdout != now:
            changed.append(name)
    return changed


def uncommitted() -> dict[str, list[str]]:
    """Each params file that differs from the last commit, with the values it changed ({}
    outside git)."""
    return {name: changed_values(name) for name in differ_from_head(PARAMS_FILES) or []}


def where_held() -> str:
    """After a refusal: the params files holding values the last commit does not (a `dvc exp
    run -S` writes its value before the pipeline checks it), and the commands that put the
    committed ones back; "" when every params file is the committed one."""
    found = uncommitted()
    if not found:
        return ""
    for name in found:          # a new time makes git look at the bytes: `git status` shows it
        os.utime(paths.ROOT / name)
    lines = [f"  {name}: {'; '.join(values) or 'formatting only'}"
             for name, values in found.items()]
    return ("\nThe params files that differ from the last commit (`dvc exp run -S` writes its "
            "value there before the pipeline checks it; nothing ran):\n" + "\n".join(lines)
            + f"\nUndo: `git checkout {' '.join(found)}`, or `make restore` (every params file, "
            "and the outputs an experiment changed, back to the last commit)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lib.companion.params",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="validate params.yaml and every notebooks/<paper>/params.yaml")
    parser.add_argument("--stamps", type=Path,
                        help="on success also write each notebook's stamp here (the DVC params "
                             "stage)")
    parser.add_argument("--set-profile", choices=PROFILES,
                        help="first write this profile into params.yaml (`make repro PROFILE=`)")
    args = parser.parse_args(argv)
    if not (args.check or args.set_profile):
        parser.error("nothing to do: pass --check or --set-profile")
    try:
        if args.set_profile:
            was = set_profile(args.set_profile)
            if was != args.set_profile:
                print(f"params.yaml: profile {was} -> {args.set_profile} (back: `git checkout "
                      "params.yaml`)")
        if not args.check:
            return 0
        raw = read_all()
        checked = check_document(raw)
    except ParamsError as err:
        print(f"the parameters are invalid:\n{err}{where_held()}", file=sys.stderr)
        return 2
    if args.stamps:
        write_stamps(args.stamps, raw)
    print(f"parameters OK: {len(checked)} notebook sections x {len(PROFILES)} profiles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
