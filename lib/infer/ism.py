"""Image-source impulse responses of a shoebox room (spec §1.3), all microphones at once.

Images are indexed by n = (n_x, n_y, n_z) in Z^3: along each axis the image sits at n L + s for
even n and n L + (L - s) for odd n, and took |n| reflections, so an image of order
|n_x| + |n_y| + |n_z| carries beta^order / (4 pi d) at delay d / c. Fractional delays use a
Hann-windowed sinc of `taps` taps behind a bulk delay of `bulk` samples, so every tap lands at
a sample index >= 0 and the IR is exactly causal.
"""
from __future__ import annotations

import numpy as np

CHUNK = 16                       # microphones per broadcast block: ~20 MB of temporaries


def lattice(order: int) -> np.ndarray:
    """All n in Z^3 with |n_x| + |n_y| + |n_z| <= order, as (I, 3) ints."""
    r = np.arange(-order, order + 1)
    n = np.stack(np.meshgrid(r, r, r, indexing="ij"), -1).reshape(-1, 3)
    return n[np.abs(n).sum(1) <= order]


def images(room: np.ndarray, source: np.ndarray, order: int) -> tuple[np.ndarray, np.ndarray]:
    """Image positions (I, 3) and reflection counts (I,) up to `order`."""
    n = lattice(order)                                           # (I, 3)
    odd = n % 2 == 1
    pos = n * room + np.where(odd, room - source, source)
    return pos, np.abs(n).sum(1)


def hann_sinc(x: np.ndarray, taps: int) -> np.ndarray:
    """The fractional-delay kernel at offsets x (|x| <= taps/2 + 1/2): sinc(x) under a Hann
    window of length taps + 1, positive over the taps."""
    return np.sinc(x) * np.cos(np.pi * x / (taps + 1)) ** 2


def delays(room: np.ndarray, source: np.ndarray, mics: np.ndarray, order: int, fs: float,
           c: float) -> np.ndarray:
    """Delays in samples (M, I) from every image to every microphone."""
    pos, _ = images(room, source, order)
    return np.linalg.norm(mics[:, None, :] - pos[None], axis=-1) / c * fs


def impulse_responses(room: np.ndarray, source: np.ndarray, mics: np.ndarray, *, order: int,
                      beta: float, fs: float, c: float, n: int, taps: int,
                      bulk: int) -> np.ndarray:
    """IRs (M, n) of the room at microphones `mics` (M, 3), float64; raises when a tap would fall
    in the negative-time half t > n/2 (the window is too short for the order)."""
    pos, refl = images(room, source, order)
    half, offs = taps // 2, np.arange(-(taps // 2), taps // 2 + 1)   # (taps,)
    out = np.zeros((len(mics), n))
    for start in range(0, len(mics), CHUNK):
        block = mics[start:start + CHUNK]                               # (B, 3)
        d = np.linalg.norm(block[:, None, :] - pos[None], axis=-1)      # (B, I)
        t = d / c * fs + bulk
        if np.rint(t).max() + half > n // 2:
            raise ValueError(f"an image delay of {t.max():.1f} samples puts taps past n/2 = "
                             f"{n // 2}: raise n or lower the order")
        idx = np.rint(t).astype(int)[..., None] + offs                  # (B, I, taps)
        val = (beta ** refl / (4 * np.pi * d))[..., None] * hann_sinc(idx - t[..., None], taps)
        rows = np.arange(len(block))[:, None, None] * n + idx           # flat (B, I, taps)
        out[start:start + len(block)] = np.bincount(
            rows.ravel(), weights=val.ravel(), minlength=len(block) * n).reshape(len(block), n)
    return out
