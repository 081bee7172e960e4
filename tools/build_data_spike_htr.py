"""Build data/spike_htr/lines.npz: synthetic text lines rendered from Debian's handwriting fonts.

Run once by a maintainer (never at run time; the fonts are Debian packages, see
lib/spike_htr/render.PACKAGES): `python tools/build_data_spike_htr.py`, then
`dvc add data && dvc push`. Three splits, each from its own seed: `train` and `test_same` from
the 14 training faces, `test_heldout` from the 3 held-out faces (spec §1.1). The file records the
faces' names, their SHA-256 and the Debian package versions, so a rebuild can be compared.
"""
import hashlib
import subprocess
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from lib.spike_htr import render  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "data" / "spike_htr" / "lines.npz"
WIDTH, MAX_CHARS = 128, 10          # spec §1.1: M = 10 at width 128
SPLITS = {"train": (6000, 1, False), "test_same": (300, 2, False),
          "test_heldout": (300, 3, True)}     # name: (lines, seed, held-out faces)


def version(package: str) -> str:
    run = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True,
                         text=True, check=True)
    return f"{package}={run.stdout}"


def main() -> None:
    fonts = render.find_fonts()
    held = [f for f in fonts if f.name in render.HELD_OUT]
    train = [f for f in fonts if f.name not in render.HELD_OUT]
    assert len(held) == len(render.HELD_OUT), f"held-out faces missing: {held}"
    order = train + held                       # font index: training faces first
    arrays = {"font_names": np.array([f.name for f in order]),
              "font_sha256": np.array([hashlib.sha256(f.read_bytes()).hexdigest()
                                       for f in order]),
              "font_held_out": np.array([f in held for f in order]),
              "packages": np.array([version(p) for p in render.PACKAGES]),
              "width": np.int64(WIDTH), "max_chars": np.int64(MAX_CHARS)}
    for name, (n, seed, heldout) in SPLITS.items():
        faces = held if heldout else train
        images, texts, face = render.make_split(n, seed, faces, WIDTH, MAX_CHARS)
        offset = len(train) if heldout else 0
        arrays |= {f"{name}_images": images, f"{name}_texts": np.array(texts),
                   f"{name}_font": (face + offset).astype(np.int8),
                   f"{name}_seed": np.int64(seed)}
        print(f"{name}: {n} lines from {len(faces)} faces")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT, **arrays)
    print(f"wrote {OUT} ({OUT.stat().st_size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
