"""lib/ttfs_snn/neuron.py against the per-neuron float64 reference (spec §5 tests 1-3, 9)."""
import numpy as np
import pytest
import torch

from lib.ttfs_snn import naive, neuron
from tests.conftest import assert_close


def currents(T, shape, seed, scale=0.6, shift=0.1):
    g = torch.Generator().manual_seed(seed)
    return (shift + scale * torch.randn(T, *shape, generator=g)).double()


@pytest.mark.parametrize("T", [1, 7, 16])
@pytest.mark.parametrize("theta", [0.5, 1.0])
def test_three_forms_give_the_same_spikes(T, theta):
    I = currents(T, (3, 33), seed=T)
    ref = naive.ttfs_neuron_naive(I.numpy(), theta)
    loop, V_loop = neuron.ttfs_step_loop(I, theta, 4.0)
    fast, V_fast = neuron.ttfs(I, theta, 4.0)
    closed = neuron.ttfs_closed_form(I, theta)
    assert np.array_equal(loop.numpy(), ref)
    assert np.array_equal(fast.numpy(), ref)
    assert np.array_equal(closed.numpy(), ref)
    # running sums of <= 16 float64 terms in two orders: rounding ~1e-15
    assert_close("V", V_loop.numpy(), V_fast.numpy(), rtol=0, atol=1e-12)


@pytest.mark.parametrize("scale, shift", [(3.0, 2.0), (0.5, -1.0), (2.0, 0.0)])
def test_at_most_one_spike(scale, shift):
    I = currents(16, (4, 50), seed=3, scale=scale, shift=shift)   # saturating, silent, mixed
    s, _ = neuron.ttfs(I, 1.0, 4.0)
    assert s.sum(dim=0).max() <= 1
    assert set(s.unique().tolist()) <= {0.0, 1.0}


def test_dyadic_currents_cross_exactly_at_theta():
    # V reaches theta = 1 exactly at t = 2 (0.5 + 0.25 + 0.25), dips, crosses again at t = 5
    I = torch.tensor([0.5, 0.25, 0.25, -1.0, 0.5, 0.5, 0.5]).view(7, 1)
    s = neuron.ttfs_closed_form(I, 1.0)
    assert s.flatten().tolist() == [0, 0, 1, 0, 0, 0, 0]
    assert neuron.ttfs(I, 1.0, 4.0)[0].flatten().tolist() == s.flatten().tolist()


def test_gradients_of_the_vectorised_kernel_equal_the_loop():
    I = currents(9, (5, 12), seed=7)
    g_s, g_v = torch.randn(9, 5, 12, dtype=torch.float64), torch.randn(9, 5, 12,
                                                                       dtype=torch.float64)
    grads = []
    for fn in (neuron.ttfs, neuron.ttfs_step_loop):
        x = I.clone().requires_grad_()
        s, V = fn(x, 1.0, 4.0)
        torch.autograd.backward([s, V], [g_s, g_v])
        grads.append(x.grad.numpy())
    # the same terms summed in reversed order (L^T g against autograd's loop): rounding only
    assert_close("dI", grads[1], grads[0], rtol=1e-12, atol=1e-12)


def test_no_gradient_after_the_spike():
    I = torch.tensor([2.0, 0.3, -0.4, 0.1], dtype=torch.float64).view(4, 1).requires_grad_()
    s, _ = neuron.ttfs(I, 1.0, 4.0)                  # fires at t = 0
    s[1:].sum().backward()                           # only the steps after the spike
    assert I.grad.flatten().tolist() == [0.0, 0.0, 0.0, 0.0]


def test_silent_input_gives_an_exact_zero_weight_gradient():
    W = torch.randn(6, 4, dtype=torch.float64, requires_grad=True)
    x = torch.zeros(5, 3, 4, dtype=torch.float64)    # (T, B, n): no input spike at all
    s, V = neuron.ttfs(x @ W.T, 1.0, 4.0)
    (V.sum() + s.sum()).backward()
    assert bool((W.grad == 0).all())


def test_zero_steps_refused():
    with pytest.raises(ValueError, match="T = 0"):
        neuron.ttfs(torch.zeros(0, 3), 1.0, 4.0)
