"""lib/frog/gnn.py: the gate's limits are the fixed roles, the receptive field is the K-hop
ball, replicas are independent."""
import numpy as np
import torch

from lib.frog import experiment, gnn, rdb, train


def stacked(seeds, dtype=torch.float64):
    dbs = [rdb.make_database(11, 5, 29, np.random.default_rng(s)) for s in seeds]
    labels = [rdb.binarise(rdb.copurchase_target(db)) for db in dbs]
    tests = [rdb.split_users(11, 0.4, np.random.default_rng(s)) for s in seeds]
    return dbs, gnn.stack(dbs, labels, tests, dtype)


def test_gate_limits_are_fixed_roles():
    _, st = stacked([0, 1])
    for depth in (1, 2, 3):
        w = gnn.init_weights([5, 6], 8, depth, torch.float64)
        for p, mode in ((0.0, "node"), (1.0, "edge")):
            gated = gnn.forward(st, w, depth, "gate", p=torch.full((2, 1, 1), p,
                                                                   dtype=torch.float64))
            assert torch.equal(gated.logits, gnn.forward(st, w, depth, mode).logits)


def test_half_gate_differs_from_both():
    _, st = stacked([0])
    w = gnn.init_weights([5], 8, 2, torch.float64)
    half = gnn.forward(st, w, 2, "gate").logits               # gate logit 0: p = 0.5
    assert not torch.equal(half, gnn.forward(st, w, 2, "node").logits)
    assert not torch.equal(half, gnn.forward(st, w, 2, "edge").logits)


def test_replicas_independent():
    """Replica 1 of a stack gives the logits it gives alone (offsets keep databases apart)."""
    dbs, st = stacked([0, 1])
    _, alone = stacked([1])
    w = gnn.init_weights([5, 6], 8, 3, torch.float64)
    w1 = gnn.init_weights([6], 8, 3, torch.float64)
    for mode in gnn.MODES:
        both = gnn.forward(st, w, 3, mode).logits
        torch.testing.assert_close(both[1:], gnn.forward(alone, w1, 3, mode).logits,
                                   rtol=0, atol=1e-13)   # float64, same ops per replica


def test_receptive_field_is_hop_ball():
    db = rdb.make_database(13, 4, 20, np.random.default_rng(2))
    probes = np.array([0, 5, 12])
    for mode in ("node", "edge"):
        for depth in (1, 2, 3, 4):
            assert experiment.receptive_field(db, mode, depth, 8, 1, probes) == \
                experiment.hop_ball(db, mode, depth, probes)


def test_training_moves_gate_and_fits():
    _, st = stacked([0], torch.float32)
    run = train.train(st, [3], "gate", train.Setup(2, 8, 12, 0.05, 0.05, 0.1))
    assert run.gate.shape == (13, 1) and run.gate[0, 0] == 0.5 and run.gate[-1, 0] != 0.5
    assert np.isfinite(run.fd_r2).all() and run.fd_r2[0] <= 1 + 1e-9
