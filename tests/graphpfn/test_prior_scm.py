"""The GNN-SCM's parts: each graph convolution against its definition node by node, the rank
classes, and a task's shape and determinism."""
import numpy as np
import pytest

from lib.graphpfn import configs, prior_scm, prior_structure
from lib.graphpfn.prior_structure import Graph
from lib.graphpfn.schema import Prior
from tests.conftest import assert_close

EDGES = np.array([[0, 1], [1, 2], [2, 0], [2, 3], [4, 5]])
G = Graph(7, EDGES, np.zeros(7, int), None, np.zeros(7, bool))    # node 6 isolated


@pytest.mark.parametrize("kind", prior_scm.CONVS)
def test_conv_matches_its_definition(kind):
    u = np.random.default_rng(0).normal(size=(7, 3))
    got = prior_scm.conv(prior_scm.adjacency(G), u, kind)
    nbrs = [[b for a, b in np.r_[EDGES, EDGES[:, ::-1]] if a == i] for i in range(7)]
    deg = np.array([len(x) for x in nbrs])
    for i in range(7):
        if not nbrs[i]:
            want = u[i]
        elif kind == "gcn":
            want = sum(u[j] / np.sqrt((deg[i] + 1) * (deg[j] + 1)) for j in nbrs[i] + [i])
        elif kind == "mean":
            want = u[nbrs[i]].mean(0)
        else:
            want = (u[nbrs[i]].max(0) if kind == "max" else u[nbrs[i]].min(0))
        # float64 sums of <= 4 terms
        assert_close(f"{kind} node {i}", want, got[i], rtol=1e-12, atol=1e-12)


def test_rank_classes_uses_k_labels_by_rank():
    rng = np.random.default_rng(1)
    y = rng.normal(size=500)
    c = prior_scm.rank_classes(y, 3, rng)
    assert set(c) == {0, 1, 2}
    order = c[np.argsort(y)]                      # labels change only twice along the ranks
    assert (np.diff(order) != 0).sum() == 2


def test_task_shape_and_determinism():
    cfg = Prior()
    graph_cfg = configs.scaled(configs.grid(cfg.sbm_nodes, cfg.first_level, cfg.group_families,
                                            cfg.pa_families, cfg.divisors)[0], 0.05)
    g = prior_structure.sample_graph(graph_cfg, np.random.default_rng(2))
    t1 = prior_scm.sample_task(g, np.random.default_rng(3), **cfg.scm())
    t2 = prior_scm.sample_task(g, np.random.default_rng(3), **cfg.scm())
    assert t1.x.shape == (g.n, cfg.n_features) and t1.x.dtype == np.float32
    assert t1.x.tobytes() == t2.x.tobytes() and t1.y.tobytes() == t2.y.tobytes()
    assert 2 <= t1.classes <= 4 and t1.y.max() < t1.classes and np.isfinite(t1.x).all()
