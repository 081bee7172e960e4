"""Linear-model iteration counts on data set A over d (spec §4 F1, §5 check 4; §8).

Exact counts come from `exact` (rational arithmetic, both tie rules). Float counts of GD at a
given gamma and of the GP run in the coefficients of u = sum_i a_i b_i against the Gram matrix
(`models.LinearGram`), one run per (d, data seed), all d at once: integer Gram entries keep data
set A's exact ties exact, which an orthonormal float basis would not.
"""
from __future__ import annotations

import math

import numpy as np
import torch

from lib.gd_perceptron import datasets, dynamics, exact
from lib.gd_perceptron.models import LinearGram


def exact_counts(ds: list[int], tie: str) -> np.ndarray:
    """Batch-perceptron counts on data set A for every d, exactly (closed-form Gram matrix)."""
    y = datasets.dataset_a(2)[1]
    return np.array([exact.perceptron_count(exact.gram_dataset_a(d), y, tie) for d in ds])


def closed_form_half(d: int) -> int:
    """Spec §4 F1: d + 2 for even d, d + 1 for odd d (the 1/2-tie rule)."""
    return d + 2 if d % 2 == 0 else d + 1


def float_counts(ds: list[int], rule: str, eta: float, dataset: str = "A",
                 data_seeds: list[int] = (0,), max_iter: int = 10**6,
                 sigma: float = 1e-3) -> np.ndarray:
    """Counts (len(ds), len(data_seeds)) of GD ("gd", eta = gamma) or the GP from 0; `sigma` is
    the noise of data set "A_perturbed"."""
    Bs = [datasets.make_dataset(d, s, dataset, sigma)[0].astype(np.float64)
          for d in ds for s in data_seeds]
    y = torch.as_tensor(datasets.dataset_a(2)[1], dtype=torch.float64)
    G = torch.as_tensor(np.stack([B @ B.T for B in Bs]))                  # (R, n, n)
    theta0 = torch.zeros(G.shape[0], G.shape[1], dtype=torch.float64)     # (R, n) coefficients
    res = dynamics.iterations(LinearGram(), G, y, theta0, eta, rule=rule, max_iter=max_iter,
                              rescale=None)
    if bool(res.capped.any()):
        raise RuntimeError(f"float_counts: {int(res.capped.sum())} runs hit max_iter={max_iter}")
    return res.iterations.reshape(len(ds), len(data_seeds)).numpy()


def trivial_share(ds: list[int], sigma: float) -> np.ndarray:
    """Probability that perturbed data set A is separated at t = 1 (derived, to first order in
    sigma): the t = 1 margin of b_2 is (sigma N(0, d) + sigma^2 |g|^2) / 4 with |g|^2 ~ d, so
    P = Phi(sigma sqrt(d)), about 1/2 for small sigma sqrt(d)."""
    return np.array([0.5 * (1 + math.erf(sigma * math.sqrt(d) / math.sqrt(2))) for d in ds])


def median_nontrivial(counts: np.ndarray) -> np.ndarray:
    """Per row (one d) of a (D, S) count array, the median over the draws not separated at
    t = 1 (count > 1); NaN for a row with none. The statistic `linear.perturbed_theta_d` fits."""
    counts = np.asarray(counts)
    return np.array([np.median(row[row > 1]) if (row > 1).any() else np.nan for row in counts])
