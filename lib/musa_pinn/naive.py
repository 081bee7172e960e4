"""Plain-loop references (spec §4): the disc fluxes one disc and one node at a time, in Python
floats, and the area integral of a divergence by a polar tensor-product rule, one disc at a time.
Tests and bench/ import these; notebooks never do."""
from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import torch


def disc_flux(values: torch.Tensor, grads: torch.Tensor, normals: torch.Tensor,
              radii: torch.Tensor, nu: float) -> torch.Tensor:
    """residuals.disc_flux for values (m, Q, 3), grads (m, Q, 3, 2): the definition, looped."""
    val, grd, nrm, rad = (t.detach().double().tolist() for t in (values, grads, normals, radii))
    q = len(nrm)
    out = []
    for m in range(len(rad)):
        acc = [0.0, 0.0, 0.0]
        for k in range(q):
            u, v, p = val[m][k]
            nx, ny = nrm[k]
            un = u * nx + v * ny
            du_n = grd[m][k][0][0] * nx + grd[m][k][0][1] * ny
            dv_n = grd[m][k][1][0] * nx + grd[m][k][1][1] * ny
            ds = 2 * math.pi * rad[m] / q                       # arc length of one node
            acc[0] += un * ds
            acc[1] += (u * un + p * nx - nu * du_n) * ds
            acc[2] += (v * un + p * ny - nu * dv_n) * ds
        area = math.pi * rad[m] ** 2
        out.append([a / area for a in acc])
    return torch.tensor(out, dtype=torch.float64)


def disc_average(f: Callable[[float, float], float], centre: tuple[float, float], radius: float,
                 n_r: int = 24, n_theta: int = 64) -> float:
    """Disc average of f by Gauss-Legendre in r (weight r dr) times trapezoid in theta: a rule
    independent of the boundary quadrature, spectral for smooth f."""
    nodes, weights = np.polynomial.legendre.leggauss(n_r)
    total = 0.0
    for t, w in zip(nodes, weights):
        r = 0.5 * radius * (t + 1)
        for k in range(n_theta):
            th = 2 * math.pi * k / n_theta
            total += w * 0.5 * radius * r * (2 * math.pi / n_theta) * \
                f(centre[0] + r * math.cos(th), centre[1] + r * math.sin(th))
    return total / (math.pi * radius ** 2)
