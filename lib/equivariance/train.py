"""Teacher–student training of many small tanh MLPs at once (spec §4 E4/E5, §5.1 `train`).

The students of one sweep run (`experiments.train_run`) share one architecture and are trained in
a single batched torch program: parameters carry a leading model axis M, each model has its own
data set (input law), its own augmentation switch and its own seed-derived initialisation, and
the run's one generator draws their minibatches. Adam is elementwise, so the models do not
interact. Training may run in float32 (spec §4: allowed); the analysis casts to float64.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import torch

TORCH_ACTS = {"tanh": torch.tanh, "relu": torch.relu, "gelu": torch.nn.functional.gelu}


@dataclass
class Batch:
    """Stacked parameters [(W (M, d_out, d_in), b (M, d_out))] of M models."""

    layers: list[tuple[torch.Tensor, torch.Tensor]]
    act: str | list[str]          # one activation for all models, or one per model

    def sigma(self, Z: torch.Tensor) -> torch.Tensor:
        if isinstance(self.act, str):
            return TORCH_ACTS[self.act](Z)
        out = torch.empty_like(Z)
        for name in set(self.act):
            idx = [m for m, a in enumerate(self.act) if a == name]
            out[idx] = TORCH_ACTS[name](Z[idx])
        return out

    def forward(self, X: torch.Tensor, hidden: bool = False):
        """X (M, N, d_0) -> (M, N, d_L) and optionally the hidden states."""
        H, hs = X, []
        for i, (W, b) in enumerate(self.layers):
            H = torch.baddbmm(b[:, None, :], H, W.transpose(1, 2))   # (M, N, d_i)
            if i < len(self.layers) - 1:
                H = self.sigma(H)
                hs.append(H)
        return (H, hs) if hidden else H

    def to_numpy(self) -> list[list[tuple[np.ndarray, np.ndarray]]]:
        """One float64 theta per model."""
        M = self.layers[0][0].shape[0]
        return [[(W[m].detach().numpy().copy(), b[m].detach().numpy().copy())
                 for W, b in self.layers]
                for m in range(M)]


def init_students(widths: list[int], act, seeds: list[int],
                  dtype: torch.dtype = torch.float64) -> Batch:
    """Gaussian init (variance 1/fan-in, zero bias), one torch.Generator per model seed."""
    layers = []
    gens = [torch.Generator().manual_seed(int(s)) for s in seeds]
    for d_in, d_out in zip(widths[:-1], widths[1:]):
        W = torch.stack([torch.randn(d_out, d_in, generator=g, dtype=torch.float64) for g in gens])
        layers.append(((W / np.sqrt(d_in)).to(dtype), torch.zeros(len(seeds), d_out, dtype=dtype)))
    for W, b in layers:
        W.requires_grad_(True)
        b.requires_grad_(True)
    return Batch(layers, act)


@dataclass
class History:
    steps: list[int] = field(default_factory=list)
    rel_mse: list[np.ndarray] = field(default_factory=list)       # (M,) per checkpoint
    equiv: list[np.ndarray] = field(default_factory=list)          # end-to-end error (M,)
    lv1: list[np.ndarray] = field(default_factory=list)            # layer-1 LV error (M,)


def _median_rel(A: torch.Tensor, B: torch.Tensor, denom: torch.Tensor) -> torch.Tensor:
    return torch.median((A - B).norm(dim=2) / denom.norm(dim=2).clamp_min(1e-300), dim=1).values


def batched_lv(students: Batch, R: torch.Tensor, Xf: torch.Tensor, Xe: torch.Tensor,
               layer: int = 0) -> torch.Tensor:
    """Layer LV error (spec §5.6) of every model for one input transformation R, (M,)."""
    with torch.no_grad():
        _, H = students.forward(Xf, hidden=True)
        _, Hg = students.forward(Xf @ R.T, hidden=True)
        _, E = students.forward(Xe, hidden=True)
        _, Eg = students.forward(Xe @ R.T, hidden=True)
        H, Hg, E, Eg = (t[layer].double() for t in (H, Hg, E, Eg))
        ones = torch.ones(*H.shape[:2], 1, dtype=H.dtype)
        # gelsd (SVD): torch's default driver, gelsy, gave the first model's fit other last bits
        # in about one process in four, so the history differed between executors and runs
        A = torch.linalg.lstsq(torch.cat([H, ones], 2), Hg, driver="gelsd").solution  # (M, d+1, d)
        pred = torch.cat([E, torch.ones(*E.shape[:2], 1, dtype=E.dtype)], 2) @ A
        return _median_rel(Eg, pred, E)


def batched_equivariance(students: Batch, Rs: torch.Tensor, Xe: torch.Tensor) -> torch.Tensor:
    """max over g of the median relative error of f(gx) vs g f(x), (M,)."""
    with torch.no_grad():
        F = students.forward(Xe)
        errs = [_median_rel(students.forward(Xe @ R.T), F @ R.T, F) for R in Rs]
        return torch.stack(errs).max(dim=0).values


def augment(X: np.ndarray, Y: np.ndarray, mats: np.ndarray,
            on: bool) -> tuple[np.ndarray, np.ndarray]:
    """Full-orbit augmentation (g x, g y) for every g (teacher equivariant), or the data repeated
    |G| times so that augmented and plain data sets stack to the same shape: (|G| N, d)."""
    if not on:
        return np.tile(X, (len(mats), 1)), np.tile(Y, (len(mats), 1))
    return (np.concatenate([X @ R.T for R in mats]), np.concatenate([Y @ R.T for R in mats]))


class Adam:
    """Adam (Kingma & Ba) with cosine learning-rate decay to 0 over `steps`, written out (the
    torch optimizer imports the compiler stack, seconds of start-up for a few lines of maths)."""

    def __init__(self, params: list[torch.Tensor], lr: float, steps: int,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0.0):
        self.params, self.lr, self.steps, self.betas, self.eps = params, lr, steps, betas, eps
        self.wd = weight_decay                                      # decoupled (AdamW)
        self.m = [torch.zeros_like(p) for p in params]
        self.v = [torch.zeros_like(p) for p in params]
        self.t = 0

    def step(self, grads) -> None:
        b1, b2 = self.betas
        lr = 0.5 * self.lr * (1 + np.cos(np.pi * self.t / self.steps))   # cosine schedule
        self.t += 1
        with torch.no_grad():
            for p, g, m, v in zip(self.params, grads, self.m, self.v):
                m.mul_(b1).add_(g, alpha=1 - b1)
                v.mul_(b2).addcmul_(g, g, value=1 - b2)
                mhat = m / (1 - b1 ** self.t)
                vhat = v / (1 - b2 ** self.t)
                p.sub_(lr * mhat / (vhat.sqrt() + self.eps))
                if self.wd:
                    p.sub_(lr * self.wd * p)


def penalty_ramp(step: int, steps: int) -> float:
    """Weight factor of the soft penalty: 0 before steps / 2, then linear up to 1 at 3 steps / 4."""
    half, quarter = steps // 2, max(steps // 4, 1)
    return float(min(max((step - half) / quarter, 0.0), 1.0))


def fit(students: Batch, X: torch.Tensor, Y: torch.Tensor, Rs: torch.Tensor,
        steps: int, lr: float, batch: int, seed: int, log_every: int, X_test: torch.Tensor,
        Y_test: torch.Tensor, X_fit: torch.Tensor, lv_elems: list[int],
        penalty: torch.Tensor | None = None) -> History:
    """Adam with cosine decay on the mean squared error. X, Y: (M, N, d), already augmented
    where wanted (`augment`). Rs: (|G|, d, d) group matrices for the metrics, which are taken
    every log_every steps on fresh isotropic inputs. penalty: (M,) weights lambda of the soft
    equivariance loss lambda * mean ||f(g x) - g f(x)||^2 (random g per step, on the batch),
    in the second half of training (spec §4 E4 condition (e)), ramped linearly from 0 at
    steps / 2 to lambda at 3 steps / 4 (`penalty_ramp`) rather than switched on at once."""
    params = [p for layer in students.layers for p in layer]
    adam = Adam(params, lr, steps)
    gen = torch.Generator().manual_seed(seed)
    M, N, _ = X.shape
    hist = History()
    y_var = (Y_test ** 2).sum(dim=2).mean(dim=1)                   # (M,)
    for step in range(steps + 1):
        if step % log_every == 0 or step == steps:
            with torch.no_grad():
                mse = ((students.forward(X_test) - Y_test) ** 2).sum(dim=2).mean(dim=1)
            hist.steps.append(step)
            hist.rel_mse.append((mse / y_var).numpy())
            hist.equiv.append(batched_equivariance(students, Rs, X_test).numpy())
            hist.lv1.append(torch.stack([batched_lv(students, Rs[g], X_fit, X_test)
                                         for g in lv_elems])
                            .max(dim=0).values.numpy())
        if step == steps:
            break
        idx = torch.randint(0, N, (M, batch), generator=gen)
        xb = torch.gather(X, 1, idx[..., None].expand(-1, -1, X.shape[2]))     # (M, B, d_0)
        yb = torch.gather(Y, 1, idx[..., None].expand(-1, -1, Y.shape[2]))     # (M, B, d_L)
        per_model = ((students.forward(xb) - yb) ** 2).sum(dim=2).mean(dim=1)      # (M,)
        if penalty is not None and step >= steps // 2:
            R = Rs[int(torch.randint(1, len(Rs), (1,), generator=gen))]          # non-identity g
            gap = students.forward(xb @ R.T) - students.forward(xb) @ R.T
            weight = penalty_ramp(step, steps) * penalty                            # (M,)
            per_model = per_model + weight * (gap ** 2).sum(dim=2).mean(dim=1)
        loss = per_model.sum()
        grads = torch.autograd.grad(loss, params)
        adam.step(grads)
    return hist
