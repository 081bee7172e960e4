"""The TTFS neuron (spec §1.2): non-leaky integrate-and-fire, locked after its first spike.

    V[t] = V[t-1] + I[t],  s[t] = H(V[t] - theta) (1 - F[t-1]),  F[t] = F[t-1] + s[t]

Its potential never depends on its own spikes, so the whole simulation is vectorised over time
(`ttfs`): V = cumsum_t I, F = cummax_t H(V - theta), s = H(V - theta)(1 - F[t-1]), the running
sums as products with a lower-triangular matrix of ones. `ttfs_step_loop`
is the per-step recurrence of the equations (the bench's baseline and the notebooks' check);
`naive.ttfs_neuron_naive` is the per-neuron float64 reference. The surrogate and the running
sums are the spiking papers' shared ones (lib/spiking). Backward: H' is replaced by the
surrogate alpha sigma(alpha u)(1 - sigma(alpha u)), u = V - theta, times (1 - F[t-1]) with F
detached, so a neuron that has fired passes no gradient. All tensors are (T, B, ...).
"""
from __future__ import annotations

import torch

from lib.spiking.integrate import CumsumTime, check_steps, cumsum_time
from lib.spiking.surrogate import SpikeSurrogate


class FirstCrossing(torch.autograd.Function):
    """s[t] = H(u[t]) (1 - F[t-1]) for u = V - theta (T, ...), all steps at once. With c = H(u)
    and n = its running sum (crossings up to t), no step before t crossed iff n[t] == c[t];
    backward: grad * surrogate'(u) * (1 - F[t-1]), F never differentiated."""

    @staticmethod
    def forward(ctx, u: torch.Tensor, alpha: float) -> torch.Tensor:
        # two fresh tensors and the rest in place: on CPU a new tensor of this size costs more
        # (page faults) than the arithmetic on it
        crossed = torch.ge(u, 0, out=torch.empty_like(u))           # c = H(u), as 0.0 / 1.0
        fresh = cumsum_time(crossed)                                # crossings up to t ...
        torch.eq(fresh, crossed, out=fresh)                         # ... none before t: 1 - F
        ctx.save_for_backward(u, fresh)
        ctx.alpha = alpha
        return crossed.mul_(fresh)

    @staticmethod
    def backward(ctx, grad: torch.Tensor):
        u, fresh = ctx.saved_tensors
        d = u.mul(ctx.alpha).sigmoid_()                             # sigma(alpha u)
        d.addcmul_(d, d, value=-1.0)                                # sigma (1 - sigma)
        return d.mul_(fresh).mul_(grad).mul_(ctx.alpha), None


def ttfs(I: torch.Tensor, theta: float, alpha: float) -> tuple[torch.Tensor, torch.Tensor]:
    """Spikes and potentials of TTFS neurons driven by currents I (T, B, ...), all steps at once.

    Differentiable through the surrogate; forward and backward equal `ttfs_step_loop`'s (the
    running sums in another order: potentials to rounding, spikes exactly but at a tie)."""
    check_steps(I.shape[0])
    V = CumsumTime.apply(I)                                         # (T, B, ...)
    return FirstCrossing.apply(V - theta, alpha), V


def ttfs_step_loop(I: torch.Tensor, theta: float,
                   alpha: float) -> tuple[torch.Tensor, torch.Tensor]:
    """The same neurons by the per-step recurrence (one Python step per time step)."""
    T = check_steps(I.shape[0])
    V = torch.zeros_like(I[0])
    fired = torch.zeros_like(I[0])
    spikes, potentials = [], []
    for t in range(T):
        V = V + I[t]
        s = SpikeSurrogate.apply(V - theta, alpha) * (1.0 - fired)
        fired = fired + s.detach()
        spikes.append(s)
        potentials.append(V)
    return torch.stack(spikes), torch.stack(potentials)


@torch.no_grad()
def ttfs_closed_form(I: torch.Tensor, theta: float) -> torch.Tensor:
    """Forward only, in integer logic, with torch's sequential cumsum: F = cummax_t H(V - theta),
    s[0] = F[0], s[t] = F[t] - F[t-1]."""
    check_steps(I.shape[0])
    crossed = (torch.cumsum(I, dim=0) >= theta).to(torch.int8)
    fired = torch.cummax(crossed, dim=0).values
    return torch.diff(fired, dim=0, prepend=torch.zeros_like(fired[:1])).to(I.dtype)
