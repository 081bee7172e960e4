"""The book's MyST pages, as text: the index, one chapter and one claims ledger per paper, the
performance page. Pure functions of what `lib.companion.report` collected (the declarations,
results/claims.json, the results folders); Sphinx with myst-nb turns them into the site.

Claims come only from the ledger's records; which claims sit beside a figure, only from the
figure's declaration (`claims:` in paper.yaml).
"""
from __future__ import annotations

import html
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from lib.companion import claims as claims_mod
from lib.companion import ledger, papers, runs, timings, verdicts
from lib.companion.claims import STATUSES

ARXIV_ID = re.compile(r"^\d{4}\.\d{4,5}(v\d+)?$")      # else the declaration's text, unlinked
PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")      # every ASCII punctuation mark
LEDGER_COLUMNS = ("status", "claim", "statement", "expected", "measured", "tolerance / evidence",
                  "source")
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
    run: dict | None = None                      # the last run, when it did not finish
    stale: list[str] = field(default_factory=list)   # params.yaml keys changed since it ran

    @property
    def stem(self) -> str:
        return self.entry.stem


@dataclass
class PaperRow:
    """One paper on the index: its declaration, its chapters, when its results were made."""

    paper: papers.Paper
    chapters: list[Chapter]
    made: str
    spec: bool = False            # the book holds its spec page (docs/specs/<paper>.md)
    verdict: verdicts.Verdict | None = None     # notebooks/<paper>/verdict.yaml
    verdict_checked: bool = False  # the ledger holds its results on the verdict's profile
    carried: dict[str, int] | None = None   # no results here: the summary's kept counts

    @property
    def built(self) -> bool:
        return any(c.claims or c.figures or c.executed for c in self.chapters)

    @property
    def claims(self) -> list[dict]:
        return [c for ch in self.chapters for c in ch.claims]

    @property
    def profiles(self) -> str:
        return ", ".join(sorted({c.profile for c in self.chapters if c.profile})) or "n/a"

    @property
    def runs_line(self) -> str:
        """How the paper's last runs ended: "finished", or which notebooks failed or are
        stale."""
        bad = [f"{ch.stem} {ch.run.get('state', '?')}" for ch in self.chapters if ch.run]
        bad += [f"{ch.stem} stale" for ch in self.chapters if ch.stale and not ch.run]
        return "; ".join(bad) if bad else "finished"


def text(value) -> str:
    """Plain text safe inside MyST: every markdown or math character escaped, one line."""
    return PUNCTUATION.sub(r"\\\1", " ".join(str(value if value is not None else "").split()))


def code(value: str) -> str:
    """Inline code, with a fence longer than any backtick run inside."""
    ticks = "`" * (max((len(m) for m in re.findall(r"`+", value)), default=0) + 1)
    return f"{ticks} {value} {ticks}" if ticks != "`" else f"`{value}`"


def list_table(header: tuple[str, ...], rows: list[list[str]], classes: str) -> str:
    """A MyST list-table as wide as the article, never wider (its columns wrap: class
    book-table); cells are MyST already (escape text with `text`), paragraphs of a cell
    separated by blank lines."""
    def cell(value: str) -> str:
        return (value or " ").replace("\n", "\n    ")
    lines = ["```{list-table}", ":header-rows: 1", f":class: book-table {classes}", ""]
    for row in [[text(h) for h in header], *rows]:
        lines += [f"* - {cell(row[0])}", *(f"  - {cell(c)}" for c in row[1:])]
    return "\n".join(lines + ["```", ""])


def counts(claims: list[dict]) -> dict[str, int]:
    """Claims per status, every status present (zeros included), in the ledger's order."""
    n = Counter(c["status"] for c in claims)
    return {s: n.get(s, 0) for s in STATUSES}


def counts_line(claims: list[dict]) -> str:
    return ", ".join(f"{k} {v}" for k, v in counts(claims).items()) if claims else "no claims"


def paragraphs(*parts: str) -> str:
    """A cell of several paragraphs, the empty ones left out (a cell may not open blank)."""
    return "\n\n".join(p for p in parts if p.strip())


def filterable(key: str, value: str) -> str:
    """A value the ledger's filter reads (claims.js), marked where it sits in its cell."""
    return f'<span data-filter="{key}">{html.escape(value)}</span>'


def status_cell(claim: dict) -> str:
    """A claim's status, and beside it (below, in its cell) why it is inconclusive."""
    why = ledger.why_inconclusive(claim)
    return filterable("status", claim["status"]) + (f"\n\n*why:* {text(why)}" if why else "")


def short_id(claim: dict) -> str:
    return claim["id"].split(".", 1)[1]


def notebook_link(stem: str, label: str | None = None) -> str:
    return f"[{text(label or stem)}](notebooks/{stem}.ipynb)"


def anchor(paper: str, stem: str) -> str:
    """The id of a notebook's section in its chapter (docutils' form of `<paper>-<stem>`)."""
    return re.sub(r"[^a-z0-9]+", "-", f"{paper}-{stem}".lower()).strip("-")


# ---------------------------------------------------------------- index
def verdict_badge(verdict: str, headline: str | None = None) -> str:
    """The short verdict as a coloured label (raw HTML: its class says which verdict); with a
    headline, a compact label whose hover text is the headline."""
    slug = re.sub(r"[^a-z]+", "-", verdict)
    if headline is None:
        return f'<span class="verdict verdict-{slug}">{verdicts.SHORT[verdict]}</span>'
    return (f'<span class="verdict verdict-{slug} verdict-pill" title="{html.escape(headline)}">'
            f'{verdicts.SHORT[verdict]}</span>')


def checked_note(row: PaperRow) -> str:
    """Why the verdicts were not checked against this build's ledger ("" when they were)."""
    v = row.verdict
    if v is not None and row.verdict_checked:
        status = {c["id"]: c["status"] for c in row.claims}
        stopped = [h for h in v.headlines if verdicts.unchecked(h, status)]
        return (f"{len(stopped)} of {len(v.headlines)} not checked: a run did not finish"
                if stopped else "")
    if v is None:
        return ""
    if not row.claims:
        return f"not checked: this build holds no {v.profile} results of the paper"
    return (f"declared for the {v.profile} profile; not checked against this build's "
            f"{row.profiles} results")


def verdict_cell(row: PaperRow) -> str:
    """A paper's headlines in full: one line per headline of its abstract, with its verdict."""
    if row.verdict is None:
        return "*no verdict declared yet*"
    lines = [f"{verdict_badge(h.verdict)} {text(h.headline)}" for h in row.verdict.headlines]
    note = checked_note(row)
    return "\n\n".join(lines + ([f"*{text(note)}*"] if note else []))


def verdict_line(row: PaperRow) -> str:
    """A paper's verdicts on one line of the index: a label per headline, in the abstract's
    order, each headline its label's hover text."""
    if row.verdict is None:
        return "*no verdict declared yet*"
    return " ".join(verdict_badge(h.verdict, h.headline) for h in row.verdict.headlines)


def verdict_counts(rows: list[PaperRow]) -> str:
    n = Counter(h.verdict for r in rows if r.verdict for h in r.verdict.headlines)
    return ", ".join(f"{verdicts.SHORT[v]} {n[v]}" for v in verdicts.VERDICTS)


def counts_short(n: dict[str, int]) -> str:
    """Claims per status in a few words: the statuses that occur ("30 pass · 4 fail")."""
    return " · ".join(f"{v} {k}" for k, v in n.items() if v) or "no claims"


def claims_cell(row: PaperRow) -> str:
    """A paper's claims on the index: its counts here, or why there are none."""
    if row.built:
        return text(counts_short(counts(row.claims)))
    if row.carried:
        return ("not yet built here; " + text("committed: " + counts_short(row.carried)))
    return "not yet built"


def index_row(row: PaperRow) -> list[str]:
    link = f"[{text(row.paper.short)}]({row.paper.short}/index.md)"
    runs_cell = text(f"{row.runs_line} ({row.profiles})") if row.built else ""
    return [link, verdict_line(row), claims_cell(row), runs_cell]


def index_page(rows: list[PaperRow], revision: str, built_at: str, note: str,
               made: str = "") -> str:
    """What the companion found, one row per paper a reader scans in a screen: its verdicts (a
    label per headline), its claims by status, how its last runs ended; then every headline in
    full; the book's toc."""
    totals = counts([c for row in rows for c in row.claims])
    table = [index_row(row) for row in rows]
    table.append(["**all papers**", text(verdict_counts(rows)), text(counts_short(totals)),
                  text(f"{sum(bool(ch.run) for r in rows for ch in r.chapters)} unfinished, "
                       f"{sum(bool(ch.stale) for r in rows for ch in r.chapters)} stale")])
    found = [[f"[{text(row.paper.short)}]({row.paper.short}/index.md)", verdict_cell(row)]
             for row in rows]
    lines = ["---", "html_theme.sidebar_secondary.remove: true", "---", "",
             "# ICML 2026 paper companion", "",
             "Every figure and claim of the papers below, as the last `dvc repro` (or `make "
             "test`'s smoke run) left them. "
             f"Book built {text(built_at)} from git revision {text(revision)}.", "",
             *([made, ""] if made else [])]
    if note:
        lines += ["```{warning}", note, "```", ""]
    lines += ["## What the companion found", "",
              "One row per paper: a label per headline of its abstract (point at one for the "
              "headline; [every headline in full](#every-headline) below), its claims by "
              "status, and how its last runs ended (profile in brackets).", "",
              list_table(("paper", "verdicts", "claims", "last runs"), table,
                         "verdicts verdicts-index papers"), "",
              "**reproduced**: at the paper's setting, or exactly where the claim is exact; "
              "**in miniature**: the mechanism shown at a reduced scale or on synthetic data; "
              "**decided against**: tried, and the miniature shows the opposite, stably; "
              "**undecided**: tried, under-powered at our scale (the claims are inconclusive "
              "or skipped; the chapter gives the seeds and steps that would decide it and their "
              "price); "
              "**shown wrong**: the companion shows a deviation; "
              "**not attempted**: with the reason, in the chapter. Each verdict names the "
              "ledger claims it summarises (`notebooks/<paper>/verdict.yaml`); the book is not "
              "built when their statuses contradict it.", "",
              "## Every headline", "",
              list_table(("paper", "verdicts"), found, "verdicts verdicts-detail"), "",
              "```{toctree}", ":maxdepth: 1", ":caption: Papers", "",
              *(f"{r.paper.short}/index" for r in rows), "```", "",
              "```{toctree}", ":maxdepth: 1", ":caption: Across papers", "", "performance",
              "provenance", "```", ""]
    return "\n".join(lines)


# ---------------------------------------------------------------- a paper's chapter
def beside_table(claims: list[dict]) -> str:
    """The claims set beside a figure: status, id (provenance, kind), statement, measured
    with the expected value under it (four columns fit beside the page's contents)."""
    def stability(c: dict) -> str:
        said = claims_mod.stability_text(c).strip(" []")
        return f"*{text(said)}*" if said else ""
    rows = [[status_cell(c), f"{code(short_id(c))}\n\n{text(c['provenance'])}, {c['kind']}",
             text(c["statement"]),
             paragraphs(text(c["measured"]), f"*expected* {text(c['expected'])}", stability(c))]
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
    out += run_notes(ch)
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


def run_notes(ch: Chapter) -> list[str]:
    """A warning when the notebook's last run did not finish, a note when params.yaml changed
    since it ran: what the page shows is then not what the current inputs give."""
    out = []
    if ch.run:
        out += ["```{warning}", text(f"The last run of {ch.entry.stem} {runs.describe(ch.run)}. "
                                     "Its claims not checked by that run are shown as error; the "
                                     "figures and tables are those of the last run that finished."),
                "```", ""]
    if ch.stale:
        out += ["```{note}", text(f"Stale: the params files now differ from the parameters these "
                                  f"results were made with ({', '.join(ch.stale)}); `dvc repro` "
                                  "remakes them."), "```", ""]
    return out


def claim_link(paper: str, cid: str, where: dict[str, str]) -> str:
    """A verdict's claim: a link to the section of the chapter that shows it, when this build
    holds it (else its id as code)."""
    short = cid.split(".", 1)[1] if cid.startswith(paper + ".") else cid
    stem = where.get(cid)
    if stem is None:
        return code(short)
    return f'<a href="#{anchor(paper, stem)}"><code>{html.escape(short)}</code></a>'


def verdict_section(row: PaperRow) -> list[str]:
    """The chapter's opening: each headline of the abstract, its verdict and its claims."""
    v = row.verdict
    if v is None:
        return []
    where = {c["id"]: Path(c["notebook"]).stem for c in row.claims}
    status = {c["id"]: c["status"] for c in row.claims}
    rows = []
    for h in v.headlines:
        about = [text(h.headline)]
        about += [f"*{label}:* {text(value)}" for label, value in
                  (("our scale", h.scale), ("what would decide it", h.price),
                   ("why not", h.reason), ("note", h.note)) if value]
        about += [f"*peers:* {text(p.numbers)} ({text(p.source)})" for p in h.peers]
        claims = ", ".join(claim_link(v.paper, c, where) + (f" {text(status[c])}"
                                                              if c in status else "")
                           for c in h.claims) or "none"
        rows.append(["\n\n".join(about), verdict_badge(h.verdict), claims])
    note = checked_note(row)
    return ["## What the companion found", "",
            f"One line per headline of the abstract (declared in "
            f"`notebooks/{v.paper}/verdict.yaml`, judged on the `{v.profile}` profile), with "
            "the claims of the ledger it rests on and their status here."
            + (f" *{text(note)}.*" if note else ""), "",
            list_table(("headline", "verdict", "claims"), rows, "verdicts verdicts-chapter"), ""]


def chapter_page(row: PaperRow) -> str:
    """A paper: citation, its verdicts, counts, each notebook's figures with their claims; its
    toc."""
    p = row.paper
    where = (f"arXiv [{p.arxiv}](https://arxiv.org/abs/{p.arxiv})" if ARXIV_ID.match(p.arxiv)
             else text(p.arxiv))
    lines = [f"# {text(p.title)}", "",
             f"{text(', '.join(p.authors))} · {where} · notebooks in `notebooks/{p.short}/` · "
             "[the claims ledger](claims.md)"
             + (" · [the companion's spec](spec.md): what the paper claims, what was read and "
                "what reconstructed, the sections the notebooks cite" if row.spec else ""), ""]
    lines += verdict_section(row)
    if not row.built:
        lines += ["```{note}", f"Not yet built: `make repro PAPER={p.short}` runs its notebooks.",
                  "```", ""]
    else:
        lines += [f"Profile {code(row.profiles)}; results made {text(row.made)}; "
                  f"{text(counts_line(row.claims))}; last runs: {text(row.runs_line)}.", ""]
        if row.runs_line != "finished":
            lines += ["```{warning}", text(f"Not every notebook of this paper finished with the "
                                           f"current inputs: {row.runs_line}. See the notebooks "
                                           "below."), "```", ""]
    for ch in row.chapters:
        lines += notebook_section(p.short, ch)
    lines += ["```{toctree}", ":hidden:", "", "claims", *(["spec"] if row.spec else []),
              *(f"notebooks/{ch.stem}" for ch in row.chapters), "```", ""]
    return "\n".join(lines)


# ---------------------------------------------------------------- a paper's claims ledger
def claims_page(row: PaperRow) -> str:
    """Every record of results/claims.json for the paper, one row each, filterable."""
    claims = row.claims
    rows = []
    for c in claims:
        stem = Path(c["notebook"]).stem
        rows.append([status_cell(c),
                     f"{code(c['id'])}\n\n{filterable('kind', c['kind'])} · "
                     f"{filterable('provenance', c['provenance'])}",
                     text(c["statement"]), text(c["expected"]), text(c["measured"]),
                     text(c["tolerance"] + claims_mod.stability_text(c)),
                     paragraphs(text(c["source"]),
                                f"[{filterable('notebook', stem)}](notebooks/{stem}.ipynb)")])
    return "\n".join([
        "---", "html_theme.sidebar_secondary.remove: true", "---", "",
        f"# {text(row.paper.short)}: the claims ledger", "",
        f"{len(claims)} claims: {text(counts_line(claims))}. The selects filter the table; the "
        "filter is kept in the address (`claims.html#status=fail&provenance=paper`), so a "
        "link can carry it. Provenance: `paper` (stated in the paper), `derived` (follows from "
        "it, checked here), `reconstructed` (our guess at a setting the paper does not give).",
        "", list_table(LEDGER_COLUMNS, rows, "claims claims-ledger") if claims
        else "*No claims recorded yet.*", ""])


# ---------------------------------------------------------------- performance
def fmt(value) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def stage_rows(stages: list[tuple[str, dict | None]]) -> list[list[str]]:
    """One row per stage with its last wall time, then the measured total."""
    rows, total = [], 0.0
    for name, t in stages:
        if t and isinstance(t.get("wall_s"), (int, float)):
            total += t["wall_s"]
            rows.append([code(name), text(t.get("profile", "?")), f"{t['wall_s']:.2f}",
                         text(t.get("finished", ""))])
        else:
            rows.append([code(name), "", "not measured", ""])
    rows.append(["**total measured**", "", f"**{total:.2f}**", ""])
    return rows


def budget_rows(totals: dict[str, dict]) -> list[list[str]]:
    """Each paper's stage times, summed (one core) and as `make repro` runs them on two cores,
    against its default-profile budget and allowance."""
    rows = []
    for short, t in totals.items():
        budget = f"{t['budget_s']} s ({t['allowance_s']} s)" if t["budget_s"] \
            else "minutes, not hours"
        said = timings.verdict(t)
        rows.append([code(short), f"{t['measured']} / {t['stages']}", f"{t['wall_s']:.1f}",
                     f"{t['cores_s']:.1f}", text(budget), "**over**" if said == "over" else said])
    return rows


def exponent(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def curve_rows(name: str, doc: dict) -> list[list[str]]:
    """Per curve of a benchmark: the ratio at the largest size both sides ran, every side's
    growth exponent, and how far the fastest side's largest point is above its bound time."""
    rows = []
    for label, c in doc["curves"].items():
        ref = c["reference"]
        ratios = [f"{fmt(c['ratio_at_largest_common'][f'{ref}_over_{k}'])}× over {code(k)} at "
                  f"{text(c['axis'])} = {at}" for k, at in c["largest_common_size"].items()]
        exps = [f"{code(k)} {exponent(s['exponent'])}" for k, s in c["sides"].items()]
        gaps = [f"{code(k)} {s['median_s'][-1] / s['bound_s'][-1]:.3g}×"
                for k, s in c["sides"].items() if k != ref and s.get("bound_s")
                and s["bound_s"][-1] > 0]
        capped = ", ".join(f"{code(k)} after {v}" for k, v in c["capped_after"].items())
        rows.append([code(name), text(label), "\n\n".join(ratios) or "one side",
                     "\n\n".join(exps), "\n\n".join(gaps), capped or "none"])
    return rows


STAGE_COST_RATIOS = {"old_over_new": "old / new", "old_over_old_new_pins": "old / old (new pins)",
                     "old_new_pins_over_new": "old (new pins) / new"}


def stage_cost_rows(doc: dict) -> tuple[tuple[str, ...], list[list[str]]]:
    """The pipeline-cost benchmark as a table: per stage each side's median CPU seconds, the
    ratios measured, MKL's share on each branch and what COMPATIBLE adds; the totals last."""
    summary = doc.get("summary") or {}
    sides = [s["name"] for s in doc.get("sides", []) if not s.get("mkl_cbwr")]
    rows_in = summary.get("stages", {})
    ratios = [k for k in STAGE_COST_RATIOS if any(k in r for r in rows_in.values())]
    mkl = any("compatible_extra_s" in r or "mkl_avx2_share" in r for r in rows_in.values())
    header = ("stage", *(f"{s} (CPU s)" for s in sides), *(STAGE_COST_RATIOS[k] for k in ratios),
              *(("MKL share, AVX2", "MKL share, COMPATIBLE", "COMPATIBLE adds (CPU s)")
                if mkl else ()))

    def num(value, form: str) -> str:
        return "–" if value is None else form.format(value)
    rows = []
    for stage, r in rows_in.items():
        rows.append([code(stage), *(num(r["cpu_s"].get(s), "{:.1f}") for s in sides),
                     *(num(r.get(k), "{:.2f}×") for k in ratios),
                     *((num(r.get("mkl_avx2_share"), "{:.0%}"),
                        num(r.get("mkl_compatible_share"), "{:.0%}"),
                        num(r.get("compatible_extra_s"), "{:+.1f}")) if mkl else ())])
    totals = summary.get("totals", {})
    for k in ratios:
        t = totals.get(k, {})
        a, b = k.split("_over_")
        cells = {a: t.get(a), b: t.get(b)}
        rows.append([f"**total** ({t.get('stages', 0)} stages)",
                     *(num(cells.get(s), "{:.1f}") for s in sides),
                     *(num(t.get("ratio"), "**{:.2f}×**") if j == k else "" for j in ratios),
                     *(("", "", num(totals.get("compatible_extra", {}).get("extra_s"),
                                    "{:+.1f}")) if mkl else ())])
    return tuple(text(h) for h in header), rows


def stage_cost_section(name: str, doc: dict) -> list[str]:
    """The performance page's section for a pipeline-cost benchmark (bench/<name>.py)."""
    old, new, machine = doc.get("old", {}), doc.get("new", {}), doc.get("machine", {})
    header, rows = stage_cost_rows(doc)
    said = "; ".join(f"{code(s['name'])}: {text(s['says'])}" for s in doc.get("sides", []))
    return [f"### {text(name)}", "",
            f"CPU seconds (user + system, the runner and every process below it) of each "
            f"notebook stage, profile {code(str(doc.get('profile', '?')))}, the old code "
            f"({code(str(old.get('rev', '?')))}, {code(str(old.get('commit', '?'))[:10])}) "
            f"against the new ({code(str(new.get('rev', '?')))}, "
            f"{code(str(new.get('commit', '?'))[:10])}) side by side in one run on "
            f"{text(machine.get('cpu', '?'))} ({machine.get('cores', '?')} cores), the median "
            f"of each side's runs. Sides: {said}. MKL's share is the seconds MKL reports for its "
            "calls (torch's matrix products, LAPACK) under MKL_VERBOSE over that run's CPU "
            "seconds; what COMPATIBLE adds is its MKL seconds less AVX2's. A total sums the "
            "stages both sides of its ratio measured.", "",
            list_table(header, rows, "bench"), ""]


def overview_caption(panels: tuple[bool, bool]) -> str:
    """The overview figure's caption, naming only the panels it has (stage times, ratios)."""
    times = ("each paper's summed stage wall times of its last run, on two cores, against its "
             "budget and allowance (the papers covered in depth have none)")
    ratios = ("how many times faster each benchmarked kernel is than its naive reference at "
              "the largest size both ran")
    if all(panels):
        said = f"Top: {times}. Bottom: {ratios}"
    else:
        one = times if panels[0] else ratios
        said = one[0].upper() + one[1:]
    axes = "Both axes are" if all(panels) else "The axis is"
    return f"{said}. {axes} logarithmic; the legend names the colours; the tables below hold " \
           "the numbers."


def performance_page(stages: list[tuple[str, dict | None]], totals: dict[str, dict],
                     bench: list[tuple[str, dict]], tables: list[tuple[str, list[list[str]]]],
                     figures: dict[str, str], overview: str | None = None,
                     panels: tuple[bool, bool] = (True, True)) -> str:
    """A figure first (each paper's stage times against its budget, the benchmarks' ratios:
    `panels` says which it has), then each notebook stage's last wall time, the paper totals
    against their budgets, the benchmarks' cost curves (a figure each, a summary table) and
    the notebooks' own timing tables."""
    lines = ["---", "html_theme.sidebar_secondary.remove: true", "---", "", "# Performance", ""]
    if overview:
        lines += [f"```{{figure}} {overview}", ":name: fig-performance-overview",
                  ":width: 100%", "", overview_caption(panels), "```", ""]
    else:
        lines += ["*No stage times or benchmarks measured yet: the overview figure appears "
                  "once `make repro` or `make bench` has run.*", ""]
    lines += ["## Stage wall times (last run)", "",
             "From `results/timings/` (the runner writes one record per run; wall-clock values "
             "are kept out of every DVC output). Runs under nbval (`make test`) are not timed. "
             "`python -m lib.companion.timings` prints this table; `make repro` ends with the "
             "rows of the stages it ran.",
             "", list_table(("stage", "profile", "wall time (s)", "finished"),
                            stage_rows(stages), "timings"),
             "### Against the budgets", "",
             "The default profile's budget: at most 3 minutes per miniature paper on two "
             "idle cores, or 5 (the allowance, in brackets) where a headline needs the size "
             "and the paper's schema says why; the three papers covered in depth, minutes not "
             "hours. The two-core time is that of the paper's stages run longest first on two "
             "workers, as `make repro` runs them.", "",
             list_table(("paper", "stages measured", "one core (s)", "two cores (s)",
                         "budget (allowance)", ""), budget_rows(totals), "timings"),
             "## Benchmarks", ""]
    curves = [(n, d) for n, d in bench if isinstance(d.get("curves"), dict)]
    costs = [(n, d) for n, d in bench if d.get("kind") == "stage_cost"]
    stale = [n for n, d in bench
             if not isinstance(d.get("curves"), dict) and d.get("kind") != "stage_cost"]
    if not curves:
        lines += ["*No benchmarks measured: `results/bench/` holds no cost curves "
                  "(`make bench`).*", ""]
    else:
        lines += ["Each benchmark times a naive reference and our kernel side by side over a "
                  "size axis, after checking at every size that they agree (`bench/*.py`, "
                  "`make bench`). A side that passes the time cap is not run at larger sizes; "
                  "nothing is extrapolated. Growth exponents are least-squares slopes of log "
                  "time on log size over the upper half of each side's sizes; the bound is "
                  "the least time the work of one run takes at this machine's measured "
                  "one-thread GEMM rate and copy bandwidth.", "",
                  list_table(("benchmark", "curve", "reference over kernel, largest common size",
                              "growth exponents", "time over bound, largest size", "capped"),
                             [r for n, d in curves for r in curve_rows(n, d)], "bench"), ""]
        for name, doc in curves:
            lines += [f"### {text(name)}", "", text(doc.get("kernel", "")), "",
                      f"Bound: {text(doc.get('bound', 'not stated'))}.", ""]
            if name in figures:
                lines += [f"```{{figure}} {figures[name]}", f":name: fig-bench-{name}",
                          ":width: 95%", "", f"Cost curves of {text(name)} (log–log): median "
                          "seconds per run of each side, its bound dotted, a capped side's last "
                          "point crossed.", "```", ""]
            m = doc.get("machine", {})
            if m:
                lines += [f"Measured on {m.get('cores', '?')} cores at "
                          f"{m.get('gemm_flops_per_s', 0) / 1e9:.3g} GFLOP/s (one-thread "
                          f"float64 GEMM) and {m.get('copy_bytes_per_s', 0) / 1e9:.3g} GB/s "
                          "(one-thread copy).", ""]
            extra = [[code(k), text(fmt(v))] for k, v in flat_items(doc)
                     if not k.startswith(("curves", "machine")) and k not in ("kernel", "bound")]
            if extra:
                lines += [list_table(("setting", "value"), extra, "bench"), ""]
    if costs:
        lines += ["## The pipeline's cost against the old code", ""]
        for name, doc in costs:
            lines += stage_cost_section(name, doc)
    if stale:
        lines += ["*Not shown, from before the benchmarks were curves (re-run `make bench`): "
                  + ", ".join(code(n) for n in stale) + ".*", ""]
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
