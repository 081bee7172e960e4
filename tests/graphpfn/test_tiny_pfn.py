"""GA against its per-node loop (float64), the zero-init identity (P5), and that the adapters
are what carries the graph: after they train, the graph model's logits depend on the edges."""
import numpy as np
import pytest
import torch

from lib.graphpfn import naive, tiny_pfn
from tests.conftest import assert_close


@pytest.mark.parametrize("n, m, heads, dh", [(1, 0, 1, 3), (7, 9, 2, 5), (33, 80, 4, 16)])
def test_neighbour_attention_matches_the_loop(n, m, heads, dh):
    gen = torch.Generator().manual_seed(n)
    q, k, v = (torch.randn(n, heads, dh, generator=gen, dtype=torch.float64) for _ in range(3))
    e = torch.randint(0, n, (m, 2), generator=gen)
    src, dst = torch.cat([e[:, 0], e[:, 1]]), torch.cat([e[:, 1], e[:, 0]])
    got = tiny_pfn.neighbour_attention(q, k, v, src, dst)
    want = naive.neighbour_attention_naive(q, k, v, torch.stack([src, dst], 1))
    # float64 softmax and sums of <= 2m terms: rounding only
    assert_close("GA", want.numpy(), got.numpy(), rtol=1e-10, atol=1e-10)


def _inputs(n=30, seed=0):
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 8, generator=gen)
    y = torch.randint(0, 3, (n,), generator=gen)
    train = torch.rand(n, generator=gen) < 0.4
    edges = torch.randint(0, n, (60, 2), generator=gen)
    return x, y, train, edges


def test_zero_init_gives_identical_logits():
    tab, graph = tiny_pfn.pair(8, 4, 32, 2, 4, seed=3)
    with torch.no_grad():
        a, b = tab(*_inputs(), 3), graph(*_inputs(), 3)
    assert torch.equal(a, b)                          # x + 0 is exact
    assert torch.isinf(a[:, 3]).all() and torch.isfinite(a[:, :3]).all()


def test_pair_shares_the_tabular_weights():
    tab, graph = tiny_pfn.pair(8, 4, 32, 2, 4, seed=3)
    g = graph.state_dict()
    assert all(torch.equal(w, g[k]) for k, w in tab.state_dict().items())


def test_unlabelled_labels_are_not_read():
    tab, _ = tiny_pfn.pair(8, 4, 32, 2, 4, seed=1)
    x, y, train, edges = _inputs()
    y2 = torch.where(train, y, (y + 1) % 3)
    with torch.no_grad():
        assert torch.equal(tab(x, y, train, edges, 3), tab(x, y2, train, edges, 3))


def test_trained_adapter_reads_the_edges():
    _, graph = tiny_pfn.pair(8, 4, 32, 2, 4, seed=2)
    x, y, train, edges = _inputs()
    opt = torch.optim.Adam(graph.parameters(), 1e-2)
    for _ in range(3):
        loss = torch.nn.functional.cross_entropy(graph(x, y, train, edges, 3)[~train], y[~train])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        other = torch.as_tensor(np.random.default_rng(0).integers(0, 30, (60, 2)))
        assert not torch.equal(graph(x, y, train, edges, 3), graph(x, y, train, other, 3))
