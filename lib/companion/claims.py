"""The claims ledger: every checkable statement of a paper becomes a record with its status.

A notebook opens a `Ledger`, records claims through `exact`, `bound`, `statistical`,
`qualitative`, `compare`, `deviation` and `skip`, and calls `write()`. Failing `exact` and `bound`
claims raise `ClaimFailed` at once (the stage fails and DVC caches nothing); `statistical` and
`qualitative` claims are recorded with whatever status they get, or `inconclusive` when their
precondition (the `requires=` check: e.g. some model learned the task at all) did not hold or when
their decision is not stable: a claim decided on replicates (seeds, instances) hands them over with
its rule (`samples=`, `decide=`), and the share of seeded bootstrap resamples that give the same
decision is its `stability`; below STABILITY_MIN the claim is `inconclusive`. A claim decided on a
single run says what it rests on (`rests_on=`). A `deviation` is recorded only with the check that
shows it (`shown=`) and the condition that gives that check its power (`power=`); `compare` records
a comparison with the paper as a deviation only when the paper's opposite is shown beyond its
uncertainty, and otherwise as a statistical pass, fail or inconclusive. A claim a profile cannot
check is recorded as `skipped` with the reason, so every profile records the same claim ids.
The ledger rewrites its file after every record, so a run that stops leaves what it had checked.
This module is what a notebook kernel imports; the claims stage that merges every notebook's file
into the ledger is lib.companion.ledger.
"""
from __future__ import annotations

import importlib
import json
import os
import zlib
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from typing import Any, Literal

from lib.companion import declared, paths

Provenance = Literal["paper", "derived", "reconstructed"]
KINDS = ("exact", "bound", "statistical", "qualitative")
# `error`: not checked, because the notebook's last run failed or was interrupted before it
STATUSES = ("pass", "fail", "error", "deviation", "inconclusive", "skipped")
# what a notebook records for a claim its claims.yaml declares and the claims stage decides
PENDING = "pending"
RUNNER_ENV = "COMPANION_RUNNER_PID"          # set by the runner for the kernel it starts
# a decision that fewer than this share of bootstrap resamples of its replicates repeat is noise
STABILITY_MIN = 0.9
RESAMPLES = 400


class ClaimFailed(AssertionError):
    """An exact or bound claim did not hold."""


@dataclass(frozen=True)
class Claim:
    """One record of the ledger (the schema of DESIGN.md)."""

    id: str
    paper: str
    notebook: str
    statement: str
    source: str
    provenance: str
    kind: str
    expected: str
    measured: str
    tolerance: str
    status: str
    # share of bootstrap resamples of the replicates giving the same decision (None: not
    # resampled: an exact claim, or one decided on a single run, which `rests_on` names)
    stability: float | None = None
    rests_on: str = ""
    # a claim its paper's claims.yaml declares and the ledger decides: what the rule reads (one
    # replicate per row of each entry) and the values it takes as they are (not resampled)
    evidence: dict | None = None
    context: dict | None = None

    def _repr_html_(self) -> str:
        """One row of `html_table`: how a cell that ends with a ledger call shows its claim."""
        return html_table([self])


STATUS_COLOURS = {"pass": "#1a7f37", "fail": "#cf222e", "error": "#82071e", "deviation": "#9a6700",
                  "inconclusive": "#0550ae", "skipped": "#6e7781", PENDING: "#57606a"}


def html_table(rows: list[Claim]) -> str:
    """Claims as an HTML table: status, id, statement, measured against expected, tolerance."""
    from html import escape
    head = "".join(f"<th style='text-align:left'>{h}</th>" for h in
                   ("status", "claim", "statement", "measured", "expected", "tolerance / why"))
    body = "".join(
        f"<tr><td style='color:{STATUS_COLOURS.get(c.status, '#000')};font-weight:bold'>"
        f"{escape(c.status)}</td><td><code>{escape(c.id)}</code><br><small>{escape(c.kind)}, "
        f"{escape(c.provenance)}</small></td><td style='text-align:left'>{escape(c.statement)}"
        f"</td><td style='text-align:left'>{escape(c.measured)}</td><td style='text-align:left'>"
        f"{escape(c.expected)}</td><td style='text-align:left'><small>{escape(c.tolerance)}"
        f"{escape(stability_text(c))}</small></td></tr>" for c in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def stability_text(claim: Claim | dict) -> str:
    """What a resampled decision's stability is, or what a single-run decision rests on."""
    get = claim.get if isinstance(claim, dict) else lambda k, d=None: getattr(claim, k, d)
    if get("stability") is not None:
        return f" [stability {get('stability'):.3f}; {get('rests_on', '')}]"
    return f" [rests on {get('rests_on')}]" if get("rests_on") else ""


def _text(value: Any) -> str:
    """Render a value for the ledger: deterministic, short, exact for Fractions and ints."""
    if isinstance(value, str):
        return value
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_text(v) for v in value) + "]"
    return str(value)


def plain_evidence(cid: str, values: dict[str, Any]) -> dict[str, Any]:
    """Evidence as JSON keeps it: arrays and tuples as (nested) lists of Python numbers, refused
    by name when an entry holds something else (the rule reads it back as arrays)."""
    import numpy as np
    out = {}
    for key, value in values.items():
        arr = np.asarray(value)
        if arr.dtype == object or arr.dtype.kind not in "biuf":
            raise ValueError(f"claim {cid}: evidence {key!r} must hold numbers or booleans, not "
                             f"{arr.dtype}")
        out[key] = arr.tolist()
    return out


class Ledger:
    """Claims of one notebook, written to results/<paper>/claims/<stem>.json."""

    def __init__(self, notebook: str, params: Any = None):
        self.paper, self.stem = paths.split_notebook(notebook)
        self.notebook = notebook
        self.params = params.model_dump() if hasattr(params, "model_dump") else dict(params or {})
        self.claims: list[Claim] = []

    def declaration(self, cid: str, *kinds: str) -> declared.Declaration:
        """The claim as notebooks/<paper>/claims.yaml declares it, refused by name when it is
        not declared there, is another notebook's, or is of another kind than the call."""
        full_id = f"{self.paper}.{cid}"
        decl = declared.for_paper(self.paper).get(full_id)
        where = f"notebooks/{self.paper}/{declared.FILE}"
        if decl is None:
            raise declared.DeclarationError(f"claim {full_id} is not declared in {where}")
        if decl.notebook != self.stem:
            raise declared.DeclarationError(f"claim {full_id} is declared in {where} for "
                                            f"{decl.notebook}, not {self.stem}")
        if decl.kind not in kinds:
            raise declared.DeclarationError(f"claim {full_id} is declared {decl.kind} in {where}; "
                                            f"this call records a {' or '.join(kinds)} claim")
        return decl

    def _declared(self, cid: str, kinds: tuple[str, ...], expected: Any, measured: Any,
                  tolerance: str, status: str, **fields: Any) -> Claim:
        """Record a declared claim: its words from claims.yaml, its numbers from the call."""
        decl = self.declaration(cid, *kinds)
        return self._add(cid, decl.kind, decl.statement, decl.source, decl.provenance,
                         expected, measured, tolerance, status, **fields)

    def _add(self, cid: str, kind: str, statement: str, source: str, provenance: str,
             expected: Any, measured: Any, tolerance: str, status: str,
             evidence: Evidence | None = None, recorded: dict | None = None) -> Claim:
        if provenance not in ("paper", "derived", "reconstructed"):
            raise ValueError(f"claim {cid}: provenance {provenance!r} is not paper|derived|"
                             "reconstructed")
        full_id = f"{self.paper}.{cid}"
        if any(c.id == full_id for c in self.claims):
            raise ValueError(f"claim id {full_id} recorded twice")
        claim = Claim(full_id, self.paper, f"notebooks/{self.notebook}.py", statement, source,
                      provenance, kind, _text(expected), _text(measured), tolerance, status,
                      *((evidence.stability, evidence.rests_on) if evidence else (None, "")),
                      **(recorded or {}))
        self.claims.append(claim)
        self.write()                     # a run that stops later leaves what it has checked
        return claim

    def _hard(self, claim: Claim) -> Claim:
        if claim.status == "fail":
            raise ClaimFailed(f"{claim.kind} claim {claim.id} failed: {claim.statement}\n"
                              f"  expected {claim.expected}\n  measured {claim.measured}\n"
                              f"  tolerance {claim.tolerance}")
        return claim

    def exact(self, cid: str, statement: str | None = None, *, source: str = "",
              provenance: Provenance | None = None, expected: Any, measured: Any) -> Claim:
        """Equality with no tolerance (ints, Fractions, tuples of them, strings). Without a
        statement, the claim's words come from its declaration in claims.yaml."""
        status = "pass" if expected == measured else "fail"
        if statement is None:
            return self._hard(self._declared(cid, ("exact",), expected, measured,
                                             "none (equality)", status))
        return self._hard(self._add(cid, "exact", statement, source, provenance, expected,
                                    measured, "none (equality)", status))

    def close(self, cid: str, statement: str | None = None, *, source: str = "",
              provenance: Provenance | None = None, expected: float, measured: float,
              atol: float, why: str = "") -> Claim:
        """|measured - expected| <= atol, for float64 claims that are exact in theory (`why`, or
        the declaration's, says where atol comes from)."""
        status = "pass" if abs(measured - expected) <= atol else "fail"
        if statement is None:
            decl = self.declaration(cid, "exact")
            return self._hard(self._declared(cid, ("exact",), expected, measured,
                                             f"atol {atol:g} ({decl.why})", status))
        return self._hard(self._add(cid, "exact", statement, source, provenance, expected,
                                    measured, f"atol {atol:g} ({why})", status))

    def bound(self, cid: str, statement: str | None = None, *, source: str = "",
              provenance: Provenance | None = None, measured: float,
              lower: float | None = None, upper: float | None = None, why: str = "") -> Claim:
        """lower <= measured <= upper (either side may be open); `why` (or the declaration's)
        says where the bounds come from (a theorem's constant, a tolerance of the arithmetic)."""
        ok = (lower is None or measured >= lower) and (upper is None or measured <= upper)
        expected = f"[{'-inf' if lower is None else _text(lower)}, " \
                   f"{'inf' if upper is None else _text(upper)}]"
        if statement is None:
            decl = self.declaration(cid, "bound")
            if not decl.why.strip():
                raise declared.DeclarationError(f"bound claim {self.paper}.{cid}: its "
                                                "declaration says why the bounds are what they "
                                                "are (why: ...)")
            return self._hard(self._declared(cid, ("bound",), expected, measured, decl.why,
                                             "pass" if ok else "fail"))
        if not why.strip():
            raise ValueError(f"bound claim {cid}: say why the bounds are what they are (why=...)")
        return self._hard(self._add(cid, "bound", statement, source, provenance, expected,
                                    measured, why, "pass" if ok else "fail"))

    def record(self, cid: str, *, measured: Any, evidence: dict[str, Any],
               context: dict[str, Any] | None = None, rests_on: str = "") -> Claim:
        """A statistical or qualitative claim its claims.yaml declares: what the notebook
        measured (in words and numbers, `measured`) and the evidence its rule reads (by the
        rule's parameter names; each entry one replicate per row, e.g. one seed; `context`:
        values taken as they are). The claims stage decides it (lib.companion.deciding); a run
        of one replicate says what it rests on (`rests_on`)."""
        decl = self.declaration(cid, *declared.DECIDED)
        ev, ctx = plain_evidence(cid, evidence), plain_evidence(cid, context or {})
        lengths = {k: len(v) if isinstance(v, list) else None for k, v in ev.items()}
        if not ev or None in lengths.values() or len(set(lengths.values())) != 1:
            raise ValueError(f"claim {self.paper}.{cid}: evidence holds one row per replicate in "
                             f"every entry (lists of one length); got lengths {lengths}")
        return self._declared(cid, (decl.kind,), decl.expected, measured, decl.note, PENDING,
                              evidence=Evidence(False, None, rests_on),
                              recorded={"evidence": ev, "context": ctx or None})

    def statistical(self, cid: str, statement: str, *, source: str, provenance: Provenance,
                    expected: str, measured: Any, holds: bool | None = None,
                    tolerance: str = "", requires: tuple[bool, str] | None = None,
                    samples: Any = None, decide: Callable[[Any], Any] | None = None,
                    rests_on: str = "") -> Claim:
        """Recorded with its outcome; never stops the notebook. The decision is `decide(samples)`
        over replicates (resampled for its stability) or, for a single run, `holds` with what it
        `rests_on`. `requires=(met, what)` is the precondition that makes the comparison mean
        something; unmet, or unstable, the claim is `inconclusive` whatever the decision."""
        ev = self._evidence(cid, holds, samples, decide, rests_on)
        status, tolerance = _conditional(cid, ev, tolerance, requires)
        return self._add(cid, "statistical", statement, source, provenance, expected, measured,
                         tolerance, status, ev)

    def qualitative(self, cid: str, statement: str, *, source: str, provenance: Provenance,
                    expected: str, measured: Any, holds: bool | None = None,
                    requires: tuple[bool, str] | None = None, samples: Any = None,
                    decide: Callable[[Any], Any] | None = None, rests_on: str = "") -> Claim:
        """A shape or trend read off a figure; recorded with its outcome (or `inconclusive`, as
        for `statistical`, whose evidence arguments it shares)."""
        ev = self._evidence(cid, holds, samples, decide, rests_on)
        status, tolerance = _conditional(cid, ev, "", requires)
        return self._add(cid, "qualitative", statement, source, provenance, expected, measured,
                         tolerance, status, ev)

    def compare(self, cid: str, statement: str, *, source: str, provenance: Provenance,
                expected: str, measured: Any, samples: Any, decide: Callable[[Any], Any],
                opposite: Callable[[Any], Any], power: str, tolerance: str = "",
                requires: tuple[bool, str] | None = None) -> Claim:
        """A comparison with the paper's statement over replicates: a `deviation` only when
        `opposite(samples)` (the paper's opposite, beyond its uncertainty: `power` says how)
        holds stably and the precondition is met; otherwise statistical, decided by `decide`."""
        if not power.strip():
            raise ValueError(f"claim {cid}: say what gives the opposite its power (power=...)")
        met = requires is None or bool(requires[0])
        shown = self._evidence(cid, None, samples, opposite, "") if met else None
        if shown is not None and shown.holds and shown.stability >= STABILITY_MIN:
            return self._add(cid, "statistical", statement, source, "derived", expected,
                             measured, f"{tolerance + '; ' if tolerance else ''}the opposite "
                             f"shown; power: {power}", "deviation", shown)
        return self.statistical(cid, statement, source=source, provenance=provenance,
                                expected=expected, measured=measured, tolerance=tolerance,
                                requires=requires, samples=samples, decide=decide)

    def deviation(self, cid: str, statement: str | None = None, *, source: str = "",
                  kind: str = "", expected: Any, measured: Any, evidence: str = "",
                  shown: bool | None = None, power: str = "", samples: Any = None,
                  decide: Callable[[Any], Any] | None = None, rests_on: str = "") -> Claim:
        """The paper (as far as the spec knows it) is wrong or under-specified. `expected` is
        what the paper says, `measured` what the program gives, `shown` the computed check that
        they differ (or `decide(samples)`, resampled) and `power` what makes that check able to
        show it (exact arithmetic; a paired difference beyond 2 s.e. the other way over >= 3
        seeds). Not shown, the claim fails; shown but unstable, it is inconclusive. Without a
        statement: an exact or bound deviation its claims.yaml declares (its `deviation` and
        `power` there), decided by `shown` (a decided one is recorded with `record`)."""
        if statement is None:
            decl = self.declaration(cid, "exact", "bound")
            if not decl.deviation or shown is None:
                raise declared.DeclarationError(
                    f"claim {self.paper}.{cid}: a deviation is declared with `deviation` and "
                    "`power` in claims.yaml and recorded with the computed check (shown=...)")
            return self._add(cid, decl.kind, decl.statement, decl.source, "derived", expected,
                             measured, f"{decl.deviation}; power: {decl.power}",
                             "deviation" if shown else "fail",
                             Evidence(bool(shown), None, rests_on or "an exact computation"))
        if kind not in KINDS:
            raise ValueError(f"claim {cid}: kind {kind!r} is not one of {KINDS}")
        if not evidence.strip():
            raise ValueError(f"claim {cid}: a deviation needs its evidence (evidence=...)")
        if not power.strip():
            raise ValueError(f"claim {cid}: say what gives the check its power (power=...)")
        if kind in ("exact", "bound") and samples is None and not rests_on:
            rests_on = "an exact computation"
        ev = self._evidence(cid, shown, samples, decide, rests_on)
        status = ("fail" if not ev.holds else "inconclusive" if ev.unstable else "deviation")
        return self._add(cid, kind, statement, source, "derived", expected, measured,
                         f"{evidence}; power: {power}{ev.note}", status, ev)

    def _evidence(self, cid: str, holds: Any, samples: Any,
                  decide: Callable[[Any], Any] | None, rests_on: str) -> Evidence:
        """The decision and its stability (see `Evidence`), refusing a claim that gives neither
        replicates with their rule nor what its single run rests on."""
        full_id = f"{self.paper}.{cid}"
        if samples is None:
            if decide is not None:
                raise ValueError(f"claim {full_id}: decide= given without samples=")
            if holds is None or not rests_on.strip():
                raise ValueError(
                    f"claim {full_id}: give samples= and decide= (the replicates and the rule "
                    "deciding on them, so the decision's stability can be measured), or holds= "
                    "with rests_on= (what a decision on one run rests on)")
            return Evidence(bool(holds), None, rests_on.strip())
        if decide is None:
            raise ValueError(f"claim {full_id}: samples= given without decide=")
        return resampled(full_id, samples, decide, holds)

    def skip(self, cid: str, statement: str | None = None, *, source: str = "",
             provenance: Provenance | None = None, kind: str | None = None, expected: Any = "",
             reason: str) -> Claim:
        """A claim this profile cannot check (too small a run): recorded, never left out."""
        if not reason.strip():
            raise ValueError(f"claim {cid}: a skipped claim needs its reason")
        if statement is None:
            decl = self.declaration(cid, *KINDS)
            return self._declared(cid, (decl.kind,), decl.expected, f"not checked: {reason}",
                                  "", "skipped")
        if kind not in KINDS:
            raise ValueError(f"claim {cid}: kind {kind!r} is not one of {KINDS}")
        return self._add(cid, kind, statement, source, provenance, expected,
                         f"not checked: {reason}", "", "skipped")

    def _repr_html_(self) -> str:
        """The notebook's claims so far, as a table (the last cell of every notebook shows it).
        Under the runner a claim the ledger decides shows as `pending` (its status is the claims
        stage's, from thresholds no notebook stage depends on); in the lab it shows the decision
        the claims stage would make now, marked as such."""
        shown = self.claims if os.environ.get(RUNNER_ENV) else self.preview()
        counts = ", ".join(f"{k} {v}" for k, v in summarize(shown).items() if v)
        note = ("" if shown is self.claims or not any(c.status == PENDING for c in self.claims)
                else "<p><i>statistical and qualitative claims decided now as the claims stage "
                     "would (lib/&lt;paper&gt;/decisions.py); the ledger's status is the "
                     "claims stage's</i></p>")
        return (f"<p><b>{self.notebook}</b>: {counts or 'no claims'}</p>{note}"
                + html_table(shown))

    def preview(self) -> list[Claim]:
        """The claims with each pending one decided as the claims stage would decide it now.
        (Imported by name: the runner never previews, so no notebook stage depends on the
        deciding code; the infrastructure stamp follows only plain imports.)"""
        deciding = importlib.import_module("lib.companion.deciding")
        out = []
        for c in self.claims:
            if c.status == PENDING:
                d = deciding.decide(self.paper, c.id, declared.for_paper(self.paper)[c.id],
                                    asdict(c))
                c = replace(c, status=d.status, tolerance=d.tolerance, stability=d.stability,
                            rests_on=d.rests_on)
            out.append(c)
        return out

    def __repr__(self) -> str:
        return f"Ledger({self.notebook!r}, {len(self.claims)} claims: {summarize(self.claims)})"

    def write(self) -> None:
        """Write the records with the parameters that produced them (deterministic JSON)."""
        out = paths.claims_file(self.notebook)
        out.parent.mkdir(parents=True, exist_ok=True)
        doc = {"notebook": self.notebook, "params": self.params,
               "claims": [asdict(c) for c in self.claims], "summary": summarize(self.claims)}
        out.write_text(json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n")

    def table(self):
        """The records as a DataFrame, for display at the end of a notebook."""
        import pandas as pd
        cols = ["id", "kind", "provenance", "expected", "measured", "status"]
        return pd.DataFrame([{k: asdict(c)[k] for k in cols} for c in self.claims], columns=cols)


@dataclass(frozen=True)
class Evidence:
    """A decision (`holds`) with its stability under resampling (None: not resampled) and what
    it rests on."""

    holds: bool
    stability: float | None
    rests_on: str

    @property
    def unstable(self) -> bool:
        return self.stability is not None and self.stability < STABILITY_MIN

    @property
    def note(self) -> str:
        """The tolerance text an unstable decision adds."""
        if not self.unstable:
            return ""
        return (f"; unstable: {self.stability:.3f} of resamples repeat the decision "
                f"(< {STABILITY_MIN})")


def resampled(full_id: str, samples: Any, decide: Callable[[Any], Any],
              holds: Any = None) -> Evidence:
    """`decide(samples)` and the share of RESAMPLES bootstrap resamples of the replicates (rows
    of `samples`, drawn with replacement, seeded by the claim id) that repeat it. A `holds`
    given beside them must be that decision (the rule handed over is the rule used)."""
    import numpy as np
    items = samples if isinstance(samples, np.ndarray) else list(samples)
    n = len(items)
    if n < 2:
        raise ValueError(f"claim {full_id}: {n} replicate(s) cannot be resampled; decide on the "
                         "one run with holds= and say what it rests on (rests_on=...)")
    decision = bool(decide(items))
    if holds is not None and bool(holds) != decision:
        raise ValueError(f"claim {full_id}: holds={bool(holds)} but decide(samples) gives "
                         f"{decision}: the rule handed over must be the one deciding")
    rng = np.random.default_rng(zlib.crc32(full_id.encode()))
    picks = rng.integers(0, n, size=(RESAMPLES, n))
    take = ((lambda idx: items[idx]) if isinstance(items, np.ndarray)
            else (lambda idx: [items[i] for i in idx]))
    same = sum(bool(decide(take(idx))) == decision for idx in picks)
    return Evidence(decision, round(same / RESAMPLES, 3),
                    f"{n} replicates, {RESAMPLES} seeded bootstrap resamples")


def _conditional(cid: str, ev: Evidence, tolerance: str,
                 requires: tuple[bool, str] | None) -> tuple[str, str]:
    """Status and tolerance text of a statistical or qualitative claim with its precondition
    and the stability of its decision."""
    tolerance += ev.note.removeprefix("; ") if not tolerance else ev.note
    if requires is None:
        met = True
    else:
        met, what = requires
        if not what.strip():
            raise ValueError(f"claim {cid}: say what the precondition is (requires=(met, what))")
        note = f"requires {what}: {'met' if met else 'NOT met'}"
        tolerance = f"{tolerance}; {note}" if tolerance else note
    if not met or ev.unstable:
        return "inconclusive", tolerance
    return ("pass" if ev.holds else "fail"), tolerance


def summarize(claims: list[Claim] | list[dict]) -> dict[str, int]:
    """Counts per status, every status present (zero included)."""
    rows = [asdict(c) if isinstance(c, Claim) else c for c in claims]
    counts = {s: sum(r["status"] == s for r in rows) for s in STATUSES}
    pending = sum(r["status"] == PENDING for r in rows)
    return {**counts, PENDING: pending} if pending else counts
