"""lib/calpro/nig.py: the loss is the Student-t log-density; P2 at k = 0 is the plain head."""
import numpy as np
import torch
from scipy import stats

from lib.calpro import naive, nig
from tests.conftest import assert_close


def random_nig(n=33, seed=0):
    r = np.random.default_rng(seed)
    return (r.normal(0, 2, n), r.normal(0, 2, n), r.uniform(0.05, 5, n), r.uniform(1.05, 8, n),
            r.uniform(0.05, 5, n))


def test_nll_is_the_student_t_log_density():
    y, g, nu, al, be = random_nig()
    got = nig.nll(torch.as_tensor(y), nig.NIG(*map(torch.as_tensor, (g, nu, al, be)))).numpy()
    ref = -stats.t.logpdf(y, df=2 * al, loc=g, scale=np.sqrt(be * (1 + nu) / (nu * al)))
    assert_close("nll vs scipy t", ref, got, rtol=0, atol=1e-10)   # spec §5: <= 1e-10
    assert_close("nll vs loop", naive.nig_nll_loop(y, g, nu, al, be), got, rtol=0, atol=1e-12)


def test_predictive_scale_is_the_student_t_sd():
    _, g, nu, al, be = random_nig()
    p = nig.NIG(*map(torch.as_tensor, (g, nu, al, be)))
    sd = stats.t.std(df=2 * al, scale=nig.student_scale(p).numpy())
    assert_close("sigma^", sd, nig.predictive_scale(p).numpy(), rtol=1e-12, atol=0)


def test_modulate_with_zero_k_is_exact_and_raises_scale_with_k():
    _, g, nu, al, be = random_nig()
    p = nig.NIG(*map(torch.as_tensor, (g, nu, al, be)))
    d = torch.linspace(0, 1, len(g), dtype=torch.float64)
    same = nig.modulate(p, d, torch.zeros((), dtype=torch.float64))
    assert all(torch.equal(a, b) for a, b in zip(same, p))
    up = nig.modulate(p, d, torch.tensor(2.0, dtype=torch.float64))
    assert (nig.predictive_scale(up)[1:] > nig.predictive_scale(p)[1:]).all()


def test_floor_is_zero_above_and_positive_below():
    d = torch.tensor([0.0, 0.0, 0.0, 1.0])
    flat = torch.ones(4)
    assert float(nig.floor_penalty(flat, d, 4.0)) > 0             # the d = 1 residue: below floor
    high = torch.tensor([1.0, 1.0, 1.0, 5.0 * 1.01])
    assert float(nig.floor_penalty(high, d, 4.0)) == 0.0


def test_from_raw_ranges():
    p = nig.from_raw(torch.randn(50, 4, generator=torch.Generator().manual_seed(0)) * 10)
    assert (p.nu > 0).all() and (p.alpha > 1).all() and (p.beta > 0).all()
