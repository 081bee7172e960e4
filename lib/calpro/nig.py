"""The Normal-Inverse-Gamma evidential head (spec §1.2, Amini et al. 2020) and the two prior
forms that act on it (spec §1.4): the monotone floor P1 and the prior-modulated evidence P2.

The predictive distribution is Student-t St(y; gamma, beta (1 + nu) / (nu alpha), 2 alpha); the
loss is its negative log-density plus lambda_ev |y - gamma| (2 nu + alpha)."""
from __future__ import annotations

import math
from typing import NamedTuple

import torch
import torch.nn.functional as F

EPS = 1e-6


class NIG(NamedTuple):
    gamma: torch.Tensor
    nu: torch.Tensor
    alpha: torch.Tensor
    beta: torch.Tensor


def from_raw(raw: torch.Tensor) -> NIG:
    """(n, 4) head outputs -> (gamma, nu > 0, alpha > 1, beta > 0) by softplus."""
    return NIG(raw[:, 0], F.softplus(raw[:, 1]) + EPS, 1.0 + F.softplus(raw[:, 2]) + EPS,
               F.softplus(raw[:, 3]) + EPS)


def nll(y: torch.Tensor, p: NIG) -> torch.Tensor:
    """(n,) negative log marginal likelihood, the spec §1.2 form with Omega = 2 beta (1 + nu)."""
    omega = 2.0 * p.beta * (1.0 + p.nu)
    return (0.5 * torch.log(math.pi / p.nu) - p.alpha * torch.log(omega)
            + (p.alpha + 0.5) * torch.log(p.nu * (y - p.gamma) ** 2 + omega)
            + torch.lgamma(p.alpha) - torch.lgamma(p.alpha + 0.5))


def evidence_penalty(y: torch.Tensor, p: NIG) -> torch.Tensor:
    """(n,) |y - gamma| (2 nu + alpha): evidence spent on wrong predictions."""
    return (y - p.gamma).abs() * (2.0 * p.nu + p.alpha)


def predictive_scale(p: NIG) -> torch.Tensor:
    """(n,) sigma^ = sqrt(beta (1 + nu) / (nu (alpha - 1))), the predictive standard deviation."""
    return torch.sqrt(p.beta * (1.0 + p.nu) / (p.nu * (p.alpha - 1.0)))


def student_scale(p: NIG) -> torch.Tensor:
    """(n,) the Student-t scale sqrt(beta (1 + nu) / (nu alpha)) (2 alpha degrees of freedom)."""
    return torch.sqrt(p.beta * (1.0 + p.nu) / (p.nu * p.alpha))


def floor_penalty(scale: torch.Tensor, d_obs: torch.Tensor, kappa: float) -> torch.Tensor:
    """P1: mean relu(log s0 + log(1 + kappa d~^2) - log sigma^)^2, s0 the detached median scale:
    a residue the prior calls disordered may not be more certain than the floor."""
    log_s = torch.log(scale)
    floor = log_s.detach().median() + torch.log1p(kappa * d_obs ** 2)
    return torch.relu(floor - log_s).pow(2).mean()


def modulate(p: NIG, d_obs: torch.Tensor, k: torch.Tensor) -> NIG:
    """P2: nu <- nu / (1 + k d~), beta <- beta (1 + k d~)^2; k = 0 is the plain head."""
    m = 1.0 + k * d_obs
    return NIG(p.gamma, p.nu / m, p.alpha, p.beta * m * m)
