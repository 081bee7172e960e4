"""lib/spiking/surrogate.py: Heaviside forward, the sigmoid derivative backward."""
import torch

from lib.spiking.surrogate import SpikeSurrogate, surrogate_derivative


def test_forward_is_the_heaviside_step_with_h0_equal_one():
    u = torch.tensor([-1.0, -1e-12, 0.0, 1e-12, 3.0], dtype=torch.float64)
    assert SpikeSurrogate.apply(u, 4.0).tolist() == [0.0, 0.0, 1.0, 1.0, 1.0]


def test_backward_is_the_sigmoid_derivative():
    u = torch.linspace(-2, 2, 9, dtype=torch.float64, requires_grad=True)
    SpikeSurrogate.apply(u, 4.0).sum().backward()
    s = torch.sigmoid(4.0 * u.detach())
    assert torch.allclose(u.grad, 4.0 * s * (1 - s), rtol=0, atol=1e-15)


def test_smooth_surrogate_path_passes_gradcheck():
    # with H replaced by sigma(alpha u) in both passes the surrogate is the exact derivative
    class Smooth(torch.autograd.Function):
        @staticmethod
        def forward(ctx, u, alpha):
            ctx.save_for_backward(u)
            ctx.alpha = alpha
            return torch.sigmoid(alpha * u)

        @staticmethod
        def backward(ctx, grad):
            (u,) = ctx.saved_tensors
            return grad * surrogate_derivative(u, ctx.alpha), None

    u = torch.randn(20, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda v: Smooth.apply(v, 4.0), (u,))
