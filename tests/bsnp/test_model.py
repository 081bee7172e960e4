"""lib/bsnp/model.py and batches.py: padding mask, shapes (spec T5)."""
import numpy as np
import torch

from lib.bsnp import batches, model, poisson


def test_padding_leaves_encoder_unchanged():
    torch.manual_seed(0)
    net = model.BSNP(model.Sizes(channels=(8,), latent=3, hidden=8)).double()
    x = torch.rand(2, 4, dtype=torch.float64)
    y = torch.rand(2, 4, dtype=torch.float64)
    lam = torch.zeros(2, 2, dtype=torch.float64)
    ref = net.encode(x, y, torch.ones(2, 4, dtype=torch.bool), lam)
    pad = net.encode(torch.cat([x, torch.rand(2, 3, dtype=torch.float64)], 1),
                     torch.cat([y, torch.rand(2, 3, dtype=torch.float64)], 1),
                     torch.arange(7)[None].expand(2, -1) < 4, lam)
    for a, b in zip(ref, pad):
        assert torch.equal(a, b)


def test_batch_shapes_and_release_split():
    tasks = poisson.make_tasks(5, 0)
    b = batches.sample_batch(tasks, np.array([0, 3]), np.random.default_rng(0), 2, 6, 0.05, 9)
    assert b.xc.shape == (2, 6) and b.xt.shape == (2, 9) and b.mc.sum(1).min() >= 2
    fixed = [batches.sample_batch(tasks, np.array([1]), np.random.default_rng(s), 2, 6, 0.05, 9,
                                  fresh=False) for s in (0, 1)]
    assert torch.equal(fixed[0].xc, fixed[1].xc)     # the release's per-task split
