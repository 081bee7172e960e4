"""Synthetic residue chains with a piecewise-constant disorder prior (spec §1.6).

Chains of length L ~ U{40..119} are cut into segments of 5-20 residues; a segment is disordered
with probability p (d ~ U(lo, hi)), otherwise ordered (d ~ U(0, 0.3)). Three standard-normal
channels are smoothed along the chain, the observed prior is d~ = clip(d + N(0, 0.1^2), 0, 1),
and y | x ~ N(mu, sigma^2) with mu = 1 + 0.8 tanh f0 + 0.15 f1^2 + 2 d and
sigma = 0.25 + 1.5 d^2 + 0.1 |f2|. Everything is vectorised over chains.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

ORDERED = (0.0, 0.3)         # d of an ordered segment ~ U(0, 0.3)
LENGTH = (40, 120)           # L ~ U{40, ..., 119}
SEGMENT = (5, 20)            # segment lengths ~ U{5, ..., 20}
MAX_SEGMENTS = LENGTH[1] // SEGMENT[0] + 1
PRIOR_NOISE = 0.1            # sd of the observed prior d~ around d
STEP = 3.8                   # Calpha-Calpha distance of the random 3-D embedding (paper profile)


@dataclass(frozen=True)
class Regime:
    """Who draws the disorder: segment disorder probability p and the disordered range."""

    p: float
    lo: float
    hi: float


def regimes(design: str, p_train: float, p_shift: float) -> tuple[Regime, Regime]:
    """The "X-ray-like" regime (train, calibration, ID test) and the "NMR-like" shift regime.
    design "extrapolate": training disorder d in [0.3, 0.55] (shift forces extrapolation);
    "interpolate": training disorder already in [0.6, 1] (spec §1.6's alternative)."""
    lo, hi = {"extrapolate": (0.3, 0.55), "interpolate": (0.6, 1.0)}[design]
    return Regime(p_train, lo, hi), Regime(p_shift, 0.6, 1.0)


@dataclass(frozen=True)
class Chains:
    """Residues of many chains, concatenated; edges are directed (src -> dst) message paths."""

    f: np.ndarray            # (n, 3) smoothed features
    d: np.ndarray            # (n,) true disorder
    d_obs: np.ndarray        # (n,) observed prior d~
    mu: np.ndarray           # (n,)
    sigma: np.ndarray        # (n,)
    y: np.ndarray            # (n,)
    chain: np.ndarray        # (n,) chain index
    src: np.ndarray          # (e,)
    dst: np.ndarray          # (e,)

    @property
    def n(self) -> int:
        return len(self.y)

    @property
    def disordered(self) -> np.ndarray:
        """Residues whose true disorder is outside the ordered range."""
        return self.d >= ORDERED[1]

    def features(self, with_prior: bool) -> np.ndarray:
        """(n, 3) or (n, 4): the smoothed channels, with the observed prior appended (P0)."""
        return np.column_stack([self.f, self.d_obs]) if with_prior else self.f


def mean_and_scale(f: np.ndarray, d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The true conditional mean and standard deviation (spec §1.6)."""
    mu = 1.0 + 0.8 * np.tanh(f[:, 0]) + 0.15 * f[:, 1] ** 2 + 2.0 * d
    return mu, 0.25 + 1.5 * d ** 2 + 0.1 * np.abs(f[:, 2])


def chain_edges(chain: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Both directions of every sequence-neighbour pair inside a chain."""
    i = np.flatnonzero(chain[:-1] == chain[1:])
    return np.concatenate([i, i + 1]), np.concatenate([i + 1, i])


def smooth(g: np.ndarray, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """f_i = g_i + 1/2 (g_{i-1} + g_{i+1}) over the neighbours present (chain ends have one)."""
    out = g.copy()
    np.add.at(out, dst, 0.5 * g[src])
    return out


def segment_disorder(lengths: np.ndarray, regime: Regime, rng: np.random.Generator
                     ) -> np.ndarray:
    """Per-residue d for chains of the given lengths: segment ends by a cumulative sum of
    segment lengths, each residue's segment by counting the ends at or before it."""
    C = len(lengths)
    seg = rng.integers(SEGMENT[0], SEGMENT[1] + 1, size=(C, MAX_SEGMENTS))
    ends = np.cumsum(seg, axis=1)                                # (C, S)
    dis = rng.random((C, MAX_SEGMENTS)) < regime.p
    value = np.where(dis, rng.uniform(regime.lo, regime.hi, (C, MAX_SEGMENTS)),
                     rng.uniform(*ORDERED, (C, MAX_SEGMENTS)))   # (C, S)
    chain = np.repeat(np.arange(C), lengths)                     # (n,)
    pos = np.arange(len(chain)) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    which = (ends[chain] <= pos[:, None]).sum(axis=1)            # (n,) segment index
    return value[chain, which]


def contact_edges(chain: np.ndarray, radius: float, rng: np.random.Generator
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Spatial contacts of a random 3-D chain walk (steps of 3.8): residue pairs at least 3
    apart in sequence and closer than `radius` (the paper profile's extra edges)."""
    step = rng.standard_normal((len(chain), 3))
    step *= STEP / np.linalg.norm(step, axis=1, keepdims=True)
    src, dst = [], []
    for c in np.unique(chain):
        idx = np.flatnonzero(chain == c)
        xyz = np.cumsum(step[idx], axis=0)
        dist = np.linalg.norm(xyz[:, None] - xyz[None], axis=-1)
        i, j = np.nonzero((dist < radius) & (np.abs(idx[:, None] - idx[None]) >= 3))
        src.append(idx[i])
        dst.append(idx[j])
    return np.concatenate(src), np.concatenate(dst)


def sample_chains(n_chains: int, regime: Regime, rng: np.random.Generator,
                  contact_radius: float = 0.0) -> Chains:
    """Draw n_chains chains of the regime; contact_radius > 0 adds spatial contact edges."""
    lengths = rng.integers(*LENGTH, size=n_chains)
    d = segment_disorder(lengths, regime, rng)
    chain = np.repeat(np.arange(n_chains), lengths)
    src, dst = chain_edges(chain)
    f = smooth(rng.standard_normal((len(chain), 3)), src, dst)
    d_obs = np.clip(d + PRIOR_NOISE * rng.standard_normal(len(d)), 0.0, 1.0)
    mu, sigma = mean_and_scale(f, d)
    y = mu + sigma * rng.standard_normal(len(d))
    if contact_radius > 0:
        cs, cd = contact_edges(chain, contact_radius, rng)
        src, dst = np.concatenate([src, cs]), np.concatenate([dst, cd])
    return Chains(f, d, d_obs, mu, sigma, y, chain, src, dst)
