"""A decided claim's status, from its declaration and what its notebook recorded.

The claims stage (lib.companion.ledger) calls `decide` for every statistical and qualitative claim:
the declared rule of lib/<paper>/decisions.py on the recorded evidence (the rule's parameters by
name: each evidence entry one replicate per row, e.g. one seed), its thresholds the rule's keyword
defaults; the share of seeded bootstrap resamples of the replicates (rows drawn jointly across the
evidence) that repeat the decision is its stability, and below STABILITY_MIN the claim is
`inconclusive`; so is it when its precondition fails. A comparison with the paper is a `deviation`
when its opposite rule holds stably with the precondition met. One replicate is decided once and
the record says what it rests on. What the ledger writes beside the status: the rule, the
arguments it was called with (thresholds included, by value) and the precondition's outcome.
"""
from __future__ import annotations

import inspect
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from lib.companion import declared

STABILITY_MIN = 0.9          # a decision fewer resamples than this repeat is noise
RESAMPLES = 400


@dataclass(frozen=True)
class Decided:
    """What the ledger writes for a decided claim."""

    status: str
    tolerance: str
    stability: float | None
    rests_on: str
    rule: str
    args: dict[str, Any]
    precondition: str = ""


def plain(value: Any) -> Any:
    """A JSON-ready copy of an argument value (tuples and arrays as lists, numpy scalars as
    Python numbers)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


def bound_args(rule, given: dict[str, Any], evidence: dict[str, Any]) -> dict[str, Any]:
    """The arguments the rule is called with beyond the evidence: the declared ones and the
    defaults of its remaining keyword parameters (the paper's thresholds), by value."""
    out = {}
    for name, param in inspect.signature(rule).parameters.items():
        if name in evidence:
            continue
        if name in given:
            out[name] = given[name]
        elif param.default is not inspect.Parameter.empty:
            out[name] = param.default
    params = inspect.signature(rule).parameters
    unknown = sorted(set(given) - set(params))
    if unknown:
        raise declared.DeclarationError(f"rule {rule.__name__} has no parameter(s) {unknown}")
    missing = [n for n, p in params.items() if n not in evidence and n not in out
               and p.default is inspect.Parameter.empty]
    if missing:
        raise declared.DeclarationError(f"rule {rule.__name__} needs {missing}: record them as "
                                        "evidence or context, or declare them in args")
    return out


def replicates(evidence: dict[str, np.ndarray]) -> int:
    """How many replicates (rows) the evidence holds: the same for every entry."""
    lengths = {k: len(v) for k, v in evidence.items()}
    if not lengths:
        raise ValueError("a decided claim records its evidence (evidence={...}): none given")
    if len(set(lengths.values())) != 1:
        raise ValueError(f"evidence entries differ in their number of replicates: {lengths}")
    return next(iter(lengths.values()))


def arrays(record: dict) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The record's evidence as arrays (rows = replicates) and its context (not resampled)."""
    evidence = {k: np.asarray(v) for k, v in (record.get("evidence") or {}).items()}
    return evidence, dict(record.get("context") or {})


def call(rule, evidence: dict, context: dict, args: dict) -> bool:
    """The rule's decision on the evidence and context entries it takes by name."""
    names = inspect.signature(rule).parameters
    given = {k: v for k, v in {**evidence, **context}.items() if k in names}
    return bool(rule(**given, **args))


def stability(cid: str, rule, evidence: dict, context: dict, args: dict, decision: bool,
              n: int) -> float:
    """The share of RESAMPLES bootstrap resamples of the rows (seeded by the claim id, drawn
    jointly across the evidence) on which the rule gives the same decision."""
    rng = np.random.default_rng(zlib.crc32(cid.encode()))
    picks = rng.integers(0, n, size=(RESAMPLES, n))
    same = sum(call(rule, {k: v[idx] for k, v in evidence.items()}, context, args) == decision
               for idx in picks)
    return round(same / RESAMPLES, 3)


def signature_text(name: str, args: dict) -> str:
    """'rule(a=1, b=[0.1, 0.2])': how the ledger names a decision."""
    inner = ", ".join(f"{k}={plain(v)!r}" for k, v in args.items())
    return f"{name}({inner})"


def decide(paper: str, cid: str, decl: declared.Declaration, record: dict) -> Decided:
    """The status of one decided claim (see the module docstring)."""
    evidence, context = arrays(record)
    n = replicates(evidence)
    rule = declared.rule_of(paper, decl.rule)
    args = bound_args(rule, decl.args, {**evidence, **context})
    holds = call(rule, evidence, context, args)
    stab = stability(cid, rule, evidence, context, args, holds, n) if n >= 2 else None
    rests_on = (f"{n} replicates, {RESAMPLES} seeded bootstrap resamples" if n >= 2 else
                record.get("rests_on") or "one replicate (the profile runs one)")
    notes = [decl.note] if decl.note else []
    notes.append(f"rule {signature_text(decl.rule, args)}: {'holds' if holds else 'does not hold'}")
    unstable = stab is not None and stab < STABILITY_MIN
    if unstable:
        notes.append(f"unstable: {stab:.3f} of resamples repeat the decision (< {STABILITY_MIN})")
    met, precondition = True, ""
    if decl.requires is not None:
        req = declared.rule_of(paper, decl.requires.rule)
        req_args = bound_args(req, decl.requires.args, {**evidence, **context})
        met = call(req, evidence, context, req_args)
        precondition = (f"requires {decl.requires.what} "
                        f"[{signature_text(decl.requires.rule, req_args)}]: "
                        f"{'met' if met else 'NOT met'}")
        notes.append(precondition)
    status = "inconclusive" if (unstable or not met) else ("pass" if holds else "fail")
    if decl.opposite is not None and met:
        opp = declared.rule_of(paper, decl.opposite.rule)
        opp_args = bound_args(opp, decl.opposite.args, {**evidence, **context})
        shown = call(opp, evidence, context, opp_args)
        opp_stab = stability(cid + "#opposite", opp, evidence, context, opp_args, shown, n) \
            if n >= 2 else None
        if shown and opp_stab is not None and opp_stab >= STABILITY_MIN:
            shown_by = signature_text(decl.opposite.rule, opp_args)
            notes.append(f"the paper's opposite shown [{shown_by}, stability {opp_stab:.3f}]; "
                         f"power: {decl.opposite.power}")
            status, stab = "deviation", opp_stab
    if decl.deviation:                      # the claim is a deviation: the rule shows it
        status = "fail" if not holds else ("inconclusive" if unstable else "deviation")
        notes.append(f"{decl.deviation}; power: {decl.power}")
    return Decided(status, "; ".join(notes), stab, rests_on, f"decisions.{decl.rule}",
                   plain(args), precondition)
