"""Zero-cost proxies on a freshly initialised MLP: pTProxy as the release computes it, and the
baselines of spec §1.4 that fit the miniature (SynFlow, GradNorm, SNIP, NASWOT), and #params,
our own reference score.

pTProxy (release `src/proxies/ptproxy.py`, spec §1.3): take |θ| for every parameter (signs kept
and restored afterwards), feed an all-ones batch x (the data batch gives only its shape) and
x + δ with δ = ε·N(0, I), record every ReLU output a_l, trajectory length
τ_l = ‖a_l(x+δ) − a_l(x)‖_F / ε, one backward from R = Σ out(x), saliency V_l = a_l ⊙ |∂R/∂a_l|.
Mode `traj_width`: w_l = (1/(τ_l+1e-6)) / Σ_k 1/(τ_k+1e-6), score = Σ_l w_l n_l ΣV_l; `traj` drops
n_l, `width` is Σ_l n_l ΣV_l / 10 (no τ); `none` (saliency only, the spec's extra ablation) is
Σ_l ΣV_l. A non-finite score becomes ±1e8. Higher is better for every proxy here.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from lib.ptnas.space import Arch

MODES = ("traj_width", "traj", "width", "none")
TRAJ_OFFSET = 1e-6          # the release adds it to every τ before inverting
NON_FINITE = 1e8            # the release's value for an overflowing score


def build_mlp(weights: Sequence[tuple[torch.Tensor, torch.Tensor]],
              dtype: torch.dtype = torch.float32) -> nn.Sequential:
    """Linear -> ReLU blocks and a linear head from (W (fan_in, fan_out), b) per layer."""
    mods: list[nn.Module] = []
    for k, (w, b) in enumerate(weights):
        lin = nn.Linear(w.shape[0], w.shape[1]).to(dtype)
        with torch.no_grad():
            lin.weight.copy_(w.T)
            lin.bias.copy_(b)
        mods.append(lin)
        if k < len(weights) - 1:
            mods.append(nn.ReLU())
    return nn.Sequential(*mods)


@dataclass(frozen=True)
class PtTerms:
    """Per hidden layer: trajectory length τ_l, saliency sum ΣV_l, width n_l; and the number of
    ReLU outputs that were exactly zero on x (the linear regime needs none)."""

    traj: np.ndarray
    vsum: np.ndarray
    widths: np.ndarray
    zero_activations: int


def draw_delta(batch: int, d_in: int, eps: float, gen: torch.Generator,
               dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """The perturbation δ = ε·N(0, I) of shape (batch, d_in)."""
    return torch.randn(batch, d_in, generator=gen, dtype=dtype) * eps


def _relu_outputs(net: nn.Sequential, x: torch.Tensor) -> tuple[torch.Tensor, list[torch.Tensor]]:
    acts, h = [], x
    for mod in net:
        h = mod(h)
        if isinstance(mod, nn.ReLU):
            if h.requires_grad:
                h.retain_grad()
            acts.append(h)
    return h, acts


def ptproxy_terms(net: nn.Sequential, delta: torch.Tensor, eps: float) -> PtTerms:
    """τ_l, ΣV_l and n_l of pTProxy on `net` (all-ones input of delta's shape); parameters are
    made non-negative for the call and restored bit for bit afterwards."""
    params = list(net.parameters())
    with torch.no_grad():
        signs = [torch.sign(p) for p in params]
        for p in params:
            p.abs_()
    try:
        net.eval()
        net.zero_grad(set_to_none=True)
        x = torch.ones_like(delta)
        out, acts = _relu_outputs(net, x)
        with torch.no_grad():
            _, acts_p = _relu_outputs(net, x + delta)
        traj = [((p - a).abs().norm() / eps).item() for a, p in zip(acts, acts_p)]
        out.sum().backward()
        vs = [a.detach() * a.grad.abs() for a in acts]          # (batch, n_l) each
        vsum = np.array([v.sum().item() for v in vs])
        widths = np.array([v.shape[1] for v in vs])
        zeros = int(sum((a == 0).sum().item() for a in acts))
    finally:
        with torch.no_grad():
            for p, s in zip(params, signs):
                p.mul_(s)
        net.zero_grad(set_to_none=True)
    return PtTerms(np.array(traj), vsum, widths, zeros)


def aggregate(terms: PtTerms, mode: str = "traj_width") -> float:
    """The pTProxy score of one set of terms under a recalibration mode (see module docstring)."""
    if mode not in MODES:
        raise ValueError(f"pTProxy mode {mode!r} is not one of {MODES}")
    inv = 1.0 / (terms.traj + TRAJ_OFFSET)
    w = inv / inv.sum()
    score = {"traj_width": (w * terms.widths * terms.vsum).sum(),
             "traj": (w * terms.vsum).sum(),
             "width": (terms.widths * terms.vsum).sum() / 10.0,
             "none": terms.vsum.sum()}[mode]
    if not math.isfinite(score):
        return NON_FINITE if score > 0 else -NON_FINITE
    return float(score)


def synflow(net: nn.Sequential, d_in: int) -> float:
    """SynFlow: Σ over weight matrices of |θ ⊙ ∂R/∂θ|, R = Σ out(1) on |θ| in float64."""
    net64 = build_mlp([(m.weight.detach().T.abs().double(), m.bias.detach().abs().double())
                       for m in net if isinstance(m, nn.Linear)], torch.float64)
    net64(torch.ones(1, d_in, dtype=torch.float64)).sum().backward()
    return float(sum((m.weight.detach() * m.weight.grad).abs().sum() for m in net64
                     if isinstance(m, nn.Linear)))


def _loss_grads(net: nn.Sequential, x: torch.Tensor, y: torch.Tensor) -> list[nn.Linear]:
    net.zero_grad(set_to_none=True)
    F.cross_entropy(net(x), y).backward()
    return [m for m in net if isinstance(m, nn.Linear)]


def grad_norm(net: nn.Sequential, x: torch.Tensor, y: torch.Tensor) -> float:
    """GradNorm: Σ over weight matrices of ‖∂L/∂W‖ on one real batch."""
    score = float(sum(m.weight.grad.norm() for m in _loss_grads(net, x, y)))
    net.zero_grad(set_to_none=True)
    return score


def snip(net: nn.Sequential, x: torch.Tensor, y: torch.Tensor) -> float:
    """SNIP: Σ over weight matrices of |W ⊙ ∂L/∂W| on one real batch."""
    score = float(sum((m.weight * m.weight.grad).abs().sum() for m in _loss_grads(net, x, y)))
    net.zero_grad(set_to_none=True)
    return score


def naswot(net: nn.Sequential, x: torch.Tensor) -> float:
    """NASWOT: log|K| with K = Σ_l (c_l c_lᵀ + (1−c_l)(1−c_l)ᵀ) over the binary codes c_l of the
    ReLU inputs on one real batch, plus 1e-6·I (as the release)."""
    kernel = np.eye(len(x)) * 1e-6
    h = x
    with torch.no_grad():
        for mod in net:
            if isinstance(mod, nn.ReLU):
                c = (h > 0).double()
                kernel += (c @ c.T + (1 - c) @ (1 - c).T).numpy()
            h = mod(h)
    return float(np.linalg.slogdet(kernel)[1])


PROXIES = ("ptproxy", "traj", "width", "saliency", "synflow", "n_params", "grad_norm", "snip",
           "naswot", "random")


def score_space(archs: Sequence[Arch], weights: Sequence[Sequence[tuple[torch.Tensor,
                                                                        torch.Tensor]]],
                x: torch.Tensor, y: torch.Tensor, n_params: Sequence[int], batch: int,
                eps: float, seed: int) -> dict[str, np.ndarray]:
    """Every proxy of PROXIES on every architecture's initial weights (one real batch x, y for
    the data-dependent ones); δ and the random score are seeded by `seed`."""
    gen = torch.Generator().manual_seed(seed)
    out = {k: np.full(len(archs), np.nan) for k in PROXIES}
    d_in = x.shape[1]
    for i, w in enumerate(weights):
        net = build_mlp(w)
        terms = ptproxy_terms(net, draw_delta(batch, d_in, eps, gen), eps)
        for key, mode in (("ptproxy", "traj_width"), ("traj", "traj"), ("width", "width"),
                          ("saliency", "none")):
            out[key][i] = aggregate(terms, mode)
        out["synflow"][i] = synflow(net, d_in)
        out["grad_norm"][i] = grad_norm(net, x, y)
        out["snip"][i] = snip(net, x, y)
        out["naswot"][i] = naswot(net, x)
    out["n_params"] = np.asarray(n_params, dtype=float)
    out["random"] = np.random.default_rng(seed).random(len(archs))
    return out
