"""What the companion found about each paper: one verdict per headline of its abstract, declared
in notebooks/<paper>/verdict.yaml and checked against the claims ledger (results/claims.json).

    python -m lib.companion.verdicts        (checks every declared verdict against the ledger)

A verdict line names the ledger claims it summarises, and the statuses of those claims must not
contradict it: `reproduced` and `reproduced in miniature` need every named claim `pass`;
`shown wrong` needs at least one `deviation`; a headline not reproduced says which of two it is:
`decided against here` (the miniature shows the opposite, stably: at least one named claim
`fail`, and its `scale`) or `undecided at our scale` (under-powered: at least one `inconclusive`
or `skipped`, its `scale`, and its `price`: the seeds and steps that would decide it and what
they cost); `not attempted` with claims needs them all `skipped`. A named claim the ledger does
not hold is an error. The report (`lib.companion.report`) runs the check and refuses to build a
book whose verdicts contradict its ledger.

Why a file of its own, and not a section of paper.yaml: every notebook stage of a paper depends
on its paper.yaml (the declaration says which figures and claims the notebooks make), so a
verdict written there would re-run the paper's notebooks at each edit, though no notebook reads
it. verdict.yaml is read only by the report stage, which lists it among its dependencies: editing
a verdict rebuilds the book and nothing else.

A claim with status `error` (its notebook's last run did not finish, so the claim was not
checked) neither supports nor contradicts a verdict: the headline is shown as not checked on this
build (`unchecked`), and the book still builds, with the failed run's warning.

A verdict is judged on the results of one profile (`profile:`, normally `default`). A ledger
whose claims for the paper come from another profile (the smoke run of `make test`) or that
holds none of them is not checked against it: the book then shows the verdicts with a note that
they were not checked on this build.
"""
from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from lib.companion import paths, yamlio

FILE = "verdict.yaml"
VERDICTS = ("reproduced", "reproduced in miniature", "decided against here",
            "undecided at our scale", "shown wrong", "not attempted")
SHORT = {"reproduced": "reproduced", "reproduced in miniature": "in miniature",
         "decided against here": "decided against", "undecided at our scale": "undecided",
         "shown wrong": "shown wrong", "not attempted": "not attempted"}
HEADLINE_MAX = 140                   # one line of the index at 1280 px, give or take


class VerdictError(ValueError):
    """A verdict.yaml that is malformed, or that its claims' statuses contradict."""


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


def one_line(value: str, what: str, limit: int | None = None) -> str:
    if not value.strip() or "\n" in value.strip():
        raise ValueError(f"{what} must be one non-empty line")
    if limit and len(value.strip()) > limit:
        raise ValueError(f"{what} must be at most {limit} characters (has {len(value.strip())})")
    return value.strip()


class Peer(Strict):
    """Numbers from outside the companion: a public reproduction's or the authors' own."""

    source: str              # who, and where (a repository, a table of the paper)
    numbers: str             # what they report, beside what we measured

    @field_validator("source", "numbers")
    @classmethod
    def _line(cls, value: str, info) -> str:
        return one_line(value, info.field_name)


class Headline(Strict):
    """One headline of the abstract and what the companion found about it."""

    headline: str
    verdict: Literal[VERDICTS]            # type: ignore[valid-type]
    claims: list[str] = Field(default_factory=list)
    scale: str | None = None         # what size we ran, against the paper's
    price: str | None = None         # undecided: the seeds and steps that would decide it, costed
    reason: str | None = None        # why it was not attempted
    note: str | None = None          # anything else a reader should know (one line)
    peers: list[Peer] = Field(default_factory=list)

    @field_validator("headline")
    @classmethod
    def _headline(cls, value: str) -> str:
        return one_line(value, "headline", HEADLINE_MAX)

    @field_validator("scale", "price", "reason", "note")
    @classmethod
    def _text(cls, value: str | None, info) -> str | None:
        return None if value is None else one_line(value, info.field_name)

    @model_validator(mode="after")
    def _required(self) -> Headline:
        if self.verdict != "not attempted" and not self.claims:
            raise ValueError(f"verdict {self.verdict!r} must name at least one claim (claims:)")
        if self.verdict in ("decided against here", "undecided at our scale") and not self.scale:
            raise ValueError(f"verdict {self.verdict!r} needs scale: what size we ran against "
                             "the paper's")
        if self.verdict == "undecided at our scale" and not self.price:
            raise ValueError("verdict 'undecided at our scale' needs price: the seeds and steps "
                             "that would decide it, and what they cost")
        if self.verdict == "not attempted" and not self.reason:
            raise ValueError("verdict 'not attempted' needs reason: why")
        if len(set(self.claims)) != len(self.claims):
            raise ValueError("claims: an id is named twice")
        return self


class Verdict(Strict):
    """notebooks/<paper>/verdict.yaml."""

    paper: str
    profile: Literal["smoke", "default", "paper"] = "default"
    headlines: list[Headline] = Field(min_length=1)


def verdict_file(paper: str) -> Path:
    return paths.NOTEBOOKS / paper / FILE


def read(path: Path) -> Verdict:
    """Parse and validate one verdict file; errors name the file and the bad key."""
    return _read(path, path.stat().st_mtime_ns)


@functools.lru_cache(maxsize=None)
def _read(path: Path, mtime_ns: int) -> Verdict:
    try:
        raw = yamlio.load(path.read_text(encoding="utf-8"), str(path))
    except yamlio.YamlError as err:
        raise VerdictError(str(err)) from None
    if not isinstance(raw, dict):
        raise VerdictError(f"{path}: must be a mapping with paper: and headlines:")
    try:
        verdict = Verdict(**raw)
    except ValidationError as err:
        lines = [f"{path}: invalid verdict:"]
        for e in err.errors():
            where = ".".join(str(p) for p in e["loc"]) or "(top level)"
            msg = e["msg"].removeprefix("Value error, ")
            lines.append(f"  {where}: {msg}")
        raise VerdictError("\n".join(lines)) from None
    if verdict.paper != path.parent.name:
        raise VerdictError(f"{path}: paper = {verdict.paper!r} but the folder is "
                           f"{path.parent.name!r}; they must agree")
    return verdict


def load(paper: str) -> Verdict | None:
    """The paper's verdicts, None when it declares none yet."""
    path = verdict_file(paper)
    return read(path) if path.exists() else None


def contradiction(h: Headline, statuses: dict[str, str]) -> str | None:
    """Why the named claims' statuses contradict the verdict (None when they do not)."""
    got = [statuses[c] for c in h.claims]
    every = ", ".join(f"{c} is {s}" for c, s in zip(h.claims, got))
    if h.verdict in ("reproduced", "reproduced in miniature"):
        bad = [f"{c} is {s}" for c, s in zip(h.claims, got) if s != "pass"]
        return f"needs every claim pass, but {', '.join(bad)}" if bad else None
    if h.verdict == "shown wrong" and "deviation" not in got:
        return f"needs at least one claim with status deviation, but {every}"
    if h.verdict == "decided against here" and "fail" not in got:
        return f"needs at least one claim fail (the opposite shown), but {every}"
    if h.verdict == "undecided at our scale" and not set(got) & {"inconclusive", "skipped"}:
        return f"needs at least one claim inconclusive or skipped, but {every}"
    if h.verdict == "not attempted":
        bad = [f"{c} is {s}" for c, s in zip(h.claims, got) if s != "skipped"]
        return f"needs its claims skipped, but {', '.join(bad)}" if bad else None
    return None


def unchecked(h: Headline, statuses: dict[str, str]) -> list[str]:
    """The headline's claims the last runs did not reach (status error)."""
    return [c for c in h.claims if statuses.get(c) == "error"]


def checked_profile(verdict: Verdict, ledger: dict) -> bool:
    """Does the ledger hold this paper's results on the verdict's profile (then it is checked)?"""
    mine = {n: p for n, p in ledger.get("profiles", {}).items()
            if n.split("/")[0] == verdict.paper}
    return bool(mine) and all(p == verdict.profile for p in mine.values())


def check(verdict: Verdict, ledger: dict) -> list[str]:
    """Every contradiction between the verdict and the ledger, one message each naming the
    paper, the headline and the claim; [] when none (or when the ledger holds no results of
    the verdict's profile for this paper: see `checked_profile`)."""
    if not checked_profile(verdict, ledger):
        return []
    statuses = {c["id"]: c["status"] for c in ledger.get("claims", [])}
    problems = []
    for h in verdict.headlines:
        where = f"{verdict.paper}: headline {h.headline!r} ({h.verdict})"
        missing = [c for c in h.claims if c not in statuses]
        if missing:
            problems += [f"{where}: claim {c} is not in results/claims.json" for c in missing]
            continue
        if unchecked(h, statuses):
            continue                      # shown as not checked, never as a contradiction
        why = contradiction(h, statuses)
        if why:
            problems.append(f"{where}: {why}")
    return problems


def check_all(ledger: dict, names: tuple[str, ...]) -> list[str]:
    """The contradictions of every paper's verdicts (a malformed file is one message too)."""
    problems = []
    for paper in names:
        try:
            verdict = load(paper)
        except VerdictError as err:
            problems.append(str(err))
            continue
        if verdict is not None:
            problems += check(verdict, ledger)
    return problems


def main(argv: list[str] | None = None) -> int:
    import json

    from lib.companion import papers
    parser = argparse.ArgumentParser(prog="python -m lib.companion.verdicts",
                                     description="check every verdict.yaml against the ledger")
    parser.parse_args(argv)
    ledger_path = paths.ledger_files()["json"]
    ledger = json.loads(ledger_path.read_text()) if ledger_path.exists() else {}
    problems = check_all(ledger, papers.names())
    missing = [p for p in papers.names() if not verdict_file(p).exists()]
    for line in problems:
        print(line, file=sys.stderr)
    if missing:
        print("no verdict.yaml: " + ", ".join(missing), file=sys.stderr)
    if not problems:
        print(f"verdicts agree with {ledger_path.name} "
              f"({len(papers.names()) - len(missing)} papers)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
