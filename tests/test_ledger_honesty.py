"""Every claim of every notebook able to fail: no status fixed before its measurement.

Reads each notebook's source and checks every ledger call: the outcome arguments (`holds=`,
`shown=`, the `met` of `requires=`) and the `measured=` value must be computed, not typed in
(a literal, a list of literals, arithmetic on literals, or a name only ever bound to such), and
`measured` must not be the very expression given as `expected`. A claim that fails these is a
number to report in a table or the prose, not a check.

And every verdict is decided with its power: a statistical or qualitative claim hands over its
replicates (`samples=`, `decide=`) or says what its single run rests on (`rests_on=`); a
deviation carries its check and what gives the check its power (`power=`), is never the other
branch of an `if` whose first branch records the comparison itself (a failed comparison is not
the paper shown wrong: `ledger.compare` decides that), and is never `shown=not <the outcome>`;
no decision reads the last point of a curve (`loss[-1]`): a final value is a statistic
(`rules.tail_median`, a median over seeds).
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from lib.companion import papers, paths

LEDGER_METHODS = {"exact", "close", "bound", "statistical", "qualitative", "deviation", "compare",
                  "record"}
OUTCOMES = ("holds", "shown")
COMPARISONS = {"statistical", "qualitative", "compare"}
DECISION_ARGS = ("holds", "shown", "measured", "samples", "requires", "evidence")
# a name holding a curve, whose last point is noise, not a final value
CURVE_WORDS = ("loss", "error", "err", "curve", "hist", "trace", "acc")


def notebook_files() -> list[Path]:
    return [paths.notebook_source(f"{p}/{nb.stem}") for p in papers.names()
            for nb in papers.paper(p).notebooks]


def constant_names(tree: ast.Module) -> set[str]:
    """Names whose every binding in the module is a constant expression (loop targets, function
    arguments, imports, `with` and augmented assignments count as computed bindings)."""
    bound: dict[str, list[ast.expr | None]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        single = isinstance(target, ast.Name)
                        bound.setdefault(name.id, []).append(node.value if single else None)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.comprehension,
                               ast.withitem, ast.NamedExpr)):
            target = getattr(node, "target", None) or getattr(node, "optional_vars", None)
            for name in ast.walk(target) if target is not None else []:
                if isinstance(name, ast.Name):
                    value = node.value if isinstance(node, ast.AnnAssign) else None
                    bound.setdefault(name.id, []).append(value)
        elif isinstance(node, (ast.FunctionDef, ast.Lambda)):
            for arg in ast.walk(node.args):
                if isinstance(arg, ast.arg):
                    bound.setdefault(arg.arg, []).append(None)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                bound.setdefault((alias.asname or alias.name).split(".")[0], []).append(None)
    constant: set[str] = set()
    changed = True
    while changed:                       # a name bound to another constant name is constant too
        changed = False
        for name, values in bound.items():
            if name not in constant and all(v is not None and is_constant(v, constant)
                                            for v in values):
                constant.add(name)
                changed = True
    return constant


def is_constant(node: ast.expr, constant: set[str]) -> bool:
    """True when the expression's value is fixed by the source alone: no call, attribute,
    subscript or name other than those in `constant`."""
    for sub in ast.walk(node):
        if isinstance(sub, (ast.Call, ast.Attribute, ast.Subscript)):
            return False
        if isinstance(sub, ast.Name) and sub.id not in constant and sub.id not in ("True",
                                                                                  "False"):
            return False
    return True


def ledger_calls(tree: ast.Module) -> list[ast.Call]:
    """Calls `<x>.exact(...)` etc. on a name or attribute called like a ledger."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in LEDGER_METHODS:
            owner = node.func.value
            name = owner.id if isinstance(owner, ast.Name) else getattr(owner, "attr", "")
            if "ledger" in name.lower():
                found.append(node)
    return found


def problems(source: str) -> list[str]:
    """What is wrong with the ledger calls of one notebook's source, one line each."""
    tree = ast.parse(source)
    constant = constant_names(tree)
    out = []
    for call in ledger_calls(tree):
        cid = ast.unparse(call.args[0]) if call.args else "?"
        where = f"line {call.lineno} {call.func.attr}({cid})"
        kw = {k.arg: k.value for k in call.keywords}
        for arg in OUTCOMES:
            if arg in kw and is_constant(kw[arg], constant):
                out.append(f"{where}: {arg}={ast.unparse(kw[arg])} is fixed before measuring")
        if "requires" in kw:
            req = kw["requires"]
            met = req.elts[0] if isinstance(req, ast.Tuple) and req.elts else req
            if is_constant(met, constant):
                out.append(f"{where}: requires={ast.unparse(req)} is fixed before measuring")
        if "measured" in kw and is_constant(kw["measured"], constant):
            out.append(f"{where}: measured={ast.unparse(kw['measured'])[:60]} is typed in, "
                       "not measured")
        if "measured" in kw and "expected" in kw \
                and ast.dump(kw["measured"]) == ast.dump(kw["expected"]):
            out.append(f"{where}: measured is the expected expression itself")
        if call.func.attr == "record":
            entries = kw.get("evidence")
            if not isinstance(entries, ast.Dict) or not entries.values:
                out.append(f"{where}: evidence= is the rule's input by name: a dict of what "
                           "was measured")
            for key, value in zip(getattr(entries, "keys", []), getattr(entries, "values", [])):
                if is_constant(value, constant):
                    out.append(f"{where}: evidence {ast.unparse(key)} is typed in, not "
                               "measured")
        if "decide" in kw and isinstance(kw["decide"], ast.Lambda):
            out.append(f"{where}: a decision written in the notebook (decide=lambda): name a "
                       "rule of lib/<paper>/decisions.py in claims.yaml and record its evidence")
        if call.func.attr == "deviation" and "shown" not in kw and "decide" not in kw:
            out.append(f"{where}: a deviation without its check (shown=...)")
        if call.func.attr in ("deviation", "compare") and "power" not in kw:
            out.append(f"{where}: a deviation without its power condition (power=...)")
        if isinstance(kw.get("shown"), ast.UnaryOp) and isinstance(kw["shown"].op, ast.Not):
            out.append(f"{where}: shown=not ...: a comparison that did not come out is not a "
                       "deviation (use ledger.compare)")
        if call.func.attr in ("statistical", "qualitative") and None not in kw \
                and "samples" not in kw and "rests_on" not in kw:       # None: a ** splat
            out.append(f"{where}: neither its replicates (samples=, decide=) nor what its "
                       "single run rests on (rests_on=)")
        for arg in DECISION_ARGS:
            for sub in ast.walk(kw[arg]) if arg in kw else []:
                if is_last_point_of_curve(sub):
                    out.append(f"{where}: {arg} reads {ast.unparse(sub)}, the last point of a "
                               "curve: decide on a statistic (rules.tail_median)")
    return out + else_branch_deviations(tree)


def is_last_point_of_curve(node: ast.AST) -> bool:
    """`<curve>[-1]` where the subscripted name reads like a curve (CURVE_WORDS)."""
    if not isinstance(node, ast.Subscript):
        return False
    index = node.slice
    last = (isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub)
            and isinstance(index.operand, ast.Constant) and index.operand.value == 1)
    return last and any(w in ast.unparse(node.value).lower() for w in CURVE_WORDS)


def else_branch_deviations(tree: ast.Module) -> list[str]:
    """Deviations recorded on one branch of an `if` whose other branch records the comparison
    itself: the failed comparison turned into "the paper is wrong"."""
    def methods(nodes: list[ast.stmt]) -> set[str]:
        found = set()
        for stmt in nodes:
            found |= {c.func.attr for c in ledger_calls(ast.Module([stmt], []))}
        return found
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and node.orelse:
            body, orelse = methods(node.body), methods(node.orelse)
            if ("deviation" in orelse and body & COMPARISONS) or \
                    ("deviation" in body and orelse & COMPARISONS):
                out.append(f"line {node.lineno}: a deviation on one branch of `if "
                           f"{ast.unparse(node.test)[:50]}` and the comparison on the other: "
                           "use ledger.compare (a deviation needs the opposite shown)")
    return out


def not_yet_decided_in_the_ledger(path: Path) -> bool:
    """A paper whose notebooks still decide with their decisions module (lambdas included) until
    it moves its rules to the ledger."""
    from lib.companion import generate
    return generate.imports_decisions(path.parent.name)


@pytest.mark.parametrize("path", notebook_files(), ids=lambda p: p.stem)
def test_every_claim_can_fail(path):
    found = problems(path.read_text())
    if not_yet_decided_in_the_ledger(path):
        found = [f for f in found if "decide=lambda" not in f]
    assert not found, f"{path}:\n  " + "\n  ".join(found)


@pytest.mark.parametrize("source, expected", [
    ("ledger.statistical('a', 's', holds=True, measured=x, expected='e')", "holds=True"),
    ("ledger.statistical('a', 's', holds=h, measured=x, expected='e')", "rests_on"),
    ("ledger.statistical('a', 's', holds=h < 1, measured=x, expected='e', rests_on='r')"
     "\nledger.qualitative('b', 's', holds=hist.loss[-1] < 1, measured=1, expected='e', "
     "rests_on='r')", "last point of a curve"),
    ("if ok:\n    ledger.statistical('a', 's', holds=ok, measured=x, expected='e', rests_on='r')"
     "\nelse:\n    ledger.deviation('a', 's', kind='statistical', expected=1, measured=x, "
     "evidence='e', shown=not ok, power='p')", "one branch of `if ok`"),
    ("ledger.deviation('a', 's', kind='statistical', expected=1, measured=x, evidence='e', "
     "shown=not ok, power='p')", "shown=not"),
    ("ledger.deviation('a', 's', kind='exact', expected=1, measured=x, evidence='e', "
     "shown=ok)", "power condition"),
    ("ledger.qualitative('a', 's', holds=1 < 2, measured=x, expected='e')", "holds=1 < 2"),
    ("ok = True\nledger.statistical('a', 's', holds=ok, measured=x, expected='e')", "holds=ok"),
    ("ledger.exact('a', 's', expected=3, measured=1 + 2)", "measured=1 + 2"),
    ("m = [0.75, 0.78]\nledger.bound('a', 's', measured=m, lower=0, why='w')", "measured=m"),
    ("ledger.exact('a', 's', expected=f(x), measured=f(x))", "expected expression itself"),
    ("ledger.deviation('a', 's', kind='exact', expected=1, measured=g(), evidence='e')",
     "without its check"),
    ("nb.ledger.deviation('a', 's', expected=1, measured=g(), evidence='e', shown=True)",
     "shown=True"),
    ("ledger.statistical('a', 's', holds=h, measured=m(), expected='e', "
     "requires=(True, 'x'))", "requires="),
    ("ledger.record('a', measured=m(), evidence={'accuracy': [0.9, 0.95]})",
     "evidence 'accuracy' is typed in"),
    ("ledger.record('a', measured=m(), evidence=ev)", "a dict of what was measured"),
    ("ledger.statistical('a', 's', samples=d, decide=lambda r: r.mean() > 0, measured=m(), "
     "expected='e')", "decide=lambda"),
])
def test_problems_found(source, expected):
    found = problems(source)
    assert any(expected in line for line in found), found


@pytest.mark.parametrize("source", [
    "ledger.statistical('a', 's', holds=acc > 0.9, measured=acc, expected='> 0.9', "
    "rests_on='one run')",
    "ledger.statistical('a', 's', samples=accs, decide=f, measured=acc, expected='> 0.9')",
    "ledger.compare('a', 's', samples=d, decide=f, opposite=g, power='p', measured=acc, "
    "expected='e')",
    "for t in ts:\n    ledger.exact(f'a{t}', 's', expected=t * 2, measured=double(t))",
    "ok = check(x)\nledger.deviation('a', 's', kind='exact', expected=1, measured=g(), "
    "evidence='e', shown=ok, power='exact')",
    "ledger.statistical('a', 's', holds=h, measured=m, expected='e', requires=(n > 0, 'x'), "
    "rests_on='r')",
    "ledger.record('a', measured=acc, evidence={'accuracy': accs, 'loss': h}, rests_on='r')",
])
def test_computed_claims_pass(source):
    assert problems("m = f()\nh = g()\nn = k()\nacc = a()\naccs = b()\n" + source) == []
