"""The recognizer's shapes, the input stream and the shared LIF neuron as the model uses it."""
import numpy as np
import pytest
import torch

from lib.spike_htr import coder
from lib.spike_htr.model import Arch, Recognizer
from lib.spiking import integrate
from lib.spiking import naive as spiking_naive


@pytest.mark.parametrize("spiking", [False, True])
def test_recognizer_outputs_normalised_log_probs(spiking):
    torch.manual_seed(0)
    net = Recognizer(Arch(channels=(4, 4, 4), d=8, blocks=1, spiking=spiking)).eval()
    x = torch.rand(3, 1, 32, 128)
    with torch.no_grad():
        main, aux = net(coder.input_stream(x, net.steps(), "static"))
    assert main.shape == aux.shape == (32, 3, 28)
    assert torch.allclose(main.exp().sum(-1), torch.ones(32, 3), atol=1e-5)
    if spiking:
        assert all(f.rate.shape == (2,) for f in net.fires().values())


def test_stream_kinds():
    x = torch.round(torch.rand(2, 1, 8, 16) * 256) / 256
    s = coder.input_stream(x, 2, "coarse2fine")
    assert s.shape == (2, 2, 1, 8, 16) and torch.equal(s[1], x)
    ref = x.numpy().reshape(2, 1, 4, 2, 8, 2).mean(axis=(3, 5)).repeat(2, 2).repeat(2, 3)
    assert np.array_equal(s[0].numpy(), ref)
    for kind in coder.KINDS:
        assert torch.equal(coder.input_stream(x, 1, kind)[0], x)
    with pytest.raises(ValueError, match="stream kind"):
        coder.input_stream(x, 2, "blur")
    with pytest.raises(ValueError):
        coder.input_stream(x, 0, "static")


def test_lif_bit_equal_to_its_loop_and_resets():
    I = torch.from_numpy(1.5 * np.random.default_rng(0).standard_normal((6, 500)) + 0.8)
    assert np.array_equal(integrate.lif_hard_reset(I).numpy(),
                          spiking_naive.lif_hard_reset_naive(I.numpy()))
    # constant input 3: v = 1.5 fires at t = 0, resets to 0, fires again at t = 1
    assert integrate.lif_hard_reset(torch.full((2, 1), 3.0)).flatten().tolist() == [1.0, 1.0]
    I = torch.randn(2, 50, requires_grad=True)
    integrate.lif_hard_reset(I).sum().backward()
    assert torch.isfinite(I.grad).all()


def test_line_rates_average_to_the_rate():
    # each line has the same neuron count, so the mean of the per-line rates is the rate
    torch.manual_seed(0)
    net = Recognizer(Arch(channels=(4, 4, 4), d=8, blocks=1, spiking=True)).eval()
    with torch.no_grad():
        net(coder.input_stream(torch.rand(3, 1, 32, 128), net.steps(), "static"))
    for name, fire in net.fires().items():
        assert fire.line_rate.shape == (net.steps(), 3), name
        assert torch.allclose(fire.line_rate.mean(dim=1), fire.rate, atol=1e-6), name  # float32
