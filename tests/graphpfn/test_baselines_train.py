"""Packed per-graph training equals training each graph alone; the crop stays connected; the
labelled masks and the karate graph are what they say."""
import numpy as np
import torch

from lib.graphpfn import baselines, configs, karate, prior_structure, train
from lib.graphpfn.schema import TinyPfn
from tests.conftest import assert_close


def _graphs(count, seed):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        n = int(rng.integers(5, 12))
        e = prior_structure.simplify(rng.integers(0, n, (2 * n, 2)))
        out.append(((n, e), rng.normal(size=(n, 4)).astype(np.float32),
                    rng.integers(0, 3, n), rng.random(n) < 0.5))
    return out


def test_packed_training_equals_separate_training():
    gs = _graphs(3, 0)
    def fit(items):
        b = baselines.pack([g[0] for g in items], [g[1] for g in items], [g[2] for g in items],
                           [g[3] for g in items], [3] * len(items))
        torch.manual_seed(0)
        w1 = torch.randn(len(items), 4, 6).requires_grad_()
        w2 = torch.randn(len(items), 6, 3).requires_grad_()
        opt = torch.optim.Adam([w1, w2], lr=0.05)
        for _ in range(15):
            logits = baselines.forward(b, w1, w2, True, 0.0, True)
            nll = torch.nn.functional.cross_entropy(logits[b.train], b.y[b.train],
                                                    reduction="none")
            count = torch.zeros(len(items)).index_add(0, b.gid[b.train],
                                                      torch.ones(int(b.train.sum())))
            loss = (torch.zeros(len(items)).index_add(0, b.gid[b.train], nll) / count).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
        return w1.detach(), w2.detach()
    w1, w2 = fit(gs)
    torch.manual_seed(0)
    init1, init2 = torch.randn(3, 4, 6), torch.randn(3, 6, 3)
    for i, g in enumerate(gs):
        # alone, from the same initial weights as slot i of the packed run
        b = baselines.pack([g[0]], [g[1]], [g[2]], [g[3]], [3])
        a1, a2 = init1[i:i + 1].clone().requires_grad_(), init2[i:i + 1].clone().requires_grad_()
        opt = torch.optim.Adam([a1, a2], lr=0.05)
        for _ in range(15):
            logits = baselines.forward(b, a1, a2, True, 0.0, True)
            loss = torch.nn.functional.cross_entropy(logits[b.train], b.y[b.train])
            opt.zero_grad()
            loss.backward()
            opt.step()
        # float32, 15 Adam steps; only summation order differs
        assert_close(f"w1[{i}]", a1.detach()[0].numpy(), w1[i].numpy(), rtol=1e-4, atol=1e-5)
        assert_close(f"w2[{i}]", a2.detach()[0].numpy(), w2[i].numpy(), rtol=1e-4, atol=1e-5)


def test_gcn_learns_a_homophilous_toy():
    # two cliques joined by one edge, labels by clique, one label each: GCN should get it
    e = np.array([(a, b) for a in range(6) for b in range(a + 1, 6)]
                 + [(a, b) for a in range(6, 12) for b in range(a + 1, 12)] + [(5, 6)])
    y = np.repeat([0, 1], 6)
    x = np.random.default_rng(0).normal(size=(12, 4)).astype(np.float32)
    train_mask = np.zeros(12, bool)
    train_mask[[0, 11]] = True
    b = baselines.pack([(12, e)], [x], [y], [train_mask], [2])
    pred = baselines.fit_predict(b, True, 8, 100, 0.05, 0.0, 0.0, 0).numpy()
    assert (pred == y).mean() >= 10 / 12


def test_crop_and_labelled():
    cfg = TinyPfn()
    grid = [configs.scaled(c, 0.1) for c in configs.grid(
        cfg.sbm_nodes, cfg.first_level, cfg.group_families, cfg.pa_families, cfg.divisors)]
    rng = np.random.default_rng(1)
    g = prior_structure.sample_graph(grid[0], rng)
    c = train.crop(g, 40, rng)
    assert c.n == 40 and len(prior_structure.largest_component(40, c.edges)) == 40
    m = train.labelled(40, 0.2, rng)
    assert m.sum() == 8


def test_karate_is_zacharys():
    g, y = karate.karate()
    assert g.n == 34 and len(g.edges) == 78 and np.bincount(y).tolist() == [17, 17]
    x = karate.features(g, 8)
    assert x.shape == (34, 8) and np.isfinite(x).all()
    m = karate.splits(y, 4, 5, np.random.default_rng(0))
    assert (m.sum(1) == 8).all() and all(np.bincount(y[r]).tolist() == [4, 4] for r in m)
