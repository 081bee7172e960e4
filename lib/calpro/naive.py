"""Plain-loop references for calpro's kernels, one residue or one score at a time, in float64
(spec §4). Tests and bench/ import them; notebooks never do."""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from lib.calpro import chains


def nig_nll_loop(y, gamma, nu, alpha, beta) -> list[float]:
    """The NIG negative log-likelihood of spec §1.2, residue by residue with math.lgamma."""
    out = []
    for yi, g, n, a, b in zip(y, gamma, nu, alpha, beta):
        omega = 2.0 * b * (1.0 + n)
        out.append(0.5 * math.log(math.pi / n) - a * math.log(omega)
                   + (a + 0.5) * math.log(n * (yi - g) ** 2 + omega)
                   + math.lgamma(a) - math.lgamma(a + 0.5))
    return out


def conformal_quantile_counting(s, a: float) -> float:
    """No sorting: the smallest score v with #{s_i <= v} >= ceil((n + 1)(1 - a)), by counting
    for every candidate; +inf when that rank exceeds n."""
    n = len(s)
    k = math.ceil((n + 1) * (1 - Fraction(str(a))))
    best = math.inf
    for v in s:
        if sum(1 for u in s if u <= v) >= k and v < best:
            best = float(v)
    return best


def leave_one_out_loop(s, a: float) -> Fraction:
    """Each score in turn the test point, the counting quantile of the others calibrating."""
    s = list(s)
    hits = sum(1 for j, v in enumerate(s)
               if v <= conformal_quantile_counting(s[:j] + s[j + 1:], a))
    return Fraction(hits, len(s))


def mean_neighbours_loop(h: np.ndarray, src, dst) -> np.ndarray:
    """(n, H): each residue's mean of h over its in-neighbours, one residue at a time."""
    nbrs: dict[int, list[int]] = {}
    for s, d in zip(src, dst):
        nbrs.setdefault(int(d), []).append(int(s))
    out = np.zeros_like(h, dtype=np.float64)
    for i in range(len(h)):
        if i in nbrs:
            out[i] = sum(h[j] for j in nbrs[i]) / len(nbrs[i])
    return out


def gnn_forward_loop(net, x: np.ndarray, src, dst) -> np.ndarray:
    """ChainGNN's forward pass written per residue in float64 numpy from the module's weights."""
    W = {k: v.detach().double().numpy() for k, v in net.state_dict().items()}

    def lin(name: str, v: np.ndarray) -> np.ndarray:
        return W[f"{name}.weight"] @ v + W[f"{name}.bias"]
    h = np.array([np.maximum(lin("embed", xi), 0.0) for xi in x])
    for r in range(len(net.rounds)):
        m = mean_neighbours_loop(h, src, dst)
        h = np.array([np.maximum(lin(f"rounds.{r}", np.concatenate([h[i], m[i]])), 0.0)
                      for i in range(len(h))])
    return np.array([lin("head", hi) for hi in h])


def monte_carlo_coverage(q: float, regime: chains.Regime, n_chains: int,
                         rng: np.random.Generator) -> tuple[float, float]:
    """C_R(q) of the oracle absolute residual by sampling chains, with its chain-cluster SE."""
    c = chains.sample_chains(n_chains, regime, rng)
    hit = np.abs(c.y - c.mu) <= q
    k = np.bincount(c.chain, weights=hit.astype(float))
    m = np.bincount(c.chain).astype(float)
    p = k.sum() / m.sum()
    se = math.sqrt(n_chains / (n_chains - 1) * ((k - p * m) ** 2).sum()) / m.sum()
    return float(p), se
