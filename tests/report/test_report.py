"""lib/companion/book.py and report.py without a browser: the MyST pages, and builds of a small
results tree with Sphinx (warnings as errors).

The browser checks (images load, links resolve, filters, search, MathJax) are test_browser.py.
"""
from __future__ import annotations

import datetime as dt
import html
import json
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import nbformat
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.companion import book, papers, paths, report

NOW = dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.timezone.utc)


def myst_html(source: str) -> str:
    """MyST block markdown (with the book's extensions) rendered to HTML by myst-parser."""
    from markdown_it.renderer import RendererHTML
    from myst_parser.config.main import MdParserConfig
    from myst_parser.parsers.mdit import create_md_parser
    config = MdParserConfig(enable_extensions={"dollarmath", "amsmath"})
    return create_md_parser(config, RendererHTML).render(source)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")),
               min_size=1))
def test_text_reads_back_as_itself_in_myst(value):
    """Whatever a claim's statement holds (markdown, $, <, list markers), MyST shows it as
    written: one paragraph of the same text, no markup, no formula."""
    flat = " ".join(value.split())
    rendered = myst_html(book.text(value)).strip()
    if not flat:
        assert rendered == ""
        return
    assert rendered.startswith("<p>") and rendered.endswith("</p>"), rendered
    assert html.unescape(rendered[3:-4]) == flat


def test_code_fences_any_backticks():
    for value in ("plain", "a`b", "``x``"):
        assert html.unescape(myst_html(book.code(value))).strip() == f"<p><code>{value}</code></p>"


def test_an_arxiv_id_is_linked_and_anything_else_is_text():
    def page(arxiv: str) -> str:
        paper = papers.Paper(short="alpha", title="A", authors=["B"], arxiv=arxiv,
                             notebooks=[{"stem": "01_a", "params": "A"}])
        return book.chapter_page(book.PaperRow(paper, [], "n/a"))
    assert "(https://arxiv.org/abs/2601.00001)" in page("2601.00001")
    other = page("none (OpenReview only)")
    assert "arxiv.org" not in other and book.text("none (OpenReview only)") in other


def test_counts_list_every_status_with_zeros():
    assert book.counts([claim("a"), claim("b", "fail"), claim("c", "fail")]) == {
        "pass": 1, "fail": 2, "error": 0, "deviation": 0, "inconclusive": 0, "skipped": 0}


def test_list_table_has_a_row_per_item_and_the_classes():
    table = book.list_table(("a", "b"), [["1", "2"], ["3", ""]], "claims x")
    rendered = myst_html(table)          # without Sphinx the directive is a fenced block
    assert table.startswith("```{list-table}") and ":class: claims x" in table
    assert table.count("\n* - ") == 3 and "  - " in table and "{list-table}" in rendered


# ---------------------------------------------------------------- pages of a small paper
def claim(cid: str, status: str = "pass", provenance: str = "paper", stem: str = "01_a",
          paper: str = "alpha") -> dict:
    return {"id": f"{paper}.{cid}", "paper": paper, "notebook": f"notebooks/{paper}/{stem}.py",
            "statement": f"statement of {cid}", "source": "src", "provenance": provenance,
            "kind": "exact", "expected": "1", "measured": "1", "tolerance": "", "status": status}


DECLARATION = """short: alpha
title: 'Alpha: a paper with $x^2$ in the title'
authors: [Someone]
arxiv: '2601.00001'
notebooks:
- stem: 01_a
  params: A
  figures:
  - name: 01_a_zeta
    caption: first figure
    claims: [f1.count]
  - name: 01_a_never
    caption: a figure the run did not make
- stem: 02_b
  params: B
"""


def png(path: Path, width: int = 3, height: int = 2) -> Path:
    """A valid RGB PNG (file format: chunks with CRC32; one filter byte per scanline)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + \
            struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + b"\x80\x20\x20" * width for _ in range(height))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(
        ">IIBBBBB", width, height, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b""))
    return path


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """Two declared papers: alpha (01_a has results: two figures, one undeclared, a table and
    two claims; 02_b only a source) and beta (declared, nothing run)."""
    monkeypatch.setattr(paths, "ROOT", tmp_path)
    monkeypatch.setattr(paths, "RESULTS", tmp_path / "results")
    monkeypatch.setattr(paths, "NOTEBOOKS", tmp_path / "notebooks")
    alpha, beta = tmp_path / "notebooks" / "alpha", tmp_path / "notebooks" / "beta"
    alpha.mkdir(parents=True)
    beta.mkdir()
    (alpha / "paper.yaml").write_text(DECLARATION)
    (beta / "paper.yaml").write_text("short: beta\ntitle: Beta\nauthors: [B]\narxiv: '1'\n"
                                     "notebooks:\n- stem: 01_c\n  params: C\n")
    for folder, stem, title in ((alpha, "01_a", "First: $a+b$"), (alpha, "02_b", "Second"),
                                (beta, "01_c", "Third")):
        (folder / f"{stem}.py").write_text(f"# %% [markdown]\n# # {title}\n#\n# Text with "
                                           "$\\sum_j x_j$.\n\n# %%\nx = 1\n")
    figs = paths.figures_dir("alpha/01_a")
    png(figs / "01_a_zeta.png")
    png(figs / "01_a_extra.png")
    (figs / "01_a_zeta.pdf").write_bytes(b"%PDF-1.4\n")
    tables = paths.tables_dir("alpha/01_a")
    (tables / "sub").mkdir(parents=True)
    (tables / "t.csv").write_text("a,b\n1,2\n")
    (tables / "sub" / "t 2.csv").write_text("a\n1\n")
    rows = [claim("f1.count"), claim("f2.other", "fail", "derived")]
    out = paths.claims_file("alpha/01_a")
    out.parent.mkdir(parents=True)
    out.write_text(json.dumps({"notebook": "alpha/01_a", "params": {"profile": "smoke"},
                               "claims": rows}))
    papers._read.cache_clear()
    yield tmp_path
    papers._read.cache_clear()


def page(name: str) -> str:
    return (report.site_dir() / name).read_text(encoding="utf-8")


def test_chapter_sets_the_declared_claims_beside_their_figure(tree):
    src = report.write_sources(report.source_dir(), NOW)
    chapter = (src / "alpha" / "index.md").read_text()
    zeta, never = chapter.index("01_a_zeta.png"), chapter.index("a figure the run did not make")
    beside, rest = chapter.index("f1.count"), chapter.index("f2.other")
    assert zeta < beside < never < chapter.index("01_a_extra.png") < rest
    assert "Claims no figure shows" in chapter[never:]
    assert book.text("01_a_never.png was not made by this run") in chapter
    assert book.text("(saved, but not declared in paper.yaml)") in chapter
    assert "{download}`t 2.csv <tables/01_a/sub/t 2.csv>`" in chapter
    assert (src / "alpha" / "tables" / "01_a" / "sub" / "t 2.csv").is_file()
    ledger_page = (src / "alpha" / "claims.md").read_text()
    assert ledger_page.count("\n* - ") == 3                 # header and one row per claim
    index = (src / "index.md").read_text()
    assert "results/claims.json is missing" in index        # merged in memory, said so
    assert index.count("not yet built") == 1 and "beta/index" in index


def test_a_failed_run_shows_its_claims_as_error_on_the_chapter_and_in_the_totals(tree):
    from lib.companion import runs
    runs.write("alpha/01_a", "failed", "smoke", cell=7, error="ValueError: bad",
               recorded=[claim("f1.count")])
    src = report.write_sources(report.source_dir(), NOW)
    chapter = (src / "alpha" / "index.md").read_text()
    index = (src / "index.md").read_text()
    assert book.text("The last run of 01_a failed in cell 7: ValueError: bad.") in chapter
    assert book.text("01_a failed") in chapter and book.text("01_a failed") in index
    counts_table = index[index.index("## Claims per paper"):]       # after the verdicts
    row = next(line for line in counts_table.split("* - ")
               if line.startswith("[alpha]"))
    cells = [c.strip() for c in row.split("  - ")]
    statuses = dict(zip(("pass", "fail", "error"), cells[2:5]))
    assert statuses == {"pass": "1", "fail": "0", "error": "1"}        # f2.other: not reached
    assert "all papers" in index and book.text("1 unfinished, 0 stale") in index


def test_build_renders_every_page_and_the_source_only_note(tree):
    index = report.build(NOW)
    assert index == report.site_dir() / "index.html"
    text = page("index.html")
    assert "2026-01-02 03:04:05 UTC" in text and "unknown (not a git checkout)" in text
    for name in ("alpha/index.html", "alpha/claims.html", "alpha/notebooks/01_a.html",
                 "alpha/notebooks/02_b.html", "beta/index.html", "beta/notebooks/01_c.html",
                 "performance.html", "search.html", "searchindex.js",
                 "_static/mathjax/tex-svg.js"):
        assert (report.site_dir() / name).is_file(), name
    assert "kept no executed copy" in page("alpha/notebooks/01_a.html")
    assert 'class="math' in page("alpha/notebooks/01_a.html")      # a formula for MathJax
    assert "not measured" in page("performance.html")
    notebook = page("alpha/notebooks/01_a.html")
    assert 'src="../../_static/mathjax/tex-svg.js' in notebook
    assert not [p for p in report.site_dir().rglob("*.html") if "cdn.jsdelivr" in p.read_text()]


def test_build_uses_the_merged_ledger_executed_copy_and_timings(tree):
    from lib.companion import ledger, runner
    ledger.merge()
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Ran $x$"),
                                         nbformat.v4.new_code_cell("1 + 1")])
    nb.cells[1].outputs = [nbformat.v4.new_output("execute_result", {"text/plain": "2"},
                                                  execution_count=1)]
    nb.metadata["language_info"] = {"name": "python"}
    out = paths.executed_file("alpha/01_a")
    out.parent.mkdir(parents=True)
    nbformat.write(nb, out)
    timing = runner.timing_file("alpha/01_a")
    timing.parent.mkdir(parents=True)
    timing.write_text(json.dumps({"notebook": "alpha/01_a", "profile": "smoke",
                                  "wall_s": 3.25, "finished": "2026-01-01T00:00:00Z"}))
    report.build(NOW)
    assert "results/claims.json is missing" not in page("index.html")
    executed = page("alpha/notebooks/01_a.html")
    assert "Executed by the" in executed and "Ran" in executed and "kept no executed" not in \
        executed
    assert "3.25" in page("performance.html")


def test_index_warns_when_the_merged_ledger_is_stale(tree):
    import os

    from lib.companion import ledger
    ledger.merge()
    merged = paths.ledger_files()["json"]
    own = paths.claims_file("alpha/01_a")
    # a re-run that rewrites the same claims later (DVC then skips the claims stage): no warning
    os.utime(merged, (merged.stat().st_mtime - 60,) * 2)
    assert report.load_ledger()[1] == ""
    doc = json.loads(own.read_text())                          # a claim that changed: warning
    doc["claims"][0]["measured"] = "something else"
    own.write_text(json.dumps(doc))
    ledger, note = report.load_ledger()
    assert "results/claims.json is older than the claims of alpha/01_a" in note
    assert ledger["claims"][0]["measured"] == "something else"    # the notebook's own record


@pytest.mark.parametrize("break_it,named", [
    (lambda src: (src / "alpha" / "index.md").open("a").write("\n[gone](nowhere.md)\n"),
     "nowhere"),
    (lambda src: (src / "alpha" / "figures" / "01_a" / "01_a_zeta.png").unlink(), "01_a_zeta"),
])
def test_a_broken_reference_or_missing_image_fails_and_keeps_the_previous_book(
        tree, monkeypatch, break_it, named):
    report.build(NOW)
    before = {p: p.read_bytes() for p in sorted(report.site_dir().rglob("*")) if p.is_file()}
    real = report.write_sources

    def broken(src, now):
        real(src, now)
        break_it(src)
        return src
    monkeypatch.setattr(report, "write_sources", broken)
    with pytest.raises(report.BookError, match=named):
        report.build(NOW)
    after = {p: p.read_bytes() for p in sorted(report.site_dir().rglob("*")) if p.is_file()}
    assert after == before


def test_only_the_index_changes_with_the_build_time(tree):
    def files(now: dt.datetime) -> dict[str, bytes]:
        site = report.build(now).parent
        return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*"))
                if p.is_file()}
    first, later = files(NOW), files(NOW + dt.timedelta(hours=1))
    assert first.keys() == later.keys()
    assert [k for k in first if first[k] != later[k]] == ["index.html"]


def test_git_revision_outside_a_checkout(tmp_path):
    assert report.git_revision(tmp_path) == "unknown (not a git checkout)"


def test_git_revision_of_a_checkout(tmp_path):
    if not shutil.which("git"):
        pytest.skip("git not installed")
    run = {"cwd": tmp_path, "check": True, "capture_output": True}
    subprocess.run(["git", "init", "-q"], **run)
    assert report.git_revision(tmp_path) == "unknown (no commit)"
    (tmp_path / "f").write_text("1")
    subprocess.run(["git", "add", "f"], **run)
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"],
                   **run)
    rev = report.git_revision(tmp_path)
    assert len(rev) >= 7 and "uncommitted" not in rev
    (tmp_path / "f").write_text("2")
    assert report.git_revision(tmp_path).endswith("(with uncommitted changes)")


def test_performance_page_plots_curves_and_names_stale_benchmarks(tree):
    from lib.companion import benchmark
    c = benchmark.summarise("d", [16, 64, 256], {
        "full": {"sizes": [16, 64], "median_s": [0.01, 0.04], "samples": [3, 1],
                 "bound_s": [1e-4, 4e-4]},
        "span": {"sizes": [16, 64, 256], "median_s": [0.01, 0.01, 0.01], "samples": [3, 3, 3],
                 "bound_s": [1e-5, 1e-5, 1e-5]}}, {"full": 64}, [16, 64], 0.03, 3)
    folder = paths.RESULTS / "bench"
    folder.mkdir(parents=True)
    (folder / "x_span.json").write_text(json.dumps(
        {"kernel": "a kernel", "bound": "4 d flops", "machine": {"cores": 2}, "curves": {"d": c},
         "seeds": 5}))
    (folder / "x_old.json").write_text(json.dumps({"kernel": "k", "ratio_a_over_b": 2.0}))
    src = report.write_sources(report.source_dir(), NOW)
    perf = (src / "performance.md").read_text()
    assert (src / "bench_x_span.png").is_file() and "bench_x_span.png" in perf
    assert "4× over `span` at d = 64" in perf                    # ratio at the largest common d
    assert "`full` 1.00" in perf and "`span` 0.00" in perf       # growth exponents
    assert "`span` 1e+03×" in perf and "`full` after 64" in perf  # over its bound; the cap
    assert "re-run `make bench`" in perf and "`x_old`" in perf and "bench_x_old" not in perf
    assert "Bound: 4 d flops" in perf


def test_spec_links_point_at_the_books_spec_page():
    cell = "Claim ([spec §4.1](../../docs/specs/linear_rnns.md#s4-1)) and [a](http://x.org)."
    assert report.book_spec_links(cell) == (
        'Claim (<a href="../../linear_rnns/spec.html#s4-1">spec §4.1</a>) and [a](http://x.org).')


def test_spec_page_links_the_books_notebook_pages(tmp_path):
    assert report.spec_page("bsnp", tmp_path / "spec.md")
    text = (tmp_path / "spec.md").read_text()
    assert "](../bsnp/notebooks/01_poisson_family.ipynb)" in text
    assert "../../notebooks/" not in text and '<a id="s3"></a>' in text
    assert not report.spec_page("no_such_paper", tmp_path / "none.md")


def test_verdicts_open_the_index_and_the_chapter(tree):
    """A paper's verdict.yaml: its lines come first on the index and open its chapter, the
    claims linked to the notebook section that shows them; judged on `default`, they are shown
    as not checked against these smoke results; a paper without one says so."""
    (tree / "notebooks" / "alpha" / "verdict.yaml").write_text(
        "paper: alpha\nheadlines:\n- headline: The count holds\n  verdict: reproduced\n"
        "  claims: [alpha.f1.count]\n- headline: The benchmark number\n"
        "  verdict: not attempted\n  reason: no data offline\n")
    src = report.write_sources(report.source_dir(), NOW)
    index = (src / "index.md").read_text()
    assert index.index("verdicts-index") < index.index("## Claims per paper")
    assert 'class="verdict verdict-reproduced">reproduced</span> The count holds' in index
    assert "*no verdict declared yet*" in index                   # beta
    assert book.text("not checked against this build's smoke results") in index
    chapter = (src / "alpha" / "index.md").read_text()
    assert chapter.index("## What the companion found") < chapter.index("## 01_a")
    assert '<a href="#alpha-01-a"><code>f1.count</code></a> pass' in chapter
    assert "*why not:* no data offline" in chapter


def test_performance_page_opens_with_its_figure(tree):
    from lib.companion import runner
    timing = runner.timing_file("alpha/01_a")
    timing.parent.mkdir(parents=True)
    timing.write_text(json.dumps({"notebook": "alpha/01_a", "profile": "default",
                                  "wall_s": 250.0, "finished": "2026-01-01T00:00:00Z"}))
    src = report.write_sources(report.source_dir(), NOW)
    perf = (src / "performance.md").read_text()
    assert (src / "_static" / "performance.png").is_file()
    assert perf.index("_static/performance.png") < perf.index("## Stage wall times")


# ---------------------------------------------------------------- the guide
GUIDE_PAGE = ("# Running\n\n## How long\n\nSee [the guide](index.md), "
              "[its times](running.md#how-long), [alpha's spec](../specs/alpha.md), "
              "[its §2](../specs/alpha.md#s2), "
              "[the Makefile](../../Makefile) and [a site](https://example.org).\n")


def write_guide(root: Path, **extra: str) -> None:
    """docs/guide/ with an index linking `running`, and alpha's spec with a section anchor."""
    folder = root / "docs" / "guide"
    folder.mkdir(parents=True)
    (folder / "index.md").write_text("# Guide\n\n- [Running](running.md): how\n")
    (folder / "running.md").write_text(GUIDE_PAGE)
    for stem, text in extra.items():
        (folder / f"{stem}.md").write_text(text)
    (root / "docs" / "specs").mkdir()
    (root / "docs" / "specs" / "alpha.md").write_text('# Alpha\n\n<a id="s2"></a>\n## 2. Two\n')


def test_the_guide_enters_the_book_with_its_links_made_the_books(tree):
    write_guide(tree)
    src = report.write_sources(report.source_dir(), NOW)
    text = (src / "guide" / "running.md").read_text()
    assert "[the guide](index.md)" in text and "[its times](running.md#how-long)" in text
    assert "[alpha's spec](../alpha/spec.md)" in text                    # the spec's page
    assert '<a href="../alpha/spec.html#s2">its §2</a>' in text         # its raw anchor
    assert ", the Makefile and [a site](https://example.org)" in text  # no page: its text
    assert ":caption: Guide\n\nguide/index\nguide/running\n" in (src / "index.md").read_text()
    report.build(NOW)                      # Sphinx, warnings as errors: every link resolves
    running = page("guide/running.html")
    assert "Running" in running and 'href="index.html"' in running
    assert 'href="../alpha/spec.html#s2"' in running and "Guide" in page("index.html")


def test_a_guide_page_the_index_does_not_link_is_refused(tree):
    from lib.companion import guide
    write_guide(tree, orphan="# Orphan\n")
    with pytest.raises(guide.GuideError, match="orphan"):
        guide.pages()
