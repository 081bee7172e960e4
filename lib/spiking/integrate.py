"""Integrate-and-fire simulation, time-major (T, B, ...): the step count check, running sums
over time, the IF neuron with soft reset and the leaky one (LIF) with hard reset.

The soft-reset IF (SpikingJelly's IFNode with v_reset = None), in units of its threshold theta:

    v[t] = u[t-1] + I[t],  s[t] = H(v[t] - theta),  u[t] = v[t] - theta s[t],  u[-1] = v0

Its spikes feed back into its potential, so time is a loop here, one elementwise step per t;
what costs (the synaptic currents of a whole layer) is computed for all steps at once by the
caller. With a constant current c = I/theta the count has a closed form (`constant_counts`):
N_T = clip(floor(v0/theta + T c), 0, T) for 0 <= v0 < theta.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import torch

from lib.spiking.surrogate import SpikeSurrogate


def check_steps(T: int) -> int:
    """T >= 1 as a Python int, or a ValueError naming T (no simulation without a time step)."""
    if isinstance(T, bool) or not isinstance(T, int) or T < 1:
        raise ValueError(f"T = {T!r}: the number of time steps must be an integer >= 1")
    return T


_TRIL: dict[tuple[int, torch.dtype], torch.Tensor] = {}


def _tril(T: int, dtype: torch.dtype) -> torch.Tensor:
    """The T x T lower-triangular matrix of ones (cached): L @ x is the running sum over time."""
    key = (T, dtype)
    if key not in _TRIL:
        _TRIL[key] = torch.tril(torch.ones(T, T, dtype=dtype))
    return _TRIL[key]


def cumsum_time(x: torch.Tensor) -> torch.Tensor:
    """sum_{tau <= t} x[tau] for x (T, ...), as one matrix product with the lower-triangular
    ones (faster on CPU than torch.cumsum along a leading axis; exact for integer-valued x)."""
    T = x.shape[0]
    return (_tril(T, x.dtype) @ x.reshape(T, -1)).reshape(x.shape)


class CumsumTime(torch.autograd.Function):
    """cumsum_time with its adjoint, the reversed running sum L^T g."""

    @staticmethod
    def forward(ctx, x: torch.Tensor) -> torch.Tensor:
        return cumsum_time(x)

    @staticmethod
    def backward(ctx, grad: torch.Tensor):
        T = grad.shape[0]
        return (_tril(T, grad.dtype).T @ grad.reshape(T, -1)).reshape(grad.shape)


def check_v0(v0: float, theta: float) -> float:
    """0 <= v0 < theta, or a ValueError naming v0 (outside it the counting identity fails)."""
    if not 0.0 <= v0 < theta:
        raise ValueError(f"v0 = {v0!r}: the initial potential must lie in [0, theta = {theta})")
    return float(v0)


def if_soft_reset(I: torch.Tensor, theta: float = 1.0, v0: float = 0.0,
                  alpha: float = 4.0) -> torch.Tensor:
    """Spikes (0/1, I's shape and dtype) of soft-reset IF neurons driven by currents I (T, ...)
    from the potential v0; differentiable through the surrogate, the reset included
    (SpikingJelly's default)."""
    check_v0(v0, theta)
    return if_soft_reset_from(I, torch.full_like(I[0], v0), theta, alpha)[0]


def if_soft_reset_from(I: torch.Tensor, u: torch.Tensor, theta: float = 1.0,
                       alpha: float = 4.0) -> tuple[torch.Tensor, torch.Tensor]:
    """The same from the potentials u (I's shape without time), returning the spikes and the
    potentials after the last step: a simulation taken in blocks of steps continues exactly."""
    T = check_steps(I.shape[0])
    spikes = []
    for t in range(T):
        v = u + I[t]
        s = SpikeSurrogate.apply(v - theta, alpha)
        u = v - theta * s
        spikes.append(s)
    return torch.stack(spikes), u


@torch.no_grad()
def constant_counts(c: torch.Tensor, T: int, v0: float = 0.0) -> torch.Tensor:
    """Spike counts after T steps of a constant normalised current c (theta = 1), in closed
    form: clip(floor(v0 + T c), 0, T) (float64 arithmetic; exact where v0 + T c is)."""
    check_steps(T)
    check_v0(v0, 1.0)
    return torch.clamp(torch.floor(v0 + T * c.double()), 0, T).long()


def constant_counts_exact(c: np.ndarray, T: int, v0: Fraction = Fraction(0)) -> np.ndarray:
    """The same counts in rational arithmetic, each float64 current read exactly as a Fraction:
    the independent reference for `constant_counts` and the simulation."""
    check_steps(T)
    values, where = np.unique(np.asarray(c, dtype=np.float64), return_inverse=True)
    counts = [min(max((v0 + T * Fraction(float(x))).__floor__(), 0), T) for x in values]
    return np.array(counts, dtype=np.int64)[where].reshape(np.shape(c))


def lif_hard_reset(I: torch.Tensor, tau: float = 2.0, v_th: float = 1.0,
                   alpha: float = 4.0) -> torch.Tensor:
    """Spikes of leaky integrate-and-fire neurons with hard reset to 0 driven by I (T, ...)
    (SpikingJelly's LIFNode, decay_input, v_reset = 0, reset not detached):

        v <- v + (I[t] - v) / tau,  s[t] = H(v - v_th),  v <- v (1 - s),  v = 0 before t = 0

    differentiable through the surrogate of sharpness alpha, the reset included. The spikes keep
    I's memory layout (channels-last stays channels-last)."""
    check_steps(I.shape[0])
    if not tau >= 1.0:
        raise ValueError(f"tau = {tau!r}: the membrane time constant must be >= 1 "
                         "(tau < 1 overshoots the input)")
    return LifHardReset.apply(I, float(tau), float(v_th), float(alpha))


class LifHardReset(torch.autograd.Function):
    """`lif_hard_reset` as one autograd node: the loop over T in a few whole-tensor passes per
    step, and back-propagation through time written out, instead of the dozen small autograd
    nodes per step of the plain expression (memory-bound on a layer of millions of neurons).

    Forward keeps the potentials h[t] before each reset; backward, with the surrogate
    s'(h) = alpha sigma(alpha (h - v_th)) (1 - sigma(...)) and g_v the gradient reaching v
    after the reset of step t (0 at the last step):

        g_h[t] = g_v (1 - s[t]) + (g_s[t] - g_v h[t]) s'(h[t]),
        g_I[t] = g_h[t] / tau,   g_v <- g_h[t] - g_h[t] / tau   (the gradient into step t - 1).

    The spikes are the plain expression's bit for bit (v (1 - s) is written v - v s, equal up to
    the sign of a zero, which no comparison sees); the gradient equals its autograd gradient up
    to rounding (tests/spiking/test_integrate.py)."""

    @staticmethod
    def forward(ctx, I: torch.Tensor, tau: float, v_th: float, alpha: float) -> torch.Tensor:
        spikes, h = torch.empty_like(I), torch.empty_like(I)
        divisor = torch.tensor(tau, dtype=I.dtype)
        v = None                                        # 0 before t = 0
        for t in range(I.shape[0]):
            if v is None:                               # v = 0: v + (I - v) / tau is I / tau
                torch.div(I[0], tau, out=h[0])
            else:                                       # v + (I - v) / tau
                torch.addcdiv(v, torch.sub(I[t], v), divisor, out=h[t])
            torch.ge(h[t], v_th, out=spikes[t])
            if t + 1 < I.shape[0]:                      # the hard reset, for the next step
                v = torch.addcmul(h[t], h[t], spikes[t], value=-1.0)
        ctx.save_for_backward(h, spikes)
        ctx.tau, ctx.v_th, ctx.alpha = tau, v_th, alpha
        return spikes

    @staticmethod
    def backward(ctx, grad: torch.Tensor):
        h, spikes = ctx.saved_tensors
        tau, v_th, alpha = ctx.tau, ctx.v_th, ctx.alpha
        shift = torch.tensor(-alpha * v_th, dtype=h.dtype)
        grad_I = torch.empty_like(h)
        g_v = None
        for t in reversed(range(h.shape[0])):
            sig = torch.add(shift, h[t], alpha=alpha).sigmoid_()     # sigma(alpha (h - v_th))
            if g_v is None:
                g_h = torch.ops.aten.sigmoid_backward(grad[t], sig).mul_(alpha)
            else:
                g_s = torch.addcmul(grad[t], g_v, h[t], value=-1.0)
                # g_v (1 - s) + alpha g_s sigma (1 - sigma), sigmoid's own backward kernel
                g_h = torch.addcmul(g_v, g_v, spikes[t], value=-1.0).add_(
                    torch.ops.aten.sigmoid_backward(g_s, sig), alpha=alpha)
            torch.div(g_h, tau, out=grad_I[t])
            if t > 0:                                   # into step t - 1
                g_v = g_h.sub_(grad_I[t])
        return grad_I, None, None, None
