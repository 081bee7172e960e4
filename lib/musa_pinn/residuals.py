"""Strong and weak (disc-flux) residuals of steady incompressible Navier-Stokes, zero forcing
(spec §1.2, §1.3).

Both return three components in one order, (continuity, momentum-x, momentum-y):
- strong: div u and (u.grad)u + grad p - nu lap u at points (second derivatives, autograd);
- weak: for a disc B(c, r) the boundary fluxes of u and of u_i u + p e_i - nu grad u_i, by Q-point
  trapezoidal quadrature on the circle, divided by the area pi r^2, so each is the disc average of
  div u and of the conservative form (u.grad)u_i + u_i div u + d_i p - nu lap u_i (divergence
  theorem); first derivatives only. For solenoidal u that is the strong residual's disc average;
  for a net's u the two differ by u_i div u.
A field is anything that gives values (..., 3) = (u, v, p) at points; its derivatives come from
its own forward propagation where it has one (`model.SeedMLP.jet`, the training path), else from
autograd (analytic fields, any torch module: the reference the tests hold `jet` to).
"""
from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import torch

from lib.musa_pinn.model import SeedMLP

Net = Callable[[torch.Tensor], torch.Tensor]          # xy (..., 2) -> (u, v, p) (..., 3)


def circle_normals(q: int, dtype: torch.dtype = torch.float64) -> torch.Tensor:
    """Outward normals at the Q equispaced trapezoidal nodes, theta_k = 2 pi k / Q: (Q, 2)."""
    theta = 2 * math.pi * torch.arange(q, dtype=dtype) / q
    return torch.stack([torch.cos(theta), torch.sin(theta)], -1)


def disc_points(centres: torch.Tensor, radii: torch.Tensor, normals: torch.Tensor
                ) -> torch.Tensor:
    """Quadrature points c + r n_k: centres (..., m, 2), radii (..., m) -> (..., m, Q, 2)."""
    return centres[..., None, :] + radii[..., None, None] * normals


def disc_flux(values: torch.Tensor, grads: torch.Tensor, normals: torch.Tensor,
              radii: torch.Tensor, nu: float) -> torch.Tensor:
    """Area-normalised boundary fluxes of each disc, (..., m, 3) from values (..., m, Q, 3),
    gradients (..., m, Q, 3, 2), normals (Q, 2) and radii (..., m)."""
    dn = (grads * normals[:, None, :]).sum(-1)                         # (..., m, Q, 3): d/dn
    return normal_flux(values, dn, normals, radii, nu)


def normal_flux(values: torch.Tensor, dn: torch.Tensor, normals: torch.Tensor,
                radii: torch.Tensor, nu: float) -> torch.Tensor:
    """`disc_flux` from the normal derivatives dn (..., m, Q, 3) of the values, all that the
    fluxes read of the gradients."""
    u, v, p = values.unbind(-1)                                        # (..., m, Q) each
    nx, ny = normals.unbind(-1)                                        # (Q,)
    un = u * nx + v * ny                                               # u . n
    mom_x = u * un + p * nx - nu * dn[..., 0]
    mom_y = v * un + p * ny - nu * dn[..., 1]
    integrand = torch.stack([un, mom_x, mom_y], -1)                    # (..., m, Q, 3)
    q = normals.shape[0]
    # (1 / pi r^2) * sum_k f_k * (2 pi r / Q) = 2 / (r Q) * sum_k f_k
    return integrand.sum(-2) * (2.0 / (q * radii))[..., None]


def value_and_grad(net: Net, xy: torch.Tensor, create_graph: bool = True
                   ) -> tuple[torch.Tensor, torch.Tensor]:
    """Values (..., 3) and input gradients (..., 3, 2) of a pointwise net by autograd."""
    if not xy.requires_grad:
        xy = xy.detach().requires_grad_(True)
    out = net(xy)
    grads = [torch.autograd.grad(out[..., i].sum(), xy, create_graph=create_graph,
                                   retain_graph=True)[0]
             for i in range(3)]
    return out, torch.stack(grads, -2)


def velocity_laplacian(grads: torch.Tensor, xy: torch.Tensor) -> torch.Tensor:
    """Laplacians of u and v (..., 2) from input gradients (..., 3, 2) built with create_graph
    at xy, by autograd."""
    return torch.stack([sum(torch.autograd.grad(grads[..., i, k].sum(), xy, create_graph=True,
                                                retain_graph=True)[0][..., k] for k in range(2))
                        for i in range(2)], -1)


def derivatives(net: Net, xy: torch.Tensor, with_laplacian: bool = False
                ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor | None]:
    """Values (..., 3), input gradients (..., 3, 2) and, if asked, the Laplacians of u and v
    (..., 2): by the seed-batched net's forward propagation, or by autograd for any other
    field."""
    if isinstance(net, SeedMLP):
        values, grads, lap = net.jet(xy, with_laplacian)
        return values, grads, None if lap is None else lap[..., :2]
    xy = xy.detach().requires_grad_(True)
    values, grads = value_and_grad(net, xy, create_graph=True)
    return values, grads, velocity_laplacian(grads, xy) if with_laplacian else None


def weak_residual(net: Net, centres: torch.Tensor, radii: torch.Tensor, q: int,
                  nu: float) -> torch.Tensor:
    """Disc-flux residuals (..., m, 3) of a net on discs, Q-point quadrature."""
    normals = circle_normals(q, centres.dtype)
    points = disc_points(centres, radii, normals)                      # (..., m, Q, 2)
    if isinstance(net, SeedMLP):                                       # one tangent: the normal
        values, dn = net.directional(points, normals)
        return normal_flux(values, dn, normals, radii, nu)
    values, grads, _ = derivatives(net, points)
    return disc_flux(values, grads, normals, radii, nu)


def strong_residual(net: Net, xy: torch.Tensor, nu: float) -> torch.Tensor:
    """Pointwise residuals (..., 3): div u and the momentum residual (second derivatives)."""
    values, grads, lap = derivatives(net, xy, with_laplacian=True)
    u, v, _ = values.unbind(-1)
    cont = grads[..., 0, 0] + grads[..., 1, 1]
    mom_x = u * grads[..., 0, 0] + v * grads[..., 0, 1] + grads[..., 2, 0] - nu * lap[..., 0]
    mom_y = u * grads[..., 1, 0] + v * grads[..., 1, 1] + grads[..., 2, 1] - nu * lap[..., 1]
    return torch.stack([cont, mom_x, mom_y], -1)


def area_average(f: Callable[[torch.Tensor], torch.Tensor], centres: torch.Tensor,
                 radii: torch.Tensor, n_r: int, n_theta: int) -> torch.Tensor:
    """Disc averages (m,) of a scalar field by Gauss-Legendre in r (weight r dr) times the
    trapezoid in theta: an area rule independent of the boundary quadrature."""
    t, w = (torch.as_tensor(a, dtype=centres.dtype) for a in np.polynomial.legendre.leggauss(n_r))
    theta = 2 * math.pi * torch.arange(n_theta, dtype=centres.dtype) / n_theta
    rho = 0.5 * (t + 1)                                               # (n_r,) in [0, 1]
    offs = torch.stack([torch.cos(theta), torch.sin(theta)], -1)      # (n_theta, 2)
    pts = centres[:, None, None, :] + radii[:, None, None, None] * rho[:, None, None] * offs
    vals = f(pts)                                                     # (m, n_r, n_theta)
    # mean over the disc = (1 / pi) int_0^1 int_0^2pi f rho drho dtheta (unit-disc coordinates)
    return (vals * (0.5 * w * rho)[:, None]).sum((-2, -1)) * (2 * math.pi / n_theta) / math.pi
