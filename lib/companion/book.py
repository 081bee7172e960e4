"""The book's MyST pages, as text: the index, one chapter and one claims ledger per paper, the
performance page. Pure functions of what `lib.companion.report` collected (the declarations,
results/claims.json, the results folders); Sphinx with myst-nb turns them into the site.

Claims come only from the ledger's records; which claims sit beside a figure, only from the
figure's declaration (`claims:` in paper.yaml).
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from lib.companion import papers
from lib.companion.claims import STATUSES

ARXIV_ID = re.compile(r"^\d{4}\.\d{4,5}(v\d+)?$")      # else the declaration's text, unlinked
PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")      # every ASCII punctuation mark
LEDGER_COLUMNS = ("status", "id", "kind", "provenance", "statement", "expected", "measured",
                  "tolerance / evidence", "source", "notebook")
BESIDE_COLUMNS = ("status", "claim", "statement", "measured, against expected")


@dataclass
class Chapter:
    """What the results hold for one declared notebook."""

    entry: papers.NotebookEntry
    title: str                                   # the notebook's first heading (MyST)
    claims: list[dict]                           # its records from results/claims.json
    figures: dict[str, Path]                     # file stem -> PNG in the book's source tree
    tables: list[str] = field(default_factory=list)   # book-relative paths of its tables
    executed: bool = False                       # the page renders an executed copy
    profile: str | None = None

    @property
    def stem(self) -> str:
        return self.entry.stem


@dataclass
class PaperRow:
    """One paper on the index: its declaration, its chapters, when its results were made."""

    paper: papers.Paper
    chapters: list[Chapter]
    made: str

    @property
    def built(self) -> bool:
        return any(c.claims or c.figures or c.executed for c in self.chapters)

    @property
    def claims(self) -> list[dict]:
        return [c for ch in self.chapters for c in ch.claims]

    @property
    def profiles(self) -> str:
        return ", ".join(sorted({c.profile for c in self.chapters if c.profile})) or "n/a"


def text(value) -> str:
    """Plain text safe inside MyST: every markdown or math character escaped, one line."""
    return PUNCTUATION.sub(r"\\\1", " ".join(str(value if value is not None else "").split()))


def code(value: str) -> str:
    """Inline code, with a fence longer than any backtick run inside."""
    ticks = "`" * (max((len(m) for m in re.findall(r"`+", value)), default=0) + 1)
    return f"{ticks} {value} {ticks}" if ticks != "`" else f"`{value}`"


def list_table(header: tuple[str, ...], rows: list[list[str]], classes: str) -> str:
    """A MyST list-table; cells are MyST already (escape text with `text`), paragraphs of a
    cell separated by blank lines."""
    def cell(value: str) -> str:
        return (value or " ").replace("\n", "\n    ")
    lines = ["```{list-table}", ":header-rows: 1", f":class: {classes}", ""]
    for row in [[text(h) for h in header], *rows]:
        lines += [f"* - {cell(row[0])}", *(f"  - {cell(c)}" for c in row[1:])]
    return "\n".join(lines + ["```", ""])


def counts(claims: list[dict]) -> dict[str, int]:
    """Claims per status, every status present (zeros included), in the ledger's order."""
    n = Counter(c["status"] for c in claims)
    return {s: n.get(s, 0) for s in STATUSES}


def counts_line(claims: list[dict]) -> str:
    return ", ".join(f"{k} {v}" for k, v in counts(claims).items()) if claims else "no claims"


def short_id(claim: dict) -> str:
    return claim["id"].split(".", 1)[1]


def notebook_link(stem: str, label: str | None = None) -> str:
    return f"[{text(label or stem)}](notebooks/{stem}.ipynb)"


def anchor(paper: str, stem: str) -> str:
    """The id of a notebook's section in its chapter (docutils' form of `<paper>-<stem>`)."""
    return re.sub(r"[^a-z0-9]+", "-", f"{paper}-{stem}".lower()).strip("-")


# ---------------------------------------------------------------- index
def index_page(rows: list[PaperRow], revision: str, built_at: str, note: str) -> str:
    """Every declared paper with its claim counts, profile and results time; the book's toc."""
    head = ("paper", "notebooks", *STATUSES, "profile", "results made")
    table = []
    for row in rows:
        name = f"[{text(row.paper.short)}]({row.paper.short}/index.md)"
        if not row.built:
            table.append([name, str(len(row.chapters)), "not yet built", *[""] * 6])
            continue
        table.append([name, str(len(row.chapters)), *map(str, counts(row.claims).values()),
                      text(row.profiles), text(row.made)])
    lines = ["# ICML 2026 paper companion", "",
             "Every figure and claim of the papers below, as the last `dvc repro` (or `make "
             "test`'s smoke run) left them: each chapter shows a paper's figures in reading "
             "order with the claims beside them, its claims ledger (filterable), and its "
             "executed notebooks.", "",
             f"Book built {text(built_at)} from git revision {text(revision)}.", ""]
    if note:
        lines += ["```{warning}", note, "```", ""]
    lines += [list_table(head, table, "papers"), "",
              "```{toctree}", ":maxdepth: 1", ":caption: Papers", "",
              *(f"{r.paper.short}/index" for r in rows), "```", "",
              "```{toctree}", ":maxdepth: 1", ":caption: Across papers", "", "performance",
              "```", ""]
    return "\n".join(lines)


# ---------------------------------------------------------------- a paper's chapter
def beside_table(claims: list[dict]) -> str:
    """The claims set beside a figure: status, id (provenance, kind), statement, measured
    with the expected value under it (four columns fit beside the page's contents)."""
    rows = [[text(c["status"]), f"{code(short_id(c))}\n\n{text(c['provenance'])}, {c['kind']}",
             text(c["statement"]), f"{text(c['measured'])}\n\n*expected* {text(c['expected'])}"]
            for c in claims]
    return list_table(BESIDE_COLUMNS, rows, "claims claims-beside")


def figure_block(paper: str, stem: str, fig: papers.Figure | None, name: str,
                 png: Path | None, claims: list[dict]) -> list[str]:
    """One figure with its caption and the claims its declaration sets beside it."""
    caption = text(fig.caption if fig else f"{name} (saved, but not declared in paper.yaml)")
    out = []
    if png is None:
        out += [f"**{caption}**", "", f"*{text(name + '.png was not made by this run.')}*", ""]
    else:
        rel = f"figures/{stem}/{png.name}"
        pdf = png.with_suffix(".pdf")
        out += [f"```{{figure}} {rel}", f":name: fig-{paper}-{name}", "",
                caption + (f" ({{download}}`PDF <figures/{stem}/{pdf.name}>`)"
                           if pdf.exists() else ""), "```", ""]
    if claims:
        out += [beside_table(claims), ""]
    elif fig is not None:
        out += ["*No claim is read off this figure.*", ""]
    return out


def notebook_section(paper: str, ch: Chapter) -> list[str]:
    """A notebook within its paper's chapter: links, counts, figures, then the other claims."""
    out = [f"({anchor(paper, ch.stem)})=", f"## {ch.stem}: {ch.title}", ""]
    links = [notebook_link(ch.stem, "the notebook" + ("" if ch.executed else " (not executed "
                                                                              "in this build)")),
             f'<a href="claims.html#notebook={ch.stem}">its claims</a>']
    links += [f"{{download}}`{Path(t).name} <{t}>`" for t in ch.tables]
    out += [" · ".join(links), "",
            f"Profile {code(ch.profile or 'n/a')}; {text(counts_line(ch.claims))}.", ""]
    by_id = {short_id(c): c for c in ch.claims}
    shown = set()
    for fig in ch.entry.figures:
        beside = [by_id[i] for i in fig.claims if i in by_id]
        shown |= {short_id(c) for c in beside}
        out += figure_block(paper, ch.stem, fig, fig.name, ch.figures.get(fig.name), beside)
    for name in sorted(set(ch.figures) - {f.name for f in ch.entry.figures}):
        out += figure_block(paper, ch.stem, None, name, ch.figures[name], [])
    rest = [c for c in ch.claims if short_id(c) not in shown]
    if rest:
        out += ["**Claims no figure shows**" if ch.entry.figures else "**Claims**", "",
                beside_table(rest), ""]
    return out


def chapter_page(row: PaperRow) -> str:
    """A paper: citation, counts, each notebook's figures with their claims; its toc."""
    p = row.paper
    where = (f"arXiv [{p.arxiv}](https://arxiv.org/abs/{p.arxiv})" if ARXIV_ID.match(p.arxiv)
             else text(p.arxiv))
    lines = [f"# {text(p.title)}", "",
             f"{text(', '.join(p.authors))} · {where} · notebooks in `notebooks/{p.short}/` · "
             "[the claims ledger](claims.md)", ""]
    if not row.built:
        lines += ["```{note}", f"Not yet built: `make repro PAPER={p.short}` runs its notebooks.",
                  "```", ""]
    else:
        lines += [f"Profile {code(row.profiles)}; results made {text(row.made)}; "
                  f"{text(counts_line(row.claims))}.", ""]
    for ch in row.chapters:
        lines += notebook_section(p.short, ch)
    lines += ["```{toctree}", ":hidden:", "", "claims",
              *(f"notebooks/{ch.stem}" for ch in row.chapters), "```", ""]
    return "\n".join(lines)


# ---------------------------------------------------------------- a paper's claims ledger
def claims_page(row: PaperRow) -> str:
    """Every record of results/claims.json for the paper, one row each, filterable."""
    claims = row.claims
    rows = []
    for c in claims:
        stem = Path(c["notebook"]).stem
        rows.append([text(c["status"]), code(c["id"]), text(c["kind"]), text(c["provenance"]),
                     text(c["statement"]), text(c["expected"]), text(c["measured"]),
                     text(c["tolerance"]), text(c["source"]), notebook_link(stem)])
    return "\n".join([
        f"# {text(row.paper.short)}: the claims ledger", "",
        f"{len(claims)} claims: {text(counts_line(claims))}. The selects filter the table; the "
        "filter is kept in the address (`claims.html#status=fail&provenance=paper`), so a "
        "link can carry it. Provenance: `paper` (stated in the paper), `derived` (follows from "
        "it, checked here), `reconstructed` (our guess at a setting the paper does not give).",
        "", list_table(LEDGER_COLUMNS, rows, "claims claims-ledger") if claims
        else "*No claims recorded yet.*", ""])


# ---------------------------------------------------------------- performance
def ratio_items(doc: dict) -> list[tuple[str, float]]:
    """The ratios a benchmark's JSON reports (top-level keys with 'ratio' in the name)."""
    return [(k, float(v)) for k, v in doc.items()
            if "ratio" in k.lower() and isinstance(v, (int, float))]


def fmt(value) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def performance_page(stages: list[tuple[str, dict | None]], bench: list[tuple[str, dict]],
                     tables: list[tuple[str, list[list[str]]]], plot: str | None) -> str:
    """Each notebook stage's last wall time, the benchmarks' ratios (a plot and a table) and
    the notebooks' own timing tables."""
    rows, total = [], 0.0
    for name, t in stages:
        if t and isinstance(t.get("wall_s"), (int, float)):
            total += t["wall_s"]
            rows.append([code(name), text(t.get("profile", "?")), f"{t['wall_s']:.2f}",
                         text(t.get("finished", ""))])
        else:
            rows.append([code(name), "", "not measured", ""])
    rows.append(["**total measured**", "", f"**{total:.2f}**", ""])
    lines = ["# Performance", "", "## Stage wall times (last run)", "",
             "From `results/timings/` (the runner writes one record per run; wall-clock values "
             "are kept out of every DVC output). Runs under nbval (`make test`) are not timed.",
             "", list_table(("stage", "profile", "wall time (s)", "finished"), rows, "timings"),
             "## Benchmarks", ""]
    if not bench:
        lines += ["*No benchmarks measured: `results/bench/` is empty (`make bench`).*", ""]
    else:
        lines += ["Each benchmark runs a naive reference and our kernel side by side on this "
                  "machine and reports their ratio (`bench/*.py`, `make bench`).", ""]
        if plot:
            lines += [f"```{{figure}} {plot}", ":name: fig-bench-ratios", ":width: 80%", "",
                      "Speed-up of each kernel over its naive reference (log scale).", "```", ""]
        for name, doc in bench:
            items = [[code(k), text(fmt(v))] for k, v in flat_items(doc)]
            lines += [f"### {text(name)}", "", list_table(("key", "value"), items, "bench"), ""]
    if tables:
        lines += ["## Timings inside notebooks", "",
                  "From `results/timings/*.csv` (training seconds per run and the like).", ""]
        for name, table in tables:
            if table:
                lines += [f"### {text(name)}", "",
                          list_table(tuple(table[0]), [[text(c) for c in r] for r in table[1:]],
                                     "timings"), ""]
    return "\n".join(lines)


def flat_items(doc: dict, prefix: str = "") -> list[tuple[str, object]]:
    """Scalars of a JSON object, one level of nesting flattened as a.b."""
    out = []
    for key, value in doc.items():
        if isinstance(value, dict) and not prefix:
            out += flat_items(value, f"{key}.")
        elif isinstance(value, (str, int, float, bool)) or value is None:
            out.append((prefix + key, value))
    return out
