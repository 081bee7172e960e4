"""lib/bsnp/evaluate.py: the fixed test batch, and the law of total variance."""
import torch

from lib.bsnp import evaluate, model, poisson


def test_fixed_batch_and_total_variance():
    tasks = poisson.make_tasks(6, 0)
    b1 = evaluate.test_batch(tasks, evaluate.Setting(3, 5), 0)
    b2 = evaluate.test_batch(tasks, evaluate.Setting(3, 5), 0)
    assert torch.equal(b1.yc, b2.yc)
    torch.manual_seed(0)
    net = model.BSNP(model.Sizes(channels=(8,), latent=3, hidden=8))
    mu1, var1 = evaluate.predict(net, b1, 8, torch.Generator().manual_seed(0))
    g, mz, lz = net.encode(b1.xc, b1.yc, b1.mc, b1.lam)
    eps = torch.randn((8, *mz.shape), generator=torch.Generator().manual_seed(0))
    mu, sd = net.decode(g, mz + (0.5 * lz).exp() * eps, b1.xt)
    # mean of sigma^2 plus the spread of the means (float32 rounding)
    assert torch.allclose(var1, sd.square().mean(0) + mu.var(0, unbiased=False), rtol=1e-5)
    assert torch.allclose(mu1, mu.mean(0))


def test_shuffle_values_permutes_within_each_task():
    tasks = poisson.make_tasks(5, 1)
    b = evaluate.test_batch(tasks, evaluate.Setting(3, 9), 0)
    s = evaluate.shuffle_values(b, 0)
    assert torch.equal(s.xc, b.xc) and torch.equal(s.mc, b.mc) and torch.equal(s.yt, b.yt)
    assert torch.equal(evaluate.shuffle_values(b, 0).yc, s.yc)          # seeded
    for i in range(5):
        keep = b.mc[i]
        assert torch.equal(s.yc[i, keep].sort().values, b.yc[i, keep].sort().values)
        assert torch.equal(s.yc[i, ~keep], b.yc[i, ~keep])
    assert not torch.equal(s.yc, b.yc)
