"""The static report: every figure, every claim, every notebook, opened with no server.

    python -m lib.companion.report

Reads what is under `paths.RESULTS` (results/claims.json, results/<paper>/{claims,figures,tables,
executed}/, results/timings/*.json, results/bench/*.json) and the notebook sources, and rewrites
`paths.RESULTS / "report"` whole:

    index.html             the three papers: claim counts, profile(s), git revision, when made
    performance.html       each notebook stage's wall time, benchmark ratios
    <paper>/index.html     figures in reading order with captions, the claims table (filterable)
    <paper>/<stem>.html    the executed notebook rendered by nbconvert (lab template, offline)
    <paper>/src/<stem>.py  the notebook source, and <stem>.py.html highlighted
    <paper>/figures/..., <paper>/tables/...   copies, so every link is relative and resolves

Only index.html holds volatile values (build time, revision, result times); every other page is a
function of the inputs. Every page carries a hidden `#selfcheck` element that an inline script
fills after load (images loaded, claims rows shown): tests/report/test_browser.py reads it from
headless Chromium. Nothing is fetched: no CDN, no network.
"""
from __future__ import annotations

import argparse
import ast
import datetime as dt
import json
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from lib.companion import papers, paths
from lib.companion import report_html as ui

SITE = "report"
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$", re.M)
LEDGER_CALLS = ("exact", "close", "bound", "statistical", "qualitative", "deviation")
TEX = {**{f"\\{g}": c for g, c in zip(
    "alpha beta gamma delta epsilon varepsilon eta theta lambda mu nu pi rho sigma tau phi "
    "varphi chi psi omega Gamma Delta Theta Lambda Pi Sigma Phi Psi Omega".split(),
    "αβγδεεηθλμνπρστφφχψωΓΔΘΛΠΣΦΨΩ")},
       "\\to": "→", "\\rightarrow": "→", "\\infty": "∞", "\\leq": "≤", "\\le": "≤",
       "\\geq": "≥", "\\ge": "≥", "\\neq": "≠", "\\cdot": "·", "\\times": "×",
       "\\sqrt": "√", "\\in": "∈", "\\approx": "≈", "\\sim": "~", "\\ell": "ℓ",
       "\\ldots": "…", "\\dots": "…", "\\log": "log", "\\mid": "|"}


# ---------------------------------------------------------------- notebook source: outline
@dataclass
class Section:
    """A stretch of a notebook between two markdown headings: its figures and claim ids."""

    heading: str
    figures: list[str] = field(default_factory=list)     # regexes for figure file stems
    claims: list[str] = field(default_factory=list)      # regexes for claim ids (no paper prefix)


def string_pattern(node: ast.expr) -> str | None:
    """A regex for the values a str literal or f-string can take ({...}: anything); None for
    any other expression."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return re.escape(node.value)
    if isinstance(node, ast.JoinedStr):
        return "".join(re.escape(v.value) if isinstance(v, ast.Constant) else ".+?"
                       for v in node.values)
    return None


def code_calls(source: str, stem: str) -> tuple[list[str], list[str]]:
    """Regexes of the figure file stems a code cell saves and of the claim ids it records
    (calls on a name containing "ledger"), in source order. A panel that is not a string gives
    <stem>_.+; unparsable code, nothing."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return [], []
    figures, claims = [], []
    calls = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Call)),
                   key=lambda n: (n.lineno, n.col_offset))
    for call in calls:
        name = getattr(call.func, "attr", getattr(call.func, "id", None))
        if name == "save_figure":
            panel = call.args[2] if len(call.args) > 2 else next(
                (k.value for k in call.keywords if k.arg == "panel"), None)
            if panel is None or (isinstance(panel, ast.Constant) and panel.value is None):
                figures.append(re.escape(stem))
            else:
                figures.append(f"{re.escape(stem)}_{string_pattern(panel) or '.+'}")
        elif name in LEDGER_CALLS and call.args and "ledger" in getattr(
                getattr(call.func, "value", None), "id", "").lower():
            found = string_pattern(call.args[0])
            if found:
                claims.append(found)
    return figures, claims


def tex_plain(math: str) -> str:
    """Inline TeX as readable text: common commands to Unicode, braces and spacing dropped."""
    for cmd, char in TEX.items():
        math = re.sub(re.escape(cmd) + r"(?![A-Za-z])", char, math)
    math = re.sub(r"\\(?:tilde|widetilde)\s*\{?O\}?", "Õ", math)
    math = re.sub(r"\\(?:math[a-z]*|text[a-z]*|operatorname|bar|hat|tilde|widetilde|overline|"
                  r"boldsymbol|left|right)(?![A-Za-z])\s*", "", math)
    math = re.sub(r"\\[,;!: ]", " ", math)
    return math.replace("{", "").replace("}", "").replace("\\", "")


def plain_heading(text: str) -> str:
    """A markdown heading as plain text: emphasis and code marks removed, $TeX$ made readable."""
    text = re.sub(r"(\*{1,3}|`)(.+?)\1", r"\2", text)
    text = re.sub(r"(?<!\w)(_{1,3})(?=\S)(.+?)(?<=\S)\1(?!\w)", r"\2", text)
    return re.sub(r"\$([^$]+)\$", lambda m: tex_plain(m.group(1)), text).strip()


def outline(cells: list[tuple[str, str]], stem: str) -> tuple[str, list[Section]]:
    """The title (first heading of the opening markdown cell) and the sections, in source order.

    `cells` are (cell_type, source) pairs. A figure saved with panel p is the file <stem>_p, with
    no panel <stem>. Code before the first heading after the title belongs to a section headed by
    the title itself.
    """
    title, sections = "", []
    for kind, source in cells:
        if kind == "markdown":
            for _level, text in HEADING.findall(source):
                if not title:
                    title = plain_heading(text)
                else:
                    sections.append(Section(plain_heading(text)))
            continue
        if kind != "code":
            continue
        if not sections:
            sections.append(Section(title or stem))
        figures, claims = code_calls(source, stem)
        sections[-1].figures += figures
        sections[-1].claims += claims
    return title or stem, sections


def figure_order(names: list[str], sections: list[Section]) -> list[tuple[str, list[str]]]:
    """Group figure file stems by the section that saves them, in reading order.

    Figures no section claims (a name built at run time) come last, in file order, under "".
    """
    left, groups = sorted(names), []
    for sec in sections:
        got = [n for pat in sec.figures for n in left if re.fullmatch(pat, n)]
        got = list(dict.fromkeys(got))
        left = [n for n in left if n not in got]
        if got:
            groups.append((sec.heading, got))
    if left:
        groups.append(("", left))
    return groups


def section_claims(heading: str, sections: list[Section], claims: list[dict]) -> list[dict]:
    """The claims recorded in the section(s) with this heading, in ledger order."""
    pats = [p for s in sections if s.heading == heading for p in s.claims]
    return [c for c in claims
            if any(re.fullmatch(p, c["id"].split(".", 1)[-1]) for p in pats)]


# ---------------------------------------------------------------- inputs
@dataclass
class Notebook:
    paper: str
    stem: str
    title: str = ""
    intro: str = ""                 # opening markdown cell less its title, TeX made readable
    sections: list[Section] = field(default_factory=list)
    figures: list[Path] = field(default_factory=list)
    tables: list[Path] = field(default_factory=list)      # relative to the tables folder
    claims: list[dict] = field(default_factory=list)      # from results/claims.json
    profile: str | None = None
    executed: Path | None = None
    source: Path | None = None
    groups: list[Group] = field(default_factory=list)   # figures in reading order


@dataclass
class Group:
    """Figures a notebook section saves, with the claims recorded in that section."""

    heading: str
    figures: list[Path]
    claims: list[dict]


@dataclass
class IndexRow:
    """One paper on the index page."""

    paper: str
    notebooks: list[Notebook]
    built: bool
    made: str = ""

    @property
    def claims(self) -> list[dict]:
        return [c for nb in self.notebooks for c in nb.claims]

    @property
    def profiles(self) -> list[str]:
        return sorted({nb.profile for nb in self.notebooks if nb.profile})

    @property
    def figures(self) -> list[str]:
        """Site-relative paths of the paper's figures, in reading order."""
        return [f"{self.paper}/figures/{nb.stem}/{f.name}"
                for nb in self.notebooks for g in nb.groups for f in g.figures]


def read_cells(nb: Notebook) -> list[tuple[str, str]]:
    """The notebook's cells: from the .py source, else from the executed copy, else none."""
    if nb.source:
        import jupytext
        return [(c.cell_type, c.source) for c in jupytext.read(nb.source).cells]
    if nb.executed:
        import nbformat
        return [(c.cell_type, c.source) for c in nbformat.read(nb.executed, as_version=4).cells]
    return []


def stems_of(paper: str) -> list[str]:
    """Every notebook of a paper that has a source or any result, in reading (name) order."""
    found = {p.stem for p in (paths.NOTEBOOKS / paper).glob("*.py")}
    for kind, pattern in (("claims", "*.json"), ("executed", "*.ipynb"), ("figures", "*/")):
        folder = paths.results_dir(paper, kind)
        found |= {p.stem for p in folder.glob(pattern)} if folder.exists() else set()
    return sorted(found)


def _merged_differs(doc: dict, notebook: str, own: dict) -> bool:
    """Does the merged ledger lack, or hold other claims than, this notebook's own file? (By
    content: a re-run that rewrites identical claims leaves DVC's claims stage skipped.)"""
    if notebook not in doc.get("profiles", {}):
        return True
    source = f"notebooks/{notebook}.py"                      # how each claim names its notebook
    return [c for c in doc.get("claims", []) if c.get("notebook") == source] != own["claims"]


def load_ledger() -> tuple[dict, str]:
    """results/claims.json, or (with a note) the per-notebook files merged in memory."""
    merged = paths.ledger_files()["json"]
    if merged.exists():
        doc = json.loads(merged.read_text())
        newer = [f"{paper}/{f.stem}" for paper in papers.names()
                 for f in sorted(paths.results_dir(paper, "claims").glob("*.json"))
                 if _merged_differs(doc, f"{paper}/{f.stem}", json.loads(f.read_text()))]
        return doc, ("results/claims.json is older than the claims of " + ", ".join(newer)
                     + ": run `python -m lib.companion.claims` (make report does) and rebuild "
                     "the report."
                     if newer else "")
    from lib.companion import claims as ledger
    docs = ledger.load_all()
    return ({"claims": [c for d in docs for c in d["claims"]],
             "profiles": {d["notebook"]: d["params"].get("profile") for d in docs}},
            "results/claims.json is missing (run `python -m lib.companion.claims`): counts are "
            "read from the per-notebook claim files.")


def collect(paper: str, ledger: dict) -> list[Notebook]:
    """What the results hold for one paper, notebook by notebook."""
    out = []
    for stem in stems_of(paper):
        nid = f"{paper}/{stem}"
        own = read_json(paths.claims_file(nid)) or {}
        nb = Notebook(paper, stem, profile=own.get("params", {}).get("profile")
                      or ledger.get("profiles", {}).get(nid))
        src, exe = paths.NOTEBOOKS / paper / f"{stem}.py", paths.executed_file(nid)
        nb.source, nb.executed = (src if src.exists() else None), (exe if exe.exists() else None)
        fig_dir, tab_dir = paths.figures_dir(nid), paths.tables_dir(nid)
        nb.figures = sorted(fig_dir.glob("*.png")) if fig_dir.exists() else []
        nb.tables = sorted(p.relative_to(tab_dir) for p in tab_dir.rglob("*") if p.is_file()) \
            if tab_dir.exists() else []
        nb.claims = [c for c in ledger.get("claims", [])
                     if c.get("notebook") == f"notebooks/{nid}.py"]
        cells = read_cells(nb)
        nb.title, nb.sections = outline(cells, stem)
        intro = HEADING.sub("", next((s for k, s in cells if k == "markdown"), ""), count=1)
        nb.intro = re.sub(r"\$\$?([^$]+?)\$\$?", lambda m: tex_plain(m.group(1)), intro)
        by_name = {f.stem: f for f in nb.figures}
        nb.groups = [Group(head or "Other figures", [by_name[n] for n in names],
                           section_claims(head, nb.sections, nb.claims) if head else [])
                     for head, names in figure_order(list(by_name), nb.sections)]
        out.append(nb)
    return out


def has_results(notebooks: list[Notebook]) -> bool:
    return any(nb.claims or nb.figures or nb.executed for nb in notebooks)


def git_revision(root: Path) -> str:
    """`git rev-parse --short HEAD` of `root` when root is itself a git checkout, else "unknown"."""
    try:
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=root, text=True,
                             capture_output=True, timeout=10)
        if top.returncode or Path(top.stdout.strip()).resolve() != root.resolve():
            return "unknown (not a git checkout)"
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, text=True,
                             capture_output=True, timeout=10)
        dirty = subprocess.run(["git", "--no-optional-locks", "status", "--porcelain",
                                "--untracked-files=no"],
                               cwd=root, text=True, capture_output=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return "unknown (git not available)"
    if rev.returncode:
        return "unknown (no commit)"
    return rev.stdout.strip() + (" (with uncommitted changes)" if dirty.stdout.strip() else "")


def utc(timestamp: float) -> str:
    return dt.datetime.fromtimestamp(timestamp, dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def results_time(notebooks: list[Notebook]) -> str:
    """When the paper's results were made: the newest claims file or executed notebook."""
    files = [p for nb in notebooks
             for p in [paths.claims_file(f"{nb.paper}/{nb.stem}"), nb.executed] if p and p.exists()]
    return utc(max(p.stat().st_mtime for p in files)) if files else "n/a"


def read_json(path: Path) -> dict | None:
    """A JSON object from a file; None when absent, {"error": ...} when unreadable."""
    if not path.exists():
        return None
    try:
        doc = json.loads(path.read_text())
    except (ValueError, OSError) as err:
        return {"error": f"unreadable: {err}"}
    return doc if isinstance(doc, dict) else {"error": "not a JSON object"}


# ---------------------------------------------------------------- the site
def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def copy(src: Path, dst: Path) -> Path:
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dst)
    return dst


def build_notebook_assets(nb: Notebook, site: Path) -> dict[str, str]:
    """Copy figures, tables and source; render the executed notebook; return relative links."""
    base, links = site / nb.paper, {}
    for png in nb.figures:
        copy(png, base / "figures" / nb.stem / png.name)
        pdf = png.with_suffix(".pdf")
        if pdf.exists():
            copy(pdf, base / "figures" / nb.stem / pdf.name)
    for rel in nb.tables:
        copy(paths.tables_dir(f"{nb.paper}/{nb.stem}") / rel, base / "tables" / nb.stem / rel)
    if nb.source:
        copy(nb.source, base / "src" / nb.source.name)
        write(base / "src" / f"{nb.source.name}.html", ui.source_page(nb, nb.source.read_text()))
        links["source"], links["source_raw"] = f"src/{nb.stem}.py.html", f"src/{nb.stem}.py"
    if nb.executed:
        write(base / f"{nb.stem}.html", render_notebook(nb.executed))
        links["executed"] = f"{nb.stem}.html"
    return links


def render_notebook(executed: Path) -> str:
    """The executed notebook as standalone HTML: nbconvert's lab template minus every script
    that would load from a CDN (require.js, MathJax, mermaid, widgets); CSS is inlined."""
    import nbformat
    from jinja2 import DictLoader
    from nbconvert import HTMLExporter

    offline = ("{%- extends 'index.html.j2' -%}\n"
               "{% block html_head_js %}{% endblock html_head_js %}\n"
               "{% block jupyter_widgets %}{% endblock jupyter_widgets %}\n"
               "{% block html_head_js_mathjax %}{% endblock html_head_js_mathjax %}\n"
               "{% block html_head_js_mermaidjs %}{% endblock html_head_js_mermaidjs %}\n"
               "{% block body_header %}{{ super() }}<p style=\"margin:1em\">"
               "<a href=\"index.html\">&larr; back to the paper's page</a></p>"
               "{% endblock body_header %}\n")
    exporter = HTMLExporter(template_name="lab", extra_loaders=[DictLoader(
        {"offline.html.j2": offline})], template_file="offline.html.j2")
    body, _ = exporter.from_notebook_node(nbformat.read(executed, as_version=4))
    return body


def site_dir() -> Path:
    """results/report: the site (rewritten whole by `build`)."""
    return paths.RESULTS / SITE


def bench_dir() -> Path:
    """results/bench: one JSON per benchmark (bench/<paper>_<kernel>.py writes them)."""
    return paths.RESULTS / "bench"


def read_timing(notebook: str) -> dict | None:
    """The runner's record of a notebook's last run, or None when it was not timed."""
    from lib.companion import runner
    found = read_json(runner.timing_file(notebook))
    return found if found and "error" not in found else None


def read_timing_tables() -> list[tuple[str, list[list[str]]]]:
    """The notebooks' own timing tables (results/timings/<paper>__<stem>__<name>.csv) as rows."""
    import csv
    folder = paths.timings_dir()
    return [(f.stem.replace("__", "/", 1), list(csv.reader(f.open())))
            for f in sorted(folder.glob("*.csv"))] if folder.exists() else []


def build(now: dt.datetime | None = None) -> Path:
    """Rewrite results/report whole from what is under results/; return the index path.

    The site is built in a sibling folder and swapped in at the end, so a failed build leaves
    the previous report in place."""
    final = site_dir()
    site = final.with_name(final.name + ".partial")
    shutil.rmtree(site, ignore_errors=True)
    site.mkdir(parents=True)
    ledger, note = load_ledger()
    rows = []
    for paper in papers.names():
        notebooks = collect(paper, ledger)
        built = has_results(notebooks)
        if built:
            links = {nb.stem: build_notebook_assets(nb, site) for nb in notebooks}
            write(site / paper / "index.html", ui.paper_page(paper, notebooks, links, ledger))
        rows.append(IndexRow(paper, notebooks, built, results_time(notebooks) if built else ""))
    stages = [(r.paper, nb.stem) for r in rows if r.built for nb in r.notebooks]
    timings = {f"{p}__{s}": read_timing(f"{p}/{s}") for p, s in stages}
    bench = [(f.stem, read_json(f)) for f in sorted(bench_dir().glob("*.json"))] \
        if bench_dir().exists() else []
    tables = read_timing_tables()
    write(site / "performance.html", ui.performance_page(stages, timings, bench, tables))
    write(site / "style.css", ui.CSS)
    now = now or dt.datetime.now(dt.timezone.utc)
    write(site / "index.html", ui.index_page(rows, git_revision(paths.ROOT),
                                             now.strftime("%Y-%m-%d %H:%M:%S UTC"), note))
    shutil.rmtree(final, ignore_errors=True)
    site.rename(final)
    return final / "index.html"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lib.companion.report",
                                     description="build the static report under results/report")
    parser.parse_args(argv)
    index = build()
    print(f"report: {index}  (open it in a browser; no server needed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
