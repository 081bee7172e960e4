"""lib/sbayfdnn/laplace.py: the GGN curvature against an explicit per-row gradient, the
predictive variance against its definition, and the coverage count."""
import torch

from lib.sbayfdnn import laplace, model, prior
from tests.conftest import assert_close

SPEC = model.PriorSpec(lam=1e-5, s0=1e-5, s1=2e-3, gauss_var=2e-3)


def _model():
    gen = torch.Generator().manual_seed(0)
    p = {k: v[0] for k, v in model.init_params(1, 5, 6, 4, gen).items()}
    return p, torch.randn(9, 5, dtype=torch.float64, generator=gen)


def _row_grads(p, Z):
    out = []
    for z in Z:   # one backward per row: the definition of the per-row gradient
        q = {k: v.clone().requires_grad_(True) for k, v in p.items()}
        model.forward(q, z[None])[0].backward()
        out.append({k: v.grad for k, v in q.items()})
    return out


def test_curvature_is_ggn_plus_prior():
    p, Z = _model()
    H = laplace.curvature(p, Z, SPEC)
    grads = _row_grads(p, Z)
    q = prior.pip((p["W1"] ** 2).sum(0).numpy(), 6, 1e-5, 1e-5, 2e-3)
    prec = torch.tensor(prior.expected_precision(q, 1e-5, 2e-3))
    for k in p:
        ggn = sum(g[k] ** 2 for g in grads) / SPEC.s2
        extra = prec[None, :].expand_as(p["W1"]) if k == "W1" else torch.ones_like(p[k])
        assert_close(k, (ggn + extra).numpy(), H[k].numpy(), rtol=1e-12, atol=1e-12)


def test_predictive_variance_definition():
    p, Z = _model()
    H = laplace.curvature(p, Z, SPEC)
    mean, var = laplace.predictive(p, H, Z[:3])
    grads = _row_grads(p, Z[:3])
    ref = [sum((g[k] ** 2 / H[k]).sum() for k in p) for g in grads]
    assert_close("var", torch.stack(ref).numpy(), var.numpy(), rtol=1e-12, atol=1e-15)
    assert_close("mean", model.forward(p, Z[:3]).detach().numpy(), mean.numpy(), rtol=0, atol=0)


def test_interval_coverage_counts():
    mean, var = torch.zeros(4, dtype=torch.float64), torch.zeros(4, dtype=torch.float64)
    y = torch.tensor([0.0, 1.0, -1.5, 3.0], dtype=torch.float64)
    cover, half = laplace.interval_coverage(mean, var, 1.0, y, z=2.0)   # half-width 2
    assert cover == 0.75 and half == 2.0
