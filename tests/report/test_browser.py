"""The book in a real browser, with the network off: headless Chromium opens the built site from
disk.

    pytest tests/report --report-dir build/smoke/results/report      (run by `make test`)

Without --report-dir the module is skipped. Every page loads /_static/selfcheck.js, which fills a
hidden #selfcheck element once the page and its mathematics are ready; Chromium's --dump-dom
hands back the DOM with it. Checks: every image of the rendered pages loaded, and each chapter
shows every figure its results hold; every internal link and source of every page resolves (to
a file of the site, and a fragment to an element of its target); each claims table has as many
rows as results/claims.json holds for its paper and the filters narrow it, from the address as
a link would carry them (both at once on every paper, each alone on the largest ledger); a
search for a claim id finds its ledger page; a notebook page's mathematics is typeset by the
local MathJax, without errors and without raw `$...$` left in its text; nothing is loaded
from the network; the index shows a verdict line per headline of every paper
(notebooks/<paper>/verdict.yaml), in one table of a row per paper that starts in the first
screen, and each chapter opens with them; no table is wider than the article at 1280 px, none
scrolls sideways and no cell's text runs out of it; the guide's index page renders with its
heading and links every guide page, and no guide table is wider than the article. Screenshots
of whole pages go to <report-dir>/../screenshots/.
"""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

import pytest

from lib.companion import book, chromium, guide, papers, screenshots, verdicts

EXTERNAL = ("http:", "https:", "mailto:", "data:", "javascript:")
RAW_MATH = re.compile(r"\$[^$\s][^$]*\$")


@pytest.fixture(scope="module")
def report(request) -> Path:
    value = request.config.getoption("--report-dir")
    if value is None:
        pytest.skip("browser test needs --report-dir <results>/report "
                    "(make test passes build/smoke/results/report)")
    folder = Path(value).resolve()
    assert (folder / "index.html").exists(), \
        f"{folder}/index.html is missing: build it with `python -m lib.companion.report` first"
    return folder


@pytest.fixture(scope="module")
def browser() -> str:
    try:
        return chromium.binary()
    except chromium.ChromiumError as err:
        pytest.fail(f"{err} (.ci/run installs it)")


@pytest.fixture(scope="module")
def ledger(report) -> dict:
    merged = report.parent / "claims.json"
    assert merged.exists(), \
        f"{merged} is missing: run `python -m lib.companion.ledger` before the report"
    return json.loads(merged.read_text())


def built_papers(ledger: dict) -> list[str]:
    return [p for p in papers.names() if any(c["paper"] == p for c in ledger["claims"])]


@pytest.fixture(scope="module")
def rendered(report, browser, tmp_path_factory):
    """(page, address suffix) -> (DOM after load at 1280 x 900, selfcheck dict or None)."""
    tmp, cache = tmp_path_factory.mktemp("chromium"), {}

    def render(page: str, suffix: str = "") -> tuple[str, dict | None]:
        if (page, suffix) not in cache:
            cache[page, suffix] = chromium.dump(browser, tmp, report / page, suffix=suffix)
        return cache[page, suffix]
    return render


def checked(rendered, page: str, suffix: str = "") -> tuple[str, dict]:
    dom, check = rendered(page, suffix)
    assert check is not None, f"{page}{suffix}: the page's selfcheck never ran"
    return dom, check


class Refs(HTMLParser):
    """Every href/src of a page, and every element id."""

    def __init__(self):
        super().__init__()
        self.refs, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.refs.append((tag, value))
            if name == "id":
                self.ids.add(value)


def parse(text: str) -> Refs:
    refs = Refs()
    refs.feed(text)
    return refs


def pages(report: Path) -> list[str]:
    """The site's pages (the theme's _static/ holds template fragments, not pages)."""
    return sorted(p.relative_to(report).as_posix() for p in report.rglob("*.html")
                  if p.relative_to(report).parts[0] != "_static")


def chapter_pages(ledger) -> list[str]:
    return [f"{p}/index.html" for p in built_papers(ledger)]


def test_every_image_loaded(report, ledger, rendered):
    """The index, performance page and every chapter: each <img> decoded, and each chapter
    shows every figure its paper's results hold."""
    for page in ["index.html", "performance.html", *chapter_pages(ledger)]:
        _, check = checked(rendered, page)
        broken = [im["src"] for im in check["images"]
                  if not im["complete"] or im["naturalWidth"] <= 0]
        assert not broken, f"{page}: images that did not load: {broken}"
        if page.endswith("/index.html"):
            paper = page.split("/")[0]
            made = sorted(p.name for p in (report.parent / paper).glob("figures/*/*.png"))
            shown = {unquote(im["src"]).rsplit("/", 1)[-1] for im in check["images"]}
            assert made, f"{paper}: no figures under results/{paper}/figures"
            missing = [f for f in made if f not in shown]
            assert not missing, f"{page}: figures under results/{paper}/ not shown: {missing}"


def test_every_internal_link_resolves(report):
    """Every href and src of every page of the site: a file of the site, and a fragment an
    element of the target (filter fragments like #status=pass are the ledger's, not ids)."""
    ids, missing, fragments = {}, [], []
    for page in pages(report):
        refs = parse((report / page).read_text(encoding="utf-8"))
        ids[page] = refs.ids
        for tag, ref in refs.refs:
            if ref.startswith(EXTERNAL):
                assert not (tag in ("img", "script", "link", "iframe")
                            and ref.startswith(("http:", "https:"))), \
                    f"{page}: <{tag}> loads {ref} from the network"
                continue
            parts = urlsplit(ref)
            target = (report / page).parent / unquote(parts.path) if parts.path else report / page
            target = target.resolve()
            if not target.is_file() or not target.is_relative_to(report):
                missing.append(f"{page}: {ref} -> no file {target}")
            elif parts.fragment and "=" not in parts.fragment and target.suffix == ".html":
                fragments.append((page, ref, target.relative_to(report).as_posix(), parts.fragment))
    missing += [f"{page}: {ref} (no element with that id in {rel})"
                for page, ref, rel, frag in fragments
                if not {frag, unquote(frag)} & ids.get(rel, set())]
    assert not missing, "links that do not resolve:\n" + "\n".join(missing[:40])


def test_nothing_loads_from_the_network(report, rendered):
    """The DOM after scripts ran (MathJax, the theme) loads nothing from another host."""
    dom, _ = rendered("index.html")
    remote = [ref for tag, ref in parse(dom).refs
              if tag in ("img", "script", "link", "iframe") and ref.startswith(("http:", "https:"))]
    assert not remote, f"index.html loads from the network: {remote}"


# a ledger page's filters as a link's address carries them, and the rows each should leave
FILTERS = (("#status=pass", lambda c: c["status"] == "pass"),
           ("#provenance=derived", lambda c: c["provenance"] == "derived"),
           ("#status=pass&provenance=derived",
            lambda c: c["status"] == "pass" and c["provenance"] == "derived"))


def filters_narrow(rendered, page: str, expected: list[dict], filters=FILTERS) -> None:
    """Each filter's address shows exactly the rows of `expected` it keeps."""
    for suffix, keep in filters:
        _, filtered = checked(rendered, page, suffix)
        assert filtered["claims_shown"] == sum(map(keep, expected)), \
            f"{page}{suffix}: the filter shows the wrong rows"


@pytest.mark.parametrize("paper", papers.names())
def test_claims_table_rows_match_ledger(report, ledger, rendered, paper):
    if paper not in built_papers(ledger):
        pytest.skip(f"{paper}: no claims in this run")
    page = f"{paper}/claims.html"
    expected = [c for c in ledger["claims"] if c["paper"] == paper]
    _, check = checked(rendered, page)
    assert check["claims_rows"] == len(expected), f"{paper}: table rows vs results/claims.json"
    assert check["claims_shown"] == len(expected), f"{paper}: rows hidden with no filter set"
    # both filters from the address at once on every paper (each alone: the test below)
    filters_narrow(rendered, page, expected, FILTERS[-1:])
    assert sum(c["status"] == "pass" for c in expected) < len(expected) or \
        len({c["provenance"] for c in expected}) > 1, f"{paper}: no filter could narrow this table"


def test_each_filter_alone_narrows_the_largest_ledger(report, ledger, rendered):
    """The filter script is one for every ledger page: each filter alone, on the paper with the
    most claims (one Chromium start per address, so not on all nineteen)."""
    paper = max(built_papers(ledger), key=lambda p: sum(c["paper"] == p for c in ledger["claims"]))
    filters_narrow(rendered, f"{paper}/claims.html",
                   [c for c in ledger["claims"] if c["paper"] == paper], FILTERS[:-1])


@pytest.mark.parametrize("paper", papers.names())
def test_search_finds_a_claim_on_its_page(report, ledger, rendered, paper):
    if paper not in built_papers(ledger):
        pytest.skip(f"{paper}: no claims in this run")
    claim = [c for c in ledger["claims"] if c["paper"] == paper][-1]["id"]
    dom, _ = rendered("search.html", f"?q={quote(claim)}")
    results = Within("search-results")
    results.feed(dom)
    hits = [ref for ref in results.links if urlsplit(ref).path.endswith(f"{paper}/claims.html")]
    assert hits, f"searching {claim!r} does not find {paper}/claims.html: {results.links}"


class Within(HTMLParser):
    """The links inside the element with a given id (the search page's results list; the
    navigation around it links every page and must not count)."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
            "track", "wbr"}

    def __init__(self, element_id: str):
        super().__init__()
        self.element_id, self.depth, self.links = element_id, 0, []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self.depth and tag not in self.VOID:
            self.depth += 1
        elif not self.depth and attrs.get("id") == self.element_id:
            self.depth = 1
        if self.depth and tag == "a" and attrs.get("href"):
            self.links.append(unquote(attrs["href"]))

    def handle_endtag(self, tag):
        if self.depth and tag not in self.VOID:
            self.depth -= 1


def math_page(paper: str) -> str:
    """The paper's first notebook whose markdown has a formula."""
    for stem in (e.stem for e in papers.paper(paper).notebooks):
        source = (papers.declaration_file(paper).parent / f"{stem}.py").read_text()
        if re.search(r"^# .*\$[^$]+\$", source, re.M):
            return f"{paper}/notebooks/{stem}.html"
    pytest.skip(f"{paper}: no notebook has a formula in its text")


class Text(HTMLParser):
    """A page's visible prose: text outside code, scripts, styles and typeset formulas."""

    SKIP = {"pre", "code", "script", "style", "mjx-container", "textarea", "svg", "kbd"}

    def __init__(self):
        super().__init__()
        self.depth, self.parts = 0, []

    def handle_starttag(self, tag, attrs):
        self.depth += tag in self.SKIP

    def handle_endtag(self, tag):
        self.depth -= tag in self.SKIP and self.depth > 0

    def handle_data(self, data):
        if not self.depth:
            self.parts.append(data)


@pytest.mark.parametrize("paper", papers.names())
def test_mathematics_is_typeset_offline(report, ledger, rendered, paper):
    if paper not in built_papers(ledger):
        pytest.skip(f"{paper}: no claims in this run")
    page = math_page(paper)
    dom, check = checked(rendered, page)
    assert check["math"] > 0, f"{page}: MathJax typeset nothing (no mjx-container)"
    assert check["math_errors"] == 0, f"{page}: {check['math_errors']} formulas failed to typeset"
    prose = Text()
    prose.feed(dom)
    raw = RAW_MATH.findall(" ".join(prose.parts))
    assert not raw, f"{page}: raw TeX left in the text: {raw[:5]}"


class TableRows(HTMLParser):
    """The body rows of the tables whose class holds a given one: each row's links and text."""

    def __init__(self, table_class: str):
        super().__init__()
        self.table_class, self.depth, self.rows, self.row = table_class, 0, [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.depth += bool(self.depth) or self.table_class in (attrs.get("class") or
                                                                   "").split()
        elif self.depth == 1 and tag == "tr":
            self.row = {"links": [], "text": []}
        elif self.row is not None and tag == "a" and attrs.get("href"):
            self.row["links"].append(unquote(attrs["href"]))

    def handle_endtag(self, tag):
        if tag == "table" and self.depth:
            self.depth -= 1
        elif tag == "tr" and self.depth == 1 and self.row is not None:
            self.rows.append({"links": self.row["links"], "text": " ".join(self.row["text"])})
            self.row = None

    def handle_data(self, data):
        if self.row is not None:
            self.row["text"].append(data)


def paper_rows(dom: str) -> dict[str, str]:
    """The index's paper table: each paper's row text, by the paper its first link names."""
    table = TableRows("papers")
    table.feed(dom)
    return {r["links"][0].split("/")[0]: " ".join(r["text"].split())
            for r in table.rows if r["links"]}


def test_index_has_a_row_per_paper(report, ledger, rendered):
    """Every paper has its row in the index's paper table (not a link of the page's head or
    navigation), and a paper with no results here says it is not yet built."""
    dom, _ = checked(rendered, "index.html")
    rows = paper_rows(dom)
    for paper in papers.names():
        assert paper in rows, f"the index's paper table has no row for {paper}"
        if paper not in built_papers(ledger):
            assert "not yet built" in rows[paper], \
                f"index: {paper}'s row should say 'not yet built': {rows[paper]!r}"


def test_index_shows_a_verdict_line_per_paper(report, ledger, rendered):
    """The verdicts come first on the index: every paper's row holds one labelled line per
    headline its verdict.yaml declares; each built chapter opens with the same lines."""
    dom, check = checked(rendered, "index.html")
    declared = {p: len(v.headlines) for p in papers.names() if (v := verdicts.load(p))}
    missing = [p for p in papers.names() if p not in declared]
    assert not missing, f"no notebooks/<paper>/verdict.yaml for {missing}"
    assert check["verdicts"] == declared, "index: verdict lines per paper vs verdict.yaml"
    assert dom.index("verdicts-index") < dom.index("verdicts-detail"), \
        "index: the one-row-per-paper table must come before every headline in full"
    assert check["verdicts_table_top"] is not None and check["verdicts_table_top"] < 900, \
        f"index: the verdicts table starts below the first screen ({check['verdicts_table_top']})"
    for paper in built_papers(ledger):
        chapter, _ = checked(rendered, f"{paper}/index.html")
        first = book.anchor(paper, papers.paper(paper).notebooks[0].stem)
        assert "verdicts-chapter" in chapter and \
            chapter.index("verdicts-chapter") < chapter.index(f'id="{first}"'), \
            f"{paper}/index.html does not open with its verdicts"


def test_screenshots_show_each_page_whole(report, ledger):
    """lib.companion.screenshots (`make screenshots`): the index, a chapter, its ledger, a
    notebook page and the performance page, each 1280 px wide and as tall as the page, into
    <report>/../screenshots/."""
    built = built_papers(ledger)
    if not built:
        pytest.skip("no paper built in this run")
    shots = screenshots.take(report, report.parent / "screenshots")   # a chapter that fits
    assert set(shots) == set(screenshots.NAMES)
    for name, (png, png_height, page_height) in shots.items():
        assert chromium.png_size(png) == (chromium.WIDTH, png_height)
        assert png_height >= page_height > 0, f"{name}: the screenshot cuts the page off"


def test_no_table_overflows_the_article(report, ledger, rendered):
    """At 1280 px no table passes the article's right edge (none scrolls, hiding columns) and no
    cell's text runs out of it: the index, the performance and provenance pages, every chapter
    and every claims ledger."""
    built = built_papers(ledger)
    wide = {}
    for page in ["index.html", "performance.html", "provenance.html", *chapter_pages(ledger),
                 *(f"{p}/claims.html" for p in built)]:
        _, check = checked(rendered, page)
        if check["tables_overflowing"]:
            wide[page] = check["tables_overflowing"]
    assert not wide, f"tables wider than the article at 1280 px: {wide}"


def test_the_guide_renders_with_its_heading_and_links(report, rendered):
    """The guide (docs/guide/) is part of the book: its index page has its heading and a link to
    every other guide page, each a page of the site; a guide page with a table (the generated
    ones are wide) keeps it inside the article at 1280 px."""
    stems = guide.pages()
    assert stems, "docs/guide/ holds no guide"
    dom, check = checked(rendered, "guide/index.html")
    title = guide.page("index").read_text().splitlines()[0].lstrip("#").strip()
    assert re.search(rf"<h1[^>]*>\s*{re.escape(title)}", dom), \
        f"guide/index.html does not open with its heading {title!r}"
    linked = {urlsplit(ref).path for tag, ref in parse(dom).refs if tag == "a"}
    missing = [s for s in stems[1:]
               if f"{s}.html" not in linked or not (report / "guide" / f"{s}.html").is_file()]
    assert not missing, f"guide/index.html does not link a page of the site for {missing}"
    wide = {}
    for stem in (s for s in stems if "|---" in guide.page(s).read_text()):
        _, check = checked(rendered, f"guide/{stem}.html")
        if check["tables_overflowing"]:
            wide[stem] = check["tables_overflowing"]
    assert not wide, f"guide tables wider than the article at 1280 px: {wide}"
