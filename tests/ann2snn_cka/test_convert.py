"""lib/ann2snn_cka/convert.py: the converted SNN against its per-step loop, the first layer's
limit, the calibration modes (spec §5 tests 1, 2, 8)."""
import numpy as np
import pytest
import torch

from lib.ann2snn_cka import ann, convert
from lib.spiking import integrate


def net(seed=0, dtype=torch.float64):
    torch.manual_seed(seed)
    return ann.CNN().eval().to(dtype)


def images(n, seed=1, dtype=torch.float64):
    return torch.rand(n, 1, 28, 28, generator=torch.Generator().manual_seed(seed), dtype=dtype)


@pytest.mark.parametrize("block", [1, 3, None])
@pytest.mark.parametrize("v0", [0.0, 0.5])
def test_run_equals_the_step_loop_in_every_block_size(block, v0):
    snn = convert.SpikingNet(net(), [0.3, 0.3, 1.0], v0).double()
    x = images(6)
    with torch.no_grad():
        run = snn.run(x, 7, block, record=True)
        loop = snn.run_step_loop(x, 7)
    assert torch.equal(run.outputs, loop)
    assert [t.shape[:2] for t in run.trains] == [(7, 6)] * 3
    assert torch.equal(run.logits, loop.mean(0))


def test_first_layer_counts_are_the_closed_form_and_the_rate_is_within_half_lam_over_T():
    model = net()
    lam = convert.calibrate(model, images(20), mode="pooled")
    snn = convert.SpikingNet(model, lam, 0.5).double()
    x, T = images(3, seed=2), 512
    with torch.no_grad():
        rate = snn.run(x, T, 64, record=True).trains[0].mean(0)
        c = snn.first_current(x)
        a = convert.site_activations(model, x)[0]
    counts = torch.round(rate * T / lam[0]).long()
    assert torch.equal(counts, integrate.constant_counts(c, T, 0.5))
    # float64 running sums of 512 terms: rounding far below the bound
    assert float((rate - a.clamp(0, lam[0])).abs().max()) <= lam[0] / (2 * T) + 1e-9


def test_one_hidden_layer_logits_approach_the_clipped_ann():
    # x -> W1 -> IF (threshold lam, direct input) -> W2: output error <= ||W2||_inf lam / T
    g = torch.Generator().manual_seed(0)
    W1, W2 = torch.randn(64, 20, generator=g, dtype=torch.float64), \
        torch.randn(10, 64, generator=g, dtype=torch.float64)
    x = torch.rand(50, 20, generator=g, dtype=torch.float64)
    lam = 2.0
    z = x @ W1.T
    target = z.clamp(0, lam) @ W2.T
    bound_norm = float(W2.abs().sum(1).max())
    errors = []
    for T in (64, 256, 1024):
        S = integrate.if_soft_reset((z / lam).expand(T, -1, -1).contiguous())
        out = (lam * S.mean(0)) @ W2.T
        errors.append(float((out - target).abs().max()))
        assert errors[-1] <= bound_norm * lam / T
    assert errors[0] > errors[1] > errors[2]


def test_pooled_calibration_is_numpys_percentile_of_all_activations():
    model, x = net(dtype=torch.float32), images(30, dtype=torch.float32)
    acts = convert.site_activations(model, x)
    lam = convert.calibrate(model, x, q=99.0, mode="pooled")
    assert lam == [float(np.percentile(a.double().numpy(), 99.0)) for a in acts]


def test_ema_calibration_over_three_batches():
    model, x = net(dtype=torch.float32), images(30, dtype=torch.float32)
    acts = convert.site_activations(model, x)
    lam = convert.calibrate(model, x, q=99.9, mode="ema", batch=10, momentum=0.1)
    for s, a in enumerate(acts):
        p = [float(np.percentile(a[i:i + 10].double().numpy(), 99.9)) for i in (0, 10, 20)]
        expected = 0.9 * (0.9 * p[0] + 0.1 * p[1]) + 0.1 * p[2]
        assert lam[s] == pytest.approx(expected, rel=1e-15)


def test_anytime_accuracy_is_the_accuracy_of_each_shorter_run():
    model = net(dtype=torch.float32)
    snn = convert.SpikingNet(model, [0.3, 0.3, 1.0], 0.0)
    x, y = images(12, dtype=torch.float32), torch.arange(12) % 10
    acc = convert.anytime_accuracy(snn, x, y, 6, chunk=5)
    with torch.no_grad():
        for T in (1, 3, 6):
            hits = int((snn.run(x, T).logits.argmax(1) == y).sum()) / len(y)
            assert acc[T - 1] == hits


def test_anytime_hits_are_each_images_outcome_and_the_ann_hits_its_accuracy():
    model = net(dtype=torch.float32)
    snn = convert.SpikingNet(model, [0.3, 0.3, 1.0], 0.0)
    x, y = images(7, dtype=torch.float32), torch.arange(7) % 10
    hits = convert.anytime_hits(snn, x, y, 4, chunk=3)          # odd chunk: a short last one
    assert hits.shape == (7, 4) and hits.dtype == bool
    with torch.no_grad():
        for T in (1, 4):
            assert (hits[:, T - 1] == (snn.run(x, T).logits.argmax(1) == y).numpy()).all()
        h = ann.hits(model, x, y, chunk=3)
        assert (h == (model(x).argmax(1) == y).numpy()).all()
    assert ann.accuracy(model, x, y) == h.sum() / 7      # exact: a count over 7


@pytest.mark.parametrize("kwargs, match", [({"lam": [1.0, 1.0]}, "lam"),
                                           ({"lam": [1.0, 0.0, 1.0]}, "lam"),
                                           ({"v0": 1.0}, "v0 = ")])
def test_bad_conversion_refused(kwargs, match):
    args = {"lam": [1.0, 1.0, 1.0], "v0": 0.0, **kwargs}
    with pytest.raises(ValueError, match=match):
        convert.SpikingNet(net(), args["lam"], args["v0"])


def test_bad_calibration_mode_and_T_refused():
    with pytest.raises(ValueError, match="calib_mode"):
        convert.calibrate(net(dtype=torch.float32), images(4, dtype=torch.float32), mode="max")
    with pytest.raises(ValueError, match="T = 0"):
        convert.SpikingNet(net(), [1.0, 1.0, 1.0]).run(images(2), 0)


def test_strided_pooling_is_avg_pool2d():
    import torch.nn.functional as F
    h = torch.rand(5, 16, 28, 28, generator=torch.Generator().manual_seed(3))
    assert torch.allclose(ann.avg_pool2(h), F.avg_pool2d(h, 2), rtol=0, atol=1e-7)
    h64 = h.double().requires_grad_()
    ann.avg_pool2(h64).sum().backward()
    assert torch.equal(h64.grad, torch.full_like(h64, 0.25))
