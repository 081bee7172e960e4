"""lib/spiking/integrate.py: the soft-reset IF and the hard-reset LIF neurons against per-neuron
loops (the LIF's gradient against autograd of its plain expression), and the IF's constant-current
count N_T = clip(floor(v0 + T c), 0, T) checked in rational arithmetic."""
from fractions import Fraction

import numpy as np
import pytest
import torch

from lib.spiking import integrate, naive
from lib.spiking.surrogate import SpikeSurrogate


@pytest.mark.parametrize("T", [1, 5, 32])
@pytest.mark.parametrize("v0", [0.0, 0.5])
@pytest.mark.parametrize("scale, shift", [(0.6, 0.2), (2.0, 0.0), (0.5, -0.8), (1.5, 1.2)])
def test_soft_reset_spikes_equal_the_naive_loop(T, v0, scale, shift):
    # negative currents and currents above threshold included: counts and timing must agree
    g = torch.Generator().manual_seed(T)
    I = (shift + scale * torch.randn(T, 3, 17, generator=g, dtype=torch.float64))
    S = integrate.if_soft_reset(I, theta=1.0, v0=v0)
    assert np.array_equal(S.numpy(), naive.if_soft_reset_naive(I.numpy(), 1.0, v0))


def test_soft_reset_with_another_threshold_equals_the_naive_loop():
    g = torch.Generator().manual_seed(3)
    I = 2.5 * torch.rand(12, 40, generator=g, dtype=torch.float64)
    S = integrate.if_soft_reset(I, theta=2.5, v0=1.0)
    assert np.array_equal(S.numpy(), naive.if_soft_reset_naive(I.numpy(), 2.5, 1.0))


@pytest.mark.parametrize("T", [1, 4, 8, 32])
@pytest.mark.parametrize("v0", [0.0, 0.5])
def test_constant_current_count_is_floor_of_v0_plus_Tc_on_a_dyadic_grid(T, v0):
    # dyadic currents k/64 make v0 + T c exact in float64, ties at integers included
    c = torch.arange(-80, 161, dtype=torch.float64) / 64
    counts = integrate.if_soft_reset(c.expand(T, -1).contiguous(), v0=v0).sum(dim=0)
    exact = integrate.constant_counts_exact(c.numpy(), T, Fraction(v0))
    assert np.array_equal(counts.long().numpy(), exact)
    assert np.array_equal(integrate.constant_counts(c, T, v0).numpy(), exact)
    assert exact.min() == 0 and exact.max() == T           # both clips are exercised


def test_constant_counts_exact_reads_the_float_exactly():
    # 0.1 is not 1/10 in binary: 10 * float(0.1) = 1.0000000000000000555 > 1, so one spike
    assert integrate.constant_counts_exact(np.array([0.1]), 10).tolist() == [1]
    assert integrate.constant_counts_exact(np.array([np.nextafter(0.1, 0.0)]), 10).tolist() == [0]


def test_surrogate_gradient_flows_through_the_reset():
    I = torch.full((3, 1), 0.6, dtype=torch.float64, requires_grad=True)
    integrate.if_soft_reset(I).sum().backward()
    assert bool((I.grad != 0).all())


@pytest.mark.parametrize("T", [0, -1, 2.0, True])
def test_bad_step_counts_refused(T):
    with pytest.raises(ValueError, match="T = "):
        integrate.check_steps(T)


@pytest.mark.parametrize("v0", [-0.1, 1.0, 2.0])
def test_initial_potential_outside_zero_theta_refused(v0):
    with pytest.raises(ValueError, match="v0 = "):
        integrate.if_soft_reset(torch.zeros(2, 3), v0=v0)


@pytest.mark.parametrize("T", [1, 2, 7])
@pytest.mark.parametrize("tau", [1.0, 2.0, 3.5])
def test_lif_spikes_equal_the_naive_loop(T, tau):
    # float64 both sides: the same operations in the same order give the same bits
    g = torch.Generator().manual_seed(T)
    I = 0.8 + 1.5 * torch.randn(T, 4, 25, generator=g, dtype=torch.float64)
    S = integrate.lif_hard_reset(I, tau=tau, v_th=1.0)
    assert np.array_equal(S.numpy(), naive.lif_hard_reset_naive(I.numpy(), tau, 1.0))


def test_lif_hard_reset_fires_on_the_first_step_only_above_tau_v_th():
    # from v = 0 one step gives v = I / tau: a spike iff I >= tau v_th, and v is 0 after it
    I = torch.tensor([[1.9, 2.0, 2.1, 4.0]], dtype=torch.float64).repeat(2, 1)
    S = integrate.lif_hard_reset(I, tau=2.0, v_th=1.0)
    assert S[0].tolist() == [0.0, 1.0, 1.0, 1.0]
    # step 2: the spiking neurons restart from 0 and fire again; 1.9 leaks to 0.95 + 0.95 = 1.425
    assert S[1].tolist() == [1.0, 1.0, 1.0, 1.0]


def test_lif_gradient_is_finite_through_the_reset():
    I = torch.randn(3, 50, dtype=torch.float64, requires_grad=True)
    integrate.lif_hard_reset(2.0 * I).sum().backward()
    assert torch.isfinite(I.grad).all() and I.grad.abs().sum() > 0


def lif_autograd(I, tau, v_th, alpha):
    """The LIF as the plain expression, differentiated by autograd node by node: the reference
    for the one-node LifHardReset's hand-written back-propagation through time."""
    v, spikes = torch.zeros_like(I[0]), []
    for t in range(I.shape[0]):
        v = v + (I[t] - v) / tau
        s = SpikeSurrogate.apply(v - v_th, alpha)
        v = v * (1.0 - s)
        spikes.append(s)
    return torch.stack(spikes)


@pytest.mark.parametrize("T", [1, 2, 5])
@pytest.mark.parametrize("tau", [1.0, 2.0, 3.5])
def test_lif_gradient_equals_autograd_of_the_plain_expression(T, tau):
    g = torch.Generator().manual_seed(10 * T)
    I = (0.8 + 1.5 * torch.randn(T, 6, 40, generator=g, dtype=torch.float64)).requires_grad_()
    upstream = torch.randn(T, 6, 40, generator=g, dtype=torch.float64)
    S_ref = lif_autograd(I, tau, 1.0, 4.0)
    (grad_ref,) = torch.autograd.grad((S_ref * upstream).sum(), I)
    S = integrate.lif_hard_reset(I, tau=tau, v_th=1.0, alpha=4.0)
    (grad,) = torch.autograd.grad((S * upstream).sum(), I)
    assert torch.equal(S, S_ref)
    assert (S.sum() > 0) and (S.sum() < S.numel())           # both branches of the reset taken
    torch.testing.assert_close(grad, grad_ref, rtol=1e-12, atol=1e-14)


def test_lif_keeps_channels_last():
    I = torch.randn(2, 3, 4, 5, 6).reshape(6, 4, 5, 6).contiguous(
        memory_format=torch.channels_last).reshape(2, 3, 4, 5, 6)
    S = integrate.lif_hard_reset(I)
    assert S.stride() == I.stride()
    assert torch.equal(S, integrate.lif_hard_reset(I.contiguous()))


@pytest.mark.parametrize("bad", [0.5, 0.0, float("nan")])
def test_lif_rejects_tau_below_one(bad):
    with pytest.raises(ValueError, match="tau"):
        integrate.lif_hard_reset(torch.ones(2, 3), tau=bad)
