"""The time-entanglement toy (spec §3.1, §1.2): fit u*(x, t) = tanh((1 + 19 t) x) with one
space-time neuron c + a tanh(w x + v t + b) (time can only shift the argument) and with one
time-induced neuron a tanh((w0 + w1 t) x + b0 + b1 t) (the steepness is a function of time),
five parameters each, by Levenberg-Marquardt from many random starts."""
from __future__ import annotations

import numpy as np
from scipy.optimize import least_squares


def target(x: np.ndarray, t: np.ndarray) -> np.ndarray:
    """u*(x, t) = tanh((1 + 19 t) x) on the grid, (n_t, n_x)."""
    return np.tanh((1.0 + 19.0 * t[:, None]) * x[None, :])


def space_time(p: np.ndarray, x: np.ndarray, t: np.ndarray) -> np.ndarray:
    """c + a tanh(w x + v t + b), p = (c, a, w, v, b); (n_t, n_x)."""
    c, a, w, v, b = p
    return c + a * np.tanh(w * x[None, :] + v * t[:, None] + b)


def time_induced(p: np.ndarray, x: np.ndarray, t: np.ndarray) -> np.ndarray:
    """a tanh((w0 + w1 t) x + b0 + b1 t), p = (a, w0, w1, b0, b1); (n_t, n_x). The target is
    p = (1, 1, 19, 0, 0)."""
    a, w0, w1, b0, b1 = p
    return a * np.tanh((w0 + w1 * t[:, None]) * x[None, :] + b0 + b1 * t[:, None])


MODELS = {"space_time": space_time, "time_induced": time_induced}


def relative_l2(u: np.ndarray, ref: np.ndarray) -> float:
    return float(np.linalg.norm(u - ref) / np.linalg.norm(ref))


def fit_starts(model: str, x: np.ndarray, t: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Relative L2 of the LM fit (scipy least_squares, method 'lm') from each start (rows of
    `starts`, (n_starts, 5)) of the named model to the target; (n_starts,)."""
    f, ref = MODELS[model], target(x, t)
    errors = np.full(len(starts), np.nan)
    for i, p0 in enumerate(starts):
        sol = least_squares(lambda p: (f(p, x, t) - ref).ravel(), p0, method="lm",
                            xtol=1e-15, ftol=1e-15, gtol=1e-15, max_nfev=4000)
        errors[i] = relative_l2(f(sol.x, x, t), ref)
    assert np.isfinite(errors).all()
    return errors
