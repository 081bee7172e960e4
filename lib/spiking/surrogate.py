"""The spike nonlinearity every spiking paper here trains through: Heaviside forward, the
derivative of a sigmoid of sharpness alpha backward (SpikingJelly's `surrogate.Sigmoid`)."""
from __future__ import annotations

import torch


class SpikeSurrogate(torch.autograd.Function):
    """Heaviside forward (u >= 0), sigmoid-derivative backward with sharpness alpha."""

    @staticmethod
    def forward(ctx, u: torch.Tensor, alpha: float) -> torch.Tensor:
        ctx.save_for_backward(u)
        ctx.alpha = alpha
        return (u >= 0).to(u.dtype)

    @staticmethod
    def backward(ctx, grad: torch.Tensor):
        (u,) = ctx.saved_tensors
        return grad * surrogate_derivative(u, ctx.alpha), None


def surrogate_derivative(u: torch.Tensor, alpha: float) -> torch.Tensor:
    """alpha sigma(alpha u)(1 - sigma(alpha u)): the backward pass's stand-in for H'(u)."""
    sig = torch.sigmoid(alpha * u)
    return alpha * sig * (1.0 - sig)
