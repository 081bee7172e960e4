"""The claims stage: every declared notebook's claims file merged into the ledger.

    python -m lib.companion.ledger          (the `claims` stage of dvc.yaml; make report runs it)

It writes results/claims.json, results/CLAIMS.md, a metrics summary and the fingerprints of the
runs the results came from (results/fingerprints.json). A notebook whose last run did not finish
(lib.companion.runs) is merged as that run left it: the claims it recorded before it stopped, and
every other claim it declares as `error`, with the cell and the exception. What a notebook
declares: the claims its last complete run recorded (its claims file, kept when a run fails) and
those its paper.yaml sets beside a figure; a notebook that declares none is one `error` record of
its own. Nothing a notebook declares is ever absent from the ledger. A claims file that cannot be
used (cut short, not JSON, not a claims document) is named and treated like a failed run: the ids
it still shows, and those beside its figures, are `error`; the other notebooks go on. A claim a
second CPU code path decides otherwise is `inconclusive` (lib.companion.codepaths). A `results/`
the ledger cannot write is named, with what to do, in one message. A notebook kernel never
imports this module (lib.companion.claims is its side).

A paper with no results in this workspace (a fresh clone that ran another paper) keeps the row
results/claims_summary.json already held for it (in a fresh clone the committed one): the summary
merges a one-paper run into the other papers' rows instead of dropping them, and claims.json and
CLAIMS.md name those papers as carried, their counts the summary's, not checked here.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from lib.companion import (
    codepaths,
    deciding,
    declared,
    fingerprint,
    papers,
    paths,
    runs,
    staging,
    yamlio,
)
from lib.companion.claims import PENDING, STATUSES, stability_text, summarize


def load_all() -> list[dict]:
    """Every declared notebook's claims as the ledger shows them, in paper then notebook order:
    its claims file, or, when its last run did not finish, what that run left (`merged_doc`);
    each claim its claims.yaml declares decided by its rule (`decide_pending`); a claim a
    second CPU code path decides otherwise `inconclusive` (lib.companion.codepaths)."""
    return codepaths.apply([decide_pending(d) for n in papers.all_notebooks()
                            if (d := notebook_doc(n)) is not None])


def decide_pending(doc: dict) -> dict:
    """The document with each claim its notebook left to the ledger decided by the rule its
    declaration names (lib.companion.deciding); a claim that cannot be decided (its rule or
    declaration gone, evidence the rule refuses) is `error`, saying why."""
    claims = []
    for c in doc["claims"]:
        if c.get("status") == PENDING:
            c = decided_claim(c)
        claims.append(c)
    return {**doc, "claims": claims, "summary": summarize(claims)}


def decided_claim(claim: dict) -> dict:
    paper = claim["paper"]
    decl = declared.for_paper(paper).get(claim["id"])
    try:
        if decl is None:
            raise declared.DeclarationError(f"it is no longer declared in notebooks/{paper}/"
                                            f"{declared.FILE}")
        d = deciding.decide(paper, claim["id"], decl, claim)
    except (declared.DeclarationError, ValueError, TypeError) as err:
        return {**claim, "status": "error",
                "tolerance": f"the ledger could not decide it: {yamlio.cut(str(err))}"}
    return {**claim, "status": d.status, "tolerance": d.tolerance, "stability": d.stability,
            "rests_on": d.rests_on, "rule": d.rule, "args": d.args,
            **({"precondition": d.precondition} if d.precondition else {})}


# why a claim is inconclusive, as lib.companion.claims (an unstable decision, an unmet
# precondition) and lib.companion.codepaths (a second CPU code path decides otherwise) word it
WHY_INCONCLUSIVE = re.compile(r"unstable: [^;]*?\(< [\d.]+\)|requires (?:(?!requires ).)*?: NOT met"
                              r"|status on a second CPU code path: \w+ \(here: \w+\)")
ALL = "all"                      # the summary's row of every paper's counts added up

RECORD_KEYS = ("id", "paper", "notebook", "statement", "source", "provenance", "kind", "expected",
               "measured", "tolerance", "status")
ID_IN_TEXT = re.compile(r'"id":\s*"([^"\\]{1,300})"')


def why_inconclusive(claim: dict) -> str:
    """Why an inconclusive claim is: the clauses of its tolerance that made it so (all of it
    when none is found); "" for any other status."""
    if claim.get("status") != "inconclusive":
        return ""
    tolerance = str(claim.get("tolerance") or "")
    return "; ".join(WHY_INCONCLUSIVE.findall(tolerance)) or tolerance or "not recorded"


def status_text(claim: dict) -> str:
    """A claim's status as the ledger shows it: an inconclusive one with its reason beside."""
    why = why_inconclusive(claim)
    return f"{claim['status']}: {why}" if why else claim["status"]


def shown_path(path) -> str:
    """A path as messages name it: relative to the repository when inside it."""
    try:
        return str(path.relative_to(paths.ROOT))
    except ValueError:
        return str(path)


def claims_problem(doc: object) -> str:
    """What keeps a parsed claims file from being a claims document ("" when nothing)."""
    if not isinstance(doc, dict):
        return f"holds a {type(doc).__name__}, not a claims document (an object)"
    if not isinstance(doc.get("params", {}), dict) or not isinstance(doc.get("claims"), list):
        return "lacks its `claims` list or `params` object"
    for i, c in enumerate(doc["claims"]):
        lost = [k for k in RECORD_KEYS if not isinstance(c, dict) or k not in c]
        if lost:
            return f"claim {i} lacks {lost}"
        if c["status"] not in (*STATUSES, PENDING):
            return f"claim {c['id']!r} has status {yamlio.shown(c['status'])}; allowed: {STATUSES}"
        if c["status"] == PENDING and not isinstance(c.get("evidence"), dict):
            return f"claim {c['id']!r} is left to the ledger without its evidence"
    return ""


def read_own(notebook: str) -> tuple[dict | None, str]:
    """The notebook's claims file ({"params", "claims"}) and "" , or, when it cannot be used, a
    stand-in holding the ids its text still shows and what is wrong, naming the file."""
    path = paths.claims_file(notebook)
    name = shown_path(path)
    paper = notebook.split("/")[0]
    again = f"re-run it: `dvc repro -f notebooks/{paper}/dvc.yaml:{notebook.replace('/', '-', 1)}`"
    try:
        text = path.read_text()
    except FileNotFoundError:
        return None, ""
    except (OSError, UnicodeDecodeError) as err:
        why = getattr(err, "strerror", None) or yamlio.cut(str(err))
        return None, f"its claims file {name} cannot be read ({why}); {again}"
    try:
        doc = json.loads(text)
        problem = claims_problem(doc)
    except (ValueError, RecursionError) as err:
        problem = f"is not valid JSON ({yamlio.cut(str(err))}; a write cut short?)"
    if not problem:
        doc.setdefault("params", {})
        return doc, ""
    shown = {cid: {"id": cid, "statement": f"(recorded in {name}, which cannot be read)",
                   "source": "", "provenance": "derived", "kind": "exact", "expected": ""}
             for cid in ID_IN_TEXT.findall(text) if cid.startswith(paper + ".")}
    known = {**ledgered(notebook), **shown}        # a cut file shows only its first claims
    return {"params": {}, "claims": list(known.values())}, \
        f"its claims file {name} {problem}; {again}"


def ledgered(notebook: str) -> dict[str, dict]:
    """The notebook's claims as the last ledger (results/claims.json) holds them, by id, with
    what says what each claims; {} when it holds none or cannot be read."""
    try:
        doc = json.loads(paths.ledger_files()["json"].read_text())
        return {c["id"]: {k: c[k] for k in ("id", "statement", "source", "provenance", "kind",
                                            "expected")}
                for c in doc["claims"] if c.get("notebook") == f"notebooks/{notebook}.py"}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def notebook_doc(notebook: str) -> dict | None:
    """One notebook's claims document as the ledger merges it, from its files; an unusable claims
    file makes its claims `error` as a failed run does, naming the file."""
    own, problem = read_own(notebook)
    record = runs.read(notebook)
    if problem:                          # main() names it, among the unfinished runs
        if runs.unfinished(record):
            record = {**record, "error": f"{record.get('error', 'no detail')}; and {problem}"}
        else:
            record = {"notebook": notebook, "state": "failed", "error": problem,
                      "profile": (record or {}).get("profile", "?")}
    return merged_doc(notebook, own, record)


def declared_ids(notebook: str, own: dict | None) -> list[str]:
    """The full ids a notebook declares: its last complete run's, then its figures' others, then
    those its paper's claims.yaml gives it."""
    paper, stem = notebook.split("/")
    ids = [c["id"] for c in own["claims"]] if own else []
    for fig in papers.notebook_entry(notebook).figures:
        ids += [f"{paper}.{c}" for c in fig.claims if f"{paper}.{c}" not in ids]
    ids += [cid for cid, d in declared.for_paper(paper).items()
            if d.notebook == stem and cid not in ids]
    return ids


def error_claim(notebook: str, cid: str, record: dict, before: dict | None) -> dict:
    """The record of a declared claim the last run did not reach: `error`, with why."""
    paper = notebook.split("/")[0]
    decl = declared.for_paper(paper).get(cid)
    base = before or (decl.model_dump() if decl is not None else
                      {"statement": "(declared beside a figure in paper.yaml; never recorded)",
                       "source": "", "provenance": "derived", "kind": "exact", "expected": ""})
    return {**{k: base[k] for k in ("statement", "source", "provenance", "kind", "expected")},
            "id": cid, "paper": paper, "notebook": f"notebooks/{notebook}.py",
            "measured": f"not checked: the last run {runs.describe(record)}",
            "tolerance": "", "status": "error", "stability": None, "rests_on": ""}


def merged_doc(notebook: str, own: dict | None, record: dict | None) -> dict | None:
    """The notebook's claims document as the ledger merges it (None: nothing to show)."""
    if not runs.unfinished(record):
        return own
    recorded = [c for c in record.get("recorded", []) if isinstance(c, dict) and "id" in c]
    seen = {c["id"] for c in recorded}
    before = {c["id"]: c for c in own["claims"]} if own else {}
    missing = [error_claim(notebook, cid, record, before.get(cid))
               for cid in declared_ids(notebook, own) if cid not in seen]
    claims = recorded + missing
    if not claims:                      # declares nothing: the failed run is the record
        claims = [error_claim(notebook, f"{'.'.join(paths.split_notebook(notebook))}.run",
                              record, {"statement": "the notebook runs to completion",
                                       "source": "", "provenance": "derived", "kind": "exact",
                                       "expected": "a finished run"})]
    prior = own["params"] if own else {}
    return {"notebook": notebook, "params": {**prior, "profile": record.get("profile", "?")},
            "claims": claims, "summary": summarize(claims), "run": record}


def carried_line(paper: str, counts: dict[str, int]) -> str:
    """What the ledger says of a paper with no results here: its summary row's counts, kept."""
    return ("not run in this workspace: the counts are the summary row results/"
            "claims_summary.json held (in a fresh clone, the committed one): "
            + ", ".join(f"{k} {v}" for k, v in counts.items())
            + f"; `make repro PAPER={paper}` checks its claims here")


def render_markdown(docs: list[dict], carried: dict[str, dict] | None = None) -> str:
    """results/CLAIMS.md: one table per paper with status and provenance (a paper with no
    results here: its carried summary row, said as such)."""
    lines = ["# Claims ledger", "",
             "Generated by `python -m lib.companion.ledger` from results/<paper>/claims/*.json. "
             "Do not edit.", ""]
    for paper in papers.names():
        rows = [c for d in docs if d["notebook"].startswith(paper + "/") for c in d["claims"]]
        if paper in (carried or {}):
            lines += [f"## {paper}", "", carried_line(paper, carried[paper]), ""]
        if not rows:
            continue
        profiles = sorted({d["params"].get("profile", "?") for d in docs
                           if d["notebook"].startswith(paper + "/")})
        s = summarize(rows)
        lines += [f"## {paper}", "",
                  f"profile: {', '.join(profiles)}; " + ", ".join(f"{k} {v}" for k, v in s.items()),
                  "", *(f"**{d['notebook']}: the last run {runs.describe(d['run'])}** (its "
                        "other claims are `error`; the workspace keeps its last good outputs)\n"
                        for d in docs if d["notebook"].startswith(paper + "/") and "run" in d),
                  "| status | id | kind | provenance | statement | expected | measured "
                  "| stability |",
                  "|---|---|---|---|---|---|---|---|"]
        for c in rows:
            cells = [status_text(c), f"`{c['id']}`", c["kind"], c["provenance"], c["statement"],
                     c["expected"], c["measured"], stability_text(c).strip(" []")]
            lines.append("| " + " | ".join(str(x).replace("|", "\\|").replace("\n", " ")
                                         for x in cells) + " |")
        lines.append("")
    return "\n".join(lines)


def previous_summary() -> dict[str, dict[str, int]]:
    """The per-paper rows results/claims_summary.json holds before a merge (in a fresh clone, the
    committed ones); a row that is not a count per status is left out, an unreadable file is
    none."""
    try:
        doc = json.loads(paths.ledger_files()["summary"].read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(doc, dict):
        return {}
    return {p: row for p, row in doc.items() if p in papers.names() and isinstance(row, dict)
            and set(row) == set(STATUSES)
            and all(type(n) is int and n >= 0 for n in row.values())}


def merged(docs: list[dict], before: dict[str, dict] | None = None) -> dict[str, Any]:
    """The merged ledger of per-notebook documents: claims, profiles, per-paper summary (and its
    total, ALL), the notebooks whose last run did not finish, and the papers with no results
    here whose summary row is carried over from `before` (results/claims.json holds this)."""
    claims = [c for d in docs for c in d["claims"]]
    here = {d["notebook"].split("/")[0] for d in docs}
    summary = {paper: summarize([c for c in claims if c["paper"] == paper])
               for paper in papers.names() if any(c["paper"] == paper for c in claims)}
    carried = {p: row for p, row in (before or {}).items() if p not in here and p not in summary}
    rows = {**summary, **carried}
    total = {s: sum(r[s] for r in rows.values()) for s in STATUSES}     # `make exps` shows it
    return {"profiles": {d["notebook"]: d["params"].get("profile") for d in docs},
            "summary": {ALL: total, **rows}, "carried": sorted(carried), "claims": claims,
            "unfinished": {d["notebook"]: d["run"] for d in docs if "run" in d}}


def fingerprints() -> dict[str, dict]:
    """The fingerprints the declared notebooks' last runs recorded (lib.companion.fingerprint),
    by their short name, each with the notebooks it made; a run that recorded none (made before
    fingerprints were recorded) is listed under "none"."""
    out: dict[str, dict] = {}
    for notebook in papers.all_notebooks():
        record = runs.read(notebook)
        if record is None:
            continue
        made_by = record.get("made_by")
        name = fingerprint.ident(made_by) if made_by else "none"
        entry = out.setdefault(name, {"fingerprint": made_by or {}, "notebooks": []})
        entry["notebooks"].append(notebook)
    return out


def merge() -> dict[str, Any]:
    """Write results/claims.json, results/CLAIMS.md, the per-paper metrics summary and the runs'
    fingerprints; return the merged ledger."""
    docs = load_all()
    doc = merged(docs, previous_summary())
    out = paths.ledger_files()
    out["json"].parent.mkdir(parents=True, exist_ok=True)
    out["json"].write_text(json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    out["fingerprints"].write_text(json.dumps(fingerprints(), indent=1, sort_keys=True) + "\n")
    out["summary"].write_text(json.dumps(doc["summary"], indent=1, sort_keys=True) + "\n")
    out["markdown"].write_text(render_markdown(docs, {p: doc["summary"][p]
                                                      for p in doc["carried"]}))
    return doc


def unwritable(err: OSError) -> str:
    """One message for a results/ the ledger cannot write: the path, the cause, what to do."""
    where = shown_path(Path(err.filename)) if err.filename else "results/"
    return (f"cannot write {where}: {err.strerror or err}; the ledger writes results/claims.json, "
            "results/CLAIMS.md and the summary there: make results/ writable (`chmod -R u+w "
            "results`) or free space, then run `python -m lib.companion.ledger` again")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lib.companion.ledger",
                                     description="merge per-notebook claims into the ledger")
    parser.parse_args(argv)
    try:
        staging.recover_all()           # a swap a kill interrupted: its outputs, all new, first
        doc = merge()
    except OSError as err:
        print(unwritable(err), file=sys.stderr)
        return 1
    for paper, counts in doc["summary"].items():
        print(f"{paper}: " + ", ".join(f"{k} {v}" for k, v in counts.items())
              + (" (not run here: the summary's row, kept)" if paper in doc["carried"] else ""))
    for notebook, record in doc["unfinished"].items():
        print(f"{notebook}: last run {runs.describe(record)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
