"""The SBM clients' construction and the topology rectification's identities."""
import numpy as np
import torch

from lib.graphp_fl import sbm, topology


def clients(**kw):
    args = dict(n_clients=4, n_nodes=40, n_comm=4, p_in=0.3, p_out=0.05, dim=6,
                feature_skew=1.0, feature_noise=1.0, swap_frac=0.5,
                noise_levels=[0.0, 0.5, 1.0, 2.0], train_frac=0.5)
    return sbm.make_clients(np.random.default_rng(0), **{**args, **kw})


def test_clients_shapes_noise_and_swaps():
    c = clients()
    assert c.adj.shape == (4, 40, 40) and c.x.shape == (4, 40, 6)
    assert np.array_equal(c.adj, c.adj.transpose(0, 2, 1))
    assert not np.diagonal(c.adj, axis1=1, axis2=2).any()
    assert (c.adj_true <= c.adj).all()                       # injection only adds
    for k, r in enumerate(c.noise):
        extra = (c.adj[k] & ~c.adj_true[k]).sum() // 2
        assert extra == round(r * c.adj_true[k].sum() / 2)
    assert c.swapped.sum() == 2
    assert all(len(set(tr) | set(te)) == 40 for tr, te in zip(c.train, c.test))


def test_rotation_is_orthogonal():
    q = sbm.rotation(np.random.default_rng(1), 7, 1.0)
    assert np.abs(q @ q.T - np.eye(7)).max() <= 1e-12


def test_edge_precision_counts():
    true = np.zeros((1, 3, 3), bool)
    true[0, 0, 1] = true[0, 1, 0] = True
    obs = true.copy()
    obs[0, 1, 2] = obs[0, 2, 1] = True
    assert sbm.edge_precision(obs, true)[0] == 0.5


def test_rectify_with_zero_threshold_and_no_additions_returns_a():
    c = clients()
    adj = torch.as_tensor(c.adj)
    logits = torch.randn(adj.shape, generator=torch.Generator().manual_seed(0)) * 1e3
    assert torch.equal(topology.rectify(logits, adj, 0.0, 0.0), adj)


def test_rectify_adds_the_top_new_edges_symmetrically():
    c = clients()
    adj = torch.as_tensor(c.adj)
    logits = torch.randn(adj.shape, generator=torch.Generator().manual_seed(1))
    logits = (logits + logits.transpose(1, 2)) / 2
    out = topology.rectify(logits, adj, 0.0, 0.2)
    assert torch.equal(out, out.transpose(1, 2)) and (out >= adj).all()
    for k in range(4):
        assert (out[k] & ~adj[k]).sum() // 2 == round(0.2 * int(adj[k].sum()) / 2)


def test_scorer_training_lowers_the_loss():
    c = clients()
    x, adj = torch.as_tensor(c.x), torch.as_tensor(c.adj)
    sc = topology.make_scorer(torch.Generator().manual_seed(0), 4, 6, 3, 1.0, 0.05)
    before = topology.reconstruction_loss(sc, x, adj, 0.01).item()
    topology.train(sc, x, adj, 30, 0.01)
    assert topology.reconstruction_loss(sc, x, adj, 0.01).item() < before
