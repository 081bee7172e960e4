"""The perforated domain, its wall distance, and the samplers of points and control volumes
(spec §1.4, §1.5).

Omega is a box minus `holes` discs of one radius. d(x) is the distance to the nearest wall (box
side or hole), positive in Omega. Control volumes are discs B(c, r) with d(c) >= r, so each lies
in Omega: large (fixed radius), meso ("skeleton-aware": centres drawn with weight d^power, radius
a fraction of d, the maximal inscribed discs along the channels' medial axis) and small (fixed
radius). Every draw takes a `np.random.Generator`.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

HOLES = ((-0.1, 0.1), (-0.1, 0.9), (0.45, 0.5), (0.45, -0.15), (0.45, 1.15), (0.75, 0.1),
         (0.75, 0.9))   # spec §1.5: seven holes, radius 0.17


@dataclass(frozen=True)
class Domain:
    """Box [x0, x1] x [y0, y1] minus discs of radius `radius` at `holes`."""

    box: tuple[float, float, float, float] = (-0.5, 1.0, -0.5, 1.5)
    holes: tuple[tuple[float, float], ...] = HOLES
    radius: float = 0.17

    def wall_distance(self, xy: np.ndarray) -> np.ndarray:
        """d(x) for points (..., 2): distance to the nearest wall, negative outside Omega."""
        x0, x1, y0, y1 = self.box
        x, y = xy[..., 0], xy[..., 1]
        box = np.minimum.reduce([x - x0, x1 - x, y - y0, y1 - y])
        if not self.holes:
            return box
        c = np.asarray(self.holes)                                      # (k, 2)
        hole = np.linalg.norm(xy[..., None, :] - c, axis=-1).min(-1) - self.radius
        return np.minimum(box, hole)

    def perimeters(self) -> np.ndarray:
        """Lengths of the boundary pieces: the box, then each hole circle."""
        x0, x1, y0, y1 = self.box
        return np.array([2 * (x1 - x0 + y1 - y0)] + [2 * np.pi * self.radius] * len(self.holes))


def sample_interior(domain: Domain, n: int, rng: np.random.Generator,
                    margin: float = 0.0) -> np.ndarray:
    """n points uniform in {x in Omega : d(x) >= margin} by rejection: (n, 2)."""
    x0, x1, y0, y1 = domain.box
    out = np.empty((0, 2))
    while len(out) < n:
        cand = rng.uniform((x0, y0), (x1, y1), size=(2 * n + 16, 2))
        out = np.concatenate([out, cand[domain.wall_distance(cand) >= margin]])
    return out[:n]


def _box_perimeter_points(box: tuple[float, float, float, float], s: np.ndarray) -> np.ndarray:
    """Points at arc length s along the box boundary, counter-clockwise from (x0, y0)."""
    x0, x1, y0, y1 = box
    w, h = x1 - x0, y1 - y0
    edges = np.array([w, h, w, h]).cumsum()
    k = np.searchsorted(edges, s, side="right").clip(0, 3)
    t = s - np.concatenate([[0.0], edges[:-1]])[k]
    starts = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    dirs = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]])
    return starts[k] + t[:, None] * dirs[k]


def sample_boundary(domain: Domain, n: int, rng: np.random.Generator) -> np.ndarray:
    """n points uniform in arc length over the whole boundary (box and hole circles): (n, 2)."""
    lengths = domain.perimeters()
    piece = rng.choice(len(lengths), size=n, p=lengths / lengths.sum())
    s = rng.uniform(0.0, 1.0, size=n)
    pts = np.empty((n, 2))
    on_box = piece == 0
    pts[on_box] = _box_perimeter_points(domain.box, s[on_box] * lengths[0])
    if domain.holes:
        c = np.asarray(domain.holes)[piece[~on_box] - 1]
        theta = 2 * np.pi * s[~on_box]
        pts[~on_box] = c + domain.radius * np.stack([np.cos(theta), np.sin(theta)], -1)
    return pts


@dataclass(frozen=True)
class Discs:
    """Control volumes: centres (m, 2) and radii (m,)."""

    centres: np.ndarray
    radii: np.ndarray

    def __len__(self) -> int:
        return len(self.radii)

    def take(self, idx: np.ndarray) -> "Discs":
        return Discs(self.centres[idx], self.radii[idx])

    @staticmethod
    def join(parts: list["Discs"]) -> "Discs":
        return Discs(np.concatenate([p.centres for p in parts]),
                     np.concatenate([p.radii for p in parts]))


def fixed_radius_discs(domain: Domain, n: int, radius: float, rng: np.random.Generator) -> Discs:
    """n discs of one radius, centres uniform where the whole disc fits (d(c) >= r)."""
    return Discs(sample_interior(domain, n, rng, margin=radius), np.full(n, radius))


def meso_discs(domain: Domain, n: int, power: float, fraction: float, r_min: float,
               rng: np.random.Generator, candidates: int = 20) -> Discs:
    """n skeleton-aware discs: centres resampled from candidates x n uniform points with
    weight d^power (mass on the medial axis), radius fraction * d, at least r_min."""
    cand = sample_interior(domain, candidates * n, rng, margin=r_min / fraction)
    d = domain.wall_distance(cand)
    w = d ** power
    pick = rng.choice(len(cand), size=n, replace=True, p=w / w.sum())
    return Discs(cand[pick], fraction * d[pick])


def random_radius_discs(domain: Domain, n: int, r_low: float, r_high: float,
                        rng: np.random.Generator) -> Discs:
    """n discs with radius uniform in [r_low, r_high], each inside Omega (NB1's test discs)."""
    r = rng.uniform(r_low, r_high, size=n)
    out = np.empty((n, 2))
    todo = np.arange(n)
    while len(todo):
        cand = sample_interior(domain, len(todo), rng)
        ok = domain.wall_distance(cand) >= r[todo]
        out[todo[ok]] = cand[ok]
        todo = todo[~ok]
    return Discs(out, r)
