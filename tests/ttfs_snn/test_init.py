"""lib/ttfs_snn/init.py and layers.py (spec §5 tests 6, 7)."""
import math

import pytest
import torch
from scipy.stats import norm

from lib.ttfs_snn import init, layers, models
from tests.conftest import assert_close


def test_gaussian_fire_fraction_closed_form():
    # 1 - Phi(1 / sqrt(2 * 0.5)) = 1 - Phi(1)
    assert abs(init.gaussian_fire_fraction(0.5, 1.0) - (1 - norm.cdf(1.0))) <= 1e-12
    assert init.gaussian_fire_fraction(0.0) == 0.0


def test_recursion_collapses():
    p = init.recursion(0.5, 4)
    # spec §1.5: 0.159 -> 0.038 -> 1.3e-4 -> 0 (printed to 2 digits)
    assert round(p[0], 3) == 0.159 and round(p[1], 3) == 0.038
    assert 1.0e-4 < p[2] < 1.6e-4 and p[3] < 1e-50


def bernoulli_batch(T, B, n, p, seed):
    g = torch.Generator().manual_seed(seed)
    fire = torch.rand(B, n, generator=g) < p
    t = torch.randint(0, T, (B, n), generator=g)
    return ((torch.arange(T).view(T, 1, 1) == t) & fire).float()


@pytest.mark.parametrize("arm", ["ettfs", "ettfs_norm"])
def test_ettfs_init_balances_the_final_potential(arm):
    # spec §5 test 6: n = 4096 Bernoulli(p) inputs, P(V[T-1] >= theta) within 0.5 +- 0.03
    net = models.mlp([4096, 512], norm=init.uses_norm(arm))
    x = bernoulli_batch(8, 256, 4096, 0.3, seed=0)
    init.initialise(net, arm, x, gen=torch.Generator().manual_seed(1))
    test = bernoulli_batch(8, 256, 4096, 0.3, seed=2)
    with torch.no_grad():
        V = net.run(test).potentials[-1]
    assert abs(float((V[-1] >= 1.0).float().mean()) - 0.5) <= 0.03
    assert abs(float(V[-1].mean()) - 1.0) <= 0.05                    # E V[T-1] = theta
    # sd over neurons: rho theta for i.i.d. rows; with each row's mean made exact the part of
    # the variance carried by the row mean goes, leaving rho theta sqrt(1 - m1^2 / m2)
    want = 0.5 if arm == "ettfs" else 0.5 * math.sqrt(1 - 0.3)
    assert abs(float(V[-1].std()) - want) <= 0.02


def test_kaiming_matches_the_gaussian_fraction():
    net = models.mlp([4096, 2048])
    x = bernoulli_batch(4, 128, 4096, 0.4, seed=3)
    init.initialise(net, "kaiming", x, gen=torch.Generator().manual_seed(4))
    with torch.no_grad():
        V = net.run(x).potentials[-1]
    got = float((V[-1] >= 1.0).float().mean())
    want = init.gaussian_fire_fraction(0.4)                          # 0.057
    assert abs(got - want) <= 0.01                                   # 2.6e5 draws: sd ~5e-4


def test_weight_norm_rows_have_the_set_moments():
    g = torch.Generator().manual_seed(5)
    W = 3.0 * torch.randn(7, 3, 5, 5, generator=g, dtype=torch.float64) + 2.0
    gain = torch.rand(7, generator=g, dtype=torch.float64) + 0.5
    shift = torch.randn(7, generator=g, dtype=torch.float64)
    rows = layers.weight_norm(W, gain, shift).reshape(7, -1)
    n = rows.shape[1]
    assert_close("row mean", (shift / n).numpy(), rows.mean(1).numpy(), rtol=0, atol=1e-12)
    assert_close("row std", (gain / math.sqrt(n)).numpy(), rows.std(1, unbiased=False).numpy(),
                 rtol=1e-10, atol=1e-12)


def test_arms_and_layers_must_agree():
    net = models.mlp([10, 5], norm=False)
    with pytest.raises(ValueError, match="norm"):
        init.initialise(net, "ettfs_norm", torch.ones(2, 3, 10))
    with pytest.raises(ValueError, match="allowed"):
        init.initialise(net, "xavier", torch.ones(2, 3, 10))


def test_silent_init_batch_refused():
    net = models.mlp([10, 5])
    with pytest.raises(ValueError, match="silent"):
        init.initialise(net, "ettfs", torch.zeros(2, 3, 10))


def test_input_moments_of_graded_inputs():
    x = torch.zeros(2, 1, 4)
    x[0, 0] = torch.tensor([0.25, 0.5, 0.0, 1.0])
    m1, m2 = init.input_moments(x)
    assert (m1, m2) == (1.75 / 4, (0.0625 + 0.25 + 1.0) / 4)
    assert init.input_moments(x, "fired") == (0.75, 0.75)
