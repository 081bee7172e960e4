"""Every claim of every notebook able to fail: no status fixed before its measurement.

Reads each notebook's source and checks every ledger call: the outcome arguments (`holds=`,
`shown=`, the `met` of `requires=`) and the `measured=` value must be computed, not typed in
(a literal, a list of literals, arithmetic on literals, or a name only ever bound to such), and
`measured` must not be the very expression given as `expected`. A claim that fails these is a
number to report in a table or the prose, not a check.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from lib.companion import papers, paths

LEDGER_METHODS = {"exact", "close", "bound", "statistical", "qualitative", "deviation"}
OUTCOMES = ("holds", "shown")


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
        if call.func.attr == "deviation" and "shown" not in kw:
            out.append(f"{where}: a deviation without its check (shown=...)")
    return out


@pytest.mark.parametrize("path", notebook_files(), ids=lambda p: p.stem)
def test_every_claim_can_fail(path):
    found = problems(path.read_text())
    assert not found, f"{path}:\n  " + "\n  ".join(found)


@pytest.mark.parametrize("source, expected", [
    ("ledger.statistical('a', 's', holds=True, measured=x, expected='e')", "holds=True"),
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
])
def test_problems_found(source, expected):
    found = problems(source)
    assert any(expected in line for line in found), found


@pytest.mark.parametrize("source", [
    "ledger.statistical('a', 's', holds=acc > 0.9, measured=acc, expected='> 0.9')",
    "for t in ts:\n    ledger.exact(f'a{t}', 's', expected=t * 2, measured=double(t))",
    "ok = check(x)\nledger.deviation('a', 's', kind='exact', expected=1, measured=g(), "
    "evidence='e', shown=ok)",
    "ledger.statistical('a', 's', holds=h, measured=m, expected='e', requires=(n > 0, 'x'))",
])
def test_computed_claims_pass(source):
    assert problems("m = f()\nh = g()\nn = k()\nacc = a()\n" + source) == []
