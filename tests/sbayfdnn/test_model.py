"""lib/sbayfdnn/model.py: the vmap-batched MAP fit equals the fits one at a time (spec §5 T6),
is deterministic, and on a noiseless linear scenario selects only bases meeting R (T5)."""
import numpy as np
import pytest
import torch

from lib.sbayfdnn import basis, data, model, naive, selection
from tests.conftest import assert_close

SPEC = model.PriorSpec(lam=1e-5, s0=1e-5, s1=2e-3, gauss_var=2e-3)


def _problem(B: int, n: int, J: int, seed: int):
    gen = torch.Generator().manual_seed(seed)
    Z = torch.randn(B, n, J, dtype=torch.float64, generator=gen)
    y = torch.randn(B, n, dtype=torch.float64, generator=gen)
    return Z, y, model.init_params(B, J, 16, 8, gen)


@pytest.mark.parametrize("B, n", [(1, 7), (3, 33)])
def test_vmap_fit_equals_loop(B, n):
    Z, y, init = _problem(B, n, 5, B)
    priors = ["ss", "gauss", "ss"][:B]
    fast = model.fit_map(Z, y, priors, init, SPEC, 40, 3e-3)
    ref, mse = naive.fit_map(Z, y, priors, init, SPEC, 40, 3e-3)
    for k in init:   # float64: the same arithmetic up to summation order (spec T6: 1e-5)
        assert_close(k, ref[k].numpy(), fast.params[k].numpy(), rtol=0, atol=1e-10)
    assert_close("train mse", mse.numpy(), fast.train_mse.numpy(), rtol=0, atol=1e-12)


def test_fit_is_deterministic():
    Z, y, init = _problem(2, 20, 5, 0)
    a = model.fit_map(Z, y, ["ss", "ss"], init, SPEC, 10, 3e-3)
    b = model.fit_map(Z, y, ["ss", "ss"], init, SPEC, 10, 3e-3)
    assert all(torch.equal(a.params[k], b.params[k]) for k in init)


def test_best_restart_picks_lowest_mse():
    params = {"W1": torch.arange(6.0).reshape(6, 1)}
    fit = model.Fit(params, torch.tensor([3.0, 1.0, 2.0, 0.5, 0.7, 0.9]))
    kept, pick = model.best_restart(fit, 3)
    assert pick.tolist() == [1, 0] and kept["W1"][:, 0].tolist() == [1.0, 3.0]


def test_unknown_prior():
    with pytest.raises(ValueError, match="laplace"):
        model.prior_flags(["ss", "laplace"])


def test_noiseless_linear_selects_bases_meeting_region():
    r = data.replication(200, 10, data.seed_rng(0), "linear", (0.2, 0.4), 1e6, 101, 20, 24, 3)
    Z = torch.tensor(r.Z)[None]
    y = torch.tensor(r.y)[None]
    init = model.init_params(1, 24, 64, 32, torch.Generator().manual_seed(0))
    fit = model.fit_map(Z, y, ["ss"], init, SPEC, 300, 3e-3)
    _, mask = selection.by_pip(fit.params["W1"][0].numpy(), 1e-5, 1e-5, 2e-3, 0.5)
    knots = basis.clamped_knots(24, 3)
    chosen = np.flatnonzero(mask)
    assert chosen.size > 0
    for j in chosen:
        lo, hi = basis.support(j, knots, 3)
        assert hi > 0.2 and lo < 0.4, f"basis {j} [{lo:.3f}, {hi:.3f}] misses R"
