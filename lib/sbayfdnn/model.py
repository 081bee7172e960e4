"""The FDNN of spec §1.2 and its MAP fit, every replication and restart in one batched model.

Network (one model): scores Z (n, J) -> ReLU(Z W1^T + b1) (n, W) -> ReLU(. W2^T + b2) (n, H)
-> . W3^T + b3 (n,). Negative log posterior = sum_i (y_i - f_i)^2 / (2 s2) + first-layer
penalty + ||other weights||^2 / 2, where the first-layer penalty is the group spike-and-slab
(prior 'ss', columns w_j = W1[:, j]) or a Gaussian N(0, gauss_var) on every entry ('gauss', the
plain FDNN). Every model of a batch has the same n (fits of different n are separate calls).

`fit_map` stacks the parameters of all B models along a leading axis and evaluates the B
objectives with `torch.func.vmap`; one Adam step on the stack is B independent Adam steps, since
Adam acts entry by entry and model b's objective depends on its own parameters only
(`naive.fit_map` runs the same fits one at a time; tests check they agree). A sweep run fits a
few of a grid's models (`init_members` starts them where a fit of the whole grid would).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch
from torch.func import vmap

from lib.sbayfdnn import prior

Params = dict[str, torch.Tensor]
PRIORS = ("ss", "gauss")


@dataclass(frozen=True)
class PriorSpec:
    """Hyper-parameters of the first-layer priors and the likelihood variance."""

    lam: float
    s0: float
    s1: float
    gauss_var: float
    s2: float = 1.0


@dataclass(frozen=True)
class Fit:
    """Stacked parameters at the end of training (B models) and the training MSE of each."""

    params: Params          # each (B, ...)
    train_mse: torch.Tensor  # (B,)


def init_params(B: int, J: int, W: int, H: int, gen: torch.Generator,
                dtype: torch.dtype = torch.float64) -> Params:
    """B independent draws of PyTorch's default Linear init, U(-1/sqrt(fan_in), 1/sqrt(fan_in))."""
    def uniform(shape: tuple[int, ...], fan_in: int) -> torch.Tensor:
        bound = fan_in ** -0.5
        return (torch.rand((B, *shape), generator=gen, dtype=dtype) * 2 - 1) * bound
    return {"W1": uniform((W, J), J), "b1": uniform((W,), J),
            "W2": uniform((H, W), W), "b2": uniform((H,), W),
            "W3": uniform((1, H), H), "b3": uniform((1,), H)}


def init_members(total: int, members: Sequence[int], J: int, W: int, H: int, seed: int,
                 dtype: torch.dtype = torch.float64) -> Params:
    """The initial parameters of models `members` in one draw of `total` models from `seed`: a
    sweep run's models start as they would in one fit of the whole grid, whichever runs run."""
    every = init_params(total, J, W, H, torch.Generator().manual_seed(seed), dtype)
    idx = torch.as_tensor(list(members))
    return {k: v[idx] for k, v in every.items()}


def forward(p: Params, Z: torch.Tensor) -> torch.Tensor:
    """One model's output f(Z): Z (n, J) -> (n,)."""
    h = torch.relu(Z @ p["W1"].T + p["b1"])      # (n, W)
    h = torch.relu(h @ p["W2"].T + p["b2"])      # (n, H)
    return (h @ p["W3"].T + p["b3"])[:, 0]       # (n,)


def first_layer_penalty(W1: torch.Tensor, is_ss: torch.Tensor, spec: PriorSpec) -> torch.Tensor:
    """-log prior of one model's first layer W1 (W, J), up to constants: the group mixture on its
    columns when is_ss is 1, the Gaussian on its entries when 0."""
    norm2 = (W1 ** 2).sum(0)                     # (J,) squared column norms
    ss = -torch.logaddexp(*prior.log_components(norm2, W1.shape[0], spec.lam, spec.s0,
                                                 spec.s1)).sum()
    gauss = norm2.sum() / (2 * spec.gauss_var)
    return is_ss * ss + (1 - is_ss) * gauss


def neg_log_posterior(p: Params, Z: torch.Tensor, y: torch.Tensor, is_ss: torch.Tensor,
                      spec: PriorSpec) -> torch.Tensor:
    """One model's MAP objective (scalar)."""
    nll = ((y - forward(p, Z)) ** 2).sum() / (2 * spec.s2)
    rest = sum((p[k] ** 2).sum() for k in ("b1", "W2", "b2", "W3", "b3")) / 2
    return nll + first_layer_penalty(p["W1"], is_ss, spec) + rest


def prior_flags(priors: Sequence[str], dtype: torch.dtype = torch.float64) -> torch.Tensor:
    """1.0 for a spike-and-slab model, 0.0 for a Gaussian one: (B,)."""
    bad = sorted(set(priors) - set(PRIORS))
    if bad:
        raise ValueError(f"priors {bad}; allowed: {list(PRIORS)}")
    return torch.tensor([p == "ss" for p in priors], dtype=dtype)


def train_mse(p: Params, Z: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Training MSE of each stacked model: (B,)."""
    return ((y - vmap(forward)(p, Z)) ** 2).mean(1)   # (B, n) -> (B,)


def fit_map(Z: torch.Tensor, y: torch.Tensor, priors: Sequence[str], init: Params,
            spec: PriorSpec, steps: int, lr: float) -> Fit:
    """Full-batch Adam on B models at once: Z (B, n, J), y (B, n), init each (B, ...)."""
    p = {k: v.clone().requires_grad_(True) for k, v in init.items()}
    flags = prior_flags(priors, Z.dtype)
    objective = vmap(neg_log_posterior, in_dims=(0, 0, 0, 0, None))
    opt = torch.optim.Adam(list(p.values()), lr=lr)
    for _ in range(steps):
        opt.zero_grad()
        objective(p, Z, y, flags, spec).sum().backward()   # (B,) -> scalar
        opt.step()
    with torch.no_grad():
        final = {k: v.detach() for k, v in p.items()}
        return Fit(final, train_mse(final, Z, y))


def best_restart(fit: Fit, restarts: int) -> tuple[Params, torch.Tensor]:
    """Keep, per group of `restarts` consecutive models, the one with the lowest training MSE:
    (B, ...) -> (B / restarts, ...), and the index kept in each group."""
    mse = fit.train_mse.reshape(-1, restarts)                 # (groups, restarts)
    pick = mse.argmin(1)
    idx = torch.arange(mse.shape[0]) * restarts + pick
    return {k: v[idx] for k, v in fit.params.items()}, pick


def predict(p: Params, Z: torch.Tensor) -> torch.Tensor:
    """Outputs of stacked models on stacked inputs: Z (B, n, J) -> (B, n)."""
    with torch.no_grad():
        return vmap(forward)(p, Z)
