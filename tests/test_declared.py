"""notebooks/<paper>/claims.yaml (lib/companion/declared.py): each bad declaration refused naming
the file, the claim and what is allowed; every paper's rules exist in its decisions module."""
from __future__ import annotations

import pytest

from lib.companion import declared, papers

GOOD = {"notebook": "01_x", "kind": "statistical", "statement": "it falls", "source": "spec §3",
        "provenance": "reconstructed", "rule": "falls"}


@pytest.mark.parametrize("change, message", [
    ({"kind": "vague"}, "kind"),
    ({"provenance": "folklore"}, "provenance"),
    ({"rule": None}, "names the rule that decides it"),
    ({"kind": "exact"}, "an exact claim decides in its notebook"),
    ({"deviation": "the paper says 2x"}, "power"),
    ({"thresholds": 3}, "thresholds"),
    ({"notebook": "x"}, "notebook"),
])
def test_a_bad_declaration_is_refused_by_name(tmp_path, monkeypatch, change, message):
    monkeypatch.setattr(declared.paths, "NOTEBOOKS", tmp_path)
    (tmp_path / "p").mkdir()
    body = {**GOOD, **change}
    lines = ["c.one:"] + [f"  {k}: {v if v is not None else 'null'}" for k, v in body.items()]
    (tmp_path / "p" / declared.FILE).write_text("\n".join(lines) + "\n")
    with pytest.raises(declared.DeclarationError, match=rf"notebooks/p/claims.yaml: claim "
                                                         rf"'c.one': .*{message}"):
        declared.for_paper("p")


def test_a_good_declaration_is_read_with_its_full_id(tmp_path, monkeypatch):
    monkeypatch.setattr(declared.paths, "NOTEBOOKS", tmp_path)
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / declared.FILE).write_text(
        "c.one:\n" + "".join(f"  {k}: {v}\n" for k, v in GOOD.items())
        + "  requires: {rule: learned, what: every arm learned}\n")
    decl = declared.for_paper("p")["p.c.one"]
    assert decl.rule == "falls" and decl.requires.what == "every arm learned"


@pytest.mark.parametrize("paper", [p for p in papers.names()
                                   if declared.file_of(p).exists()])
def test_every_declared_rule_is_a_function_of_the_papers_decisions_module(paper):
    declared.check_rules(paper)


def test_a_rule_the_decisions_module_lacks_is_named_with_those_it_has():
    with pytest.raises(declared.DeclarationError, match=r"'no_such_rule' is not a function of "
                                                        r"lib/graphflow/decisions.py.*reaches"):
        declared.rule_of("graphflow", "no_such_rule")
