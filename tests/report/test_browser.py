"""The report in a real browser: headless Chromium renders the index, the performance page and
each paper page.

    pytest tests/report --report-dir build/smoke/results/report      (run by `make test`)

Without --report-dir the module is skipped. Each page carries a hidden #selfcheck element that
its inline script fills after the load event; Chromium's --dump-dom hands back the DOM with it.
Checks: every image loaded (natural width > 0), every internal link and image source resolves to
a file of the site (and every same-page #anchor to an element), each paper page's claims table
shows as many rows as results/claims.json holds for that paper (and the status filter works),
no page loads anything from the network; the other pages (rendered notebooks, sources) are
checked as files. Screenshots go to <report-dir>/screenshots/.
"""
from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from lib.companion import papers

PAGES = ["index.html", "performance.html", *(f"{paper}/index.html" for paper in papers.names())]
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--hide-scrollbars", "--virtual-time-budget=10000"]
SELFCHECK = re.compile(r'<pre id="selfcheck"[^>]*>(.*?)</pre>', re.S)
EXTERNAL = ("http:", "https:", "mailto:", "data:", "javascript:")


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
def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        pytest.fail("headless Chromium not found: `apt-get install -y chromium` (.ci/run does)")
    return found


@pytest.fixture(scope="module")
def ledger(report) -> dict:
    merged = report.parent / "claims.json"
    assert merged.exists(), \
        f"{merged} is missing: run `python -m lib.companion.claims` before the report"
    return json.loads(merged.read_text())


def browse(chromium: str, tmp: Path, url: str, *args: str) -> str:
    """Run Chromium once with a fresh profile; return its stdout."""
    profile = tmp / f"profile{len(list(tmp.glob('profile*')))}"
    done = subprocess.run([chromium, *FLAGS, f"--user-data-dir={profile}", *args, url],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"chromium failed on {url}:\n{done.stderr[-2000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def rendered(report, chromium, tmp_path_factory):
    """page -> (DOM after load, selfcheck dict); screenshots saved as a side effect."""
    tmp, cache = tmp_path_factory.mktemp("chromium"), {}
    shots = report / "screenshots"
    shots.mkdir(exist_ok=True)

    def render(page: str, fragment: str = "") -> tuple[str, dict]:
        key = page + fragment
        if key not in cache:
            url = (report / page).as_uri() + fragment
            dom = browse(chromium, tmp, url, "--window-size=1280,800", "--dump-dom")
            found = SELFCHECK.search(dom)
            assert found and found.group(1).strip(), f"{page}: the page's selfcheck never ran"
            check = json.loads(html.unescape(found.group(1)))
            if not fragment:
                height = min(max(int(check.get("height", 800)), 600), 16000)
                name = page.split("/")[0].removesuffix(".html")
                browse(chromium, tmp, url, f"--window-size=1280,{height}",
                       f"--screenshot={shots / (name + '.png')}")
            cache[key] = (dom, check)
        return cache[key]
    return render


class Refs(HTMLParser):
    """Every href/src of a DOM, and every element id."""

    def __init__(self):
        super().__init__()
        self.refs, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.refs.append((tag, value))
            if name == "id":
                self.ids.add(value)


def page_or_skip(report: Path, ledger: dict, page: str) -> None:
    """A paper page must exist when the ledger has claims for the paper; else it is not built."""
    if "/" not in page:
        return
    paper = page.split("/")[0]
    if not (report / page).exists():
        assert not any(c["paper"] == paper for c in ledger["claims"]), \
            f"{paper} has claims in results/claims.json but no page {page}"
        pytest.skip(f"{paper}: not yet built")


@pytest.mark.parametrize("page", PAGES)
def test_every_image_loaded(report, ledger, rendered, page):
    page_or_skip(report, ledger, page)
    _, check = rendered(page)
    broken = [im["src"] for im in check["images"] if not im["complete"] or im["naturalWidth"] <= 0]
    assert not broken, f"{page}: images that did not load: {broken}"
    if "/" in page:                         # a paper page shows every figure its results hold
        paper = page.split("/")[0]
        made = sorted(p.relative_to(report.parent / paper).as_posix()
                      for p in (report.parent / paper).glob("figures/*/*.png"))
        shown = {unquote(im["src"]) for im in check["images"]}
        missing = [f for f in made if f not in shown]
        assert not missing, f"{page}: figures under results/{paper}/ not shown: {missing}"


@pytest.mark.parametrize("page", PAGES)
def test_every_internal_link_resolves(report, ledger, rendered, page):
    page_or_skip(report, ledger, page)
    dom, _ = rendered(page)
    bad = unresolved(report, page, dom)
    assert not bad, f"{page}: links that do not resolve inside the site: {bad}"


def test_every_other_page_links_resolve(report):
    """Notebook, source and performance pages, read as files (no script changes their links)."""
    bad = {str(p.relative_to(report)): unresolved(report, str(p.relative_to(report)),
                                                  p.read_text(encoding="utf-8"))
           for p in sorted(report.rglob("*.html"))}
    assert not {k: v for k, v in bad.items() if v}, f"links that do not resolve: {bad}"


def unresolved(report: Path, page: str, dom: str) -> list[str]:
    """The internal links and sources of a page that point at no file of the site."""
    refs = Refs()
    refs.feed(dom)
    where, bad = (report / page).parent, []
    for tag, ref in refs.refs:
        if ref.startswith(EXTERNAL):
            assert not (tag in ("img", "script", "link") and ref.startswith(("http:", "https:"))), \
                f"{page}: <{tag}> loads {ref} from the network"
            continue
        parts = urlsplit(ref)
        if not parts.path:
            # a browser tries the fragment as written, then percent-decoded (HTML spec)
            if parts.fragment and not {parts.fragment, unquote(parts.fragment)} & refs.ids:
                bad.append(f"{ref} (no element with that id)")
            continue
        target = (where / unquote(parts.path)).resolve()
        if not target.is_file() or not target.is_relative_to(report):
            bad.append(f"{ref} -> {target}")
    return bad


@pytest.mark.parametrize("paper", papers.names())
def test_claims_table_rows_match_ledger(report, ledger, rendered, paper):
    page = f"{paper}/index.html"
    page_or_skip(report, ledger, page)
    _, check = rendered(page)
    expected = [c for c in ledger["claims"] if c["paper"] == paper]
    assert check["claims_rows"] == len(expected), f"{paper}: table rows vs results/claims.json"
    assert check["claims_shown"] == len(expected), f"{paper}: rows hidden with no filter set"
    _, filtered = rendered(page, "#status=pass")
    passing = sum(c["status"] == "pass" for c in expected)
    assert filtered["claims_shown"] == passing, f"{paper}: status filter shows the wrong rows"


def test_index_lists_every_paper(report, ledger, rendered):
    dom, _ = rendered("index.html")
    for paper in papers.names():
        assert paper in dom, f"index does not mention {paper}"
        if not (report / paper / "index.html").exists():
            row = dom[dom.index(paper):]
            assert "not yet built" in row[:2000], f"index: {paper} should say 'not yet built'"
    assert (report / "screenshots" / "index.png").stat().st_size > 0


def test_no_page_loads_from_the_network(report):
    pattern = re.compile(r"<(?:script|img|link|iframe)\b[^>]*\b(?:src|href)=[\"']?(?:https?:)?//",
                         re.I)
    offenders = [str(p.relative_to(report)) for p in report.rglob("*.html")
                 if pattern.search(p.read_text(encoding="utf-8"))]
    assert not offenders, f"pages that would load from the network: {offenders}"
