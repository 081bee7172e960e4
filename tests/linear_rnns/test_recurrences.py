"""The time loops with hand-written backwards (recurrences.py): outputs and every gradient equal
the plain loops autograd differentiates (naive.py), finite differences agree (gradcheck), and
vmap over a seed axis equals one call per seed."""
import pytest
import torch
from torch.func import vmap

from lib.linear_rnns import naive, recurrences

B, T, D, K = 3, 9, 4, 3


def _rand(*shape, scale=1.0, gen):
    return (torch.randn(*shape, generator=gen, dtype=torch.float64) * scale).requires_grad_()


def _cases(gen):
    """name -> (Function call, naive call, inputs): small float64 problems of every loop."""
    relu = (_rand(B, T, D, scale=3, gen=gen), _rand(D, D, scale=0.8, gen=gen),
            _rand(D, gen=gen))                                          # reaches 0 and the clip
    gru = (_rand(B, T, 3 * D, gen=gen), _rand(3 * D, D, gen=gen), _rand(3 * D, gen=gen))
    diag = (torch.rand(B, T, D, generator=gen, dtype=torch.float64).mul(1.8).sub(0.9)
            .requires_grad_(), _rand(B, T, D, 2, gen=gen))
    dense = (_rand(B, T, D, D, scale=0.5, gen=gen), _rand(B, T, D, 1, gen=gen))
    q, c, u, e = (_rand(B, T, K, gen=gen) for _ in range(4))
    w = torch.rand(B, T, K, generator=gen, dtype=torch.float64).mul(0.5).add(0.5).requires_grad_()
    v = _rand(B, T, 2, gen=gen)
    return {
        "relu": (lambda *a: recurrences.ClampedReLURNN.apply(*a, 1.5)[0],
                 lambda *a: naive.relu_rnn_loop(*a, 1.5), relu),
        "gru": (lambda *a: recurrences.GRU.apply(*a)[0], naive.gru_loop, gru),
        "affine_diagonal": (recurrences.AffineSequential.apply, naive.affine_loop, diag),
        "affine_dense": (recurrences.AffineSequential.apply, naive.affine_loop, dense),
        "dplr": (lambda *a: recurrences.DPLR.apply(*a)[0], naive.dplr_loop, (q, w, c, u, e, v)),
        "dplr_unit_decay": (lambda q, c, u, e, v: recurrences.DPLR.apply(q, None, c, u, e, v)[0],
                            lambda q, c, u, e, v: naive.dplr_loop(q, None, c, u, e, v),
                            (q, c, torch.nn.functional.normalize(u.detach(), dim=-1), e, v)),
    }


CASES = list(_cases(torch.Generator().manual_seed(0)))


@pytest.mark.parametrize("name", CASES)
def test_output_and_gradients_equal_autograd_loop(name):
    fn, ref, inputs = _cases(torch.Generator().manual_seed(1))[name]
    inputs = [x.detach().requires_grad_() for x in inputs]
    out, expected = fn(*inputs), ref(*inputs)
    assert torch.allclose(out, expected, rtol=1e-12, atol=1e-12)
    weight = torch.randn(out.shape, generator=torch.Generator().manual_seed(2), dtype=out.dtype)
    got = torch.autograd.grad((out * weight).sum(), inputs)
    want = torch.autograd.grad((expected * weight).sum(), inputs)
    for g, h in zip(got, want, strict=True):
        assert torch.allclose(g, h, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", CASES)
def test_gradcheck(name):
    fn, _, inputs = _cases(torch.Generator().manual_seed(3))[name]
    small = [x.detach()[:2, :5].clone().requires_grad_() if x.dim() > 2 else
             x.detach().clone().requires_grad_() for x in inputs]
    assert torch.autograd.gradcheck(fn, small)


@pytest.mark.parametrize("name", CASES)
def test_vmap_over_seeds_equals_one_call_per_seed(name):
    fn, _, inputs = _cases(torch.Generator().manual_seed(4))[name]
    seeds = [[x.detach() * (1 + 0.1 * s) for x in inputs] for s in range(3)]
    stacked = [torch.stack(xs).requires_grad_() for xs in zip(*seeds)]
    out = vmap(fn)(*stacked)
    grads = torch.autograd.grad(out.square().sum(), stacked)
    for s, xs in enumerate(seeds):
        xs = [x.requires_grad_() for x in xs]
        one = fn(*xs)
        assert torch.allclose(out[s], one, rtol=1e-12, atol=1e-12)
        for g, h in zip(grads, torch.autograd.grad(one.square().sum(), xs), strict=True):
            assert torch.allclose(g[s], h, rtol=1e-10, atol=1e-12)
