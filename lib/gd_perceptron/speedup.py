"""Two-layer quadratic GP on data set A over seeds x step rules x d in one batch (spec §4 F2, F7).

Model h(x) = sum_j s_j (w_j^T x)^2 with fixed s = (+1, -1, ...), W_0 i.i.d. N(0, 1), GP updates
(scale-free, so the scale of W_0 is irrelevant). The step is given through c = 2 eta ||b_1||^2 / n
(spec §4 F2; eta = c / d on data set A), either fixed or c0 / sqrt(d). Everything runs in the
span of the data (module `span`), so d = 2^20 costs what d = 16 costs.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch
from tqdm.auto import tqdm

from lib.gd_perceptron import datasets, dynamics, span
from lib.gd_perceptron.models import make_model


@dataclass(frozen=True)
class StepRule:
    """c = c0 (fixed) or c = c0 / sqrt(d) (shrinking); `label` names it in tables and plots."""

    c0: float
    sqrt_d: bool = False

    @property
    def label(self) -> str:
        return f"c={self.c0:g}/sqrt(d)" if self.sqrt_d else f"c={self.c0:g}"

    def c(self, d: int) -> float:
        return self.c0 / np.sqrt(d) if self.sqrt_d else self.c0


def eta_from_c(c: float, B: np.ndarray) -> float:
    """eta such that c = 2 eta ||b_1||^2 / n."""
    return c * B.shape[0] / (2.0 * float(np.dot(B[0], B[0])))


@dataclass
class SweepResult:
    """Iterations (K configs, S seeds) with the config axes d (K,) and rule label (K,)."""

    d: np.ndarray
    rule: np.ndarray
    iterations: np.ndarray
    capped: np.ndarray
    max_iter: int

    def summary(self):
        """One row per config: d, rule, median, quartiles, 10th / 90th percentiles (capped runs
        count as max_iter) and the share of capped runs."""
        q10, q25, med, q75, q90 = np.percentile(self.iterations, [10, 25, 50, 75, 90], axis=1)
        return pd.DataFrame({"d": self.d, "rule": self.rule, "median": med, "q25": q25,
                             "q75": q75, "q10": q10, "q90": q90,
                             "capped_fraction": self.capped.mean(axis=1)})


def quadratic_sweep(ds: list[int], rules: list[StepRule], seeds: int, gen: torch.Generator,
                    m: int = 2, max_iter: int = 100_000, dataset: str = "A",
                    data_seed: int = 0, progress: bool = True) -> SweepResult:
    """GP iteration counts for every (d, rule) and `seeds` random inits, as one batched run."""
    configs = [(d, r) for d in ds for r in rules]
    data = [datasets.make_dataset(d, data_seed, dataset) for d in ds]
    Bs = [data[ds.index(d)][0] for d, _ in configs]
    y = torch.as_tensor(data[0][1], dtype=torch.float64)
    Br = span.stack(Bs, seeds)                                             # (K*S, n, r)
    eta = torch.tensor([eta_from_c(r.c(d), B) for (d, r), B in zip(configs, Bs)],
                       dtype=torch.float64).repeat_interleave(seeds)      # (K*S,)
    W0 = span.gaussian_init(len(configs) * seeds, m, Br.shape[2], gen)   # (K*S, m, r)
    bar = tqdm(total=W0.shape[0], desc="quadratic GP runs", disable=not progress, mininterval=2)
    res = dynamics.iterations(make_model("two_layer", m), Br, y, W0, eta, rule="gp",
                              max_iter=max_iter, progress=bar)
    bar.close()
    K = len(configs)
    return SweepResult(np.array([d for d, _ in configs]), np.array([r.label for _, r in configs]),
                       res.iterations.reshape(K, seeds).numpy(),
                       res.capped.reshape(K, seeds).numpy(), max_iter)


def loglog_slope(x, y) -> float:
    """Least-squares slope of log y against log x."""
    return float(np.polyfit(np.log(np.asarray(x, float)), np.log(np.asarray(y, float)), 1)[0])


def plane_checks(ds: list[int], seeds: int, c: float, gen: torch.Generator, m: int = 2,
                 max_iter: int = 100_000) -> tuple[pd.DataFrame, float]:
    """Full-d against span GP counts on data set A per d (same W_0), and the largest drift of the
    components orthogonal to the span (spec §5 check 3)."""
    rows, drift = [], 0.0
    for d in ds:
        B, y = datasets.dataset_a(d)
        W0 = torch.randn(seeds, m, d, generator=gen, dtype=torch.float64)         # (S, m, d)
        cmp = span.compare_with_full(make_model("two_layer", m), B, y, W0, eta_from_c(c, B),
                                     max_iter)
        rows.append({"d": d, "matches": int((cmp["full"] == cmp["plane"]).sum()), "seeds": seeds,
                     "median_T": float(np.median(cmp["plane"]))})
        drift = max(drift, cmp["drift"])
    return pd.DataFrame(rows), drift


def scaled_init_counts(d: int, seeds: int, c: float, powers: list[int], gen: torch.Generator,
                       m: int = 2, max_iter: int = 100_000) -> dict[int, np.ndarray]:
    """GP counts on data set A from W_0 * 2^k for each k (powers of two are exact; spec check 9)."""
    B, y = datasets.dataset_a(d)
    Br = torch.as_tensor(span.reduce(B)[1])
    W0 = span.gaussian_init(seeds, m, Br.shape[1], gen)
    yt = torch.as_tensor(y, dtype=torch.float64)
    model = make_model("two_layer", m)
    return {k: dynamics.iterations(model, Br, yt, W0 * 2.0 ** k, eta_from_c(c, B), rule="gp",
                                   max_iter=max_iter).iterations.numpy()
            for k in powers}
