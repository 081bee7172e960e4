"""Training one arm on one seed's chains, full batch with Adam (spec §1.6), and reading its
band (lo, hi, scale) on any split (lib.calpro.conformal)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from lib.calpro import conformal, gnn, nig
from lib.calpro.arms import Arm
from lib.calpro.chains import Chains


@dataclass(frozen=True)
class Recipe:
    """What every arm shares: sizes, optimiser, loss weights (the notebook's parameters)."""

    hidden: int
    rounds: int
    epochs: int
    lr: float
    a: float
    lam_ev: float
    lam_prior: float
    kappa: float
    lam_cal: float
    temperature: float


@dataclass
class Fitted:
    """A trained arm: the network, P2's learned log k, and the losses per epoch."""

    arm: Arm
    net: gnn.ChainGNN
    log_k: torch.Tensor
    losses: list[float]


def as_graph(arm: Arm, c: Chains) -> gnn.Graph:
    return gnn.graph(c.features(arm.prior_feature), c.src, c.dst)


def nig_of(fit: Fitted, g: gnn.Graph, d_obs: torch.Tensor) -> nig.NIG:
    """The NIG parameters an NIG arm predicts (P2's modulation applied)."""
    p = nig.from_raw(fit.net(g))
    return nig.modulate(p, d_obs, fit.log_k.exp()) if fit.arm.modulate else p


def pinball(y: torch.Tensor, pred: torch.Tensor, levels: torch.Tensor) -> torch.Tensor:
    """Mean pinball loss of (n, 2) quantile predictions at the two levels."""
    r = y[:, None] - pred
    return torch.maximum(levels * r, (levels - 1.0) * r).mean()


def loss_of(fit: Fitted, rec: Recipe, g: gnn.Graph, y: torch.Tensor, d_obs: torch.Tensor,
            gen: torch.Generator) -> torch.Tensor:
    """The arm's training loss on the full batch."""
    arm = fit.arm
    if arm.loss == "mse":
        return (fit.net(g)[:, 0] - y).pow(2).mean()
    if arm.loss == "pinball":
        return pinball(y, fit.net(g), torch.tensor([rec.a / 2, 1 - rec.a / 2]))
    p = nig_of(fit, g, d_obs)
    loss = nig.nll(y, p).mean() + rec.lam_ev * nig.evidence_penalty(y, p).mean()
    scale = nig.predictive_scale(p)
    if arm.floor:
        loss = loss + rec.lam_prior * nig.floor_penalty(scale, d_obs, rec.kappa)
    if arm.surrogate:
        s = (y - p.gamma).abs() / scale
        loss = loss + rec.lam_cal * conformal.calibration_loss(s, rec.a, rec.temperature, gen)
    return loss


def fit(arm: Arm, rec: Recipe, train: Chains, seed: int) -> Fitted:
    """Train one arm full batch for rec.epochs Adam steps; init and surrogate splits seeded."""
    gen = torch.Generator().manual_seed(seed)
    net = gnn.ChainGNN(train.features(arm.prior_feature).shape[1], rec.hidden, arm.outputs,
                       rec.rounds, gen)
    fitted = Fitted(arm, net, torch.zeros((), requires_grad=arm.modulate), [])
    params = [*net.parameters(), *([fitted.log_k] if arm.modulate else [])]
    opt = torch.optim.Adam(params, lr=rec.lr)
    g = as_graph(arm, train)
    y = torch.as_tensor(train.y, dtype=torch.float32)
    d_obs = torch.as_tensor(train.d_obs, dtype=torch.float32)
    for _ in range(rec.epochs):
        opt.zero_grad()
        loss = loss_of(fitted, rec, g, y, d_obs, gen)
        loss.backward()
        opt.step()
        fitted.losses.append(float(loss.detach()))
    return fitted


@torch.no_grad()
def band(fit: Fitted, c: Chains) -> conformal.Band:
    """The arm's band on a split, in float64 numpy."""
    g = as_graph(fit.arm, c)
    out = fit.net(g).double().numpy()
    if fit.arm.loss == "mse":
        return conformal.Band(out[:, 0], out[:, 0], np.ones(c.n))
    if fit.arm.loss == "pinball":
        lo, hi = np.minimum(out[:, 0], out[:, 1]), np.maximum(out[:, 0], out[:, 1])
        return conformal.Band(lo, hi, np.ones(c.n))
    p = nig_of(fit, g, torch.as_tensor(c.d_obs, dtype=torch.float32))
    gamma = p.gamma.double().numpy()
    return conformal.Band(gamma, gamma, nig.predictive_scale(p).double().numpy())


@torch.no_grad()
def student_params(fit: Fitted, c: Chains) -> nig.NIG:
    """The NIG parameters of an NIG arm on a split, in float64 (for the Student-t checks)."""
    p = nig_of(fit, as_graph(fit.arm, c), torch.as_tensor(c.d_obs, dtype=torch.float32))
    return nig.NIG(*(t.double() for t in p))
