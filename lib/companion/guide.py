"""The guide: markdown pages in docs/guide/, read as they are in the repository and copied into
the book (under guide/, by the report) where they are rendered and searchable.

docs/guide/index.md links every other page, in reading order; the book lists them in that order
under a "Guide" caption. In the book a link between guide pages stays, a link to a paper's spec
(../specs/<paper>.md) goes to the spec's page, and any other link into the repository (code, the
README), which has no page in the book, becomes its text.
"""
from __future__ import annotations

import html
import re
from pathlib import Path

from lib.companion import paths

INDEX = "index"
LINK = re.compile(r"(?<!!)\[([^\]\n]+)\]\(([^)\s]+)\)")
EXTERNAL = ("http:", "https:", "mailto:", "#")


class GuideError(ValueError):
    """A guide page the index does not link, or a link of the index to no page."""


def guide_dir() -> Path:
    """docs/guide: the guide's markdown pages."""
    return paths.ROOT / "docs" / "guide"


def page(stem: str) -> Path:
    """docs/guide/<stem>.md."""
    return guide_dir() / f"{stem}.md"


def pages() -> list[str]:
    """The guide's pages in reading order: the index, then each page it links (first link
    wins); none when the project has no guide. Every page on disk must be linked."""
    if not page(INDEX).exists():
        return []
    order = [INDEX]
    for match in LINK.finditer(page(INDEX).read_text(encoding="utf-8")):
        target = match[2].split("#")[0]
        if target.endswith(".md") and "/" not in target and target[:-3] not in order:
            order.append(target[:-3])
    on_disk = {p.stem for p in guide_dir().glob("*.md")}
    unlinked, missing = sorted(on_disk - set(order)), sorted(set(order) - on_disk)
    if unlinked or missing:
        raise GuideError(f"docs/guide/index.md must link every guide page and only those: "
                         f"not linked {unlinked}, no such page {missing}")
    return order


def book_link(match: re.Match) -> str:
    """One markdown link of a guide page as the book shows it (see the module's docstring)."""
    text, target = match[1], match[2]
    if target.startswith(EXTERNAL):
        return match[0]
    path, _, fragment = target.partition("#")
    resolved = (guide_dir() / path).resolve()
    if resolved.parent == guide_dir().resolve() and resolved.suffix == ".md":
        return match[0]
    if resolved.parent == (paths.ROOT / "docs" / "specs").resolve() and resolved.suffix == ".md":
        if not fragment:
            return f"[{text}](../{resolved.stem}/spec.md)"
        # a spec's sections are raw <a id> anchors, which Sphinx does not know: a raw link
        return (f'<a href="../{resolved.stem}/spec.html#{fragment}">'
                f'{html.escape(text.strip("`"))}</a>')
    return text


def book_page(stem: str) -> str:
    """A guide page's markdown with its links rewritten for the book."""
    return LINK.sub(book_link, page(stem).read_text(encoding="utf-8"))


def write_pages(src: Path) -> list[str]:
    """Write every guide page into the book's source under guide/; return their document
    names in reading order."""
    out = src / "guide"
    names = []
    for stem in pages():
        out.mkdir(parents=True, exist_ok=True)
        (out / f"{stem}.md").write_text(book_page(stem), encoding="utf-8")
        names.append(f"guide/{stem}")
    return names


def toctree(names: list[str]) -> str:
    """The book index's "Guide" table of contents (empty without a guide)."""
    if not names:
        return ""
    return "\n".join(["```{toctree}", ":maxdepth: 1", ":caption: Guide", "", *names, "```", ""])
