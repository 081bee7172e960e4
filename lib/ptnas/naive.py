"""Plain references for the heavy kernels: read by tests, bench/ and lib.ptnas.checks only.

- `ptproxy_closed_form`: pTProxy on a positive linear MLP in numpy float64 with explicit matrix
  products: a_l = a_{l−1}|W_l| + |b_l|, τ_l = ‖δ |W_1|···|W_l|‖_F / ε, ∂R/∂a_l = 1 ⊗
  |W_{l+1}|···|W_{L+1}| 1, V_l = a_l ⊙ ∂R/∂a_l (spec §1.3, [DERIVED]).
- `train_separate`: each architecture as its own nn.Sequential, trained alone with Adam on the
  same batches as the masked bench.
- `successive_halving`: SH as nested Python lists.
- `kendall_tau`: τ-b by counting the n(n−1)/2 pairs.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from lib.ptnas.bench import batches, init_weights
from lib.ptnas.data import Split
from lib.ptnas.space import Arch


def ptproxy_closed_form(weights: Sequence[tuple[np.ndarray, np.ndarray]], delta: np.ndarray,
                        eps: float, mode: str = "traj_width") -> float:
    """pTProxy from the closed form of the linear regime, float64, one layer at a time."""
    absw = [(np.abs(np.asarray(w, dtype=np.float64)), np.abs(np.asarray(b, dtype=np.float64)))
            for w, b in weights]
    batch, d_in = delta.shape
    hidden = len(absw) - 1
    acts, jac = [], np.eye(d_in)
    a = np.ones((batch, d_in))
    trajs = []
    for w, b in absw[:hidden]:
        a = a @ w + b                                   # every unit active: ReLU is identity
        acts.append(a)
        jac = jac @ w                                   # J_l = |W_1|···|W_l|
        trajs.append(np.sqrt(((np.asarray(delta, dtype=np.float64) @ jac) ** 2).sum()) / eps)
    vsums = []
    for layer in range(hidden):
        g = np.ones(absw[-1][0].shape[1])
        for w, _ in reversed(absw[layer + 1:]):
            g = w @ g                                   # ∂R/∂a_l for one row
        vsums.append((acts[layer] * g[None, :]).sum())
    widths = [w.shape[1] for w, _ in absw[:hidden]]
    inv = [1.0 / (t + 1e-6) for t in trajs]
    total = 0.0
    for k in range(hidden):
        weight = inv[k] / sum(inv)
        total += {"traj_width": weight * widths[k] * vsums[k], "traj": weight * vsums[k],
                  "width": widths[k] * vsums[k] / 10.0, "none": vsums[k]}[mode]
    return total


def train_separate(archs: Sequence[Arch], split: Split, seed: int, epochs: int, batch: int,
                   lr: float) -> list[torch.Tensor]:
    """Test logits (n_test, classes) of each architecture trained alone for `epochs`."""
    out = []
    for arch in archs:
        layers: list[nn.Module] = []
        for k, (w, b) in enumerate(init_weights(arch, split.d_in, split.n_classes, seed)):
            lin = nn.Linear(w.shape[0], w.shape[1])
            with torch.no_grad():
                lin.weight.copy_(w.T)
                lin.bias.copy_(b)
            layers.append(lin)
            if k < len(arch):
                layers.append(nn.ReLU())
        net = nn.Sequential(*layers)
        opt = torch.optim.Adam(net.parameters(), lr=lr)
        for epoch in range(1, epochs + 1):
            for idx in batches(len(split.y_train), batch, seed, epoch):
                loss = F.cross_entropy(net(split.x_train[idx]), split.y_train[idx])
                opt.zero_grad()
                loss.backward()
                opt.step()
        with torch.no_grad():
            out.append(net(split.x_test))
    return out


def successive_halving(cands: Sequence[int], val: np.ndarray, epochs: Sequence[int],
                       eta: int) -> tuple[int, int]:
    """(winner, cost) of SH, written as lists of (metric, position, candidate) sorted per rung."""
    alive = list(cands)
    cost = 0
    previous = 0
    rung = 0
    while len(alive) > 1 and rung < len(epochs):
        cost += len(alive) * (epochs[rung] - previous)
        previous = epochs[rung]
        rows = [(-val[c, rung], pos, c) for pos, c in enumerate(alive)]
        rows.sort()
        if rung == len(epochs) - 1:
            n_keep = 1
        else:
            n_keep = len(alive) // eta
            if n_keep < 1:
                n_keep = 1
        alive = [c for _, _, c in rows[:n_keep]]
        rung += 1
    return alive[0], cost


def kendall_tau(a: Sequence[float], b: Sequence[float]) -> float:
    """Kendall τ-b by counting concordant, discordant and tied pairs."""
    n = len(a)
    conc = disc = ties_a = ties_b = 0
    for i in range(n):
        for j in range(i + 1, n):
            da, db = a[i] - a[j], b[i] - b[j]
            if da == 0 and db == 0:
                continue
            if da == 0:
                ties_a += 1
            elif db == 0:
                ties_b += 1
            elif (da > 0) == (db > 0):
                conc += 1
            else:
                disc += 1
    return (conc - disc) / np.sqrt((conc + disc + ties_a) * (conc + disc + ties_b))
