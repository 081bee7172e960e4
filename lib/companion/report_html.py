"""HTML of the static report (lib/report.py): one stylesheet, small inline scripts, no CDN.

Pure functions from collected data to page text. Every page ends with a hidden `#selfcheck`
element that an inline script fills after the load event with the images' natural widths and the
claims table's row counts (read by tests/report/test_browser.py through headless Chromium).
A paper page's claims table is filtered by status and provenance; the filter is also read from
the URL fragment (`#status=pass&provenance=paper`), so a filtered view can be linked.
"""
from __future__ import annotations

import html
from collections import Counter
from urllib.parse import quote

from lib.companion import papers
from lib.companion.claims import STATUSES

PROVENANCES = ("paper", "derived", "reconstructed")


def title(paper: str) -> str:
    """'Authors, Title (arXiv id)' from the paper's declaration (notebooks/<paper>/paper.yaml)."""
    try:
        p = papers.paper(paper)
    except papers.DeclarationError:
        return ""
    return f"{', '.join(p.authors)}, {p.title} (arXiv {p.arxiv})"


CSS = """\
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2228;
       margin: 0; background: #fafafa; }
main { max-width: 1200px; margin: 0 auto; padding: 1em 1.5em 3em; background: #fff; }
nav { background: #223; padding: .5em 1.5em; } nav a { color: #fff; margin-right: 1.5em; }
h1 { font-size: 1.6em; margin: .4em 0; } h2 { margin-top: 1.8em; border-bottom: 1px solid #ddd; }
h3 { margin: 1.4em 0 .4em; font-size: 1.1em; }
.meta { color: #555; } .meta b { color: #1d2228; }
table { border-collapse: collapse; width: 100%; font-size: .92em; }
th, td { border-bottom: 1px solid #e3e3e3; padding: .35em .5em; text-align: left;
         vertical-align: top; }
th { background: #f1f3f5; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
.badge { display: inline-block; padding: 0 .45em; border-radius: .6em; font-size: .85em;
         font-weight: 600; }
.pass { background: #d3f2dc; color: #125c2a; } .fail { background: #fbd5d5; color: #8a1414; }
.deviation { background: #fde9c4; color: #7a4b00; }
.inconclusive { background: #ddf4ff; color: #0550ae; }
.skipped { background: #e6e8eb; color: #4a5058; } .muted { color: #777; }
.nowrap { white-space: nowrap; }
figure { margin: 1em 0; } figure img { max-width: 100%; border: 1px solid #eee; }
figcaption { font-size: .92em; background: #f7f8fa; padding: .6em .8em;
             border-left: 3px solid #99a; }
.note { background: #fde9c4; color: #5a3700; padding: .5em .8em; border-radius: 4px; }
figcaption ul { margin: .3em 0; padding-left: 1.2em; }
img.thumb { height: 90px; border: 1px solid #eee; }
code { font-size: .9em; }
.filters { margin: .6em 0; } .filters label { margin-right: 1.2em; }
details { margin: .6em 0; } summary { cursor: pointer; color: #335; }
#claims { font-size: .85em; } #claims td { overflow-wrap: break-word; }
#claims td.id, #claims td.nb { overflow-wrap: anywhere; min-width: 8em; }
#claims td.word { white-space: nowrap; }
.scroll { overflow-x: auto; }
pre.src, .src pre { font-size: 13px; line-height: 1.35; overflow-x: auto; }
"""

SELFCHECK = """\
<pre id="selfcheck" hidden></pre>
<script>
window.addEventListener("load", function () {
  var imgs = Array.prototype.map.call(document.images, function (im) {
    return {src: im.getAttribute("src"), complete: im.complete, naturalWidth: im.naturalWidth};
  });
  var rows = document.querySelectorAll("#claims tbody tr");
  var shown = Array.prototype.filter.call(rows, function (r) { return !r.hidden; }).length;
  document.getElementById("selfcheck").textContent = JSON.stringify(
    {images: imgs, claims_rows: rows.length, claims_shown: shown, fragment: location.hash,
     height: document.documentElement.scrollHeight});
});
</script>
"""

FILTER = """\
<script>
(function () {
  var sel = {status: document.getElementById("f-status"),
             provenance: document.getElementById("f-provenance")};
  var rows = document.querySelectorAll("#claims tbody tr");
  function apply() {
    var n = 0;
    rows.forEach(function (r) {
      var ok = ["status", "provenance"].every(function (k) {
        return !sel[k].value || r.dataset[k] === sel[k].value; });
      r.hidden = !ok; n += ok ? 1 : 0;
    });
    document.getElementById("f-count").textContent = n + " of " + rows.length + " claims shown";
  }
  function fromHash() {
    new URLSearchParams(location.hash.slice(1)).forEach(function (v, k) {
      if (sel[k]) { sel[k].value = v; } });
  }
  function change() {
    var q = new URLSearchParams();
    ["status", "provenance"].forEach(function (k) { if (sel[k].value) q.set(k, sel[k].value); });
    try {  // keep the filter in the URL; some browsers refuse this on file:// pages
      history.replaceState(null, "", q.toString() ? "#" + q.toString() : location.pathname);
    } catch (e) { /* filtering works without it */ }
    apply();
  }
  sel.status.addEventListener("change", change);
  sel.provenance.addEventListener("change", change);
  fromHash(); apply();
})();
</script>
"""


def esc(value) -> str:
    return html.escape(str(value), quote=True)


def short(text, limit: int = 120) -> str:
    """Text cut to about `limit` characters for a caption (the claims table keeps it whole)."""
    text = str(text)
    return text if len(text) <= limit else text[:limit - 10].rstrip() + " … (see table)"


def href(*parts: str) -> str:
    """A relative URL from path parts, percent-encoded and escaped for an attribute."""
    return esc("/".join(quote(p) for p in parts))


def badge(status: str) -> str:
    return f'<span class="badge {esc(status)}">{esc(status)}</span>'


def count_badges(counts: dict[str, int]) -> str:
    return " ".join(f'<span class="nowrap">{badge(s)} {counts.get(s, 0)}</span>'
                    for s in STATUSES)


def status_counts(claims: list[dict]) -> dict[str, int]:
    return {s: sum(c.get("status") == s for c in claims) for s in STATUSES}


def markdown(text: str) -> str:
    """Markdown to HTML with raw HTML escaped (mistune, nbconvert's renderer)."""
    import mistune
    return mistune.create_markdown(escape=True, plugins=["strikethrough", "table"])(text)


def page(title: str, body: str, depth: int) -> str:
    """A whole page; `depth` is how many folders below the site root it lives."""
    up = "../" * depth
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<title>{esc(title)}</title>\n<link rel="stylesheet" href="{up}style.css">\n'
            f'</head>\n<body>\n<nav><a href="{up}index.html">Report</a>'
            f'<a href="{up}performance.html">Performance</a></nav>\n<main>\n{body}\n</main>\n'
            f'{SELFCHECK}</body>\n</html>\n')


# ---------------------------------------------------------------- index
def index_page(rows, revision: str, built_at: str, note: str) -> str:
    """The three papers with their counts, profiles, revision and times."""
    trs = []
    for r in rows:
        if not r.built:
            trs.append(f'<tr><td><b>{esc(r.paper)}</b><br><span class="muted">'
                       f'{esc(title(r.paper))}</span></td>'
                       f'<td colspan="5" class="muted">not yet built</td><td></td></tr>')
            continue
        c = status_counts(r.claims)
        ran = sum(bool(nb.claims or nb.figures or nb.executed) for nb in r.notebooks)
        profiles = ", ".join(r.profiles) or "unknown"
        mixed = (' <span class="badge deviation">mixed profiles</span>'
                 if len(r.profiles) > 1 else "")
        thumb = (f'<a href="{esc(r.paper)}/index.html"><img class="thumb" alt="first figure" '
                 f'src="{href(r.figures[0])}"></a>') if r.figures else ""
        trs.append(
            f'<tr><td><a href="{esc(r.paper)}/index.html"><b>{esc(r.paper)}</b></a><br>'
            f'<span class="muted">{esc(title(r.paper))}</span></td>'
            f'<td class="num">{ran} of {len(r.notebooks)}</td>'
            f'<td class="num">{len(r.figures)}</td>'
            f'<td>{count_badges(c)}</td><td>{esc(profiles)}{mixed}</td>'
            f'<td class="nowrap">{esc(r.made)}</td><td>{thumb}</td></tr>')
    total = status_counts([c for r in rows for c in r.claims])
    body = (
        f"<h1>Reproducible companion to {len(rows)} ICML 2026 papers</h1>\n"
        f'<p class="meta">git revision <b>{esc(revision)}</b> &middot; report built '
        f'<b>{esc(built_at)}</b> &middot; all claims: {count_badges(total)}</p>\n'
        + (f'<p class="note">{esc(note)}</p>\n' if note else "")
        + '<table id="papers"><thead><tr><th>paper</th><th>notebooks run</th><th>figures</th>'
        "<th>claims</th><th>profile</th><th>results made</th><th>first figure</th></tr>"
        "</thead>\n<tbody>\n"
        + "\n".join(trs) + "\n</tbody></table>\n"
        '<p class="meta">Each paper page shows its figures in reading order, what the paper '
        "claims and what we measured, the claims table, the executed notebooks and their "
        'sources. <a href="performance.html">Wall times and benchmarks</a>.</p>')
    return page("Companion report", body, 0)


# ---------------------------------------------------------------- paper page
def caption(nb, group) -> str:
    """What the paper claims, what we measured, provenance (from the section's claims)."""
    claimed = f"<b>What the paper claims.</b> {esc(nb.title)}"
    if group.claims:
        items = "".join(
            f'<li>{badge(c["status"])} <code>{esc(c["id"].split(".", 1)[-1])}</code>: '
            f'{esc(c["statement"])} &mdash; expected {esc(short(c["expected"]))}, '
            f'measured {esc(short(c["measured"]))}</li>' for c in group.claims)
        measured = f"<b>What we measured.</b><ul>{items}</ul>"
        prov = Counter(c["provenance"] for c in group.claims)
        sources = sorted({c["source"] for c in group.claims if c.get("source")})
        provenance = ("<b>Provenance.</b> " + ", ".join(f"{esc(k)} &times;{v}" for k, v in
                                                        sorted(prov.items()))
                      + (f'; source: {esc("; ".join(sources))}' if sources else ""))
    else:
        measured = (f"<b>What we measured.</b> {len(nb.claims)} claims for this notebook: "
                    f'{count_badges(status_counts(nb.claims))} (see <a href="#claims">'
                    "the claims table</a>).")
        prov = Counter(c["provenance"] for c in nb.claims)
        provenance = "<b>Provenance.</b> " + (", ".join(
            f"{esc(k)} &times;{v}" for k, v in sorted(prov.items())) or "no claims recorded")
    return ("<figcaption>" + "".join(f"<div>{part}</div>" for part in (claimed, measured,
                                                                      provenance))
            + "</figcaption>")


def notebook_section(nb, links: dict[str, str]) -> str:
    """One notebook: links, opening cell, figure groups with captions."""
    parts = [f'<h2 id="{esc(nb.stem)}">{esc(nb.stem)}: {esc(nb.title)}</h2>']
    ln = []
    if "executed" in links:
        ln.append(f'<a href="{esc(links["executed"])}">executed notebook</a>')
    else:
        ln.append('<span class="muted">executed notebook: not kept by this run</span>')
    if "source" in links:
        ln.append(f'<a href="{esc(links["source"])}">source</a> '
                  f'(<a href="{esc(links["source_raw"])}">{esc(nb.stem)}.py</a>)')
    tables = [f'<a href="{href("tables", nb.stem, t.as_posix())}">{esc(t.as_posix())}</a>'
              for t in nb.tables]
    if tables:
        ln.append("tables: " + ", ".join(tables))
    parts.append(f'<p class="links">{" &middot; ".join(ln)}</p>')
    parts.append(f'<p class="meta">profile <b>{esc(nb.profile or "unknown")}</b> &middot; '
                 f"{count_badges(status_counts(nb.claims))}</p>")
    if nb.intro:
        parts.append("<details><summary>What this notebook shows, its sources and decisions"
                     f"</summary>{markdown(nb.intro)}</details>")
    if not (nb.claims or nb.figures or nb.executed):
        parts.append('<p class="muted">no results yet (not run in this build)</p>')
    for group in nb.groups:
        parts.append(f"<h3>{esc(group.heading)}</h3>")
        for f in group.figures:
            src, pdf = href("figures", nb.stem, f.name), f.with_suffix(".pdf")
            pdf_link = (f' &middot; <a href="{href("figures", nb.stem, pdf.name)}">PDF</a>'
                        if pdf.exists() else "")
            parts.append(f'<figure><a href="{src}"><img src="{src}" '
                         f'alt="{esc(f.stem)}"></a><div class="muted">{esc(f.name)}{pdf_link}'
                         "</div></figure>")
        parts.append(caption(nb, group))
    return "\n".join(parts)


def claims_table(claims: list[dict]) -> str:
    """The paper's claims (exactly the rows of results/claims.json), filterable."""
    def option(name: str, values: tuple[str, ...]) -> str:
        n = Counter(c.get(name) for c in claims)
        opts = "".join(f'<option value="{v}">{v} ({n.get(v, 0)})</option>' for v in values)
        return (f'<label>{name} <select id="f-{name}"><option value="">all ({len(claims)})'
                f"</option>{opts}</select></label>")
    rows = []
    for c in claims:
        stem = c.get("notebook", "").rsplit("/", 1)[-1].removesuffix(".py")
        rows.append(
            f'<tr data-status="{esc(c.get("status"))}" '
            f'data-provenance="{esc(c.get("provenance"))}">'
            f'<td class="word">{badge(c.get("status", ""))}</td>'
            f'<td class="id"><code title="{esc(c.get("id"))}">'
            f'{esc(str(c.get("id")).split(".", 1)[-1])}</code></td>'
            f'<td class="word">{esc(c.get("kind"))}</td>'
            f'<td class="word">{esc(c.get("provenance"))}</td>'
            f'<td>{esc(c.get("statement"))}</td><td>{esc(c.get("expected"))}</td>'
            f'<td>{esc(c.get("measured"))}</td><td>{esc(c.get("tolerance"))}</td>'
            f'<td>{esc(c.get("source"))}</td>'
            f'<td class="nb"><a href="#{esc(stem)}">{esc(stem)}</a></td></tr>')
    return (f'<h2 id="claims-table">Claims</h2>\n<div class="filters">'
            f'{option("status", STATUSES)}{option("provenance", PROVENANCES)}'
            f'<span id="f-count" class="muted"></span></div>\n'
            '<div class="scroll"><table id="claims"><thead><tr><th>status</th><th>id</th>'
            "<th>kind</th>"
            "<th>provenance</th><th>statement</th><th>expected</th><th>measured</th>"
            "<th>tolerance</th><th>source</th><th>notebook</th></tr></thead>\n<tbody>\n"
            + "\n".join(rows) + "\n</tbody></table></div>\n" + FILTER)


def paper_page(paper: str, notebooks, links: dict, ledger: dict) -> str:
    claims = [c for c in ledger.get("claims", []) if c.get("paper") == paper]
    toc = "".join(f'<li><a href="#{esc(nb.stem)}">{esc(nb.stem)}</a>: {esc(nb.title)}</li>'
                  for nb in notebooks)
    body = (f"<h1>{esc(paper)}</h1>\n<p class=\"meta\">{esc(title(paper))}</p>\n"
            f'<p class="meta">claims: {count_badges(status_counts(claims))} &middot; '
            f'<a href="#claims-table">claims table</a></p>\n<ol>{toc}</ol>\n'
            + "\n".join(notebook_section(nb, links.get(nb.stem, {})) for nb in notebooks)
            + "\n" + claims_table(claims))
    return page(f"{paper}: companion report", body, 1)


def source_page(nb, text: str) -> str:
    """A notebook source, highlighted (pygments, nbconvert's highlighter), styles inline."""
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import PythonLexer

    fmt = HtmlFormatter(cssclass="src")
    body = (f'<h1>{esc(nb.paper)}/{esc(nb.stem)}.py</h1>\n<p class="links">'
            f'<a href="../index.html#{esc(nb.stem)}">back to the paper page</a> &middot; '
            f'<a href="{esc(nb.stem)}.py">raw file</a></p>\n'
            f"<style>{fmt.get_style_defs('.src')}</style>\n"
            + highlight(text, PythonLexer(), fmt))
    return page(f"{nb.paper}/{nb.stem}.py", body, 2)


# ---------------------------------------------------------------- performance
def scalar_items(doc: dict, prefix: str = "") -> list[tuple[str, object]]:
    """Top-level scalars of a JSON object, one level of nesting flattened as a.b."""
    out = []
    for key, value in doc.items():
        if isinstance(value, dict) and not prefix:
            out += scalar_items(value, f"{key}.")
        elif isinstance(value, (str, int, float, bool)) or value is None:
            out.append((prefix + key, value))
    return out


def fmt(value) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def timing_tables(tables) -> list[str]:
    """The notebooks' own timing tables (training seconds per run and the like)."""
    out = []
    for name, rows in tables:
        if not rows:
            continue
        head = "".join(f"<th>{esc(h)}</th>" for h in rows[0])
        body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in r) + "</tr>"
                       for r in rows[1:])
        out.append(f"<h3>{esc(name)}</h3><table><thead><tr>{head}</tr></thead>"
                   f"<tbody>{body}</tbody></table>")
    return out


def performance_page(stages, timings: dict, bench, tables=()) -> str:
    """Wall time of each notebook stage's last run, the notebooks' own timing tables,
    benchmark medians and ratios."""
    rows, total = [], 0.0
    for paper, stem in stages:
        t = timings.get(f"{paper}__{stem}")
        name = f"{paper}-{stem}"
        if t and isinstance(t.get("wall_s"), (int, float)):
            total += t["wall_s"]
            rows.append(f'<tr><td><code>{esc(name)}</code></td><td>{esc(t.get("profile", "?"))}'
                        f'</td><td class="num">{t["wall_s"]:.2f}</td>'
                        f'<td>{esc(t.get("finished", ""))}</td></tr>')
        else:
            rows.append(f'<tr><td><code>{esc(name)}</code></td><td></td>'
                        '<td class="muted">not measured</td><td></td></tr>')
    body = ["<h1>Performance</h1>",
            "<h2>Stage wall times (last run)</h2>",
            '<p class="meta">From results/timings/ (written by the runner on every run; not a '
            "DVC output). Runs under nbval (make test) are not timed.</p>",
            '<table id="timings"><thead><tr><th>stage</th><th>profile</th><th>wall time (s)</th>'
            "<th>finished</th></tr></thead><tbody>", *rows,
            f'<tr><th>total measured</th><th></th><th class="num">{total:.2f}</th><th></th></tr>'
            "</tbody></table>"]
    if tables:
        body += ["<h2>Timings inside notebooks</h2>", '<p class="meta">From results/timings/*.csv '
                 "(wall-clock values are kept out of every DVC output).</p>",
                 *timing_tables(tables)]
    body.append("<h2>Benchmarks</h2>")
    if not bench:
        body.append('<p class="muted">no benchmarks measured (results/bench/ is empty; '
                    "run <code>make bench</code>)</p>")
    for name, doc in bench:
        items = scalar_items(doc)
        ratio = [f"{esc(k)} = <b>{esc(fmt(v))}</b>" for k, v in items if "ratio" in k.lower()]
        body.append(f"<h3>{esc(name)}</h3>" + (f'<p>{", ".join(ratio)}</p>' if ratio else ""))
        body.append('<table class="bench"><tbody>' + "".join(
            f"<tr><td><code>{esc(k)}</code></td><td>{esc(fmt(v))}</td></tr>" for k, v in items)
            + "</tbody></table>")
    return page("Performance", "\n".join(body), 0)
