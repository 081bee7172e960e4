"""The miniature's ground truth (spec §1.3): a cabin-sized room, a microphone plane, its IRs and
spectra, and the train / held-out split."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lib.infer import ism


@dataclass(frozen=True)
class Scene:
    """Microphones (M, 3), their normalised plane coordinates (M, 2) in [0, 1]^2, IRs (M, n),
    half spectra (M, n/2 + 1), frequencies (n/2 + 1,) in Hz."""

    mics: np.ndarray
    coords: np.ndarray
    irs: np.ndarray
    spectra: np.ndarray
    freqs: np.ndarray


def plane(grid: int, size: tuple[float, float], origin: tuple[float, float],
          height: float) -> np.ndarray:
    """A grid x grid microphone plane (grid^2, 3), row-major in y then x."""
    xs = origin[0] + np.linspace(0.0, size[0], grid)
    ys = origin[1] + np.linspace(0.0, size[1], grid)
    gx, gy = np.meshgrid(xs, ys)
    return np.stack([gx.ravel(), gy.ravel(), np.full(grid * grid, height)], -1)


def normalise(points: np.ndarray, size: tuple[float, float],
              origin: tuple[float, float]) -> np.ndarray:
    """Plane coordinates of points (..., >=2) scaled to [0, 1]^2 over the microphone plane."""
    return (points[..., :2] - np.asarray(origin)) / np.asarray(size)


def build(cfg) -> Scene:
    """The scene the parameters describe (a Cabin schema)."""
    mics = plane(cfg.grid, tuple(cfg.plane_size), tuple(cfg.plane_origin), cfg.plane_height)
    irs = ism.impulse_responses(np.asarray(cfg.room), np.asarray(cfg.source), mics,
                                order=cfg.order, beta=cfg.beta, fs=cfg.fs, c=cfg.c, n=cfg.n_fft,
                                taps=cfg.taps, bulk=cfg.bulk)
    return Scene(mics, normalise(mics, tuple(cfg.plane_size), tuple(cfg.plane_origin)), irs,
                 np.fft.rfft(irs, axis=-1), np.fft.rfftfreq(cfg.n_fft, 1.0 / cfg.fs))


def split(n_mics: int, n_train: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Random training microphones and the held-out rest, both sorted."""
    order = rng.permutation(n_mics)
    return np.sort(order[:n_train]), np.sort(order[n_train:])
