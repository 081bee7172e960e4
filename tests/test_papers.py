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


# ---------------------------------------------------------------- issue 43: declarations checked
DATA_BASE = """short: alpha
title: Alpha
authors: [A]
arxiv: '1'
notebooks:
- stem: 01_make
  params: {params}
  data: {data}
  plots: {plots}
"""


def write_declaration(declare, tmp_path, **fields):
    declare()
    values = {"params": "Make", "data": "[]", "plots": "[]", **fields}
    (tmp_path / "notebooks/alpha/paper.yaml").write_text(DATA_BASE.format(**values))
    papers._read.cache_clear()
    return lambda: papers.paper("alpha")


@pytest.mark.parametrize("entry", ["../../etc/passwd", "/etc/passwd", "a/../../b", "./x",
                                   "a//b", "a\\\\b"])
def test_a_data_entry_outside_data_is_refused(declare, tmp_path, entry):
    read = write_declaration(declare, tmp_path, data=f"['{entry}']")
    with pytest.raises(papers.DeclarationError, match=r"notebooks\.0\.data.*must be a plain "
                                                      r"relative path under data/"):
        read()


def test_a_data_entry_data_dvc_does_not_track_is_refused_naming_paper_notebook_entry(
        declare, tmp_path):
    if papers.tracked_data() is None:
        pytest.skip("data.dvc's manifest is not readable here (no .dvc/cache, no dvc-remote/)")
    tracked = papers.tracked_data()
    typo = tracked[-1][:-1] + "x" if len(tracked[-1]) > 1 else "nope"
    read = write_declaration(declare, tmp_path, data=f"['{typo}']")
    with pytest.raises(papers.DeclarationError, match=rf"paper alpha, notebook 01_make: data "
                                                      rf"entry '{typo}' matches nothing "
                                                      r"data.dvc tracks; did you mean"):
        read()
    folder = tracked[-1].split("/")[0]
    write_declaration(declare, tmp_path, data=f"['{folder}']")()       # a folder is fine


@pytest.mark.parametrize("name", ["__class__", "os", "Make.x", "make"])
def test_params_must_name_a_class(declare, tmp_path, name):
    read = write_declaration(declare, tmp_path, params=f"'{name}'")
    with pytest.raises(papers.DeclarationError, match=r"notebooks\.0\.params.*must name a class"):
        read()


@pytest.mark.parametrize("name", ["PosInt", "NotebookParams", "Field"])
def test_params_naming_something_other_than_a_schema_class_is_refused(monkeypatch, name):
    entry = papers.NotebookEntry(stem="01_reduction", params=name)
    monkeypatch.setattr(papers, "notebook_entry", lambda notebook: entry)
    with pytest.raises(papers.DeclarationError, match=rf"names params class '{name}', which "
                                                      r"lib/gd_perceptron/schema.py (does not "
                                                      r"define|defines, but not as a schema)"):
        papers.schema_class("gd_perceptron/01_reduction")


@pytest.mark.parametrize("table", ["../../../etc/x.csv", "/tmp/x.csv", "../x.csv"])
def test_a_plot_path_out_of_results_is_refused_at_declaration(declare, tmp_path, table):
    plot = f"[{{table: '{table}', x: a, y: [b], title: t}}]"
    read = write_declaration(declare, tmp_path, plots=plot)
    with pytest.raises(papers.DeclarationError, match=r"plots\.0\.table.*plain relative path "
                                                      r"under results/"):
        read()


def test_a_figure_name_out_of_results_is_refused(declare, tmp_path):
    declare()
    text = (tmp_path / "notebooks/alpha/paper.yaml").read_text()
    (tmp_path / "notebooks/alpha/paper.yaml").write_text(
        text.replace("name: 01_make_curve", "name: ../../01_make_curve"))
    papers._read.cache_clear()
    with pytest.raises(papers.DeclarationError, match=r"figure name .* must be a file stem"):
        papers.paper("alpha")
