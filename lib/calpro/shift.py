"""Coverage under covariate shift in closed form, and the sensitivity bound (spec §1.5).

With the oracle mean and the absolute residual, a threshold q covers a residue with probability
2 Phi(q / sigma(x)) - 1, so the population coverage is C_R(q) = E_R[2 Phi(q / sigma(X)) - 1];
split conformal solves C_P(q) = 1 - a on the calibration regime P and covers C_Q(q) under Q.
sigma = 0.25 + 1.5 d^2 + 0.1 |f2| with d from the regime's two-piece uniform mixture and f2 a
smoothed normal: variance 1.5 inside a chain, 1.25 at its two ends (a share 2 / E[L] of the
residues). The expectation is Gauss-Legendre quadrature over d and over |f2| / sd on [0, 12].

Under covariate shift any score's coverage gap is at most d_TV(P_S, Q_S), which is at most the
TV of what the score reads: for a network with R message rounds, the disorder of the segments
its 2R + 1 residue window touches (at most m of them, drawn i.i.d. per segment), so
gap <= 1 - (1 - tau)^m <= sqrt(m KL / 2), tau and KL the per-segment TV and KL (Pinsker).
"""
from __future__ import annotations

import functools
import math
from typing import Callable

import numpy as np
from scipy import optimize, special

from lib.calpro.chains import LENGTH, ORDERED, SEGMENT, Chains, Regime, mean_and_scale

END_SHARE = 2.0 / ((LENGTH[0] + LENGTH[1] - 1) / 2.0)    # 2 / E[L] of the residues are ends
Z_MAX = 12.0                                              # |f2| / sd beyond 12: mass < 1e-32


def _legendre(lo: float, hi: float, n: int) -> tuple[np.ndarray, np.ndarray]:
    x, w = np.polynomial.legendre.leggauss(n)
    return 0.5 * (hi - lo) * x + 0.5 * (hi + lo), 0.5 * (hi - lo) * w


@functools.lru_cache(maxsize=64)
def quadrature(regime: Regime, nodes: int = 48) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Nodes (d, |f2|) and weights of E_R[g(d, |f2|)] (the weights sum to 1); the integrands
    are smooth on each piece, so 48 nodes per piece (96 on |f2|) reach ~1e-13."""
    d_o, w_o = _legendre(*ORDERED, nodes)
    d_d, w_d = _legendre(regime.lo, regime.hi, nodes)
    d = np.concatenate([d_o, d_d])
    wd = np.concatenate([(1 - regime.p) * w_o / (ORDERED[1] - ORDERED[0]),
                         regime.p * w_d / (regime.hi - regime.lo)])
    z, wz = _legendre(0.0, Z_MAX, 2 * nodes)
    wz = wz * 2.0 * np.exp(-0.5 * z ** 2) / math.sqrt(2 * math.pi)   # |N(0, 1)| density
    f2 = np.concatenate([math.sqrt(1.5) * z, math.sqrt(1.25) * z])
    wf = np.concatenate([(1 - END_SHARE) * wz, END_SHARE * wz])
    return (np.repeat(d, len(f2)), np.tile(f2, len(d)), np.outer(wd, wf).ravel())


def true_sigma(d: np.ndarray, f2: np.ndarray) -> np.ndarray:
    """sigma(d, f2) of spec §1.6 (f0 and f1 do not enter it)."""
    f = np.column_stack([np.zeros_like(d), np.zeros_like(d), f2])
    return mean_and_scale(f, d)[1]


Scale = Callable[[np.ndarray, np.ndarray], np.ndarray]


def coverage(q: float, regime: Regime, scale: Scale | None = None) -> float:
    """E_R[2 Phi(q s(X) / sigma(X)) - 1]: oracle-mean interval mu +- q s(x); s = 1 is the
    absolute residual, s = sigma the pivotal normalised score."""
    d, f2, w = quadrature(regime)
    sig = true_sigma(d, f2)
    s = np.ones_like(sig) if scale is None else scale(d, f2)
    return float(w @ special.erf(q * s / sig / math.sqrt(2.0)))


def calibrated_threshold(a: float, regime: Regime, scale: Scale | None = None) -> float:
    """The population split-conformal threshold: C_P(q) = 1 - a, solved by Brent's method."""
    return optimize.brentq(lambda q: coverage(q, regime, scale) - (1 - a), 1e-9, 100.0,
                           xtol=1e-14, rtol=1e-15)


def shifted_coverage(a: float, p: Regime, q: Regime, scale: Scale | None = None) -> float:
    """C_Q(q*) with q* calibrated on P: the closed-form prediction of spec §1.5."""
    return coverage(calibrated_threshold(a, p, scale), q, scale)


def _pieces(r: Regime) -> list[tuple[float, float, float]]:
    """The segment disorder density as (lo, hi, density) pieces."""
    return [(ORDERED[0], ORDERED[1], (1 - r.p) / (ORDERED[1] - ORDERED[0])),
            (r.lo, r.hi, r.p / (r.hi - r.lo))]


def _density(r: Regime, d: float) -> float:
    return sum(h for lo, hi, h in _pieces(r) if lo <= d < hi or (d == hi == 1.0))


def _cells(p: Regime, q: Regime) -> list[tuple[float, float, float, float]]:
    """Cells between all breakpoints with the two densities on each: (lo, hi, p, q)."""
    cuts = sorted({x for r in (p, q) for lo, hi, _ in _pieces(r) for x in (lo, hi)})
    return [(a, b, _density(p, 0.5 * (a + b)), _density(q, 0.5 * (a + b)))
            for a, b in zip(cuts, cuts[1:])]


def segment_tv(p: Regime, q: Regime) -> float:
    """d_TV between the per-segment disorder laws (piecewise constant: exact)."""
    return 0.5 * sum((b - a) * abs(hp - hq) for a, b, hp, hq in _cells(p, q))


def segment_kl(q: Regime, p: Regime) -> float:
    """KL(Q || P) of the per-segment disorder law; +inf where Q has mass P lacks."""
    total = 0.0
    for a, b, hp, hq in _cells(p, q):
        if hq > 0:
            total += math.inf if hp == 0 else (b - a) * hq * math.log(hq / hp)
    return total


def bernoulli_tv(p_q: float, p_p: float) -> float:
    """The per-segment TV when both regimes share the disordered range: |p_Q - p_P|."""
    return abs(p_q - p_p)


def bernoulli_kl(p_q: float, p_p: float) -> float:
    """The per-segment KL(Q || P) when both share the disordered range: a Bernoulli KL."""
    return sum(x * math.log(x / y) for x, y in ((p_q, p_p), (1 - p_q, 1 - p_p)) if x > 0)


def segments_touched(rounds: int) -> int:
    """The most segments a (2 rounds + 1)-residue window can overlap (segments >= 5 long)."""
    return 1 + math.ceil(2 * rounds / SEGMENT[0])


def window_tv_bound(p: Regime, q: Regime, rounds: int) -> float:
    """1 - (1 - tau)^m: the TV of the window's segment draws, an upper bound on any gap."""
    return 1.0 - (1.0 - segment_tv(p, q)) ** segments_touched(rounds)


def pinsker_bound(p: Regime, q: Regime, rounds: int) -> float:
    """sqrt(m KL(Q || P) / 2): the KL form of the same bound (+inf on a support mismatch)."""
    return math.sqrt(segments_touched(rounds) * segment_kl(q, p) / 2.0)


def concept_shifted(c: Chains, scale: float, rng: np.random.Generator) -> np.ndarray:
    """New targets for the same residues with the noise scaled: y = mu + scale sigma eps. The
    covariates (and so every window's law) are unchanged: a shift the covariate bound does not
    cover, the negative control of bound.window_tv."""
    return c.mu + scale * c.sigma * rng.standard_normal(c.n)


def gaussian_kl(mean: np.ndarray, sd: float, prior_sd: float) -> float:
    """KL(N(mean, sd^2 I) || N(0, prior_sd^2 I)) in closed form."""
    r = (sd / prior_sd) ** 2
    return 0.5 * float(np.sum(r + mean ** 2 / prior_sd ** 2 - 1.0 - math.log(r)))


def pac_bayes_term(kl: float, n: int, delta: float) -> float:
    """sqrt((KL(rho || pi) + ln(2 sqrt(n) / delta)) / (2 n)): the complexity term."""
    return math.sqrt((kl + math.log(2.0 * math.sqrt(n) / delta)) / (2.0 * n))
