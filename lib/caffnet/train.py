"""Training of the pwc and opt scenarios (spec §1.4, §1.5, §3.2, §3.3), float64.

Every trained network is one member of an `EnsembleMLP`: weights (E, in, out), one batched
forward for all members and seeds (torch.baddbmm). Members never share parameters and Adam is
elementwise, so summing the members' losses trains each exactly as if alone. The sweep engine
runs one pwc seed or one opt arm at a time: its members start from the weights they would have
inside the whole ensemble (`keep`), so a run never depends on another run.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

from lib.caffnet import problems, projection

PENALTY = 100.0   # spec §1.4: task + 100 * penalty for the soft NN and HardNet
DTYPE = torch.float64


class EnsembleMLP(torch.nn.Module):
    """E independent MLPs in -> width x depth -> out, ReLU (spec §1.2 FF), from their weights
    (E, a, c) and biases (E, 1, c) per layer. Forward: x (B, in) or (E, B, in) -> (E, B, out).

    With `keep` (a sweep run's members) only the kept members compute; the others get zero
    gradients, which Adam turns into zero updates. Each kept member's parameters thus sit at the
    same offsets of the same tensors as in the whole ensemble: fused Adam rounds an element
    differently in its vectorised body and in its scalar tail, which an ensemble of only the
    kept members would reshuffle (a run would drift from the whole by ~1e-13)."""

    def __init__(self, weights: Sequence[torch.Tensor], biases: Sequence[torch.Tensor],
                 keep: Sequence[int] | None = None):
        super().__init__()
        self.W = torch.nn.ParameterList(torch.nn.Parameter(W) for W in weights)
        self.b = torch.nn.ParameterList(torch.nn.Parameter(b) for b in biases)
        total = int(weights[0].shape[0])
        if keep is not None and list(keep) == list(range(total)):
            keep = None                  # every member, in order: no gather, no scattered grads
        self.keep = None if keep is None else torch.as_tensor(list(keep))
        self.members = total if keep is None else len(keep)

    @classmethod
    def drawn(cls, members: int, d_in: int, d_out: int, width: int, depth: int,
              gen: torch.Generator, keep: Sequence[int] | None = None) -> EnsembleMLP:
        """Xavier-normal weights and zero biases for all `members` (spec §1.2), so a kept member
        starts as it would in the whole ensemble."""
        sizes = [d_in] + [width] * depth + [d_out]
        weights = [torch.randn(members, a, c, generator=gen, dtype=DTYPE) * (2.0 / (a + c)) ** 0.5
                   for a, c in zip(sizes, sizes[1:])]
        biases = [torch.zeros(members, 1, c, dtype=DTYPE) for c in sizes[1:]]
        return cls(weights, biases, keep)

    @classmethod
    def joined(cls, parts: Sequence[tuple[list[np.ndarray], list[np.ndarray]]]) -> EnsembleMLP:
        """One ensemble from parts' (weights, biases) as `state` returns them, members in order."""
        return cls([torch.as_tensor(np.concatenate(ws)) for ws in zip(*(p[0] for p in parts))],
                   [torch.as_tensor(np.concatenate(bs)) for bs in zip(*(p[1] for p in parts))])

    def state(self) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """The computing members' weights and biases as numpy arrays (a run's picklable result)."""
        rows = slice(None) if self.keep is None else self.keep
        return ([W.detach()[rows].numpy().copy() for W in self.W],
                [b.detach()[rows].numpy().copy() for b in self.b])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = x.expand(self.members, *x.shape) if x.ndim == 2 else x          # (E, B, in)
        for i, (W, b) in enumerate(zip(self.W, self.b)):
            if self.keep is not None:
                W, b = W[self.keep], b[self.keep]
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


@dataclass(frozen=True)
class Schedule:
    """What a pwc and an opt training share: width, Adam schedule, seed, logging and penalty."""

    width: int
    epochs: int
    lr: float
    seed: int
    log_every: int
    weight: float = PENALTY
    reduction: str = "sum"


@dataclass(frozen=True, kw_only=True)
class PwcSetup(Schedule):
    """One pwc training's data and schedule (one learning rate, all its seeds)."""

    x_train: np.ndarray
    x_grid: np.ndarray
    seeds: int               # the ensemble's seeds: a run of some of them starts as in the whole


def train_pwc(setup: PwcSetup, keep: Sequence[int] | None = None) -> PwcResult:
    """Soft NN, HardNet and CAffNet (the w branch is dropped: for n = 1 it has no effect, E4)
    on the seeds `keep` (default all `setup.seeds`; a sweep run takes one), trained full batch
    with Adam on sum of squared errors (+ 100 * penalty for NN and HardNet)."""
    keep = list(range(setup.seeds)) if keep is None else list(keep)
    gen = torch.Generator().manual_seed(setup.seed)
    k, seeds = len(PWC_METHODS), len(keep)
    net = EnsembleMLP.drawn(k * setup.seeds, 1, 1, setup.width, 3, gen,
                                  keep=[j * setup.seeds + s for j in range(k) for s in keep])
    xt = torch.as_tensor(setup.x_train[:, None], dtype=DTYPE)
    yt = torch.as_tensor(problems.pwc_target(setup.x_train)[:, None], dtype=DTYPE)
    bt = torch.as_tensor(problems.pwc_bounds(setup.x_train), dtype=DTYPE)
    A4 = torch.as_tensor(problems.PWC_A, dtype=DTYPE)
    b4 = torch.as_tensor(problems.pwc_b(problems.pwc_bounds(setup.x_train)), dtype=DTYPE)
    opt = torch.optim.Adam(net.parameters(), lr=setup.lr, fused=True)
    lo, hi = bt[:, :2].max(1).values, bt[:, 2:].min(1).values
    logged, outside = [], []
    for epoch in range(setup.epochs + 1):
        f = net(xt).reshape(k, seeds, -1, 1)                                   # (k, S, B, 1)
        if epoch % setup.log_every == 0 or epoch == setup.epochs:
            fc = f[2, :, :, 0].detach()
            logged.append(epoch)
            outside.append(((fc < lo - 1e-12) | (fc > hi + 1e-12)).double().mean(1).numpy())
        if epoch == setup.epochs:
            break
        loss = 0.0
        for j, method in enumerate(PWC_METHODS):
            y = pwc_outputs(method, f[j], bt)
            loss = loss + ((y - yt) ** 2).sum()
            if method != "caffnet":   # `penalty` per seed, summed over seeds
                r = (torch.relu(y[..., 0, None] * A4[:, 0] - b4) ** 2).sum(-1)  # (S, B)
                per_seed = r.sum(-1) if setup.reduction == "sum" else r.mean(-1)
                loss = loss + setup.weight * per_seed.sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        xg = torch.as_tensor(setup.x_grid[:, None], dtype=DTYPE)
        bg = torch.as_tensor(problems.pwc_bounds(setup.x_grid), dtype=DTYPE)
        f = net(xg).reshape(k, seeds, -1, 1)
        out = torch.stack([pwc_outputs(m, f[j], bg) for j, m in enumerate(PWC_METHODS)])
    return PwcResult(f[..., 0].numpy(), out[..., 0].numpy(), np.array(outside),
                     np.array(logged))


def joined_seeds(parts: Sequence[PwcResult]) -> PwcResult:
    """One result from runs on consecutive seeds (their seed axes side by side)."""
    return PwcResult(np.concatenate([p.raw for p in parts], 1),
                     np.concatenate([p.out for p in parts], 1),
                     np.concatenate([p.outside for p in parts], 1), parts[0].log_epochs)


# --- opt ------------------------------------------------------------------------------------
OPT_NETS = ("nn", "hardnet", "caffnet_f", "caffnet_w", "fixed_f")   # fixed = CAffNet, w = 0
OPT_ARMS = {"nn": (0,), "hardnet": (1,), "caffnet": (2, 3), "fixed": (4,)}   # arm -> its nets


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

    def layer(self, f: torch.Tensor, w: torch.Tensor | None, x: torch.Tensor):
        """The CAffine layer on raw f and branch w (None: w = 0) for inputs x."""
        w = torch.zeros_like(f) if w is None else w
        return projection.caffine_project_fixed(f, w, self.ops, self.b(x))

    def arm_output(self, arm: str, raw: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        """One arm's output from its own nets' raw outputs (nets of the arm, B, 5)."""
        if arm == "nn":
            return raw[0]
        if arm == "hardnet":
            return self.hardnet(raw[0], x)
        return self.layer(raw[0], raw[1] if arm == "caffnet" else None, x).y

    def outputs(self, raw: torch.Tensor, x: torch.Tensor) -> dict[str, torch.Tensor]:
        """Method outputs from the five members' raw outputs (5, B, 5)."""
        caff, fixed = self.layer(raw[2], raw[3], x), self.layer(raw[4], None, x)
        return {"nn": raw[0], "hardnet": self.hardnet(raw[1], x), "caffnet": caff.y,
                "fixed": fixed.y, "_caff_rank": caff.rank, "_fixed_rank": fixed.rank}


@dataclass(frozen=True, kw_only=True)
class OptSetup(Schedule):
    """The opt training's instance, data and schedule (all four arms)."""

    inst: problems.OptInstance
    x_train: np.ndarray


@dataclass
class OptArm:
    """One trained arm: its nets' weights and biases (`EnsembleMLP.state`) and its mean training
    objective at each logged epoch."""

    arm: str
    state: tuple[list[np.ndarray], list[np.ndarray]]
    epochs: list[int]
    curve: list[float]


def train_opt_arm(setup: OptSetup, arm: str) -> OptArm:
    """Train one arm (NN soft, HardNet, CAffNet with learned w, CAffNet with w = 0) on its summed
    objective (+ 100 * penalty for NN and HardNet); its nets start as in the five-net ensemble."""
    model = OptModel(setup.inst)
    gen = torch.Generator().manual_seed(setup.seed)
    net = EnsembleMLP.drawn(len(OPT_NETS), 3, 5, setup.width, 3, gen, keep=OPT_ARMS[arm])
    x = torch.as_tensor(setup.x_train, dtype=DTYPE)
    b = model.b(x)
    opt = torch.optim.Adam(net.parameters(), lr=setup.lr, fused=True)
    logged, curve = [], []
    for epoch in range(setup.epochs):
        y = model.arm_output(arm, net(x), x)
        obj = model.objective(y)
        loss = obj.sum()
        if arm in ("nn", "hardnet"):
            loss = loss + setup.weight * penalty(y, model.A, b, setup.reduction)
        if epoch % setup.log_every == 0 or epoch == setup.epochs - 1:
            logged.append(epoch)
            curve.append(float(obj.detach().mean()))
        opt.zero_grad()
        loss.backward()
        opt.step()
    return OptArm(arm, net.state(), logged, curve)


def joined_arms(parts: Sequence[OptArm]) -> tuple[EnsembleMLP, list[dict[str, float]]]:
    """The five-net ensemble (OPT_NETS order) of the four trained arms (OPT_ARMS order) and the
    objective curves, one row per logged epoch."""
    assert [p.arm for p in parts] == list(OPT_ARMS), [p.arm for p in parts]
    curves = [{"epoch": e, **{p.arm: p.curve[i] for p in parts}}
              for i, e in enumerate(parts[0].epochs)]
    return EnsembleMLP.joined([p.state for p in parts]), curves


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
