"""lib/companion/report.py and report_html.py without a browser: outline, ordering, pages, builds.

The browser checks (images load, links resolve in Chromium) live in test_browser.py.
"""
from __future__ import annotations

import ast
import datetime as dt
import json
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import nbformat
import pytest

from lib.companion import papers, paths, report
from lib.companion import report_html as ui

CELLS = [  # (cell_type, source) of a small notebook in the house shape
    ("markdown", "# Claim in **one** sentence\n\nSource: Thm 2. ## not a heading mid-line"),
    ("code", 'profile = "default"  # smoke | default | paper'),
    ("code", "ledger = claims.Ledger(NOTEBOOK, cfg)"),
    ("markdown", "## F1: first panel group\ntext"),
    ("code", 'plotting.save_figure(fig, NOTEBOOK, "zeta")\n'
             'ledger.exact("f1.count", "s", source="x", provenance="paper", expected=1, '
             'measured=1)'),
    ("markdown", "## F2: loops over panels"),
    ("code", 'for act in acts:\n    plotting.save_figure(fig, NOTEBOOK, f"gap_{act}")\n'
             '    ledger.bound(f"f2.{act}_max", "s", source="x", provenance="derived", '
             'measured=0.0, upper=1.0)\nplotting.save_figure(fig, NOTEBOOK)'),
]


def claim(cid: str, status: str = "pass", provenance: str = "paper", stem: str = "01_a",
          paper: str = "gd_perceptron", **kw) -> dict:
    return {"id": f"{paper}.{cid}", "paper": paper, "notebook": f"notebooks/{paper}/{stem}.py",
            "statement": kw.get("statement", "s"), "source": "src", "provenance": provenance,
            "kind": "exact", "expected": "1", "measured": "1", "tolerance": "", "status": status}


def test_outline_title_sections_and_patterns():
    title, sections = report.outline(CELLS, "01_a")
    assert title == "Claim in one sentence"
    assert [s.heading for s in sections] == ["Claim in one sentence", "F1: first panel group",
                                             "F2: loops over panels"]
    assert sections[0].figures == [] and sections[0].claims == []
    assert sections[1].figures == [re.escape("01_a_zeta")] and sections[1].claims == ["f1\\.count"]
    assert sections[2].figures == ["01_a_gap_.+?", "01_a"]     # f-string panel; no panel
    assert sections[2].claims == ["f2\\..+?_max"]


def test_outline_without_any_heading_is_titled_by_stem():
    title, sections = report.outline([("code", 'plotting.save_figure(f, NOTEBOOK, "p")')], "07_b")
    assert title == "07_b" and sections[0].heading == "07_b"
    assert report.outline([], "07_b") == ("07_b", [])


@pytest.mark.parametrize("expr,matches,rejects", [
    ('"a.b"', ["a.b"], ["axb"]),                          # dots are literal
    ('f"gap_{act}"', ["gap_relu", "gap_x_y"], ["gap_"]),
    ('f"{a}.{b}_max"', ["q.r_max"], ["q_max"]),
])
def test_string_pattern(expr, matches, rejects):
    pat = report.string_pattern(ast.parse(expr, mode="eval").body)
    assert all(re.fullmatch(pat, m) for m in matches)
    assert not any(re.fullmatch(pat, r) for r in rejects)
    assert report.string_pattern(ast.parse("name", mode="eval").body) is None


def test_code_calls_read_any_call_shape():
    source = ('save_figure(make(fig), NOTEBOOK, panel="p")\nplotting.save_figure(fig, NOTEBOOK, '
              'name)\nplotting.save_figure(fig, NOTEBOOK, None)\nledger.close(cid, "s")\n'
              'ledger.qualitative(\n    "q.id", "s")\nx = np.exact("not a claim")')
    assert report.code_calls(source, "05_c") == (["05_c_p", "05_c_.+", "05_c"],
                                                 ["q\\.id"])
    assert report.code_calls("%matplotlib inline", "05_c") == ([], [])


@pytest.mark.parametrize("text,plain", [
    ("**Claim** in `code` and _it_ ", "Claim in code and it"),
    ("e_1 and e_2 stay", "e_1 and e_2 stay"),              # not emphasis: inside words
    (r"GD $\to$ GP as $\gamma\to\infty$", "GD → GP as γ→∞"),
    (r"$\tilde O(\sqrt{d})$ against $\Theta(d)$", "Õ(√d) against Θ(d)"),
    (r"from $\alpha\bar W_0$, $\mathrm{PNC}^1$, $d \le 10$", "from αW_0, PNC^1, d ≤ 10"),
])
def test_plain_heading(text, plain):
    assert report.plain_heading(text) == plain


def test_short_keeps_short_text_and_cuts_long():
    assert ui.short("abc") == "abc"
    cut = ui.short("x" * 500)
    assert len(cut) < 130 and cut.endswith("(see table)")


def test_figure_order_is_reading_order_then_file_order():
    _, sections = report.outline(CELLS, "01_a")
    names = ["01_a", "01_a_alpha", "01_a_gap_relu", "01_a_gap_quad", "01_a_zeta"]
    assert report.figure_order(names, sections) == [
        ("F1: first panel group", ["01_a_zeta"]),
        ("F2: loops over panels", ["01_a_gap_quad", "01_a_gap_relu", "01_a"]),
        ("", ["01_a_alpha"]),                            # saved under a name built at run time
    ]
    assert report.figure_order([], sections) == []
    assert report.figure_order(["x"], []) == [("", ["x"])]


def test_section_claims_stay_in_their_section():
    _, sections = report.outline(CELLS, "01_a")
    claims = [claim("f1.count"), claim("f2.relu_max"), claim("f2.quad_max"), claim("other")]
    got = report.section_claims("F2: loops over panels", sections, claims)
    assert [c["id"] for c in got] == ["gd_perceptron.f2.relu_max", "gd_perceptron.f2.quad_max"]
    assert [c["id"] for c in report.section_claims("F1: first panel group", sections, claims)] \
        == ["gd_perceptron.f1.count"]


def test_git_revision_outside_a_checkout(tmp_path):
    assert report.git_revision(tmp_path) == "unknown (not a git checkout)"


def test_git_revision_of_a_checkout(tmp_path):
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(tmp_path)]
    subprocess.run([*git, "init", "-q"], check=True)
    (tmp_path / "f").write_text("x")
    subprocess.run([*git, "add", "f"], check=True)
    subprocess.run([*git, "commit", "-qm", "m"], check=True)
    head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], check=True, text=True,
                          capture_output=True).stdout.strip()
    assert report.git_revision(tmp_path) == head
    (tmp_path / "f").write_text("y")
    assert report.git_revision(tmp_path) == f"{head} (with uncommitted changes)"


def test_claims_table_has_one_escaped_row_per_claim():
    claims = [claim("a"), claim("b", "fail", "derived"),
              claim("c", "deviation", "reconstructed", statement="<script>x</script> & y")]
    text = ui.claims_table(claims)
    assert text.count("<tr data-status=") == 3
    assert '<tr data-status="fail" data-provenance="derived">' in text
    assert "<script>x</script>" not in text and "&lt;script&gt;x&lt;/script&gt; &amp; y" in text
    assert '<option value="pass">pass (1)</option>' in text
    assert '<option value="">all (3)</option>' in text


def test_status_counts_include_zeros():
    assert ui.status_counts([claim("a"), claim("b", "fail")]) == \
        {"pass": 1, "fail": 1, "deviation": 0, "inconclusive": 0, "skipped": 0}
    assert ui.status_counts([]) == {"pass": 0, "fail": 0, "deviation": 0, "inconclusive": 0,
                                          "skipped": 0}


def test_performance_page_says_not_measured_and_shows_ratios():
    timings = {"gd_perceptron__01_a": {"profile": "default", "wall_s": 12.5}}
    bench = [("gd_perceptron_scan", {"naive_median_s": 0.25, "fast_median_s": 0.01,
                                     "ratio": 25.0, "sizes": {"n": 3}})]
    text = ui.performance_page([("gd_perceptron", "01_a"), ("gd_perceptron", "02_b")],
                               timings, bench)
    assert "12.50" in text and text.count("not measured") == 1
    assert "ratio = <b>25</b>" in text and "sizes.n" in text
    assert "no benchmarks measured" in ui.performance_page([], {}, [])


def test_scalar_items_flatten_one_level():
    doc = {"a": 1, "b": {"c": 2.5, "d": {"e": 3}}, "f": [1, 2], "g": None}
    assert ui.scalar_items(doc) == [("a", 1), ("b.c", 2.5), ("g", None)]


def test_render_notebook_is_offline(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# Title with $\\gamma$"),
        nbformat.v4.new_code_cell("1 + 1", execution_count=1, outputs=[
            nbformat.v4.new_output("execute_result", {"text/plain": "2"}, execution_count=1)])])
    path = tmp_path / "nb.ipynb"
    nbformat.write(nb, str(path))
    text = report.render_notebook(path)
    assert "Title with" in text and 'href="index.html"' in text
    assert not re.search(r"<(script|link|img)\b[^>]*(src|href)=\"?(https?:)?//", text)
    assert "<script src" not in text


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
    """A results tree with one notebook of gd_perceptron (no executed copy, no timing) and a
    source-only second notebook; the other papers have nothing."""
    real = paths.NOTEBOOKS
    monkeypatch.setattr(paths, "ROOT", tmp_path)
    monkeypatch.setattr(paths, "RESULTS", tmp_path / "results")
    monkeypatch.setattr(paths, "NOTEBOOKS", tmp_path / "notebooks")
    src = tmp_path / "notebooks" / "gd_perceptron"
    src.mkdir(parents=True)
    for declaration in real.glob("*/paper.yaml"):  # the papers the report lists
        (tmp_path / "notebooks" / declaration.parent.name).mkdir(exist_ok=True)
        shutil.copy(declaration, tmp_path / "notebooks" / declaration.parent.name)
    shutil.copy(real / "papers.yaml", tmp_path / "notebooks")
    (src / "01_a.py").write_text("\n\n".join(
        "# %% [markdown]\n" + "\n".join("# " + line for line in s.splitlines())
        if k == "markdown" else f"# %%\n{s}" for k, s in CELLS) + "\n")
    (src / "02_b.py").write_text("# %% [markdown]\n# # Second claim\n")
    figs = paths.figures_dir("gd_perceptron/01_a")
    for name in ("01_a_zeta", "01_a_gap_relu", "01_a"):
        png(figs / f"{name}.png")
    (figs / "01_a_zeta.pdf").write_bytes(b"%PDF-1.4\n")
    tables = paths.tables_dir("gd_perceptron/01_a")
    tables.mkdir(parents=True)
    (tables / "t.csv").write_text("a,b\n1,2\n")
    (tables / "sub").mkdir()
    (tables / "sub" / "t 2.csv").write_text("a\n1\n")
    rows = [claim("f1.count", stem="01_a"), claim("f2.relu_max", "fail", "derived", stem="01_a")]
    claims_file = paths.claims_file("gd_perceptron/01_a")
    claims_file.parent.mkdir(parents=True)
    claims_file.write_text(json.dumps({"notebook": "gd_perceptron/01_a",
                                       "params": {"profile": "smoke"}, "claims": rows}))
    return tmp_path


NOW = dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.timezone.utc)


def site_files(site: Path) -> dict[str, bytes]:
    return {str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*"))
            if p.is_file()}


def test_build_writes_pages_copies_and_marks_unbuilt_papers(tree):
    (paths.results_dir("gd_perceptron", "figures") / "stray.txt").write_text("not a notebook")
    index = report.build(NOW)
    site = index.parent
    text = index.read_text()
    assert "2026-01-02 03:04:05 UTC" in text and "unknown (not a git checkout)" in text
    assert "results/claims.json is missing" in text          # fell back to per-notebook files
    assert text.count("not yet built") == len(papers.names()) - 1   # all but gd_perceptron
    page = (site / "gd_perceptron" / "index.html").read_text()
    order = [page.index(f"figures/01_a/{n}.png") for n in ("01_a_zeta", "01_a_gap_relu", "01_a")]
    assert order == sorted(order)                            # reading order, not file order
    assert page.count("<tr data-status=") == 2
    assert "executed notebook: not kept by this run" in page
    assert "no results yet" in page                          # 02_b: source only
    assert "stray" not in page
    assert 'href="tables/01_a/sub/t%202.csv"' in page
    assert (site / "gd_perceptron" / "tables" / "01_a" / "sub" / "t 2.csv").is_file()
    for rel in ("gd_perceptron/figures/01_a/01_a_zeta.png", "gd_perceptron/figures/01_a/"
                "01_a_zeta.pdf", "gd_perceptron/tables/01_a/t.csv", "gd_perceptron/src/01_a.py",
                "gd_perceptron/src/01_a.py.html", "performance.html", "style.css"):
        assert (site / rel).is_file(), rel
    assert not (site / "equivariance").exists()
    assert "not measured" in (site / "performance.html").read_text()


def test_build_is_deterministic_except_the_index(tree):
    first = site_files(report.build(NOW).parent)
    later = site_files(report.build(NOW + dt.timedelta(hours=1)).parent)
    assert first.keys() == later.keys()
    assert [k for k in first if first[k] != later[k]] == ["index.html"]


def test_build_uses_the_merged_ledger_and_renders_executed_notebooks(tree):
    from lib.companion import claims
    claims.merge()
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Claim")])
    out = paths.executed_file("gd_perceptron/01_a")
    out.parent.mkdir(parents=True)
    nbformat.write(nb, str(out))
    timing = paths.RESULTS / "timings" / "gd_perceptron__01_a.json"
    timing.parent.mkdir(parents=True)
    timing.write_text(json.dumps({"notebook": "gd_perceptron/01_a", "profile": "smoke",
                                  "wall_s": 3.25, "finished": "2026-01-01T00:00:00Z"}))
    site = report.build(NOW).parent
    assert "results/claims.json is missing" not in (site / "index.html").read_text()
    assert (site / "gd_perceptron" / "01_a.html").is_file()
    assert 'href="01_a.html"' in (site / "gd_perceptron" / "index.html").read_text()
    assert "3.25" in (site / "performance.html").read_text()


def test_index_warns_when_the_merged_ledger_is_stale(tree):
    import os

    from lib.companion import claims
    claims.merge()
    merged = paths.ledger_files()["json"]
    own = paths.results_dir("gd_perceptron", "claims") / "01_a.json"
    # a re-run that rewrites the same claims later (DVC then skips the claims stage): no warning
    os.utime(merged, (merged.stat().st_mtime - 60,) * 2)
    assert "is older than the claims" not in report.build(NOW).read_text()
    doc = json.loads(own.read_text())                          # a claim that changed: warning
    doc["claims"][0]["measured"] = "something else"
    own.write_text(json.dumps(doc))
    text = report.build(NOW).read_text()
    assert "results/claims.json is older than the claims of gd_perceptron/01_a" in text


def test_a_failed_build_leaves_the_previous_report(tree, monkeypatch):
    index = report.build(NOW)
    before = site_files(index.parent)

    def broken(*args, **kwargs):
        raise RuntimeError("rendering failed")
    monkeypatch.setattr(ui, "performance_page", broken)
    with pytest.raises(RuntimeError):
        report.build(NOW)
    assert site_files(index.parent) == before
