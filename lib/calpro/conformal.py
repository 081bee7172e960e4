"""Split conformal calibration, its training surrogate, and what coverage does under shift
(spec §1.3, §1.5).

Every arm is reduced to a band (lo, hi, scale): the score is max(lo - y, y - hi) / scale and
the interval [lo - q scale, hi + q scale]. lo = hi with scale 1 is the absolute residual,
lo = hi with scale sigma^ the normalised score, scale 1 with two quantiles CQR.
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import NamedTuple

import numpy as np
import torch


class Band(NamedTuple):
    lo: np.ndarray
    hi: np.ndarray
    scale: np.ndarray


def scores(band: Band, y: np.ndarray) -> np.ndarray:
    """(n,) conformity scores of the band's family."""
    return np.maximum(band.lo - y, y - band.hi) / band.scale


def quantile_rank(n: int, a: float) -> int:
    """k = ceil((n + 1)(1 - a)) in exact arithmetic (k > n means the interval is unbounded)."""
    return math.ceil((n + 1) * (1 - Fraction(str(a))))


def conformal_quantile(s: np.ndarray, a: float) -> float:
    """The k-th smallest calibration score, k = ceil((n + 1)(1 - a)); +inf when k > n."""
    k = quantile_rank(len(s), a)
    return float(np.partition(s, k - 1)[k - 1]) if k <= len(s) else math.inf


def covered(band: Band, y: np.ndarray, q: float) -> np.ndarray:
    """(n,) bool: y inside [lo - q scale, hi + q scale]."""
    return scores(band, y) <= q


def width(band: Band, q: float) -> np.ndarray:
    """(n,) interval widths."""
    return band.hi - band.lo + 2.0 * q * band.scale


def leave_one_out_coverage(s: np.ndarray, a: float) -> Fraction:
    """Exchangeability made exact: each of the n + 1 scores in turn is the test point, the
    other n calibrate; the fraction covered. With distinct scores it is k / (n + 1)."""
    m = len(s)
    k = quantile_rank(m - 1, a)
    if k > m - 1:
        return Fraction(1)
    order = np.sort(s)
    rank = np.searchsorted(order, s)                             # 0-based rank of each score
    q = np.where(rank <= k - 1, order[min(k, m - 1)], order[k - 1])   # k-th smallest of others
    return Fraction(int((s <= q).sum()), m)


def soft_coverage(s: torch.Tensor, a: float, temperature: float,
                  gen: torch.Generator) -> torch.Tensor:
    """ConfTr-style surrogate (spec §1.3): q~ the (1 - a) quantile of a random half of the
    scores, c~ = mean sigmoid((q~ - s_i) / T) over the other half."""
    perm = torch.randperm(len(s), generator=gen)
    half = len(s) // 2
    q = torch.quantile(s[perm[:half]], 1.0 - a)
    return torch.sigmoid((q - s[perm[half:]]) / temperature).mean()


def calibration_loss(s: torch.Tensor, a: float, temperature: float,
                     gen: torch.Generator) -> torch.Tensor:
    """L_cal = (c~ - (1 - a))^2."""
    return (soft_coverage(s, a, temperature, gen) - (1.0 - a)) ** 2


def binomial_se(p: float, n: int) -> float:
    """sqrt(p (1 - p) / n): residues treated as independent (the spec's CIs)."""
    return math.sqrt(max(p * (1.0 - p), 0.0) / n)


def chain_se(hit: np.ndarray, chain: np.ndarray) -> float:
    """Standard error of a pooled residue fraction with chains as clusters (the ratio
    estimator's): residues of one chain share segments, so they are not independent."""
    k = np.bincount(chain, weights=hit.astype(float))
    m = np.bincount(chain).astype(float)
    keep = m > 0
    k, m = k[keep], m[keep]
    c = len(m)
    if c < 2:
        return math.nan
    p = k.sum() / m.sum()
    return math.sqrt(c / (c - 1) * ((k - p * m) ** 2).sum()) / m.sum()


def _bins(s_p: np.ndarray, s_q: np.ndarray, bins: int) -> np.ndarray:
    """The inner edges of `bins` equal-mass bins of the pooled finite scores (a score falls in
    bin j when j inner edges are at or below it; an infinite score in the last bin)."""
    pooled = np.concatenate([s_p, s_q])
    edges = np.unique(np.quantile(pooled[np.isfinite(pooled)], np.linspace(0, 1, bins + 1)))
    return edges[1:-1]


def _masses(s: np.ndarray, inner: np.ndarray) -> np.ndarray:
    """The share of the scores in each bin."""
    return np.bincount(np.searchsorted(inner, s, side="right"), minlength=len(inner) + 1) / len(s)


def histogram_tv(s_p: np.ndarray, s_q: np.ndarray, bins: int) -> float:
    """1/2 sum_b |P^(b) - Q^(b)| over `bins` equal-mass bins of the pooled finite scores (an
    infinite score falls in the last bin)."""
    inner = _bins(s_p, s_q, bins)
    return 0.5 * float(np.abs(_masses(s_p, inner) - _masses(s_q, inner)).sum())


def event_slack(s_p: np.ndarray, s_q: np.ndarray, q: float, bins: int) -> float:
    """The larger of the two samples' masses in the bin holding q: the event s <= q is the
    bins below q's bin (their probability changes by at most the histogram TV) plus part of
    q's bin, so |P^(s <= q) - Q^(s <= q)| <= histogram TV + this, exactly, on the samples."""
    inner = _bins(s_p, s_q, bins)
    b = int(np.searchsorted(inner, q, side="right"))
    return float(max(_masses(s_p, inner)[b], _masses(s_q, inner)[b]))


def calibration_var(m: int, a: float) -> float:
    """Variance of split conformal's coverage over the draw of m exchangeable calibration scores:
    the coverage given the calibration set is Beta(k, m + 1 - k), k = ceil((m + 1)(1 - a))
    (Vovk 2012; Angelopoulos & Bates 2021, §3.2), so k (m + 1 - k) / ((m + 1)^2 (m + 2)); 0 when
    k > m (the band is infinite and always covers)."""
    k = quantile_rank(m, a)
    if k > m:
        return 0.0
    return k * (m + 1 - k) / ((m + 1) ** 2 * (m + 2))
