"""Reference solutions of viscous Burgers, u_t + u u_x = nu u_xx on [-1, 1], u(x, 0) = -sin(pi x),
u(+-1, t) = 0 (spec §1.5, §3.2), computed two independent ways.

- `burgers_spectral`: Fourier pseudo-spectral ETDRK4 (Kassam & Trefethen 2005) on the periodic
  extension with the 2/3 de-aliasing rule. The IC is odd and 2-periodic, so the periodic solution
  stays odd and vanishes at x = +-1: it *is* the Dirichlet solution (spec §3.2).
- `burgers_colehopf`: the Cole-Hopf integral, trapezoid rule in the heat-kernel variable with
  log-sum-exp stabilisation (spectrally accurate for this smooth, decaying integrand).

The spectral step is explicit in the advection term, so it has a CFL limit: it is checked before
any compute (`CFLError`), and a non-finite state stops the run with the time it appeared.
"""
from __future__ import annotations

import numpy as np


class CFLError(ValueError):
    """The requested spectral time step violates the advective CFL limit."""


def wavenumbers(n_modes: int) -> np.ndarray:
    """rfft wavenumbers of an n-point grid of period 2: k = pi * j, j = 0..n/2."""
    return np.pi * np.arange(n_modes // 2 + 1)


def cfl_number(n_modes: int, dt: float, umax: float) -> float:
    """dt * max|u| * k_max with k_max the largest wavenumber kept by the 2/3 rule. Burgers obeys
    a maximum principle (max|u| never grows), so max|u0| bounds it for the whole run."""
    return dt * umax * np.pi * (n_modes // 3)


def check_cfl(n_modes: int, dt: float, umax: float, cfl_max: float) -> float:
    """Refuse a step whose CFL number exceeds cfl_max, saying which numbers break it."""
    c = cfl_number(n_modes, dt, umax)
    dt_ok = cfl_max / (umax * np.pi * (n_modes // 3))
    if not np.isfinite(c) or c > cfl_max:
        raise CFLError(f"spectral step violates the CFL limit: dt * max|u| * k_max = {dt:g} * "
                       f"{umax:g} * {np.pi * (n_modes // 3):.4g} = {c:.4g} > cfl_max = "
                       f"{cfl_max:g}; allowed: dt <= {dt_ok:.3g}"
                       f" at n_modes = {n_modes}")
    return c


def _etdrk4_coefficients(lin: np.ndarray, dt: float, contour: int = 32):
    """phi-function coefficients of ETDRK4 by contour integrals (Kassam-Trefethen, eq. 2.5)."""
    r = np.exp(1j * np.pi * (np.arange(1, contour + 1) - 0.5) / contour)      # (M,)
    lr = dt * lin[:, None] + r[None, :]                                       # (K, M)
    e, e2 = np.exp(dt * lin), np.exp(dt * lin / 2)
    q = dt * np.real(np.mean((np.exp(lr / 2) - 1) / lr, axis=1))
    f1 = dt * np.real(np.mean((-4 - lr + np.exp(lr) * (4 - 3 * lr + lr**2)) / lr**3, axis=1))
    f2 = dt * np.real(np.mean((2 + lr + np.exp(lr) * (-2 + lr)) / lr**3, axis=1))
    f3 = dt * np.real(np.mean((-4 - 3 * lr - lr**2 + np.exp(lr) * (4 - lr)) / lr**3, axis=1))
    return e, e2, q, f1, f2, f3


def burgers_spectral(nu: float, n_modes: int, dt: float, t_out: np.ndarray,
                     cfl_max: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Fourier coefficients (len(t_out), n_modes/2 + 1) of the solution at the times t_out, on
    the grid x_j = -1 + 2j/n_modes. Every t_out must be a whole number of steps dt."""
    if n_modes < 8 or n_modes % 2:
        raise ValueError(f"n_modes = {n_modes}; allowed: an even number >= 8")
    if not (dt > 0 and nu > 0):
        raise ValueError(f"dt = {dt!r}, nu = {nu!r}; allowed: both > 0")
    t_out = np.asarray(t_out, dtype=np.float64)
    steps = np.rint(t_out / dt).astype(np.int64)
    if np.any(np.abs(steps * dt - t_out) > 1e-9 * max(1.0, t_out.max())) or np.any(steps < 0):
        raise ValueError(f"output times must be whole multiples of dt = {dt:g}")
    if np.any(np.diff(steps) < 0):
        raise ValueError("output times must be non-decreasing")
    x = -1 + 2 * np.arange(n_modes) / n_modes
    u0 = -np.sin(np.pi * x)
    check_cfl(n_modes, dt, float(np.abs(u0).max()), cfl_max)
    k = wavenumbers(n_modes)
    keep = np.arange(k.size) < n_modes // 3            # 2/3 rule (strictly below N/3)
    lin = -nu * k**2
    e, e2, q, f1, f2, f3 = _etdrk4_coefficients(lin, dt)
    g = -0.5j * k * keep

    def nonlin(v):                                      # -(u^2/2)_x, de-aliased
        u = np.fft.irfft(v * keep, n_modes)
        return g * np.fft.rfft(u * u)

    v = np.fft.rfft(u0)
    out = np.empty((t_out.size, k.size), dtype=np.complex128)
    done = 0
    for i, target in enumerate(steps):
        while done < target:
            nv = nonlin(v)
            a = e2 * v + q * nv
            na = nonlin(a)
            b = e2 * v + q * na
            nb = nonlin(b)
            c = e2 * a + q * (2 * nb - nv)
            nc = nonlin(c)
            v = e * v + nv * f1 + 2 * (na + nb) * f2 + nc * f3
            done += 1
        if not np.all(np.isfinite(v)):
            raise FloatingPointError(f"spectral solution became non-finite by t = {t_out[i]:g} "
                                     f"(n_modes = {n_modes}, dt = {dt:g})")
        out[i] = v
    return out, x


def evaluate_fourier(coef: np.ndarray, n_modes: int, x: np.ndarray, deriv: int = 0) -> np.ndarray:
    """Evaluate rfft coefficients (T, K) of the grid x_j = -1 + 2j/n at arbitrary x: (T, len(x)).
    The Nyquist mode is dropped (it is zero after de-aliasing)."""
    k = wavenumbers(n_modes)
    w = np.full(k.size, 2.0)
    w[0] = 1.0
    w[-1] = 0.0
    phase = np.exp(1j * np.outer(k, np.asarray(x) + 1))                 # (K, X)
    return np.real((coef * w * (1j * k) ** deriv) @ phase) / n_modes


def burgers_colehopf(x: np.ndarray, t: np.ndarray, nu: float, nodes: int = 2001,
                     s_max: float = 12.0) -> tuple[np.ndarray, np.ndarray]:
    """u and u_x on the grid (len(t), len(x)) by the Cole-Hopf integral (t = 0 uses the IC)."""
    s = np.linspace(-s_max, s_max, nodes)
    x = np.asarray(x, dtype=np.float64)
    t = np.asarray(t, dtype=np.float64)
    u = np.empty((t.size, x.size))
    ux = np.empty((t.size, x.size))
    for i, ti in enumerate(t):
        if ti == 0:
            u[i], ux[i] = -np.sin(np.pi * x), -np.pi * np.cos(np.pi * x)
            continue
        y = x[:, None] - 2 * np.sqrt(nu * ti) * s[None, :]               # (X, S)
        sy, cy = np.sin(np.pi * y), np.cos(np.pi * y)
        w = -cy / (2 * np.pi * nu) - s[None, :] ** 2
        ew = np.exp(w - w.max(axis=1, keepdims=True))
        ew[:, [0, -1]] *= 0.5                                           # trapezoid ends
        d = ew.sum(1)
        n = (sy * ew).sum(1)
        dn = ((np.pi * cy + sy**2 / (2 * nu)) * ew).sum(1)
        dd = (sy / (2 * nu) * ew).sum(1)
        u[i] = -n / d
        ux[i] = -(dn * d - n * dd) / d**2
    return u, ux


def max_slope_at_origin(nu: float, nodes: int = 2001, bracket=(0.3, 0.8)) -> tuple[float, float]:
    """max_t |u_x(0, t)| and its time, by bounded scalar minimisation of the Cole-Hopf u_x."""
    from scipy.optimize import minimize_scalar

    def neg(t):
        return -abs(burgers_colehopf(np.array([0.0]), np.array([t]), nu, nodes)[1][0, 0])

    res = minimize_scalar(neg, bounds=bracket, method="bounded",
                          options={"xatol": 1e-9})
    return -float(res.fun), float(res.x)
