"""One figure style for all papers: sizes, palette, fonts, deterministic PNG + PDF output.

Notebooks draw with matplotlib on `figure()` and save with `save_figure()`; no notebook edits
rcParams or calls plt.savefig itself. Style only: no per-figure drawing code lives here.

A figure's bytes depend on its data and the locked environment only: text is set in the fonts
matplotlib ships (DejaVu Sans, and DejaVu for mathematics), and the machine's own fonts are never
looked at (seaborn's style would take Arial where a machine has it; a system copy of DejaVu could
be another version). The PDF's embedded subsets are cut by fontTools, which the lock pins.
"""
from __future__ import annotations

from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import seaborn as sns
from matplotlib import font_manager

from lib.companion import paths

WIDTH = 3.4          # inches per panel: one column of a two-column paper
HEIGHT = 2.6
PALETTE = "colorblind"

STYLE = {
    "figure.dpi": 110,
    "savefig.dpi": 150,
    "font.size": 8,
    "axes.titlesize": 9,
    "axes.labelsize": 8,
    "legend.fontsize": 7,
    "xtick.labelsize": 7,
    "ytick.labelsize": 7,
    "pdf.fonttype": 42,     # embed TrueType so the PDF is editable and searchable
    "ps.fonttype": 42,
    "svg.hashsalt": "companion",
    "axes.grid": True,
    "grid.alpha": 0.3,
    "figure.constrained_layout.use": True,
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans"],
    "font.serif": ["DejaVu Serif"],
    "font.monospace": ["DejaVu Sans Mono"],
    "mathtext.fontset": "dejavusans",
}


def bundled_fonts_only() -> None:
    """Drop every font but matplotlib's own from its font list (idempotent), so that no font
    installed on the machine can be chosen."""
    shipped = str(Path(matplotlib.get_data_path()).resolve())
    manager = font_manager.fontManager
    for name in ("ttflist", "afmlist"):
        fonts = getattr(manager, name)
        kept = [f for f in fonts if str(Path(f.fname).resolve()).startswith(shipped)]
        if len(kept) != len(fonts):
            setattr(manager, name, kept)
            manager._findfont_cached.cache_clear()


def apply_style() -> None:
    """Set the house rcParams, palette and fonts (idempotent)."""
    bundled_fonts_only()
    sns.set_theme(context="paper", style="ticks", palette=PALETTE, rc=STYLE)


def figure(nrows: int = 1, ncols: int = 1, *, width: float | None = None,
           height: float | None = None, **kwargs):
    """A styled (fig, axes) pair sized in house panels."""
    apply_style()
    size = (width or WIDTH * ncols, height or HEIGHT * nrows)
    return plt.subplots(nrows, ncols, figsize=size, **kwargs)


def save_figure(fig, notebook: str, panel: str | None = None) -> list:
    """Write <stem>[_<panel>].png and .pdf into the notebook's figures folder, byte-stable.
    Returns where they land in the workspace, relative to its root: a cell ending with the call
    shows them, and an executed copy must not depend on where the clone or the runner's staging
    folder is."""
    paper, stem = paths.split_notebook(notebook)
    folder = paths.figures_dir(notebook)
    folder.mkdir(parents=True, exist_ok=True)
    name = stem if panel is None else f"{stem}_{panel}"
    png, pdf = folder / f"{name}.png", folder / f"{name}.pdf"
    fig.savefig(png, metadata={"Software": None})
    fig.savefig(pdf, metadata={"CreationDate": None, "ModDate": None, "Producer": None,
                               "Creator": None})
    shown = paths.results_dir(paper, "figures").relative_to(paths.ROOT) / stem
    return [shown / png.name, shown / pdf.name]


def palette(n: int) -> list:
    """n colours of the house palette."""
    return sns.color_palette(PALETTE, n)

