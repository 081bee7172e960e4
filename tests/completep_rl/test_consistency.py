import math

import torch

from lib.completep_rl import consistency, naive


def test_cka_equals_the_hsic_definition():
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(37, 5, generator=gen, dtype=torch.float64)
    y = torch.relu(x @ torch.randn(5, 11, generator=gen, dtype=torch.float64)) + 0.3 * \
        torch.randn(37, 11, generator=gen, dtype=torch.float64)
    assert abs(float(consistency.linear_cka(x, y)) - naive.cka_hsic(x, y)) <= 1e-12   # float64


def test_cka_invariances():
    """1 for features equal up to an orthogonal map and a scale; symmetric."""
    gen = torch.Generator().manual_seed(1)
    x = torch.randn(20, 4, generator=gen, dtype=torch.float64)
    q, _ = torch.linalg.qr(torch.randn(4, 4, generator=gen, dtype=torch.float64))
    assert abs(float(consistency.linear_cka(x, 3 * x @ q)) - 1) <= 1e-12
    y = torch.randn(20, 6, generator=gen, dtype=torch.float64)
    assert abs(float(consistency.linear_cka(x, y) - consistency.linear_cka(y, x))) <= 1e-14


def test_bernoulli_kl_closed_form():
    """KL(Bern(1/2) || Bern(sigmoid 1)) = 1/2 log(1/(2p)) + 1/2 log(1/(2(1-p))), p = sigmoid 1;
    zero for equal logits."""
    p = 1 / (1 + math.exp(-1))
    expected = 0.5 * math.log(0.5 / p) + 0.5 * math.log(0.5 / (1 - p))
    got = consistency.bernoulli_kl(torch.zeros(1, dtype=torch.float64),
                                   torch.ones(1, dtype=torch.float64))
    assert abs(float(got) - expected) <= 1e-15
    f = torch.linspace(-3, 3, 7, dtype=torch.float64)
    assert float(consistency.bernoulli_kl(f, f)) == 0.0
