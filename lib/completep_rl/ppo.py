"""Ensemble PPO on the vectorised CartPole (spec §1.4): members of both parameterisations, every
LR and every seed trained in lock-step with batched matmuls and a per-member-LR Adam.

Axes: E members, T steps, n envs per member, B = T n samples, N width, L depth. The policy is a
Bernoulli over the two pushes with logit f (a two-logit softmax seen through its difference).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F
from tqdm.auto import tqdm

from lib.completep_rl import adam, envs, param

D_IN = 4


@dataclass(frozen=True)
class Member:
    """One agent of the ensemble: its parameterisation, base LR and seed slot."""

    arm: str
    lr: float
    seed: int


@dataclass(frozen=True)
class Protocol:
    """PPO settings (spec §1.4)."""

    n_envs: int = 16
    steps: int = 64
    iterations: int = 60
    epochs: int = 2
    minibatches: int = 2
    clip: float = 0.2
    gamma: float = 0.99
    lam: float = 0.95
    vf_coef: float = 0.5
    max_steps: int = 200
    eps: float = 1e-8


@dataclass
class Net:
    """An ensemble of residual MLPs with scalar output, one per member, with the member's
    parameterisation as tensors: forward multipliers and beta (E, 1, 1), LR and eps mults (E,)."""

    weights: dict[str, torch.Tensor]
    mult: dict[str, torch.Tensor]
    beta: torch.Tensor
    lr_mult: dict[str, torch.Tensor]
    eps_mult: torch.Tensor


def member_generator(seed: int, slot: int, stream: int) -> torch.Generator:
    """A generator for (run seed, seed slot, stream): actor 0, critic 1, shared across arms."""
    state = np.random.SeedSequence([seed, slot, stream]).generate_state(1)[0]
    return torch.Generator().manual_seed(int(state))


def build(members: list[Member], n: int, depth: int, seed: int, stream: int,
          ntk_variant: str, dtype: torch.dtype) -> Net:
    """Each member's network drawn by param.make_mlp from its own (seed slot, stream) generator,
    so members of one seed share their standard-normal draws across LRs and arms."""
    parts, tabs = [], []
    for m in members:
        w, tab = param.make_mlp(m.arm, n, depth, D_IN, 1, member_generator(seed, m.seed, stream),
                                ntk_variant, dtype)
        parts.append(w)
        tabs.append(tab)

    def per_member(values: list[float], *axes: int) -> torch.Tensor:
        return torch.tensor(values, dtype=dtype).reshape(-1, *axes)
    weights = {k: torch.cat([w[k].detach() for w in parts]).requires_grad_() for k in parts[0]}
    mult = {k: per_member([math.sqrt(t.rules[k].mult_sq) for t in tabs], 1, 1)
            for k in param.TENSORS}
    lr_mult = {k: per_member([math.sqrt(t.rules[k].lr_sq) for t in tabs]) for k in param.TENSORS}
    return Net(weights, mult, per_member([math.sqrt(t.beta_sq) for t in tabs], 1, 1), lr_mult,
               per_member([float(t.eps_mult) for t in tabs]))


def forward(net: Net, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """f (E, B) and the last hidden pre-activations h_L (E, B, N) for x (E, B, d_in)."""
    w, m = net.weights, net.mult
    h = torch.matmul(x, w["w_in"]) * m["w_in"] + w["b_in"]                    # (E, B, N)
    for layer in range(w["w_hid"].shape[1]):
        h = h + net.beta * m["w_hid"] * torch.bmm(torch.relu(h), w["w_hid"][:, layer])
    return (torch.bmm(torch.relu(h), w["w_out"]) * m["w_out"])[..., 0], h


def optimizer(net: Net, lr: torch.Tensor, eps: float) -> adam.EnsembleAdam:
    """The per-member-LR Adam of one ensemble, with the parameterisation's LR and eps rules."""
    return adam.EnsembleAdam(net.weights, lr, net.lr_mult, eps * net.eps_mult)


def log_prob(f: torch.Tensor, action: torch.Tensor) -> torch.Tensor:
    """log pi(action) for the Bernoulli policy with logit f (action 1 with prob sigmoid f)."""
    return torch.where(action, F.logsigmoid(f), F.logsigmoid(-f))


@dataclass
class Rollout:
    """What one iteration collected: obs (E, T, n, 4), action / logp / done (E, T, n), and the
    critic's values (E, T + 1, n) including the state after the last step."""

    obs: torch.Tensor
    action: torch.Tensor
    logp: torch.Tensor
    done: torch.Tensor
    value: torch.Tensor


@torch.no_grad()
def rollout(actor: Net, critic: Net, carts: envs.CartPoles, steps: int,
            gen: torch.Generator) -> tuple[Rollout, torch.Tensor, torch.Tensor]:
    """`steps` steps of every member's envs; also each member's summed and counted ended
    episodes' returns (E,). Action noise is drawn per seed slot (common random numbers)."""
    obs, act, logp, done = [], [], [], []
    ret_sum = torch.zeros(len(carts.seed_of), dtype=torch.long)
    count = torch.zeros_like(ret_sum)
    for _ in range(steps):
        state = carts.state
        f, _ = forward(actor, state)                                           # (E, n)
        u = torch.rand(carts.n_seeds, carts.n_envs, generator=gen, dtype=f.dtype)[carts.seed_of]
        a = u < torch.sigmoid(f)
        ended, length = carts.step(a)
        obs.append(state)
        act.append(a)
        logp.append(log_prob(f, a))
        done.append(ended)
        ret_sum += length.sum(1)
        count += ended.sum(1)
    states = torch.stack(obs + [carts.state], 1)                               # (E, T + 1, n, 4)
    e, t1, n, _ = states.shape
    value = forward(critic, states.reshape(e, t1 * n, D_IN))[0].reshape(e, t1, n)
    return Rollout(states[:, :-1], torch.stack(act, 1), torch.stack(logp, 1),
                   torch.stack(done, 1), value), ret_sum, count


def gae(value: torch.Tensor, done: torch.Tensor, gamma: float,
        lam: float) -> tuple[torch.Tensor, torch.Tensor]:
    """Advantages and returns (E, T, n) by GAE(gamma, lambda) with reward 1 a step; an ended
    episode (terminated or truncated) is not bootstrapped past."""
    steps = done.shape[1]
    keep = (~done).to(value.dtype)
    adv = torch.zeros_like(value)
    for t in reversed(range(steps)):
        delta = 1.0 + gamma * value[:, t + 1] * keep[:, t] - value[:, t]
        adv[:, t] = delta + gamma * lam * keep[:, t] * adv[:, t + 1]
    return adv[:, :-1], adv[:, :-1] + value[:, :-1]


def minibatch_loss(actor: Net, critic: Net, obs: torch.Tensor, action: torch.Tensor,
                   logp_old: torch.Tensor, adv: torch.Tensor, ret: torch.Tensor, clip: float,
                   vf_coef: float) -> torch.Tensor:
    """Per-member PPO loss (E,): clipped surrogate on per-minibatch normalised advantages plus
    vf_coef x 0.5 mean squared value error; no entropy bonus."""
    f, _ = forward(actor, obs)
    ratio = torch.exp(log_prob(f, action) - logp_old)
    a = (adv - adv.mean(1, keepdim=True)) / (adv.std(1, keepdim=True) + 1e-8)
    surrogate = torch.minimum(ratio * a, torch.clamp(ratio, 1 - clip, 1 + clip) * a)
    v, _ = forward(critic, obs)
    return -surrogate.mean(1) + vf_coef * 0.5 * ((v - ret) ** 2).mean(1)


def draw_orders(n_seeds: int, samples: int, epochs: int, seed_of: torch.Tensor,
                gen: torch.Generator) -> torch.Tensor:
    """Each epoch's sample order (epochs, E, B), one permutation per seed slot."""
    keys = torch.rand(epochs, n_seeds, samples, generator=gen)
    return torch.argsort(keys, -1)[:, seed_of]


def update(actor: Net, critic: Net, opts: tuple[adam.EnsembleAdam, adam.EnsembleAdam],
           batch: Rollout, orders: torch.Tensor, proto: Protocol) -> torch.Tensor:
    """epochs x minibatches Adam steps of every member on its own rollout; returns the losses
    (epochs x minibatches, E)."""
    adv, ret = gae(batch.value, batch.done, proto.gamma, proto.lam)
    e = adv.shape[0]
    flat = {"obs": batch.obs.reshape(e, -1, D_IN), "action": batch.action.reshape(e, -1),
            "logp_old": batch.logp.reshape(e, -1), "adv": adv.reshape(e, -1),
            "ret": ret.reshape(e, -1)}
    size, losses = flat["adv"].shape[1] // proto.minibatches, []
    for order in orders:                                                       # (E, B)
        for k in range(proto.minibatches):
            idx = order[:, k * size:(k + 1) * size]
            mb = {name: torch.take_along_dim(v, idx if v.dim() == 2 else idx[..., None], 1)
                  for name, v in flat.items()}
            for net in (actor, critic):
                for w in net.weights.values():
                    w.grad = None
            loss = minibatch_loss(actor, critic, **mb, clip=proto.clip, vf_coef=proto.vf_coef)
            loss.sum().backward()
            for opt in opts:
                opt.step()
            losses.append(loss.detach())
    return torch.stack(losses)


@dataclass
class Trained:
    """A finished ensemble run: per-iteration mean ended-episode return (E, iterations; nan
    where no episode ended) and the final actors."""

    curve: np.ndarray
    actor: Net


def train(members: list[Member], n: int, depth: int, proto: Protocol, seed: int,
          ntk_variant: str, dtype: torch.dtype, desc: str = "") -> Trained:
    """Train every member for proto.iterations PPO iterations, all in lock-step."""
    n_seeds = 1 + max(m.seed for m in members)
    seed_of = torch.tensor([m.seed for m in members])
    lr = torch.tensor([m.lr for m in members], dtype=dtype)
    actor, critic = (build(members, n, depth, seed, s, ntk_variant, dtype) for s in (0, 1))
    opts = (optimizer(actor, lr, proto.eps), optimizer(critic, lr, proto.eps))
    gen = member_generator(seed, 0, 2)                 # stream 2: resets, actions, orders
    carts = envs.CartPoles(seed_of, n_seeds, proto.n_envs, proto.max_steps, gen, dtype)
    curve = np.full((len(members), proto.iterations), np.nan)
    for it in tqdm(range(proto.iterations), desc=desc, leave=False):
        batch, ret_sum, count = rollout(actor, critic, carts, proto.steps, gen)
        ended = count.numpy() > 0
        curve[ended, it] = ret_sum.numpy()[ended] / count.numpy()[ended]
        orders = draw_orders(n_seeds, proto.steps * proto.n_envs, proto.epochs, seed_of, gen)
        update(actor, critic, opts, batch, orders, proto)
    return Trained(curve, actor)


def select(net: Net, idx: list[int]) -> Net:
    """The sub-ensemble of members idx (detached: for evaluation)."""
    def pick(t: torch.Tensor) -> torch.Tensor:
        return t.detach()[idx]
    return Net({k: pick(w) for k, w in net.weights.items()}, {k: pick(m) for k, m in
               net.mult.items()}, pick(net.beta), {k: pick(m) for k, m in net.lr_mult.items()},
               pick(net.eps_mult))
