"""The papers' declarations, `notebooks/<paper>/paper.yaml`: the one place a paper is described.

Each declares its short name, title, authors, arXiv id and its notebooks in reading order, with
the schema class of each notebook's parameters, the data it reads, the figures it saves (one
caption line each) and the tables DVC may plot. Everything that spans papers is derived from
these files: the notebook stages of dvc.yaml, params.yaml, the guide's figure table, the
report's paper list, the smoke list (see `lib.companion.generate`).

A declaration is checked when it is read, before anything runs: each `params:` names a schema
class of lib/<paper>/schema.py, each `data:` entry is a plain path under data/ that matches what
data.dvc tracks, and figure names and plotted tables are plain paths that stay in results/.
"""
from __future__ import annotations

import difflib
import functools
import importlib
import re
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from lib.companion import paths, yamlio

DECLARATION = "paper.yaml"
NAME = re.compile(r"^[a-z][a-z0-9_]*$")
STEM = re.compile(r"^\d\d_[a-z][a-z0-9_]*$")
CLASS = re.compile(r"^[A-Z][A-Za-z0-9_]*$")
FILE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def plain_path(value: str, under: str) -> str:
    """A relative POSIX path that stays under `under`: no '..', '.', empty or absolute part, no
    backslash (messages cut the value to a readable length)."""
    parts = value.split("/")
    if not value or value.startswith("/") or "\\" in value or \
            any(p in ("", ".", "..") or not FILE_NAME.match(p) for p in parts):
        raise ValueError(f"{yamlio.cut(repr(value))} must be a plain relative path under {under} "
                         "(letters, digits, '_', '-', '.' in each part; no '..', no leading '/')")
    return value


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Figure(Strict):
    """One saved figure: <stem>[_<panel>].png and .pdf, the caption line the guide and the book
    show, and the claims the book sets beside it (the notebook checks it recorded each)."""

    name: str = Field(description="file stem: the notebook stem, or <stem>_<panel>")
    caption: str = Field(min_length=3)

    @field_validator("name")
    @classmethod
    def _plain_name(cls, value: str) -> str:
        if not FILE_NAME.match(value) or ".." in value:
            raise ValueError(f"figure name {yamlio.cut(repr(value))} must be a file stem "
                             "(letters, digits, '_', '-'), saved under results/")
        return value
    claims: list[str] = Field(default_factory=list,
                              description="ids of the notebook's claims this figure shows, "
                                          "without the '<paper>.' prefix, in the book's order")

    @field_validator("claims")
    @classmethod
    def _distinct(cls, value: list[str]) -> list[str]:
        twice = sorted({c for c in value if value.count(c) > 1})
        if twice:
            raise ValueError(f"claims listed twice: {twice}")
        return value


class Plot(Strict):
    """A table of the notebook that `dvc plots show` draws (a DVC top-level plot); nb.finish()
    copies it to results/<paper>/plots/<stem>/, a file output of the stage."""

    table: str = Field(description="file under the notebook's tables folder")
    x: str
    y: list[str] = Field(min_length=1)
    title: str
    template: str = "linear"

    @field_validator("table")
    @classmethod
    def _in_tables(cls, value: str) -> str:
        return plain_path(value, "results/<paper>/tables/<stem>/")


class NotebookEntry(Strict):
    """One notebook of a paper, in reading order."""

    stem: str
    params: str = Field(description="class name in lib/<paper>/schema.py")
    figures: list[Figure] = Field(default_factory=list)
    data: list[str] = Field(default_factory=list, description="paths under data/ it reads")
    reads: list[str] = Field(default_factory=list,
                             description="stems of earlier notebooks of the same paper whose "
                                         "tables it reads (their stages run first)")
    plots: list[Plot] = Field(default_factory=list)

    @field_validator("params")
    @classmethod
    def _class_name(cls, value: str) -> str:
        if not CLASS.match(value):
            raise ValueError(f"params {yamlio.cut(repr(value))} must name a class of "
                             "lib/<paper>/schema.py (CamelCase: a capital, then letters, digits "
                             "and _)")
        return value

    @field_validator("data")
    @classmethod
    def _under_data(cls, value: list[str]) -> list[str]:
        return [plain_path(e, "data/") for e in value]

    @field_validator("stem")
    @classmethod
    def _stem(cls, value: str) -> str:
        if not STEM.match(value):
            raise ValueError(f"stem {value!r} must look like NN_<what_it_shows> "
                             "(two digits, _, then a lower-case letter, letters, digits and _)")
        return value

    @property
    def section(self) -> str:
        """Its section of params.yaml: the stem without its number, so that every key path is one
        DVC's `-S` grammar accepts (a segment may not start with a digit)."""
        return self.stem.split("_", 1)[1]


class Paper(Strict):
    """A paper's declaration."""

    short: str
    title: str
    authors: list[str] = Field(min_length=1)
    arxiv: str
    notebooks: list[NotebookEntry] = Field(min_length=1)

    @field_validator("short")
    @classmethod
    def _short(cls, value: str) -> str:
        if not NAME.match(value):
            raise ValueError(f"short name {value!r} must be a Python identifier in lower case")
        return value

    @model_validator(mode="after")
    def _reads_earlier(self) -> "Paper":
        """A notebook reads the tables of notebooks before it in reading order, never its own
        or a later one's (the stages would form a cycle or run out of order)."""
        stems = [nb.stem for nb in self.notebooks]
        for i, nb in enumerate(self.notebooks):
            bad = [r for r in nb.reads if r not in stems[:i]]
            if bad:
                raise ValueError(f"notebook {nb.stem} reads {bad}: `reads` lists earlier "
                                 f"notebooks of this paper only, here {stems[:i]}")
        return self

    @model_validator(mode="after")
    def _distinct_sections(self) -> "Paper":
        """Two notebooks whose stems differ only in their number would share a params section."""
        seen: dict[str, str] = {}
        for nb in self.notebooks:
            if nb.section in seen:
                raise ValueError(f"notebooks {seen[nb.section]} and {nb.stem} would share the "
                                 f"params section {nb.section!r}: name what they show differently")
            seen[nb.section] = nb.stem
        return self

    @property
    def citation(self) -> str:
        """'Tyurin, *Title* (arXiv N)', as the README and report show it."""
        return f"{', '.join(self.authors)}, *{self.title}* (arXiv {self.arxiv})"

    def notebook_ids(self) -> list[str]:
        return [f"{self.short}/{nb.stem}" for nb in self.notebooks]


class DeclarationError(ValueError):
    """A paper.yaml is missing, malformed or disagrees with the files it describes."""


def declaration_file(paper: str) -> Path:
    return paths.NOTEBOOKS / paper / DECLARATION


def read(path: Path) -> Paper:
    """Parse and validate one declaration; errors name the file and the bad key. A declaration is
    read once per version of the file (every stage, generator and report asks many times)."""
    return _read(path, path.stat().st_mtime_ns)


@functools.lru_cache(maxsize=None)
def _read(path: Path, mtime_ns: int) -> Paper:
    try:
        raw = yamlio.load(path.read_text(), str(path))
    except yamlio.YamlError as err:
        raise DeclarationError(str(err)) from None
    try:
        paper = Paper(**(raw or {}))
    except ValidationError as err:
        lines = [f"{path}: invalid declaration:"]
        lines += [f"  {'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in err.errors()]
        raise DeclarationError("\n".join(lines)) from None
    if paper.short != path.parent.name:
        raise DeclarationError(f"{path}: short = {paper.short!r} but the folder is "
                               f"{path.parent.name!r}; they must agree")
    check_data(path, paper)
    return paper


def tracked_data() -> tuple[str, ...] | None:
    """The files data.dvc tracks (paths under data/), read once per version of data.dvc; None
    when its manifest cannot be read here (the `data` stage then says why)."""
    from lib.companion import datafiles
    try:
        return _tracked(datafiles.POINTER, datafiles.POINTER.stat().st_mtime_ns)
    except (OSError, ValueError, KeyError, TypeError, datafiles.DataError):
        return None


@functools.lru_cache(maxsize=4)
def _tracked(pointer: Path, mtime_ns: int) -> tuple[str, ...]:
    from lib.companion import datafiles
    return tuple(sorted(datafiles.manifest()))


def check_data(path: Path, paper: Paper) -> None:
    """Every `data:` entry must be a file data.dvc tracks or a folder holding some: an entry that
    matches nothing (a typo) would leave the stage without its data dependency."""
    tracked = tracked_data()
    if tracked is None:
        return
    folders = sorted({"/".join(t.split("/")[:i]) for t in tracked
                      for i in range(1, t.count("/") + 1)})
    for nb in paper.notebooks:
        for entry in nb.data:
            if not any(t == entry or t.startswith(entry.rstrip("/") + "/") for t in tracked):
                near = difflib.get_close_matches(entry, [*tracked, *folders], n=1, cutoff=0.6)
                hint = f"did you mean {near[0]!r}? " if near else ""
                raise DeclarationError(
                    f"{path}: paper {paper.short}, notebook {nb.stem}: data entry "
                    f"{yamlio.cut(repr(entry))} matches nothing data.dvc tracks; {hint}tracked "
                    f"folders: {[f for f in folders if '/' not in f]}")


def names() -> tuple[str, ...]:
    """Short names of the declared papers, in reading order (notebooks/papers.yaml's `order`,
    then the others by name): the folders of notebooks/ that hold a paper.yaml."""
    found = sorted(p.parent.name for p in paths.NOTEBOOKS.glob(f"*/{DECLARATION}"))
    order_file = paths.NOTEBOOKS / "papers.yaml"
    order = _order(order_file, order_file.stat().st_mtime_ns) if order_file.exists() else ()
    rank = {name: i for i, name in enumerate(order)}
    return tuple(sorted(found, key=lambda name: (rank.get(name, len(rank)), name)))


@functools.lru_cache(maxsize=None)
def _order(path: Path, mtime_ns: int) -> tuple[str, ...]:
    """notebooks/papers.yaml's `order`, read once per version of the file."""
    return tuple((yamlio.load(path.read_text(), str(path)) or {}).get("order", []))


def all_papers() -> tuple[Paper, ...]:
    """Every declared paper, in reading order."""
    return tuple(paper(name) for name in names())


def paper(short: str) -> Paper:
    """One paper's declaration, read from its own file only (a notebook depends on no other)."""
    path = declaration_file(short)
    if not path.exists():
        raise DeclarationError(f"no paper {short!r} is declared; declared: {list(names())} "
                               f"(add notebooks/{short}/{DECLARATION})")
    return read(path)


def notebook_entry(notebook: str) -> NotebookEntry:
    """The declaration of one notebook "<paper>/<stem>"."""
    short, _, stem = notebook.partition("/")
    for entry in paper(short).notebooks:
        if entry.stem == stem:
            return entry
    raise DeclarationError(f"notebook {notebook!r} is not declared in "
                           f"notebooks/{short}/{DECLARATION}")


def params_key(notebook: str) -> str:
    """The key path of a notebook's section in params.yaml: "<paper>.<section>"."""
    return f"{notebook.partition('/')[0]}.{notebook_entry(notebook).section}"


def all_notebooks() -> list[str]:
    """Every declared notebook id, papers in order, notebooks in reading order."""
    return [nid for p in all_papers() for nid in p.notebook_ids()]


def schema_class(notebook: str):
    """The pydantic class that the declaration names for the notebook's parameters."""
    short, _, _ = notebook.partition("/")
    from lib.companion.params import NotebookParams
    name = notebook_entry(notebook).params
    module = importlib.import_module(f"lib.{short}.schema")
    found = vars(module).get(name)
    if not (isinstance(found, type) and issubclass(found, NotebookParams)
            and found is not NotebookParams):
        what = "does not define" if found is None else \
            "defines, but not as a schema class (a subclass of NotebookParams)"
        raise DeclarationError(f"notebooks/{short}/{DECLARATION}: {notebook} names params class "
                               f"{name!r}, which lib/{short}/schema.py {what}")
    return found
