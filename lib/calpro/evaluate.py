"""Coverage, width and score-shift tables of trained arms (spec §3 NB1, NB2).

Rows are (seed, arm, split, region): region "all", "ordered" (true d < 0.3) or "disordered".
Standard errors are given twice: binomial (residues independent: the spec's CIs) and by chain
clusters (residues of a chain share segments; the honest one, used by the bound claims).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from lib.calpro import conformal, shift
from lib.calpro.chains import Chains
from lib.calpro.experiment import Design, Result, make_splits, sweep_split
from lib.companion import rules

REGIONS = ("all", "ordered", "disordered")
RAW = "p0_raw"               # P0's own Student-t interval, no conformal step


def region_mask(c: Chains, region: str) -> np.ndarray:
    return {"all": np.ones(c.n, bool), "ordered": ~c.disordered,
            "disordered": c.disordered}[region]


def summary_rows(hit: np.ndarray, w: np.ndarray, c: Chains, **keys) -> list[dict]:
    """One row per region: coverage, its two standard errors, mean width."""
    rows = []
    for region in REGIONS:
        m = region_mask(c, region)
        if not m.any():
            continue
        cov = float(hit[m].mean())
        rows.append({**keys, "region": region, "n": int(m.sum()), "coverage": cov,
                     "se_binom": conformal.binomial_se(cov, int(m.sum())),
                     "se_chain": conformal.chain_se(hit[m], c.chain[m]),
                     "width": float(w[m].mean())})
    return rows


def seed_means(cov: pd.DataFrame) -> pd.DataFrame:
    """Per (arm, split, region): coverage and width averaged over seeds, the residues pooled
    over seeds, and the binomial SE of the pooled coverage."""
    g = cov.assign(hits=cov.coverage * cov.n).groupby(["arm", "split", "region"])
    out = g.agg(coverage=("coverage", "mean"), width=("width", "mean"), n=("n", "sum"),
                hits=("hits", "sum"))
    pooled = out.hits / out.n
    out["se_binom"] = [conformal.binomial_se(p, int(n)) for p, n in zip(pooled, out.n)]
    return out.drop(columns="hits")


def threshold(r: Result, cal: Chains, a: float) -> float:
    """The arm's split-conformal threshold on its calibration split."""
    return conformal.conformal_quantile(conformal.scores(r.bands["cal"], cal.y), a)


def raw_student(r: Result, c: Chains, split: str, a: float) -> tuple[np.ndarray, np.ndarray]:
    """Hits and widths of the NIG's own central Student-t interval (level 1 - a)."""
    g, nu, al, be = r.nig[split]
    half = stats.t.ppf(1 - a / 2, 2 * al) * np.sqrt(be * (1 + nu) / (nu * al))
    return np.abs(c.y - g) <= half, 2 * half


def coverage_table(results: list[Result], data: dict[int, dict[str, Chains]], a: float,
                   raw_of: str = "p0") -> pd.DataFrame:
    """Every arm's rows, plus `p0_raw` (the raw evidential interval of `raw_of`)."""
    rows = []
    for r in results:
        d = data[r.seed]
        q = threshold(r, d["cal"], a)
        for split in ("id", "shift"):
            c = d[split]
            rows += summary_rows(conformal.covered(r.bands[split], c.y, q),
                                 conformal.width(r.bands[split], q), c, seed=r.seed,
                                 arm=r.arm, split=split)
            if r.arm == raw_of:
                rows += summary_rows(*raw_student(r, c, split, a), c, seed=r.seed, arm=RAW,
                                     split=split)
    return pd.DataFrame(rows)


def gap_row(band_p: conformal.Band, p: Chains, band_q: conformal.Band, y_q: np.ndarray,
            chain_q: np.ndarray, q: float, bins: int) -> dict[str, float]:
    """The coverage of one arm's band on the ID test minus on another test at its threshold q:
    the gap, its chain-cluster SE, the histogram TV of the two score samples and the mass of
    the bin holding q (`conformal.event_slack`: |gap| <= TV + slack on the samples)."""
    s_p, s_q = conformal.scores(band_p, p.y), conformal.scores(band_q, y_q)
    hit_p, hit_q = s_p <= q, s_q <= q
    se = np.hypot(conformal.chain_se(hit_p, p.chain), conformal.chain_se(hit_q, chain_q))
    return {"gap": float(hit_p.mean() - hit_q.mean()), "se": float(se),
            "tv_hist": conformal.histogram_tv(s_p, s_q, bins),
            "slack": conformal.event_slack(s_p, s_q, q, bins)}


def gap_table(results: list[Result], data: dict[int, dict[str, Chains]], a: float,
              bins: int) -> pd.DataFrame:
    """Per (seed, arm): ID - shift coverage and what `gap_row` gives beside it."""
    rows = []
    for r in results:
        d = data[r.seed]
        rows.append({"seed": r.seed, "arm": r.arm,
                     **gap_row(r.bands["id"], d["id"], r.bands["shift"], d["shift"].y,
                               d["shift"].chain, threshold(r, d["cal"], a), bins)})
    return pd.DataFrame(rows)


def concept_gaps(results: list[Result], data: dict[int, dict[str, Chains]], a: float,
                 bins: int, scale: float) -> pd.DataFrame:
    """The negative control of the covariate-shift bound: per (seed, arm), the ID test against
    itself with the noise scaled by `scale` (the covariates' law unchanged, so the window bound
    is 0, while the scores' law moves): what `gap_row` gives."""
    rows = []
    for r in results:
        d = data[r.seed]
        y = shift.concept_shifted(d["id"], scale, np.random.default_rng([r.seed, 50]))
        rows.append({"seed": r.seed, "arm": r.arm,
                     **gap_row(r.bands["id"], d["id"], r.bands["id"], y, d["id"].chain,
                               threshold(r, d["cal"], a), bins)})
    return pd.DataFrame(rows)


def sweep_gaps(results: list[Result], design: Design, levels: list[float], a: float,
               bins: int) -> pd.DataFrame:
    """NB2's sweep: per (seed, arm, shift level p), the ID test against the level's shift test
    (its band "p<i>"): what `gap_row` gives."""
    rows = []
    for seed in sorted({r.seed for r in results}):
        d = make_splits(design, seed)
        tests = [sweep_split(design, seed, i, p) for i, p in enumerate(levels)]
        for r in (r for r in results if r.seed == seed):
            q = threshold(r, d["cal"], a)
            rows += [{"seed": seed, "arm": r.arm, "p": p,
                      **gap_row(r.bands["id"], d["id"], r.bands[f"p{i}"], t.y, t.chain, q, bins)}
                     for i, (p, t) in enumerate(zip(levels, tests))]
    return pd.DataFrame(rows)


def tails(results: list[Result]) -> np.ndarray:
    """The last quarter of each run's training loss (runs, epochs / 4): what a claim's
    convergence precondition reads."""
    return np.array([rules.tail(r.losses) for r in results])


def loss_tails(results: list[Result], arms: list[str], seeds: list[int]) -> np.ndarray:
    """`tails` of the runs of `arms`, one row per seed and one column per arm:
    (seeds, arms, epochs / 4)."""
    by = {(r.arm, r.seed): r for r in results}
    return np.array([tails([by[arm, s] for arm in arms]) for s in seeds])


def conditional_error(results: list[Result], data: dict[int, dict[str, Chains]], a: float,
                      bins: int, min_count: int) -> pd.DataFrame:
    """Per (seed, arm): mean over true-d bins (equal width on [0, 1], at least min_count
    residues) of |coverage - (1 - a)| on the pooled ID and shift tests."""
    rows = []
    edges = np.linspace(0.0, 1.0, bins + 1)[1:-1]
    for r in results:
        d = data[r.seed]
        q = threshold(r, d["cal"], a)
        hit = np.concatenate([conformal.covered(r.bands[k], d[k].y, q) for k in ("id", "shift")])
        dd = np.concatenate([d["id"].d, d["shift"].d])
        b = np.searchsorted(edges, dd, side="right")
        n = np.bincount(b, minlength=bins)
        k = np.bincount(b, weights=hit.astype(float), minlength=bins)
        keep = n >= min_count
        rows.append({"seed": r.seed, "arm": r.arm, "bins": int(keep.sum()),
                     "error": float(np.abs(k[keep] / n[keep] - (1 - a)).mean())})
    return pd.DataFrame(rows)


def by_seed(cov: pd.DataFrame, seeds: list[int], region: str = "all",
            value: str = "coverage") -> pd.DataFrame:
    """One column of the coverage table in one region as one row per seed (in `seeds` order)
    and one column per (arm, split): what a claim decided on the seeds records."""
    rows = cov[cov.region == region]
    return rows.pivot_table(index="seed", columns=["arm", "split"], values=value).loc[seeds]


def id_variance(cov: pd.DataFrame, cal_sizes: dict[int, int], seeds: list[int],
                a: float) -> pd.DataFrame:
    """Per seed (rows) and arm (columns), the variance of the ID coverage over both random draws
    of split conformal: the calibration set's (the Beta law over its m scores) plus the
    binomial spread of the n ID test residues."""
    c = by_seed(cov, seeds).xs("id", axis=1, level="split")
    n = by_seed(cov, seeds, value="n").xs("id", axis=1, level="split")
    beta = np.array([conformal.calibration_var(cal_sizes[s], a) for s in seeds])[:, None]
    return c * (1 - c) / n + beta
