"""A notebook touches a plain reference (`lib/<paper>/naive.py`) only where it records an agreement.

The rule (STYLE §2, as implemented): a notebook may import `naive` only to record a ledger claim
that the fast kernel agrees with its plain reference (exact, close or bound) on a small instance,
never to compute a figure's or a headline's numbers. Checked per cell of each notebook's source:
every cell that names a `naive` module must record an exact, close or bound claim. The check sees
names, not data flow: a number computed from `naive` in such a cell and used elsewhere goes
unseen, and kernels a notebook reaches through another lib module (lib/caffnet/checks.py,
lib/ptnas/checks.py) are that module's business.
"""
import ast

import jupytext
import pytest

from lib.companion import papers, paths

AGREEMENT_KINDS = ("exact", "close", "bound")     # ledger methods that record a comparison


def naive_aliases(tree: ast.Module) -> tuple[set[str], list[str]]:
    """Names bound to a `naive` module by this cell's imports, and the imports the rule refuses."""
    names, refused = set(), []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[-1] == "naive":       # from lib.p.naive import f: untracked
                refused.append(ast.unparse(node))
            names |= {a.asname or a.name for a in node.names if a.name == "naive"}
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[-1] == "naive":
                    if a.asname is None:                    # used as lib.p.naive.f: untracked
                        refused.append(ast.unparse(node))
                    names.add(a.asname or a.name)
    return names, refused


def records_agreement(tree: ast.Module) -> bool:
    """Whether the cell calls ledger.exact / close / bound (or nb.ledger.<kind>)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in AGREEMENT_KINDS:
            owner = node.func.value
            if (isinstance(owner, ast.Name) and owner.id == "ledger") or \
                    (isinstance(owner, ast.Attribute) and owner.attr == "ledger"):
                return True
    return False


def uses(tree: ast.Module, names: set[str]) -> list[int]:
    """Lines where the cell reads one of `names` (naive.f, getattr(naive, ...), passing it on)."""
    return sorted({n.lineno for n in ast.walk(tree)
                   if isinstance(n, ast.Name) and n.id in names and isinstance(n.ctx, ast.Load)})


def violations(source: str) -> list[str]:
    """What in a notebook's source breaks the rule, one line per finding."""
    cells = [c.source for c in jupytext.reads(source, fmt="py:percent").cells
             if c.cell_type == "code"]
    trees = [ast.parse(c) for c in cells]
    found, aliases = [], set()
    for tree in trees:
        names, refused = naive_aliases(tree)
        aliases |= names
        found += [f"{imp}: import the module (from lib.<paper> import naive)" for imp in refused]
    for i, tree in enumerate(trees):
        lines = uses(tree, aliases)
        if lines and not records_agreement(tree):
            found.append(f"code cell {i + 1} reads naive (cell lines {lines}) and records no "
                         f"{'/'.join(AGREEMENT_KINDS)} claim")
    return found


@pytest.mark.parametrize("notebook", papers.all_notebooks())
def test_naive_only_in_agreement_cells(notebook):
    assert not violations(paths.notebook_source(notebook).read_text()), notebook


def test_the_check_catches_a_figure_cell():
    base = "# %%\nfrom lib.x import naive as plain\n\n# %%\n"
    agreement = base + "ledger.close('a', 's', measured=abs(f(1) - plain.f(1)))\n"
    figure = base + "ys = [plain.f(v) for v in xs]\nax.plot(xs, ys)\n"
    assert violations(agreement) == []
    assert violations(figure) and "cell 2" in violations(figure)[0]
    assert violations(base + "ledger.statistical('a', 's', measured=plain.f(1))\n")
    assert violations("# %%\nfrom lib.x.naive import f\nledger.exact('a', 's', measured=f(1))\n")
