"""Screenshots of the built book for the README: the index, one paper's chapter, its claims ledger,
one of its notebook pages and the performance page, each 1280 px wide and as tall as the page
(nothing cut off), taken by headless Chromium from disk with the network off.

    python -m lib.companion.screenshots [--report results/report] [--paper P] [--out docs]
                                                                     # `make screenshots`

The paper is the one named, else the first built one whose chapter fits one screenshot
(lib.companion.chromium.MAX_HEIGHT). Files: <out>/book_{index,chapter,ledger,notebook,
performance}.png; each line printed names a file and the page's height.
"""
from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

from lib.companion import chromium, papers, paths

NAMES = ("index", "chapter", "ledger", "notebook", "performance")
FORMULA = re.compile(r"^# .*\$[^$]+\$", re.M)     # a markdown line of a percent file with TeX


def built(report: Path) -> list[str]:
    """The papers whose chapter in this book shows results (its ledger page lists claims)."""
    return [p for p in papers.names() if (report / p / "claims.html").exists()
            and "No claims recorded yet" not in (report / p / "claims.html").read_text()]


def notebook_page(paper: str) -> str:
    """The paper's first notebook whose text has a formula (else its first notebook)."""
    stems = [e.stem for e in papers.paper(paper).notebooks]
    for stem in stems:
        if FORMULA.search(paths.notebook_source(f"{paper}/{stem}").read_text()):
            return f"{paper}/notebooks/{stem}.html"
    return f"{paper}/notebooks/{stems[0]}.html"


def pages(paper: str) -> dict[str, str]:
    """Each screenshot's page, relative to the book's folder."""
    return {"index": "index.html", "chapter": f"{paper}/index.html",
            "ledger": f"{paper}/claims.html", "notebook": notebook_page(paper),
            "performance": "performance.html"}


def choose(report: Path, browser: str, profiles: Path) -> str:
    """The first built paper whose chapter and ledger fit one screenshot."""
    for paper in built(report):
        tall = [chromium.dump(browser, profiles, report / page)[1]
                for page in (f"{paper}/index.html", f"{paper}/claims.html")]
        if all(c and c["height"] <= chromium.MAX_HEIGHT for c in tall):
            return paper
    raise chromium.ChromiumError(f"{report}: no built paper whose chapter fits a screenshot "
                                 "(name one with --paper)")


def take(report: Path, out: Path, paper: str | None = None) -> dict[str, tuple[Path, int, int]]:
    """Every screenshot into `out`: name -> (file, PNG height, page height)."""
    browser = chromium.binary()
    with tempfile.TemporaryDirectory(prefix="screenshots-") as tmp:
        profiles = Path(tmp)
        paper = paper or choose(report, browser, profiles)
        shots = {}
        for name, page in pages(paper).items():
            target = out / f"book_{name}.png"
            shots[name] = (target, *chromium.screenshot(browser, profiles, report / page, target))
    return shots


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lib.companion.screenshots",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--report", type=Path, default=paths.RESULTS / "report",
                        help="the built book (default: results/report)")
    parser.add_argument("--paper", choices=papers.names(), help="the chapter and ledger shown")
    parser.add_argument("--out", type=Path, default=paths.ROOT / "docs",
                        help="where the PNGs go (default: docs/)")
    args = parser.parse_args(argv)
    if not (args.report / "index.html").exists():
        parser.error(f"{args.report}/index.html is missing: build the book first (make report)")
    if args.paper and args.paper not in built(args.report):
        parser.error(f"--paper {args.paper}: this book holds no results of it; built: "
                     f"{', '.join(built(args.report)) or 'none'}")
    try:
        shots = take(args.report.resolve(), args.out, args.paper)
    except chromium.ChromiumError as err:
        print(err, file=sys.stderr)
        return 1
    for target, png_h, page_h in shots.values():
        print(f"{target}: {chromium.WIDTH} x {png_h} px (the page: {page_h} px)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
