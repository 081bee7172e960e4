"""The bundled lines (data/spike_htr/lines.npz, built by tools/build_data_spike_htr.py) as
tensors: images in [0, 1] with the spec's additive pixel noise (σ = 0.05, clipped) drawn at load
time from the split's own seed, and CTC targets."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from lib.companion import paths
from lib.spike_htr import alphabet

LINES = "spike_htr/lines.npz"
SPLITS = ("train", "test_same", "test_heldout")
NOISE = 0.05          # spec §1.1 step 6


@dataclass(frozen=True)
class Lines:
    """One split: images (N, 1, 32, W) float32, texts, the face of each line and its name."""

    images: torch.Tensor
    texts: list[str]
    font: np.ndarray
    font_names: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.texts)

    def take(self, rows: np.ndarray | slice) -> "Lines":
        rows = np.arange(len(self))[rows] if isinstance(rows, slice) else np.asarray(rows)
        return Lines(self.images[torch.from_numpy(rows)], [self.texts[i] for i in rows],
                     self.font[rows], self.font_names)


def load(split: str, n: int, noise: float = NOISE, fonts: tuple[str, ...] | None = None) -> Lines:
    """The first n lines of a split (of the faces `fonts`, all when None), with pixel noise of
    standard deviation `noise` from the split's seed; a ValueError names the split, a face or n
    when the file cannot supply them."""
    if split not in SPLITS:
        raise ValueError(f"split = {split!r}: allowed {', '.join(SPLITS)}")
    with np.load(paths.data_file(LINES)) as z:
        names = tuple(map(str, z["font_names"]))
        face = z[f"{split}_font"].astype(np.int64)
        rows = np.arange(len(face))
        if fonts is not None:
            unknown = sorted(set(fonts) - set(names))
            if unknown:
                raise ValueError(f"fonts: {unknown[0]!r} is not a face of the file; allowed "
                                 f"{', '.join(names)}")
            rows = rows[np.isin(face, [names.index(f) for f in fonts])]
        if not 1 <= n <= len(rows):
            raise ValueError(f"n = {n} lines of {split}: allowed 1 .. {len(rows)} (the file's"
                             f"{' for these fonts' if fonts is not None else ''})")
        rows = rows[:n]
        raw = z[f"{split}_images"][rows].astype(np.float32) / 255.0
        texts = [str(t) for t in z[f"{split}_texts"][rows]]
        seed = int(z[f"{split}_seed"])
    # the split's noise is one stream, line after line, so a line's noise never depends on n:
    # drawing up to the last line asked for gives the same values as drawing the whole split
    rng = np.random.default_rng([seed, 6])
    noise_all = rng.standard_normal((rows[-1] + 1, *raw.shape[1:]), dtype=np.float32)[rows]
    noisy = np.clip(raw + noise * noise_all, 0.0, 1.0)
    return Lines(torch.from_numpy(noisy)[:, None], texts, face[rows], names)


def held_out_faces() -> tuple[str, ...]:
    """Names of the faces only test_heldout uses (recorded in the file at build time)."""
    with np.load(paths.data_file(LINES)) as z:
        return tuple(str(n) for n, h in zip(z["font_names"], z["font_held_out"]) if h)


def targets(texts: list[str]) -> tuple[torch.Tensor, torch.Tensor]:
    """Concatenated label indices and their lengths, the form torch's ctc_loss takes."""
    labels = [alphabet.encode(t) for t in texts]
    flat = torch.tensor([i for lab in labels for i in lab], dtype=torch.long)
    return flat, torch.tensor([len(lab) for lab in labels], dtype=torch.long)
