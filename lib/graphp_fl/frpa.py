"""FRPA, reading 1 (spec §1.2): the Fisher-weighted elastic alignment of a local model to the
global one, its closed form and the equal-distance Pareto comparison with isotropic alignment
(spec §1.3). Works on numpy float64 arrays and on object arrays of Fractions alike."""
from __future__ import annotations

import numpy as np
import torch
from scipy import optimize


def align(theta_k: np.ndarray, theta_g: np.ndarray, fisher: np.ndarray, lam: float) -> np.ndarray:
    """argmin_t lam |t - theta_g|^2 / 2 + sum_i F_i (t_i - theta_k_i)^2 / 2, per coordinate:
    (F theta_k + lam theta_g) / (F + lam)."""
    return (fisher * theta_k + lam * theta_g) / (fisher + lam)


def interpolate(theta_k: np.ndarray, theta_g: np.ndarray, w: float) -> np.ndarray:
    """Isotropic alignment (1 - w) theta_k + w theta_g."""
    return (1 - w) * theta_k + w * theta_g


def _objective_grad(theta_k: torch.Tensor, theta_g: torch.Tensor, fisher: torch.Tensor,
                    lam: float):
    """The autograd gradient of the spec §1.2 objective (reading 1, without the local loss)."""
    def gradient(t: torch.Tensor) -> torch.Tensor:
        t = t.detach().requires_grad_()
        value = lam * ((t - theta_g) ** 2).sum() / 2 + (fisher * (t - theta_k) ** 2).sum() / 2
        return torch.autograd.grad(value, t)[0]
    return gradient


def solve_numerically(theta_k: np.ndarray, theta_g: np.ndarray, fisher: np.ndarray,
                      lam: float, history: int = 20, max_iter: int = 500) -> np.ndarray:
    """The same minimiser by L-BFGS (two-loop recursion) from theta_g on the autograd gradient:
    the independent reference for `align`. The step along each direction d is the exact one of a
    quadratic, -g.d / d.(grad(t + d) - grad(t)), from gradients only: a line search on values
    stalls near 1e-8, where the objective's changes fall below its float64 rounding."""
    tk, tg, f = (torch.tensor(np.asarray(a, float)) for a in (theta_k, theta_g, fisher))
    gradient = _objective_grad(tk, tg, f, lam)
    t = tg.clone()
    g = gradient(t)
    pairs: list[tuple[torch.Tensor, torch.Tensor]] = []
    for _ in range(max_iter):
        if g.abs().max() <= 1e-13:
            break
        q, alphas = g.clone(), []
        for s, y in reversed(pairs):
            alphas.append((s @ q) / (y @ s))
            q -= alphas[-1] * y
        if pairs:
            q *= (pairs[-1][0] @ pairs[-1][1]) / (pairs[-1][1] @ pairs[-1][1])
        for (s, y), a in zip(pairs, reversed(alphas)):
            q += (a - (y @ q) / (y @ s)) * s
        d = -q
        hd = gradient(t + d) - g                                  # H d, exact for a quadratic
        step = -(g @ d) / (d @ hd)
        t = t + step * d
        g_new = gradient(t)
        pairs = (pairs + [(step * d, g_new - g)])[-history:]
        g = g_new
    return t.numpy()


def loss_increase(theta: np.ndarray, theta_k: np.ndarray, hess: np.ndarray) -> float:
    """Local-loss increase of the quadratic (t - theta_k)^T H (t - theta_k) / 2, H diagonal."""
    return np.sum(hess * (theta - theta_k) ** 2) / 2


def distance(theta: np.ndarray, theta_g: np.ndarray) -> float:
    """Euclidean distance to the global model."""
    return float(np.sqrt(np.sum((np.asarray(theta, float) - theta_g) ** 2)))


def lambda_at_distance(theta_k: np.ndarray, theta_g: np.ndarray, hess: np.ndarray,
                       target: float) -> float:
    """The lam at which FRPA (F = H) sits at `target` from theta_g, 0 < target < |theta_k -
    theta_g|: a root in log lam of the decreasing |align - theta_g|."""
    def gap(log_lam: float) -> float:
        return distance(align(theta_k, theta_g, hess, np.exp(log_lam)), theta_g) - target
    lo, hi = np.log(hess.min()) - 40.0, np.log(hess.max()) + 40.0
    return float(np.exp(optimize.brentq(gap, lo, hi, xtol=1e-14, rtol=4 * np.finfo(float).eps,
                                        maxiter=500)))


def pareto_margins(theta_k: np.ndarray, theta_g: np.ndarray, hess: np.ndarray,
                   weights: list[float]) -> np.ndarray:
    """Per isotropic weight w: (iso increase - FRPA increase) / iso increase, FRPA taken at the
    lam that puts it at the same distance (1 - w)|theta_k - theta_g| from theta_g (spec §1.3)."""
    full = distance(theta_k, theta_g)
    out = []
    for w in weights:
        iso = loss_increase(interpolate(theta_k, theta_g, w), theta_k, hess)
        lam = lambda_at_distance(theta_k, theta_g, hess, (1 - w) * full)
        out.append((iso - loss_increase(align(theta_k, theta_g, hess, lam), theta_k, hess)) / iso)
    return np.array(out)


def random_instance(rng: np.random.Generator, dim_low: int, dim_high: int,
                    log_sd: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """theta_k, theta_g ~ N(0, I) and H log-normal(0, log_sd) in a dimension drawn from
    [dim_low, dim_high]."""
    n = int(rng.integers(dim_low, dim_high + 1))
    return rng.standard_normal(n), rng.standard_normal(n), np.exp(log_sd * rng.standard_normal(n))


def same_mean_weight_gap(hess: np.ndarray, gap: np.ndarray, lam) -> object:
    """FRPA's increase minus the isotropic increase at the same MEAN per-coordinate weight to
    theta_g (the naive comparison of spec §1.3), theta_k = 0, theta_g = gap; exact on Fractions."""
    zero = gap * 0
    w_mean = np.sum(lam / (hess + lam)) / len(hess)
    frpa = loss_increase(align(zero, gap, hess, lam), zero, hess)
    return frpa - loss_increase(interpolate(zero, gap, w_mean), zero, hess)
