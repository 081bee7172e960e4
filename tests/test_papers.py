"""The declarations' own rules (lib/companion/papers.py) and what the notebook opener and the
generator make of them: claims beside figures, tables read from an earlier notebook."""
from __future__ import annotations

import pytest

from lib.companion import generate, notebook, papers, paths

BASE = """short: alpha
title: Alpha
authors: [A]
arxiv: '1'
notebooks:
- stem: 01_make
  params: Make
  figures:
  - name: 01_make_curve
    caption: a curve
    claims: {claims}
- stem: 02_use
  params: Use
  reads: {reads}
"""


@pytest.fixture
def declare(tmp_path, monkeypatch):
    """Write notebooks/alpha/paper.yaml under a temporary root and return its parsed form."""
    monkeypatch.setattr(paths, "ROOT", tmp_path)
    monkeypatch.setattr(paths, "RESULTS", tmp_path / "results")
    monkeypatch.setattr(paths, "NOTEBOOKS", tmp_path / "notebooks")
    folder = tmp_path / "notebooks" / "alpha"
    folder.mkdir(parents=True)

    def write(claims: str = "[a.one]", reads: str = "[01_make]") -> papers.Paper:
        papers._read.cache_clear()
        (folder / "paper.yaml").write_text(BASE.format(claims=claims, reads=reads))
        return papers.paper("alpha")
    yield write
    papers._read.cache_clear()


def test_a_claim_listed_twice_beside_a_figure_is_refused(declare):
    with pytest.raises(papers.DeclarationError, match=r"figures\.0\.claims.*listed twice"):
        declare(claims="[a.one, a.one]")


@pytest.mark.parametrize("reads", ["[02_use]", "[03_none]"])
def test_reads_names_earlier_notebooks_only(declare, reads):
    with pytest.raises(papers.DeclarationError, match=r"reads \['0[23]_.*earlier notebooks"):
        declare(reads=reads)


def test_a_read_table_is_a_stage_dependency_and_checked_at_start(declare):
    declare()
    assert "results/alpha/tables/01_make" in generate.notebook_stage("alpha/02_use")["deps"]
    assert not any(d.startswith("results/alpha/tables")
                   for d in generate.notebook_stage("alpha/01_make")["deps"])
    with pytest.raises(FileNotFoundError,
                       match=r"dvc repro notebooks/alpha/dvc.yaml:alpha-01_make"):
        notebook.check_inputs("alpha/02_use")
    paths.tables_dir("alpha/01_make").mkdir(parents=True)
    notebook.check_inputs("alpha/02_use")


def test_a_figure_naming_an_unrecorded_claim_is_refused(declare):
    declare(claims="[a.one, a.two]")
    notebook.check_figure_claims("alpha/01_make", ["a.one", "a.two", "a.three"])
    with pytest.raises(papers.DeclarationError, match=r"01_make_curve lists claims \['a\.two'\]"):
        notebook.check_figure_claims("alpha/01_make", ["a.one"])


def test_two_stems_that_share_a_params_section_are_refused(declare, tmp_path):
    declare()
    text = (tmp_path / "notebooks/alpha/paper.yaml").read_text().replace("02_use", "02_make")
    (tmp_path / "notebooks/alpha/paper.yaml").write_text(text.replace("reads: [01_make]", ""))
    papers._read.cache_clear()
    with pytest.raises(papers.DeclarationError, match=r"01_make and 02_make would share the "
                                                      r"params section 'make'"):
        papers.paper("alpha")


def test_a_section_must_start_with_a_letter(declare, tmp_path):
    """DVC's -S grammar refuses a key segment that starts with a digit: 01_2d would give '2d'."""
    declare()
    text = (tmp_path / "notebooks/alpha/paper.yaml").read_text().replace("01_make", "01_2d")
    (tmp_path / "notebooks/alpha/paper.yaml").write_text(text.replace("reads: [01_2d]", ""))
    papers._read.cache_clear()
    with pytest.raises(papers.DeclarationError, match=r"stem '01_2d' must look like"):
        papers.paper("alpha")
    assert papers.NotebookEntry(stem="01_make", params="Make").section == "make"
