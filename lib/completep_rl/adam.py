"""Adam by hand for an ensemble: one base LR per member times a per-tensor multiplier, and the
parameterisation's epsilon (spec §1.2, §1.4), so every member steps in one batched update."""
from __future__ import annotations

import torch


class EnsembleAdam:
    """Adam (no weight decay) whose LR for tensor k of member e is lr[e] * lr_mult[k]; a
    multiplier and epsilon may be one number or one per member (shape (E,))."""

    def __init__(self, weights: dict[str, torch.Tensor], lr: torch.Tensor,
                 lr_mult: dict[str, float | torch.Tensor], eps: float | torch.Tensor,
                 betas: tuple[float, float] = (0.9, 0.999)):
        self.weights, self.lr, self.lr_mult, self.eps, self.betas = weights, lr, lr_mult, eps, betas
        self.m = {k: torch.zeros_like(w) for k, w in weights.items()}
        self.v = {k: torch.zeros_like(w) for k, w in weights.items()}
        self.t = 0

    @torch.no_grad()
    def step(self) -> None:
        """One Adam update of every tensor from its .grad (torch.optim.Adam's arithmetic)."""
        b1, b2 = self.betas
        self.t += 1
        c1, c2 = 1 - b1 ** self.t, 1 - b2 ** self.t
        for k, w in self.weights.items():
            g = w.grad
            self.m[k].mul_(b1).add_(g, alpha=1 - b1)
            self.v[k].mul_(b2).addcmul_(g, g, value=1 - b2)
            axes = (-1, *([1] * (w.dim() - 1)))            # per member, broadcast over the rest
            lr = (self.lr * self.lr_mult[k]).reshape(axes)
            eps = torch.as_tensor(self.eps, dtype=w.dtype).reshape(axes)
            denom = (self.v[k] / c2).sqrt().add_(eps)
            w.sub_(lr / c1 * self.m[k] / denom)
