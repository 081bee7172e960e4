"""Training of the pwc and opt scenarios (spec §1.4, §1.5, §3.2, §3.3), float64.

Every trained network is one member of an `EnsembleMLP`: weights (E, in, out), one batched
forward for all members and seeds (torch.baddbmm). Members never share parameters and Adam is
elementwise, so summing the members' losses trains each exactly as if alone.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from lib.caffnet import problems, projection

PENALTY = 100.0   # spec §1.4: task + 100 * penalty for the soft NN and HardNet
DTYPE = torch.float64


class EnsembleMLP(torch.nn.Module):
    """E independent MLPs in -> width x depth -> out, ReLU, Xavier-normal weights, zero biases
    (spec §1.2 FF). Forward: x (B, in) or (E, B, in) -> (E, B, out)."""

    def __init__(self, members: int, d_in: int, d_out: int, width: int, depth: int,
                 gen: torch.Generator):
        super().__init__()
        sizes = [d_in] + [width] * depth + [d_out]
        self.W = torch.nn.ParameterList()
        self.b = torch.nn.ParameterList()
        for a, c in zip(sizes, sizes[1:]):
            std = (2.0 / (a + c)) ** 0.5
            self.W.append(torch.nn.Parameter(torch.randn(members, a, c, generator=gen,
                                                         dtype=DTYPE) * std))
            self.b.append(torch.nn.Parameter(torch.zeros(members, 1, c, dtype=DTYPE)))
        self.members = members

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = x.expand(self.members, *x.shape) if x.ndim == 2 else x          # (E, B, in)
        for i, (W, b) in enumerate(zip(self.W, self.b)):
            h = torch.baddbmm(b, h, W)
            if i < len(self.W) - 1:
                h = torch.relu(h)
        return h


def penalty(y: torch.Tensor, A: torch.Tensor, b: torch.Tensor, reduction: str = "sum"
            ) -> torch.Tensor:
    """Decision (spec §7 Q1 open): sum over samples and rows of ReLU(A y - b)^2, the same
    reduction as the summed task loss (a mean over samples weighs each sample's violation 1/B
    as much as its task term; the first default run with the mean left the soft NN's equality
    violation at 1.2 in the opt task)."""
    r = torch.einsum("mn,bn->bm", A, y) - b if A.ndim == 2 else torch.einsum("bmn,bn->bm", A, y) - b
    per_sample = (torch.relu(r) ** 2).sum(-1)
    return per_sample.sum() if reduction == "sum" else per_sample.mean()


# --- pwc ------------------------------------------------------------------------------------
PWC_METHODS = ("nn", "hardnet", "caffnet")
HARDNET_PWC_A = torch.tensor([[1.0], [1.0]], dtype=DTYPE)   # two intervals [l_i, u_i]


@dataclass
class PwcResult:
    raw: np.ndarray           # (methods, seeds, grid) raw network output f on the grid
    out: np.ndarray           # (methods, seeds, grid) method output (soft NN: raw)
    outside: np.ndarray       # (logged, seeds) share of train points, CAffNet's f outside band
    log_epochs: np.ndarray


PWC_OPS = projection.subset_operators(torch.as_tensor(problems.PWC_A, dtype=DTYPE))


def pwc_outputs(method: str, f: torch.Tensor, bounds: torch.Tensor) -> torch.Tensor:
    """Method output for raw f (S, B, 1) and bounds (B, 4): soft NN f, HardNet, CAffNet."""
    S, B, _ = f.shape
    if method == "nn":
        return f
    flat = f.reshape(S * B, 1)
    bb = bounds.repeat(S, 1)
    if method == "hardnet":
        y = projection.hardnet_project(flat, HARDNET_PWC_A, bb[:, :2], bb[:, 2:])
    else:
        b = torch.stack([-bb[:, 0], -bb[:, 1], bb[:, 2], bb[:, 3]], 1)
        y = projection.caffine_project_fixed(flat, torch.zeros_like(flat), PWC_OPS, b).y
    return y.reshape(S, B, 1)


def train_pwc(x_train: np.ndarray, x_grid: np.ndarray, seeds: int, width: int, epochs: int,
              lr: float, seed: int, log_every: int, weight: float = PENALTY,
              reduction: str = "sum") -> PwcResult:
    """Soft NN, HardNet and CAffNet (the w branch is dropped: for n = 1 it has no effect, E4),
    each over `seeds` initialisations, trained full batch with Adam on sum of squared errors
    (+ 100 * penalty for NN and HardNet)."""
    gen = torch.Generator().manual_seed(seed)
    k = len(PWC_METHODS)
    net = EnsembleMLP(k * seeds, 1, 1, width, 3, gen)
    xt = torch.as_tensor(x_train[:, None], dtype=DTYPE)
    yt = torch.as_tensor(problems.pwc_target(x_train)[:, None], dtype=DTYPE)
    bt = torch.as_tensor(problems.pwc_bounds(x_train), dtype=DTYPE)
    A4 = torch.as_tensor(problems.PWC_A, dtype=DTYPE)
    b4 = torch.as_tensor(problems.pwc_b(problems.pwc_bounds(x_train)), dtype=DTYPE)
    opt = torch.optim.Adam(net.parameters(), lr=lr, fused=True)
    lo, hi = bt[:, :2].max(1).values, bt[:, 2:].min(1).values
    logged, outside = [], []
    for epoch in range(epochs + 1):
        f = net(xt).reshape(k, seeds, -1, 1)                                   # (k, S, B, 1)
        if epoch % log_every == 0 or epoch == epochs:
            fc = f[2, :, :, 0].detach()
            logged.append(epoch)
            outside.append(((fc < lo - 1e-12) | (fc > hi + 1e-12)).double().mean(1).numpy())
        if epoch == epochs:
            break
        loss = 0.0
        for j, method in enumerate(PWC_METHODS):
            y = pwc_outputs(method, f[j], bt)
            loss = loss + ((y - yt) ** 2).sum()
            if method != "caffnet":   # `penalty` per seed, summed over seeds
                r = (torch.relu(y[..., 0, None] * A4[:, 0] - b4) ** 2).sum(-1)  # (S, B)
                per_seed = r.sum(-1) if reduction == "sum" else r.mean(-1)
                loss = loss + weight * per_seed.sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        xg = torch.as_tensor(x_grid[:, None], dtype=DTYPE)
        bg = torch.as_tensor(problems.pwc_bounds(x_grid), dtype=DTYPE)
        f = net(xg).reshape(k, seeds, -1, 1)
        out = torch.stack([pwc_outputs(m, f[j], bg) for j, m in enumerate(PWC_METHODS)])
    return PwcResult(f[..., 0].numpy(), out[..., 0].numpy(), np.array(outside),
                     np.array(logged))


# --- opt ------------------------------------------------------------------------------------
OPT_NETS = ("nn", "hardnet", "caffnet_f", "caffnet_w", "fixed_f")   # fixed = CAffNet, w = 0


@dataclass
class OptModel:
    """The constraint data of the opt instance, as torch tensors."""

    inst: problems.OptInstance

    def __post_init__(self):
        t = lambda a: torch.as_tensor(a, dtype=DTYPE)   # noqa: E731
        i = self.inst
        self.Q, self.p, self.G, self.h, self.C = t(i.Q), t(i.p), t(i.G), t(i.h), t(i.C)
        self.A = torch.cat([self.G, self.C, -self.C])                      # (11, 5) CAffNet rows
        self.A_hn = torch.cat([self.G, self.C])                            # (8, 5) HardNet rows
        eq, ineq = tuple(range(5, 8)), tuple(range(5))      # C rows kept, G rows enumerated (E6)
        self.ops = projection.subset_operators(self.A, projection.row_subsets(11, 5, eq, ineq))

    def b(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cat([self.h.expand(x.shape[0], 5), x, -x], 1)        # (B, 11)

    def objective(self, y: torch.Tensor) -> torch.Tensor:
        return 0.5 * ((y @ self.Q) * y).sum(-1) + torch.sin(y) @ self.p    # (B,)

    def hardnet(self, y: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        B = x.shape[0]
        lo = torch.cat([torch.full((B, 5), -torch.inf, dtype=DTYPE), x], 1)
        hi = torch.cat([self.h.expand(B, 5), x], 1)
        return projection.hardnet_project(y, self.A_hn, lo, hi)

    def outputs(self, raw: torch.Tensor, x: torch.Tensor) -> dict[str, torch.Tensor]:
        """Method outputs from the five members' raw outputs (5, B, 5)."""
        b = self.b(x)
        caff = projection.caffine_project_fixed(raw[2], raw[3], self.ops, b)
        fixed = projection.caffine_project_fixed(raw[4], torch.zeros_like(raw[4]), self.ops, b)
        return {"nn": raw[0], "hardnet": self.hardnet(raw[1], x), "caffnet": caff.y,
                "fixed": fixed.y, "_caff_rank": caff.rank, "_fixed_rank": fixed.rank}


def train_opt(model: OptModel, x_train: np.ndarray, width: int, epochs: int, lr: float,
              seed: int, log_every: int, weight: float = PENALTY, reduction: str = "sum"):
    """Train NN (soft), HardNet, CAffNet (learned w) and CAffNet (w = 0) on the summed
    objective (+ 100 * penalty for NN and HardNet). Returns the net and the objective curves."""
    gen = torch.Generator().manual_seed(seed)
    net = EnsembleMLP(len(OPT_NETS), 3, 5, width, 3, gen)
    x = torch.as_tensor(x_train, dtype=DTYPE)
    b = model.b(x)
    opt = torch.optim.Adam(net.parameters(), lr=lr, fused=True)
    curves = []
    for epoch in range(epochs):
        out = model.outputs(net(x), x)
        objs = {m: model.objective(out[m]) for m in ("nn", "hardnet", "caffnet", "fixed")}
        loss = sum(o.sum() for o in objs.values()) + weight * (
            penalty(out["nn"], model.A, b, reduction) + penalty(out["hardnet"], model.A, b,
                                                                 reduction))
        if epoch % log_every == 0 or epoch == epochs - 1:
            curves.append({"epoch": epoch,
                           **{m: float(o.detach().mean()) for m, o in objs.items()}})
        opt.zero_grad()
        loss.backward()
        opt.step()
    return net, curves


def pwc_evaluate(res: PwcResult, x_grid: np.ndarray):
    """Method outputs on the grid (soft NN, post-hoc = clamp of the soft NN, HardNet, CAffNet;
    each (seeds, grid)) and a per-seed table of test MSE and max violation (numpy bounds)."""
    import pandas as pd
    bounds, target = problems.pwc_bounds(x_grid), problems.pwc_target(x_grid)
    lo, hi = bounds[:, :2].max(1), bounds[:, 2:].min(1)
    outs = {"nn": res.out[0], "posthoc": np.clip(res.raw[0], lo, hi), "hardnet": res.out[1],
            "caffnet": res.out[2]}
    table = pd.DataFrame([{"method": m, "seed": s, "mse": float(((y[s] - target) ** 2).mean()),
                           "max_violation": float(problems.pwc_violation(y[s], bounds).max())}
                          for m, y in outs.items() for s in range(y.shape[0])])
    return outs, table
