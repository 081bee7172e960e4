"""AdamW (no weight decay) with gradient-norm clipping over one flat buffer of a model's
parameters: torch.optim.AdamW and clip_grad_norm_'s arithmetic, element for element, in a
dozen tensor calls a step instead of a dozen per parameter tensor (a tiny PFN has 43-79).

The parameters and their gradients become views into two flat buffers, so autograd
accumulates every gradient into the flat one (zeroed, never set to None, between steps) and the
elementwise Adam update runs once over all of them. The clipping norm stays the per-tensor
norms' norm (torch's summation order). tests/graphpfn/test_flat_adamw.py holds it to the
torch optimiser and clipping bit for bit.
"""
from __future__ import annotations

from collections.abc import Iterable

import torch


class FlatAdamW:
    """torch.optim.AdamW(params, lr, betas, eps, weight_decay=0) after clip_grad_norm_(params,
    max_norm), with the learning rate given at each step (a schedule's value)."""

    def __init__(self, params: Iterable[torch.nn.Parameter], betas: tuple[float, float] = (0.9,
                 0.999), eps: float = 1e-8):
        self.params = list(params)
        dtype = self.params[0].dtype
        n = sum(p.numel() for p in self.params)
        self.flat, self.grad = torch.empty(n, dtype=dtype), torch.zeros(n, dtype=dtype)
        self.grads, at = [], 0
        for p in self.params:                     # each parameter becomes a view of the buffer
            k = p.numel()
            self.flat[at:at + k] = p.detach().reshape(-1)
            p.data = self.flat[at:at + k].view_as(p)
            p.grad = self.grad[at:at + k].view_as(p)
            self.grads.append(p.grad)
            at += k
        self.exp_avg, self.exp_avg_sq = torch.zeros_like(self.flat), torch.zeros_like(self.flat)
        self.betas, self.eps, self.steps = betas, eps, 0

    def zero_grad(self) -> None:
        """Zero the gradient buffer (autograd adds into it: 0 + g is g)."""
        self.grad.zero_()

    @torch.no_grad()
    def clip(self, max_norm: float) -> torch.Tensor:
        """clip_grad_norm_: scale every gradient by min(1, max_norm / (norm + 1e-6)), the norm
        that of the per-tensor 2-norms; returns the norm."""
        total = torch.linalg.vector_norm(torch.stack(torch._foreach_norm(self.grads, 2.0)), 2.0)
        self.grad.mul_(torch.clamp(max_norm / (total + 1e-6), max=1.0))
        return total

    @torch.no_grad()
    def step(self, lr: float) -> None:
        """One AdamW step at learning rate lr (torch's single-tensor arithmetic)."""
        beta1, beta2 = self.betas
        self.steps += 1
        self.exp_avg.lerp_(self.grad, 1 - beta1)
        self.exp_avg_sq.mul_(beta2).addcmul_(self.grad, self.grad, value=1 - beta2)
        correction1 = 1 - beta1 ** float(self.steps)
        correction2 = 1 - beta2 ** float(self.steps)
        denom = (self.exp_avg_sq.sqrt() / correction2 ** 0.5).add_(self.eps)
        self.flat.addcdiv_(self.exp_avg, denom, value=-(lr / correction1))
