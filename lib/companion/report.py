"""The book: every paper's figures, claims and executed notebooks, built by Sphinx and opened from
disk with no network.

    python -m lib.companion.report             (the `report` stage; `make report`)

Writes a Sphinx project into build/book/ (conf.py and static files from lib/companion/book_site/,
the MyST pages of `lib.companion.book`, copies of the figures, tables and notebooks, the guide's
pages from docs/guide/ (`lib.companion.guide`)) and builds it
with warnings as errors into results/report/, swapped in whole at the end so that a failed build
leaves the previous book. It reads the declarations, results/claims.json (the merged ledger),
results/<paper>/{figures,tables,executed}/, and, as found, results/timings/ and results/bench/
(wall-clock values: volatile, outside every DVC output). Only the index holds volatile values
(build time, revision, result times).

The verdicts (notebooks/<paper>/verdict.yaml, `lib.companion.verdicts`) open the index and each
chapter. They live in a file of their own, not in paper.yaml, because every notebook stage
depends on its paper.yaml: a verdict edit must rebuild the book, never re-run a paper's
notebooks. Before writing anything the report checks them against the ledger and refuses the
book when a verdict contradicts the statuses of the claims it names.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from lib.companion import (
    book,
    book_provenance,
    codepaths,
    guide,
    papers,
    paths,
    timings,
    verdicts,
    verify,
)

SITE = Path(__file__).with_name("book_site")
HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$", re.M)


class BookError(RuntimeError):
    """Sphinx refused the book (a warning is an error: a broken reference, a missing image)."""


def site_dir() -> Path:
    """results/report: the built book."""
    return paths.RESULTS / "report"


def source_dir() -> Path:
    """build/book: the generated Sphinx project (rewritten whole on every build)."""
    return paths.ROOT / "build" / "book"


# ---------------------------------------------------------------- inputs
def read_json(path: Path) -> dict | None:
    """A JSON object from a file; None when absent, {"error": ...} when unreadable."""
    if not path.exists():
        return None
    try:
        doc = json.loads(path.read_text())
    except (ValueError, OSError) as err:
        return {"error": f"unreadable: {err}"}
    return doc if isinstance(doc, dict) else {"error": "not a JSON object"}


def current_params() -> dict | None:
    """The params files as DVC would run them, read once per build (None when they cannot be
    read)."""
    from lib.companion import params
    try:
        return params.read_all()
    except params.ParamsError:
        return None


def stale_keys(notebook: str, own: dict, raw: dict | None) -> list[str]:
    """The parameters whose value in params.yaml (`raw`) now differs from the one the
    notebook's claims were made with ("key: then -> now"); [] when they agree or params.yaml
    cannot be read."""
    from lib.companion import params
    if raw is None:
        return []
    made = own.get("params") or {}
    try:
        now = params.validate(notebook, params.merge(raw, notebook)).model_dump()
    except params.ParamsError:
        return []
    return [f"{k}: {made.get(k)!r} -> {v!r}" for k, v in now.items() if made.get(k) != v]


def _merged_differs(doc: dict, notebook: str, own: dict) -> bool:
    """Does the merged ledger lack, or hold other claims than, this notebook's own file? (By
    content: a re-run that rewrites identical claims leaves DVC's claims stage skipped.)"""
    if notebook not in doc.get("profiles", {}):
        return True
    source = f"notebooks/{notebook}.py"                      # how each claim names its notebook
    return [c for c in doc.get("claims", []) if c.get("notebook") == source] != own["claims"]


def load_ledger() -> tuple[dict, str]:
    """results/claims.json and a warning when it is missing or older than a notebook's claims
    (then the per-notebook files, the ledger's own records, are merged in memory)."""
    from lib.companion import ledger
    merged = paths.ledger_files()["json"]
    docs = ledger.load_all()
    doc = read_json(merged)
    if doc is not None and "error" in doc:
        note = (f"results/claims.json is {doc['error']} (run `python -m lib.companion.ledger`): "
                "this book shows the per-notebook claim files.")
    elif doc is not None:
        newer = [d["notebook"] for d in docs if _merged_differs(doc, d["notebook"], d)]
        if not newer:
            return doc, ""
        note = ("results/claims.json is older than the claims of " + ", ".join(newer)
                + ": this book shows the per-notebook claim files; run `python -m "
                "lib.companion.ledger` (make report does) to merge them.")
    else:
        note = ("results/claims.json is missing (run `python -m lib.companion.ledger`): this "
                "book shows the per-notebook claim files.")
    return ledger.merged(docs, ledger.previous_summary()), note


def notebook_title(cells: list) -> str:
    """The first heading of the opening markdown cell (MyST, mathematics kept)."""
    first = next((c.source for c in cells if c.cell_type == "markdown"), "")
    found = HEADING.search(first)
    return found.group(1) if found else ""


def utc(timestamp: float) -> str:
    return dt.datetime.fromtimestamp(timestamp, dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def results_time(notebooks: list[str]) -> str:
    """When a paper's results were made: its newest claims file or executed notebook."""
    files = [p for n in notebooks for p in (paths.claims_file(n), paths.executed_file(n))
             if p.exists()]
    return utc(max(p.stat().st_mtime for p in files)) if files else "n/a"


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


# ---------------------------------------------------------------- the source tree
def copy(src: Path, dst: Path) -> Path:
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dst)
    return dst


# A notebook's link to a section of its paper's spec, and the spec's links to notebooks, as the
# repository lays the files out; the book puts the spec at <paper>/spec and the notebooks at
# <paper>/notebooks/<stem>.
SPEC_LINK = re.compile(r"\[([^\]]+)\]\(\.\./\.\./docs/specs/(\w+)\.md(#[\w-]+)?\)")
NOTEBOOK_LINK = re.compile(r"\]\(\.\./\.\./notebooks/(\w+)/(\w+)\.py\)")


def book_spec_links(markdown: str) -> str:
    """A notebook cell's spec links as raw HTML to the spec's page in the book (Sphinx does not
    know the spec's `<a id>` anchors, and would refuse a MyST link to one)."""
    return SPEC_LINK.sub(lambda m: f'<a href="../../{m[2]}/spec.html{m[3] or ""}">{m[1]}</a>',
                         markdown)


def spec_page(paper: str, dst: Path) -> bool:
    """Copy docs/specs/<paper>.md into the book as <paper>/spec.md, its notebook links pointing
    at the book's notebook pages; False when the paper has no spec page."""
    source = paths.ROOT / "docs" / "specs" / f"{paper}.md"
    if not source.exists():
        return False
    text = NOTEBOOK_LINK.sub(lambda m: f"](../{m[1]}/notebooks/{m[2]}.ipynb)", source.read_text())
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_text(text, encoding="utf-8")
    return True


def notebook_page(notebook: str, dst: Path, profile: str | None) -> tuple[bool, str]:
    """Write the notebook's page: the executed copy when the run kept one, else the source
    without outputs; a note under the title says which. Returns (executed, title)."""
    import jupytext
    import nbformat
    executed = paths.executed_file(notebook)
    node = (nbformat.read(executed, as_version=4) if executed.exists()
            else jupytext.read(paths.notebook_source(notebook)))
    stem = notebook.split("/")[1]
    back = (f'<a href="../index.html#{book.anchor(*notebook.split("/"))}">the chapter</a> · '
            f'<a href="../claims.html#notebook={stem}">its claims</a>')
    note = (f"Executed by the `{stem}` stage with profile `{profile or 'n/a'}`; rendered as it "
            f"ran, nothing re-executed. Back to {back}." if executed.exists() else
            f"This build kept no executed copy of `{notebook}` (the smoke run of `make test` "
            "checks notebooks under nbval, which keeps no outputs): the source is shown without "
            f"outputs; `make repro` renders them. Back to {back}.")
    for cell in node.cells:
        if cell.cell_type == "markdown":
            cell.source = book_spec_links(cell.source)
    node.cells.insert(1, nbformat.v4.new_markdown_cell(f"```{{note}}\n{note}\n```"))
    node.metadata.pop("papermill", None)
    node.metadata.setdefault("language_info", {"name": "python"})   # jupytext's source has none
    dst.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(node, dst)
    return executed.exists(), notebook_title(node.cells)


def chapter(notebook: str, ledger: dict, src: Path, raw: dict | None) -> book.Chapter:
    """Copy one notebook's figures, tables and page into the book; return what it shows."""
    paper, stem = notebook.split("/")
    base = src / paper
    own = read_json(paths.claims_file(notebook)) or {}
    profile = own.get("params", {}).get("profile") or ledger.get("profiles", {}).get(notebook)
    figures = {}
    fig_dir = paths.figures_dir(notebook)
    for png in sorted(fig_dir.glob("*.png")) if fig_dir.exists() else []:
        figures[png.stem] = copy(png, base / "figures" / stem / png.name)
        if png.with_suffix(".pdf").exists():
            copy(png.with_suffix(".pdf"), base / "figures" / stem / f"{png.stem}.pdf")
    tab_dir, tables = paths.tables_dir(notebook), []
    for f in sorted(tab_dir.rglob("*")) if tab_dir.exists() else []:
        if f.is_file():
            rel = f"tables/{stem}/{f.relative_to(tab_dir).as_posix()}"
            tables.append(copy(f, base / rel).relative_to(base).as_posix())
    page = base / "notebooks" / f"{stem}.ipynb"
    executed, title = notebook_page(notebook, page, profile)
    source = f"notebooks/{notebook}.py"                     # how each claim names its notebook
    claims = [c for c in ledger.get("claims", []) if c.get("notebook") == source]
    run = ledger.get("unfinished", {}).get(notebook)
    return book.Chapter(papers.notebook_entry(notebook), title or stem, claims, figures, tables,
                        executed, profile, run, stale_keys(notebook, own, raw) if own else [])


def read_timings(notebooks: list[str]) -> list[tuple[str, dict | None]]:
    """The runner's record of each notebook's last run (None when it was not timed)."""
    from lib.companion import runner
    out = []
    for n in notebooks:
        doc = read_json(runner.timing_file(n))
        out.append((n.replace("/", "-"), doc if doc and "error" not in doc else None))
    return out


def read_timing_tables() -> list[tuple[str, list[list[str]]]]:
    """The notebooks' own timing tables (results/timings/<paper>__<stem>__<name>.csv)."""
    import csv
    folder = paths.timings_dir()
    return [(f.stem.replace("__", "/", 1), list(csv.reader(f.open())))
            for f in sorted(folder.glob("*.csv"))] if folder.exists() else []


def read_bench() -> list[tuple[str, dict]]:
    folder = paths.RESULTS / "bench"
    found = [(f.stem, read_json(f)) for f in sorted(folder.glob("*.json"))] \
        if folder.exists() else []
    return [(name, doc) for name, doc in found if doc and "error" not in doc]


def bench_figure(name: str, doc: dict, dst: Path) -> str | None:
    """One log-log panel per curve of a benchmark: each side's medians, its bound dotted, a
    capped side's last point crossed; None for a benchmark without curves."""
    curves = doc.get("curves")
    if not isinstance(curves, dict) or not curves:
        return None
    from matplotlib.ticker import FuncFormatter, NullFormatter

    from lib.companion import plotting
    ncols = min(4, len(curves))
    nrows = -(-len(curves) // ncols)
    fig, axes = plotting.figure(nrows, ncols, width=3.4 * ncols + 0.4, height=2.9 * nrows,
                                squeeze=False)
    for ax in axes.flat[len(curves):]:
        ax.set_visible(False)
    for ax, (label, c) in zip(axes.flat, curves.items()):
        order = [c["reference"]] + [k for k in c["sides"] if k != c["reference"]]
        colours = dict(zip(order, plotting.palette(len(order))))
        for side in order:
            s = c["sides"][side]
            ax.plot(s["sizes"], s["median_s"], "o-", ms=3, color=colours[side],
                    label=f"{side} (exponent {book.exponent(s['exponent'])})")
            if s.get("bound_s"):
                ax.plot(s["sizes"], s["bound_s"], ":", color=colours[side], lw=1)
            if side in c["capped_after"]:
                ax.plot(s["sizes"][-1], s["median_s"][-1], "x", ms=9, mew=2, color=colours[side])
        powers_of_two = all(isinstance(n, int) and n > 0 and n & (n - 1) == 0 for n in c["sizes"])
        ax.set_xscale("log", base=2 if powers_of_two else 10)
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set(yscale="log", xlabel=c["axis"], ylabel="seconds per run", title=label)
        ax.legend(fontsize=7)
    dst.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(dst, metadata={"Software": None})
    import matplotlib.pyplot as plt
    plt.close(fig)
    return dst.name


def bench_ratios(bench: list[tuple[str, dict]]) -> list[tuple[str, float]]:
    """(benchmark / curve / kernel side, reference time over the side's) at the largest size
    both ran, for every benchmark with cost curves; the old code's summed CPU seconds over the
    new code's, for a pipeline-cost benchmark."""
    out = []
    for name, doc in bench:
        if doc.get("kind") == "stage_cost":
            total = (doc.get("summary") or {}).get("totals", {}).get("old_over_new", {})
            if isinstance(total.get("ratio"), (int, float)) and total["ratio"] > 0:
                out.append((f"{name} / {total.get('stages')} stages / old code over new",
                            float(total["ratio"])))
            continue
        for label, c in (doc.get("curves") or {}).items() if isinstance(doc.get("curves"),
                                                                         dict) else []:
            ref = c.get("reference")
            for key, value in (c.get("ratio_at_largest_common") or {}).items():
                side = key.removeprefix(f"{ref}_over_")
                if isinstance(value, (int, float)) and value > 0:
                    out.append((f"{name} / {label} / {side}", float(value)))
    return out


# the overview's colours, named once so that the bars, the marks and the legend agree
WITHIN, OVER, BUDGET, ALLOWANCE, SLOWER = "#0072b2", "#d55e00", "black", "#7f7f7f", "#d55e00"
WITHIN_LABEL = "within its allowance, or none"    # the papers covered in depth have none


def overview_panels(totals: dict[str, dict], bench: list[tuple[str, dict]]) -> tuple[bool, bool]:
    """Which panels the performance overview has: (stage times by paper, benchmark ratios)."""
    return any(t["measured"] for t in totals.values()), bool(bench_ratios(bench))


def performance_figure(totals: dict[str, dict], bench: list[tuple[str, dict]],
                       dst: Path) -> str | None:
    """The performance page's opening figure (`overview_figure`) saved to `dst`; None when
    nothing was measured."""
    fig = overview_figure(totals, bench)
    if fig is None:
        return None
    import matplotlib.pyplot as plt
    dst.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(dst, metadata={"Software": None})
    plt.close(fig)
    return dst.relative_to(dst.parent.parent).as_posix() if dst.parent.name == "_static" \
        else dst.name


def overview_figure(totals: dict[str, dict], bench: list[tuple[str, dict]]):
    """Each paper's stage times on two cores against its budget and allowance, and the
    benchmarks' ratios over their naive references (each panel only when measured; None when
    neither was); each panel's legend names the colours it draws."""
    measured = {k: t for k, t in totals.items() if t["measured"]}
    ratios = bench_ratios(bench)
    if not measured and not ratios:
        return None
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    from lib.companion import plotting
    # one panel above the other, each as tall as its bars need (fits the article's width)
    heights = [0.22 * n + 1.2 for n in (len(measured), len(ratios)) if n]
    fig, axes = plotting.figure(len(heights), 1, width=7.0, height=sum(heights) + 0.3,
                                squeeze=False, gridspec_kw={"height_ratios": heights},
                                layout="constrained")
    axes = list(axes.flat)
    if measured:
        ax = axes.pop(0)
        names = list(measured)[::-1]                       # first paper at the top
        walls = [max(measured[n]["cores_s"], 0.1) for n in names]
        over = [timings.verdict(measured[n]) == "over" for n in names]
        ax.barh(names, walls, color=[OVER if o else WITHIN for o in over])
        for i, n in enumerate(names):
            if measured[n]["budget_s"]:
                ax.plot([measured[n]["budget_s"]] * 2, [i - 0.4, i + 0.4], color=BUDGET, lw=2)
                ax.plot([measured[n]["allowance_s"]] * 2, [i - 0.4, i + 0.4], color=ALLOWANCE,
                        lw=2, ls="--")
            if measured[n]["measured"] < measured[n]["stages"]:
                ax.text(walls[i], i, f"  {measured[n]['measured']}/{measured[n]['stages']} "
                        "stages", va="center", fontsize=7)
        ax.set(xscale="log", xlabel="wall time of the paper's stages on two cores (s), last run",
               title="stage time by paper")
        # the legends sit beside their panels: inside, they hid the longest papers' bars
        ax.legend(handles=[Patch(color=WITHIN, label=WITHIN_LABEL),
                           Patch(color=OVER, label="over its allowance"),
                           Line2D([], [], color=BUDGET, lw=2,
                                  label=f"budget ({timings.BUDGET_S // 60} min)"),
                           Line2D([], [], color=ALLOWANCE, lw=2, ls="--",
                                  label=f"allowance ({timings.ALLOWANCE_S // 60} min)")],
                  fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    if ratios:
        ax = axes.pop(0)
        labels, values = [r[0] for r in ratios][::-1], [r[1] for r in ratios][::-1]
        ax.barh(labels, values, color=[WITHIN if v >= 1 else SLOWER for v in values])
        ax.axvline(1, color=ALLOWANCE, lw=1, ls=":")
        ax.set(xscale="log", xlabel="naive reference time over kernel time (x)",
               title="benchmarks: naive time over kernel time")
        ax.legend(handles=[Patch(color=WITHIN, label="kernel faster"),
                           Patch(color=SLOWER, label="kernel slower"),
                           Line2D([], [], color=ALLOWANCE, lw=1, ls=":", label="equal time")],
                  fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig


def load_verdicts(ledger: dict) -> tuple[dict[str, verdicts.Verdict | None], set[str]]:
    """Every paper's verdicts and the papers whose verdicts this ledger checks; a malformed
    verdict file, or a verdict its claims' statuses contradict, refuses the book."""
    found, problems = {}, []
    for short in papers.names():
        try:
            found[short] = verdicts.load(short)
        except verdicts.VerdictError as err:
            problems.append(str(err))
    problems += [line for v in found.values() if v for line in verdicts.check(v, ledger)]
    if problems:
        raise BookError("the verdicts contradict results/claims.json (or cannot be read); "
                        "fix notebooks/<paper>/verdict.yaml:\n" + "\n".join(problems))
    return found, {s for s, v in found.items() if v and verdicts.checked_profile(v, ledger)}


def write_sources(src: Path, now: dt.datetime) -> Path:
    """The whole Sphinx project under `src` (rewritten from scratch)."""
    shutil.rmtree(src, ignore_errors=True)
    shutil.copytree(SITE, src, ignore=shutil.ignore_patterns("__pycache__"))
    ledger, note = load_ledger()
    found, checked = load_verdicts(ledger)
    raw = current_params()
    rows = []
    for p in papers.all_papers():
        chapters = [chapter(n, ledger, src, raw) for n in p.notebook_ids()]
        carried = (ledger.get("summary", {}).get(p.short)
                   if p.short in ledger.get("carried", []) else None)
        rows.append(book.PaperRow(p, chapters, results_time(p.notebook_ids()),
                                  spec=spec_page(p.short, src / p.short / "spec.md"),
                                  verdict=found.get(p.short),
                                  verdict_checked=p.short in checked, carried=carried))
    for row in rows:
        (src / row.paper.short / "index.md").write_text(book.chapter_page(row), encoding="utf-8")
        (src / row.paper.short / "claims.md").write_text(book.claims_page(row), encoding="utf-8")
    built = [n for row in rows if row.built for n in row.paper.notebook_ids()]
    bench = read_bench()
    figures = {name: f for name, doc in bench
               if (f := bench_figure(name, doc, src / f"bench_{name}.png"))}
    totals = timings.paper_totals(timings.collect()["stages"])
    overview = performance_figure(totals, bench, src / "_static" / "performance.png")
    (src / "performance.md").write_text(
        book.performance_page(read_timings(built), totals, bench, read_timing_tables(), figures,
                              overview, overview_panels(totals, bench)), encoding="utf-8")
    made = read_json(paths.ledger_files()["fingerprints"]) or {}
    verify_report = verify.REPORT.read_text() if verify.REPORT.exists() else None
    (src / "provenance.md").write_text(book_provenance.provenance_page(
        made, codepaths.load(), codepaths.stale(), verify_report), encoding="utf-8")
    guide_pages = guide.write_pages(src)             # docs/guide/, under the index's "Guide"
    (src / "index.md").write_text(book.index_page(
        rows, git_revision(paths.ROOT), now.strftime("%Y-%m-%d %H:%M:%S UTC"), note,
        book_provenance.made_line(made)) + "\n" + guide.toctree(guide_pages), encoding="utf-8")
    return src


def sphinx_build(src: Path, out: Path) -> None:
    """Sphinx's HTML builder, warnings as errors, a fresh environment every time."""
    done = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going",
                           "-q", "-E", "-d", str(src.parent / f"{src.name}.doctrees"), str(src),
                           str(out)], capture_output=True, text=True)
    if done.returncode:
        raise BookError(f"sphinx-build refused the book in {src} (warnings are errors):\n"
                        + (done.stderr or done.stdout)[-6000:])


def build(now: dt.datetime | None = None) -> Path:
    """Rewrite results/report whole from what is under results/; return the index path."""
    final = site_dir()
    partial = final.with_name(final.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    src = write_sources(source_dir(), now or dt.datetime.now(dt.timezone.utc))
    sphinx_build(src, partial)
    shutil.rmtree(final, ignore_errors=True)
    partial.rename(final)
    return final / "index.html"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lib.companion.report",
                                     description="build the book under results/report")
    parser.parse_args(argv)
    try:
        index = build()
    except (BookError, guide.GuideError) as err:
        print(err, file=sys.stderr)
        return 1
    except OSError as err:                 # a read-only or full results/ (or build/)
        where = err.filename or "results/report"
        print(f"cannot write {where}: {err.strerror or err}; the book is built in build/book and "
              "swapped into results/report: make both writable (`chmod -R u+w results build`) "
              "or free space, then run `python -m lib.companion.report` again", file=sys.stderr)
        return 1
    print(f"book: {index}  (open it in a browser; no server needed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
