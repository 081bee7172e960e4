"""Input noise (spec §1.4, protocol reconstructed): i.i.d. Gaussian noise of std sigma on the
raw pixels in [0, 1], clipped back to [0, 1]; the models normalise afterwards."""
from __future__ import annotations

import torch


def gaussian_pixels(x: torch.Tensor, sigma: float, seed: int) -> torch.Tensor:
    """clip(x + sigma ε, 0, 1) with ε ~ N(0, 1) from a generator seeded by `seed` (the same
    draw for every model compared at this sigma)."""
    if sigma < 0:
        raise ValueError(f"sigma = {sigma}: a noise level must be >= 0")
    gen = torch.Generator().manual_seed(seed)
    return (x + sigma * torch.randn(x.shape, generator=gen, dtype=x.dtype)).clamp_(0.0, 1.0)
