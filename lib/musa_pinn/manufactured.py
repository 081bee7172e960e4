"""Fields with known divergence for NB1's identity checks (spec §1.3): each returns values
(..., 3) = (u, v, p = 0) and gradients (..., 3, 2) at points (..., 2), like `kovasznay.fields`.

- `square`: u = (x^2, 0), div u = 2x; its disc average is 2 c_x in closed form.
- `transcendental`: u = (sin 2x e^y, x cos 3y), div u = 2 cos 2x e^y - 3x sin 3y.
- `stream`: u = curl psi for psi = sin 2x cos 3y + x y^2, solenoidal, so every flux is 0.
"""
from __future__ import annotations

import torch


def _pack(u, v, ux, uy, vx, vy) -> tuple[torch.Tensor, torch.Tensor]:
    zero = torch.zeros_like(u)
    values = torch.stack([u, v, zero], -1)
    grads = torch.stack([torch.stack([ux, uy], -1), torch.stack([vx, vy], -1),
                         torch.stack([zero, zero], -1)], -2)
    return values, grads


def square(xy: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """u = (x^2, 0)."""
    x = xy[..., 0]
    zero = torch.zeros_like(x)
    return _pack(x * x, zero, 2 * x, zero, zero, zero)


def square_divergence_mean(centres: torch.Tensor) -> torch.Tensor:
    """Closed-form disc average of div (x^2, 0) = 2x: 2 c_x (the mean of x over a disc is c_x)."""
    return 2 * centres[..., 0]


def transcendental(xy: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """u = (sin 2x e^y, x cos 3y)."""
    x, y = xy[..., 0], xy[..., 1]
    ey = torch.exp(y)
    return _pack(torch.sin(2 * x) * ey, x * torch.cos(3 * y), 2 * torch.cos(2 * x) * ey,
                 torch.sin(2 * x) * ey, torch.cos(3 * y), -3 * x * torch.sin(3 * y))


def transcendental_divergence(xy: torch.Tensor) -> torch.Tensor:
    """div of `transcendental`: 2 cos 2x e^y - 3x sin 3y."""
    x, y = xy[..., 0], xy[..., 1]
    return 2 * torch.cos(2 * x) * torch.exp(y) - 3 * x * torch.sin(3 * y)


def stream(xy: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """u = (psi_y, -psi_x) for psi = sin 2x cos 3y + x y^2."""
    x, y = xy[..., 0], xy[..., 1]
    s2, c2, s3, c3 = torch.sin(2 * x), torch.cos(2 * x), torch.sin(3 * y), torch.cos(3 * y)
    u = -3 * s2 * s3 + 2 * x * y
    v = -(2 * c2 * c3 + y * y)
    return _pack(u, v, -6 * c2 * s3 + 2 * y, -9 * s2 * c3 + 2 * x, 4 * s2 * c3,
                 6 * c2 * s3 - 2 * y)
