"""TINN/PINN layouts, forward forms, input derivatives, Jacobians (spec §5 tests 1-4)."""
import numpy as np
import pytest
import torch

from lib.tinn import models, naive, residuals

NU = 0.01 / np.pi


@pytest.mark.parametrize("tw,w,count", [([1, 10, 10, 5], [1, 20, 20, 1], 1145),
                                        ([1, 8, 8, 5], [1, 10, 10, 1], 413),
                                        ([1, 4, 4, 5], [1, 6, 6, 1], 173),
                                        ([1, 10, 10, 5], [2, 20, 20, 1], 1185)])
def test_param_count(tw, w, count):
    # 1145 and 1185 are the paper's table (spec §1.3); 413, 173 spec §3.3
    assert models.tinn_count(tw, w) == count
    assert models.tinn_layout(tw, w).size == count


def test_pinn_count():
    # (2*18 + 18) + (18*18 + 18) + (18 + 1) = 415
    assert models.make_pinn([2, 18, 18, 1]).size == 415


def test_time_network_shape_refused():
    with pytest.raises(ValueError, match="2L-1"):
        models.tinn_layout([1, 8, 4], [1, 10, 10, 1])


def _theta(model, seed=0):
    g = np.random.default_rng(seed)
    return model.init(seed) + 0.3 * torch.as_tensor(g.standard_normal(model.size))


@pytest.mark.parametrize("kind", ["tinn", "pinn"])
def test_forward_forms_agree(kind):
    model = models.make_tinn([1, 4, 4, 5], [1, 6, 6, 1]) if kind == "tinn" else \
        models.make_pinn([2, 7, 7, 1])
    th = _theta(model)
    x = torch.linspace(-1, 1, 13, dtype=torch.float64)
    t = torch.linspace(0, 1, 13, dtype=torch.float64)
    shared = model.u(th, x, t)
    rep = model.u(th.expand(13, -1).clone(), x, t)
    assert (shared - rep).abs().max() < 1e-15


def test_tinn_starts_as_time_biased_mlp():
    # A = 0 at init: the weights do not depend on t, only the biases c + Phi a do
    model = models.make_tinn([1, 4, 4, 5], [1, 6, 6, 1])
    p = model.layout.views(model.init(3))
    assert all(float(p[f"A{i}"].abs().max()) == 0 for i in range(3))
    assert float((p["alpha"] - 1).abs().max()) == 0


@pytest.mark.parametrize("kind", ["tinn", "pinn"])
@pytest.mark.parametrize("per_point", [False, True], ids=["shared", "per-point"])
def test_jet_equals_nested_autograd(kind, per_point):
    """Forward-propagated (u, u_x, u_t, u_xx) equal nested autograd's on the same float64 model,
    theta shared or copied per point (two exact routes: rounding only)."""
    model = models.make_tinn([1, 4, 4, 5], [1, 6, 6, 1]) if kind == "tinn" else \
        models.make_pinn([2, 7, 7, 1])
    th = _theta(model, 4)
    x = torch.linspace(-1, 1, 11, dtype=torch.float64)
    t = torch.linspace(0, 1, 11, dtype=torch.float64) ** 2
    xx, tt = x.clone().requires_grad_(True), t.clone().requires_grad_(True)
    u = model.u(th, xx, tt)
    ux, ut = torch.autograd.grad(u.sum(), (xx, tt), create_graph=True)
    uxx, = torch.autograd.grad(ux.sum(), xx)
    ref = torch.stack([u, ux, ut, uxx], 1).detach()
    got = model.jet(th.expand(11, -1).clone() if per_point else th, x, t)
    assert (got - ref).abs().max() < 1e-13


@pytest.mark.parametrize("kind", ["tinn", "pinn"])
def test_jacobian_equals_torch_func(kind):
    """The PDE rows of the per-block-leaf Jacobian equal torch.func vmap(jacrev) of the nested
    torch.func.grad residual (naive.jacobian_func, independent of `jet`), scaled as the residual
    is (1 / sqrt(N)); float64 rounding."""
    model = models.make_tinn([1, 4, 4, 5], [1, 6, 6, 1]) if kind == "tinn" else \
        models.make_pinn([2, 7, 7, 1])
    th = _theta(model, 5)
    pts = residuals.sample_points(np.random.default_rng(3), 19, 4, 3)
    _, jac = residuals.residual_and_jacobian(model, th, pts, NU, 2.0, 1.0)
    ref = naive.jacobian_func(model, th, pts.xr, pts.tr, NU) / np.sqrt(19)
    assert (jac[:19] - ref).abs().max() < 1e-12


def test_input_derivatives_against_differences():
    model = models.make_tinn([1, 4, 4, 5], [1, 6, 6, 1])
    th = _theta(model, 1)
    x = torch.tensor([0.3, -0.7], dtype=torch.float64)
    t = torch.tensor([0.2, 0.9], dtype=torch.float64)
    r = residuals.pde_residual(model, th, x, t, NU).detach()
    h = 1e-4
    u = lambda a, b: model.u(th, a, b).detach()  # noqa: E731
    ux = (u(x + h, t) - u(x - h, t)) / (2 * h)
    uxx = (u(x + h, t) - 2 * u(x, t) + u(x - h, t)) / h**2
    ut = (u(x, t + h) - u(x, t - h)) / (2 * h)
    fd = ut + u(x, t) * ux - NU * uxx
    assert torch.allclose(r, fd, atol=1e-6)


@pytest.mark.parametrize("kind", ["tinn", "pinn"])
def test_jacobian_fast_vs_naive(kind):
    model = models.make_tinn([1, 4, 4, 5], [1, 6, 6, 1]) if kind == "tinn" else \
        models.make_pinn([2, 7, 7, 1])
    th = _theta(model, 2)
    pts = residuals.sample_points(np.random.default_rng(0), 17, 5, 3)
    r, jac = residuals.residual_and_jacobian(model, th, pts, NU, 2.0, 1.0)
    r2, jac2 = naive.jacobian_loop(model, th, pts, NU, 2.0, 1.0)
    assert (r - r2).abs().max() < 1e-14
    assert (jac - jac2).abs().max() < 1e-12
    jf = naive.jacobian_func(model, th, pts.xr, pts.tr, NU) / np.sqrt(17)
    assert (jac[:17] - jf).abs().max() < 1e-12


def test_relative_l2_refuses_nan():
    with pytest.raises(FloatingPointError, match="non-finite"):
        residuals.relative_l2(np.array([np.nan, 1.0]), np.array([1.0, 1.0]))
