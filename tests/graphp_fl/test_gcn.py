"""The batched GCN against the per-edge loop, the written-out Fisher against the per-sample
autograd loop."""
import numpy as np
import pytest
import torch

from lib.graphp_fl import gcn, naive, sbm


def graph(n: int, seed: int):
    rng = np.random.default_rng(seed)
    comm = rng.permutation(np.arange(n) % 3)
    return sbm.sbm_graph(rng, comm, 0.4, 0.1), rng.standard_normal((n, 5)).astype(np.float32), \
        rng.integers(0, 3, n)


def model(seed: int, m: int):
    gen = torch.Generator().manual_seed(seed)
    ps = [gcn.init(gen, 5, 4, 3) for _ in range(m)]
    ps = [tuple(p + 0.1 * torch.randn(p.shape, generator=gen) for p in q) for q in ps]
    return tuple(torch.stack(t) for t in zip(*ps))


@pytest.mark.parametrize("n", [1, 9, 33])
def test_forward_equals_edge_loop(n):
    adj, x, _ = graph(n, n)
    params = model(n, 1)
    a_hat = gcn.normalise(torch.as_tensor(adj)[None])
    fast = gcn.forward(params, a_hat, a_hat @ torch.as_tensor(x)[None])[0]
    ref = naive.gcn_forward_loop(tuple(p[0] for p in params), adj, x)
    # float32 sums of <= 33 terms of O(1) values
    assert np.abs(fast.numpy() - ref).max() <= 1e-5


def test_fisher_equals_per_sample_loop():
    adjs, xs, ys = zip(*(graph(17, s) for s in (1, 2)))
    params = tuple(p.double() for p in model(5, 2))
    a_hat = gcn.normalise(torch.as_tensor(np.stack(adjs))).double()
    x = torch.as_tensor(np.stack(xs)).double()
    y = torch.as_tensor(np.stack(ys))
    nodes = torch.tensor([[0, 3, 4, 9, 16], [1, 2, 5, 8, 11]])
    fast = gcn.fisher(params, a_hat, a_hat @ x, nodes, y)
    for m in range(2):
        ref = naive.fisher_loop(tuple(p[m] for p in params), a_hat[m], x[m],
                                nodes[m].tolist(), y[m])
        for f, r in zip(fast, ref):
            # float64 both ways: rounding of sums of a few hundred terms
            assert torch.allclose(f[m], r, rtol=1e-10, atol=1e-14)


def test_normalise_is_symmetric_with_unit_spectral_radius():
    adj, _, _ = graph(20, 4)
    a_hat = gcn.normalise(torch.as_tensor(adj)[None])[0].double()
    assert torch.equal(a_hat, a_hat.T)
    assert abs(torch.linalg.eigvalsh(a_hat).max().item() - 1.0) <= 1e-6   # float32 entries
