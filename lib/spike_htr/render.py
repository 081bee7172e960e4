"""Synthetic "handwritten" text lines (spec §1.1), rendered from Debian's handwriting fonts.

Maintainer side only (tools/build_data_spike_htr.py): the fonts are Debian packages, not pip
ones, so the rendered lines ship in data/spike_htr/ and a fresh clone never renders. The pixel
noise of step 6 is not baked in: data.py adds it at load time from the split's seed, so the
stored images are the clean, compressible glyphs.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

# spec §1.1: the Debian packages and their faces (17); held-out fonts fixed by file name
PACKAGES = ("fonts-dkg-handwriting", "fonts-breip", "fonts-bwht", "fonts-femkeklaver",
            "fonts-humor-sans", "fonts-klee", "fonts-rufscript")
HELD_OUT = ("KleeOne-Regular.ttf", "KleeOne-SemiBold.ttf", "Rufscript010.ttf")
# 33 syllables covering a-z; words of 1-3 syllables carry no language structure (no LM prior)
SYLLABLES = ("ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "be", "da", "fu", "go", "ha", "je",
             "ki", "la", "mo", "nu", "pa", "qe", "ri", "se", "tu", "wa", "xo", "ye", "zi", "an",
             "el", "in", "or", "us", "ch")
HEIGHT = 32
SMOOTH = 21            # spec: the vertical displacement is box-smoothed over 21 columns ...
DISPLACEMENT = 1.5     # ... with a standard deviation of 1.5 px
REACH = "bdfhklpqy"    # letters that reach a face's ascender and descender lines


def find_fonts() -> list[Path]:
    """The font files the Debian packages installed (dpkg -L), in full-path sort order; a
    RuntimeError naming the missing packages otherwise (the list is never hard-coded)."""
    found, missing = [], []
    for package in PACKAGES:
        run = subprocess.run(["dpkg", "-L", package], capture_output=True, text=True)
        files = [Path(p) for p in run.stdout.split() if p.endswith((".ttf", ".otf"))]
        files = [p for p in files if p.is_file()]
        (found.extend(files) if files else missing.append(package))
    if missing:
        raise RuntimeError(f"font packages not installed: {' '.join(missing)} "
                           f"(apt-get install {' '.join(missing)})")
    return sorted(set(found), key=str)


def random_text(rng: np.random.Generator, max_chars: int) -> str:
    """1-3 pseudo-words of 1-3 syllables, the last ones dropped until the line has at most
    max_chars characters (a single word always fits: 6 characters at most)."""
    words = ["".join(rng.choice(SYLLABLES, size=rng.integers(1, 4)))
             for _ in range(rng.integers(1, 4))]
    while len(" ".join(words)) > max_chars and len(words) > 1:
        words.pop()
    return " ".join(words)


def _glyphs(text: str, font: Path, rng: np.random.Generator) -> np.ndarray:
    """Steps 1-3: the line drawn white on black at a random size, sheared, maybe thickened,
    cropped to its ink columns and to the rows the face's ascenders and descenders reach (the
    font's line box is far taller than its ink in some faces), so letters keep their heights."""
    face = ImageFont.truetype(str(font), int(rng.integers(22, 30)))
    shear = float(rng.uniform(-0.3, 0.3))
    thick = rng.random() < 0.5
    ink = _draw(text, face, shear, thick)
    reach = _draw(REACH, face, shear, thick).max(axis=1) > 0
    rows = np.flatnonzero(reach | (ink.max(axis=1) > 0))
    cols = np.flatnonzero(ink.max(axis=0) > 0)
    if not cols.size:
        return ink[:, :1]
    return ink[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]


def _draw(text: str, face: ImageFont.FreeTypeFont, shear: float, thick: bool) -> np.ndarray:
    """The text on a canvas of the face's full line box, sheared about its middle row."""
    ascent, descent = face.getmetrics()
    h = ascent + descent + 4
    pad = int(abs(shear) * h) + 4
    canvas = Image.new("L", (int(face.getlength(REACH + text)) + 2 * pad, h), 0)
    ImageDraw.Draw(canvas).text((pad, 2), text, fill=255, font=face)
    canvas = canvas.transform(canvas.size, Image.Transform.AFFINE,
                              (1, shear, -shear * h / 2, 0, 1, 0), Image.Resampling.BILINEAR)
    if thick:
        canvas = canvas.filter(ImageFilter.MaxFilter(3))
    return np.asarray(canvas)


def render_line(text: str, font: Path, rng: np.random.Generator, width: int) -> np.ndarray:
    """One line as uint8 (HEIGHT, width), ink left-aligned: steps 1-5 of spec §1.1 (the noise of
    step 6 is added at load time). The ink is scaled down further if it would not fit."""
    ink = Image.fromarray(_glyphs(text, font, rng))
    w = ink.size[0] * HEIGHT / ink.size[1] * float(rng.uniform(0.8, 1.2))
    w = max(1, min(width, int(round(w))))
    line = np.zeros((HEIGHT, width), dtype=np.float64)
    line[:, :w] = np.asarray(ink.resize((w, HEIGHT), Image.Resampling.BILINEAR), np.float64)
    return _displace(line, rng)


def _displace(line: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Step 5: a smooth vertical shift per column (white noise box-smoothed over SMOOTH columns,
    scaled to DISPLACEMENT px), applied as one gather; rows shifted in from outside are black."""
    H, W = line.shape
    noise = rng.standard_normal(W + SMOOTH - 1)
    smooth = np.convolve(noise, np.ones(SMOOTH) / SMOOTH, mode="valid")
    shift = np.rint(DISPLACEMENT * smooth / smooth.std()).astype(np.int64)
    rows = np.arange(H)[:, None] - shift[None, :]
    inside = (rows >= 0) & (rows < H)
    out = line[np.clip(rows, 0, H - 1), np.arange(W)[None, :]] * inside
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


def make_split(n: int, seed: int, fonts: list[Path], width: int,
               max_chars: int) -> tuple[np.ndarray, list[str], np.ndarray]:
    """n lines from its own default_rng(seed): images uint8 (n, HEIGHT, width), texts, and the
    index into `fonts` of each line's face (drawn uniformly)."""
    rng = np.random.default_rng(seed)
    faces = rng.integers(0, len(fonts), size=n)
    texts = [random_text(rng, max_chars) for _ in range(n)]
    images = np.stack([render_line(t, fonts[f], rng, width) for t, f in zip(texts, faces)])
    return images, texts, faces
