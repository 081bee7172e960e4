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
