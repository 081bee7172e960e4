"""lib/bsnp/evaluate.py: the fixed test batch, and the law of total variance."""
import numpy as np
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


def test_per_task_rows_give_back_the_pooled_metrics():
    tasks = poisson.make_tasks(7, 3)                      # odd, under the MNSE's batch of 50
    b = evaluate.test_batch(tasks, evaluate.Setting(3, 9), 0)
    torch.manual_seed(0)
    net = model.BSNP(model.Sizes(channels=(8,), latent=3, hidden=8))
    points = np.array([0.25, 0.5, 0.75])
    rows = evaluate.per_task(net, b, 4, 0, points)
    agg = evaluate.evaluate(net, b, 4, 0, points)
    assert rows.shape == (7, len(evaluate.PER_TASK))
    col = {c: i for i, c in enumerate(evaluate.PER_TASK)}
    # one batch of 7 tasks: the batched MNSE is the pooled one (the metric sums the float32
    # squared targets in float32, the rows in float64: float32 rounding)
    pooled = rows[:, col["err"]].sum() / rows[:, col["ref"]].sum()
    assert abs(pooled - agg["mnse"]) <= 1e-6 * agg["mnse"]
    # equal targets per task: the mean of per-task shares is the share of all points (exact
    # up to one division)
    assert abs(rows[:, col["inside"]].mean() - agg["ecp90"]) <= 1e-12
    # float32 residuals averaged in two orders
    assert abs(rows[:, col["r2_off"]].mean() - agg["r2_off"]) <= 1e-5 * agg["r2_off"]
    assert abs(rows[:, col["r2_on"]].mean() - agg["r2_on"]) <= 1e-5 * agg["r2_on"]
    assert abs(rows[:, col["width"]].mean() - agg["sigma_width"]) <= 1e-5 * agg["sigma_width"]
    assert np.isnan(evaluate.per_task(net, b, 4, 0)[:, col["r2_on"]]).all()
