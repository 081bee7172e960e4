import math

import numpy as np
import pytest
import torch

from lib.completep_rl import envs, naive, param, ppo

MEMBERS = [ppo.Member("completep", 3e-2, 0), ppo.Member("ntk", 1e-2, 0),
           ppo.Member("completep", 1e-1, 1), ppo.Member("ntk", 3e-3, 1)]
PROTO = ppo.Protocol(n_envs=3, steps=7, epochs=2, minibatches=3)


def ensemble(n=6, depth=2, variant="adam_fixed_lr"):
    return tuple(ppo.build(MEMBERS, n, depth, 0, s, variant, torch.float64) for s in (0, 1))


def collect(actor, critic):
    gen = torch.Generator().manual_seed(2)
    seed_of = torch.tensor([m.seed for m in MEMBERS])
    carts = envs.CartPoles(seed_of, 2, PROTO.n_envs, 4, gen, torch.float64)
    batch, _, count = ppo.rollout(actor, critic, carts, PROTO.steps, gen)
    orders = ppo.draw_orders(2, PROTO.steps * PROTO.n_envs, PROTO.epochs, seed_of, gen)
    return batch, orders, count


def one(net, e):
    return {k: v.detach()[e].clone().requires_grad_() for k, v in net.weights.items()}


@pytest.mark.parametrize("depth", [1, 3])
def test_ensemble_forward_equals_the_loop_per_member(depth):
    actor, _ = ensemble(depth=depth)
    x = torch.randn(len(MEMBERS), 5, 4, dtype=torch.float64)
    f, h = ppo.forward(actor, x)
    for e, m in enumerate(MEMBERS):
        fe, he = naive.forward_one(one(actor, e), param.table(m.arm, 6, depth, 4), x[e])
        torch.testing.assert_close(f[e], fe, rtol=1e-12, atol=1e-12)   # float64, summation order
        torch.testing.assert_close(h[e], he, rtol=1e-12, atol=1e-12)


def test_members_of_one_seed_share_their_draws():
    """CompleteP's hidden std is 1/sqrt(N), NTK's raw std 1: the same normals, rescaled."""
    actor, _ = ensemble()
    w = actor.weights["w_hid"].detach()
    torch.testing.assert_close(w[1], w[0] * math.sqrt(6), rtol=1e-14, atol=0)
    assert not torch.equal(w[0], w[2])


def test_minibatch_loss_equals_the_single_agent_loss():
    """The ensemble PPO loss of member e is the naive one-agent loss on its batch (spec §5)."""
    actor, critic = ensemble()
    batch, orders, _ = collect(actor, critic)
    adv, ret = ppo.gae(batch.value, batch.done, PROTO.gamma, PROTO.lam)
    e_ = len(MEMBERS)
    idx = orders[0][:, :7]
    obs = torch.take_along_dim(batch.obs.reshape(e_, -1, 4), idx[..., None], 1)
    pick = [torch.take_along_dim(t.reshape(e_, -1), idx, 1)
            for t in (batch.action, batch.logp, adv, ret)]
    loss = ppo.minibatch_loss(actor, critic, obs, *pick, clip=0.2, vf_coef=0.5)
    for e, m in enumerate(MEMBERS):
        ref = naive.ppo_loss_one(one(actor, e), one(critic, e), param.table(m.arm, 6, 2, 4),
                                 obs[e], *(p[e].tolist() for p in pick), clip=0.2, vf_coef=0.5)
        # float64; the two sum in different orders
        assert abs(float(loss[e].detach()) - float(ref.detach())) <= 1e-12


def test_gae_equals_the_loop():
    actor, critic = ensemble()
    batch, _, _ = collect(actor, critic)
    adv, ret = ppo.gae(batch.value, batch.done, 0.9, 0.8)
    for e in range(len(MEMBERS)):
        ref_adv, ref_ret = naive.gae_loop(batch.value[e].tolist(), batch.done[e].tolist(), 0.9, 0.8)
        torch.testing.assert_close(adv[e], torch.tensor(ref_adv, dtype=torch.float64),
                                   rtol=1e-13, atol=1e-13)
        torch.testing.assert_close(ret[e], torch.tensor(ref_ret, dtype=torch.float64),
                                   rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("variant", param.NTK_VARIANTS)
def test_ensemble_update_equals_separate_torch_adam_runs(variant):
    """Per-member LR Adam over a full PPO update (2 epochs x 3 minibatches) equals one
    torch.optim.Adam per member on the naive loss (float64, spec §5: <= 1e-10)."""
    actor, critic = ensemble(variant=variant)
    batch, orders, count = collect(actor, critic)
    assert count.sum() > 0                                  # episodes of <= 4 steps end
    refs = [(one(actor, e), one(critic, e)) for e in range(len(MEMBERS))]
    lr = torch.tensor([m.lr for m in MEMBERS], dtype=torch.float64)
    opts = (ppo.optimizer(actor, lr, 1e-3), ppo.optimizer(critic, lr, 1e-3))
    losses = ppo.update(actor, critic, opts, batch, orders, PROTO)
    for e, m in enumerate(MEMBERS):
        ref_losses = naive.ppo_update_one(
            *refs[e], param.table(m.arm, 6, 2, 4, variant), batch.obs[e], batch.action[e],
            batch.logp[e], batch.done[e], batch.value[e], orders[:, e], m.lr, 1e-3, PROTO)
        assert max(abs(a - b) for a, b in zip(losses[:, e].tolist(), ref_losses)) <= 1e-10
        for net, ref in zip((actor, critic), refs[e]):
            for k, w in net.weights.items():
                assert (w.detach()[e] - ref[k].detach()).abs().max() <= 1e-10


def test_training_is_deterministic():
    proto = ppo.Protocol(n_envs=4, steps=8, iterations=2)
    runs = [ppo.train(MEMBERS, 8, 1, proto, 5, "adam_fixed_lr", torch.float32) for _ in range(2)]
    assert runs[0].curve.shape == (4, 2)
    assert np.array_equal(runs[0].curve, runs[1].curve, equal_nan=True)
    for k, w in runs[0].actor.weights.items():
        assert torch.equal(w, runs[1].actor.weights[k])
