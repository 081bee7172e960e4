"""lib/spiking/integrate.py: the soft-reset IF neuron against the per-neuron loop, and its
constant-current count N_T = clip(floor(v0 + T c), 0, T) checked in rational arithmetic."""
from fractions import Fraction

import numpy as np
import pytest
import torch

from lib.spiking import integrate, naive


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
