"""Plain-loop references for the fast kernels (tests and bench only, never notebooks)."""
from __future__ import annotations

import math

import numpy as np


def impulse_responses(room: np.ndarray, source: np.ndarray, mics: np.ndarray, *, order: int,
                      beta: float, fs: float, c: float, n: int, taps: int,
                      bulk: int) -> np.ndarray:
    """Image-source IRs one image and one microphone at a time, each tap written out."""
    out = np.zeros((len(mics), n))
    half = taps // 2
    for m, mic in enumerate(mics):
        for nx in range(-order, order + 1):
            for ny in range(-order, order + 1):
                for nz in range(-order, order + 1):
                    k = abs(nx) + abs(ny) + abs(nz)
                    if k > order:
                        continue
                    img = [i * length + (length - s if i % 2 else s)
                           for i, length, s in zip((nx, ny, nz), room, source)]
                    d = math.dist(mic, img)
                    t = d / c * fs + bulk
                    centre = round(t)
                    for tap in range(centre - half, centre + half + 1):
                        x = tap - t
                        sinc = 1.0 if x == 0 else math.sin(math.pi * x) / (math.pi * x)
                        window = math.cos(math.pi * x / (taps + 1)) ** 2
                        out[m, tap] += beta ** k / (4 * math.pi * d) * sinc * window
    return out


def hilbert_imag(real_full: np.ndarray) -> np.ndarray:
    """Im H[k] = -(2/N) sum_{m: k - m odd} cot(pi (k - m) / N) Re H[m]: the discrete Hilbert
    transform by explicit O(N^2) summation over the full N-bin real part."""
    n = len(real_full)
    out = np.zeros(n)
    for k in range(n):
        total = 0.0
        for m in range(n):
            if (k - m) % 2:
                total += real_full[m] / math.tan(math.pi * ((k - m) % n) / n)
        out[k] = -2.0 / n * total
    return out
