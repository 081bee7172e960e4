"""Plain references (spec §4): one network at a time, its layers in a Python loop, stepped by
torch.optim.Adam with one parameter group per tensor; checks the ensemble kernels."""
from __future__ import annotations

import math

import numpy as np
import torch

from lib.completep_rl import param


def forward_one(w: dict[str, torch.Tensor], tab: param.Table,
                x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """f (batch,) and h_L (batch, n) of one network, one layer and one row-vector at a time."""
    mult = {k: math.sqrt(r.mult_sq) for k, r in tab.rules.items()}
    beta = math.sqrt(tab.beta_sq)
    fs, hs = [], []
    for xi in x:
        h = xi @ w["w_in"] * mult["w_in"] + w["b_in"][0]
        for layer in range(w["w_hid"].shape[0]):
            h = h + beta * mult["w_hid"] * (torch.relu(h) @ w["w_hid"][layer])
        fs.append((torch.relu(h) @ w["w_out"])[0] * mult["w_out"])
        hs.append(h)
    return torch.stack(fs), torch.stack(hs)


def one_step_loop(kind: str, n: int, depth: int, x: torch.Tensor, y: torch.Tensor, lr: float,
                  eps: float, members: int, seed: int, ntk_variant: str,
                  steps: int = 1) -> dict[str, np.ndarray]:
    """coord.one_step member by member with torch.optim.Adam (same draws: same generator)."""
    gen = torch.Generator().manual_seed(seed)
    weights, tab = param.make_mlp(kind, n, depth, x.shape[1], members, gen, ntk_variant)
    df, dh = [], []
    for e in range(members):
        w = {k: v.detach()[e].clone().requires_grad_() for k, v in weights.items()}
        groups = [{"params": [w[k]], "lr": lr * math.sqrt(tab.rules[k].lr_sq)} for k in w]
        opt = torch.optim.Adam(groups, eps=eps * float(tab.eps_mult))
        f0, h0 = (t.detach() for t in forward_one(w, tab, x))
        for _ in range(steps):
            opt.zero_grad()
            f, _ = forward_one(w, tab, x)
            (0.5 * ((f - y) ** 2).mean()).backward()
            opt.step()
        with torch.no_grad():
            f1, h1 = forward_one(w, tab, x)
        df.append(float(((f1 - f0) ** 2).mean().sqrt()))
        dh.append(float(((h1 - h0) ** 2).mean().sqrt() / (h0 ** 2).mean().sqrt()))
    return {"df": np.array(df), "dh": np.array(dh)}


def cartpole_step(state: tuple[float, float, float, float],
                  action: int) -> tuple[tuple[float, float, float, float], bool]:
    """One CartPole-v1 step in plain Python floats (gymnasium's Euler dynamics, written out)."""
    x, x_dot, theta, theta_dot = state
    gravity, masscart, masspole, length, force_mag, tau = 9.8, 1.0, 0.1, 0.5, 10.0, 0.02
    total_mass = masspole + masscart
    polemass_length = masspole * length
    force = force_mag if action == 1 else -force_mag
    costheta, sintheta = math.cos(theta), math.sin(theta)
    temp = (force + polemass_length * theta_dot * theta_dot * sintheta) / total_mass
    thetaacc = (gravity * sintheta - costheta * temp) / (
        length * (4.0 / 3.0 - masspole * costheta * costheta / total_mass))
    xacc = temp - polemass_length * thetaacc * costheta / total_mass
    x, x_dot = x + tau * x_dot, x_dot + tau * xacc
    theta, theta_dot = theta + tau * theta_dot, theta_dot + tau * thetaacc
    terminated = x < -2.4 or x > 2.4 or theta < -12 * 2 * math.pi / 360 \
        or theta > 12 * 2 * math.pi / 360
    return (x, x_dot, theta, theta_dot), terminated


def gae_loop(value: list[list[float]], done: list[list[bool]], gamma: float,
             lam: float) -> tuple[list[list[float]], list[list[float]]]:
    """GAE for one agent, env by env and step by step backwards: value[t][j] for t = 0..T (the
    last is the state after the final step), done[t][j]; reward 1 a step."""
    steps, n = len(done), len(done[0])
    adv = [[0.0] * n for _ in range(steps)]
    for j in range(n):
        running = 0.0
        for t in reversed(range(steps)):
            keep = 0.0 if done[t][j] else 1.0
            delta = 1.0 + gamma * value[t + 1][j] * keep - value[t][j]
            running = delta + gamma * lam * keep * running
            adv[t][j] = running
    ret = [[adv[t][j] + value[t][j] for j in range(n)] for t in range(steps)]
    return adv, ret


def ppo_loss_one(actor: dict[str, torch.Tensor], critic: dict[str, torch.Tensor],
                 tab: param.Table, obs: torch.Tensor, action: list[bool], logp_old: list[float],
                 adv: list[float], ret: list[float], clip: float,
                 vf_coef: float) -> torch.Tensor:
    """One agent's PPO loss on one minibatch, sample by sample (Bernoulli policy, logit f)."""
    f, _ = forward_one(actor, tab, obs)
    v, _ = forward_one(critic, tab, obs)
    m = len(adv)
    mean = sum(adv) / m
    std = math.sqrt(sum((a - mean) ** 2 for a in adv) / (m - 1))
    surrogate, value_err = 0.0, 0.0
    for i in range(m):
        logp = torch.nn.functional.logsigmoid(f[i] if action[i] else -f[i])
        ratio = torch.exp(logp - logp_old[i])
        a = (adv[i] - mean) / (std + 1e-8)
        surrogate = surrogate + torch.minimum(ratio * a, ratio.clamp(1 - clip, 1 + clip) * a)
        value_err = value_err + (v[i] - ret[i]) ** 2
    return -surrogate / m + vf_coef * 0.5 * value_err / m


def ppo_update_one(actor: dict[str, torch.Tensor], critic: dict[str, torch.Tensor],
                   tab: param.Table, obs: torch.Tensor, action: torch.Tensor,
                   logp: torch.Tensor, done: torch.Tensor, value: torch.Tensor,
                   orders: torch.Tensor, lr: float, eps: float, proto) -> list[float]:
    """One agent's PPO update with torch.optim.Adam (one group per tensor, LR lr x the table's
    multiplier, eps x the table's): obs (T, n, 4), action / logp / done (T, n), value (T + 1, n),
    orders (epochs, T n). Returns the minibatch losses, in order."""
    adv, ret = gae_loop(value.tolist(), done.tolist(), proto.gamma, proto.lam)
    flat_adv = [a for row in adv for a in row]
    flat_ret = [r for row in ret for r in row]
    flat_obs, flat_act = obs.reshape(-1, obs.shape[-1]), action.reshape(-1).tolist()
    flat_logp = logp.reshape(-1).tolist()
    nets = {**{f"a.{k}": w for k, w in actor.items()}, **{f"c.{k}": w for k, w in critic.items()}}
    groups = [{"params": [w], "lr": lr * math.sqrt(tab.rules[k.split(".")[1]].lr_sq)}
              for k, w in nets.items()]
    opt = torch.optim.Adam(groups, eps=eps * float(tab.eps_mult), foreach=False)
    size, losses = len(flat_adv) // proto.minibatches, []
    for order in orders.tolist():
        for k in range(proto.minibatches):
            idx = order[k * size:(k + 1) * size]
            opt.zero_grad()
            loss = ppo_loss_one(actor, critic, tab, flat_obs[idx], [flat_act[i] for i in idx],
                                [flat_logp[i] for i in idx], [flat_adv[i] for i in idx],
                                [flat_ret[i] for i in idx], proto.clip, proto.vf_coef)
            loss.backward()
            opt.step()
            losses.append(float(loss.detach()))
    return losses


def cka_hsic(x: torch.Tensor, y: torch.Tensor) -> float:
    """Linear CKA by its definition: HSIC(K, L) / sqrt(HSIC(K, K) HSIC(L, L)) with Gram matrices
    K = X X^T, L = Y Y^T and the explicit centring matrix H = I - 11^T / B, float64."""
    b = x.shape[0]
    h = torch.eye(b, dtype=torch.float64) - torch.full((b, b), 1.0 / b, dtype=torch.float64)
    k, l_ = h @ (x.double() @ x.double().T) @ h, h @ (y.double() @ y.double().T) @ h
    return float((k * l_).sum() / ((k * k).sum() * (l_ * l_).sum()).sqrt())
