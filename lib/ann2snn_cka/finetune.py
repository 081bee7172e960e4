"""Closed-loop fine-tuning (spec §1.3): the converted SNN's synapses trained by BPTT through T
steps with the surrogate, the scales λ fixed, the ANN frozen (its outputs and features are
computed without a graph, so nothing can reach its weights), the loss of losses.py with layer
weights from the initial alignment CKA₀ (eq. 9).

The arms (spec NB02): `kl_only` (α, β = 1), `kl_cka` (α, β), `ce_only` (α = 0) and
`kl_cka_detached`, `kl_cka` with the released code's CKA gradient (norms detached).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import torch
from tqdm.auto import tqdm

from lib.ann2snn_cka import cka, losses
from lib.ann2snn_cka.ann import CNN
from lib.ann2snn_cka.convert import Run, SpikingNet

ARMS = ("kl_only", "kl_cka", "ce_only", "kl_cka_detached")
WEIGHTINGS = ("adaptive", "uniform")
FEATURES = ("post", "pre")
GRAMS = ("per_step", "rate")


@dataclass(frozen=True)
class Recipe:
    """One fine-tuning run's settings besides the arm (spec NB02)."""

    T: int
    steps: int
    batch: int
    lr: float
    tau: float
    kd_alpha: float
    cka_beta: float
    cka_grad: str = "full"
    features: str = "post"
    block: int = 1


def arm_mix(arm: str, recipe: Recipe) -> tuple[float, float, str]:
    """(α, β, CKA gradient) of an arm: the loss is (1-α) CE + α [β KL + (1-β) local]."""
    if arm == "kl_only":
        return recipe.kd_alpha, 1.0, recipe.cka_grad
    if arm == "kl_cka":
        return recipe.kd_alpha, recipe.cka_beta, recipe.cka_grad
    if arm == "kl_cka_detached":
        return recipe.kd_alpha, recipe.cka_beta, "detached_norm"
    if arm == "ce_only":
        return 0.0, 1.0, recipe.cka_grad
    raise ValueError(f"arm = {arm!r}; allowed: {list(ARMS)}")


def snn_features(run: Run, kind: str) -> list[torch.Tensor]:
    """The SNN's feature per site: the time-averaged output (rate × λ, `post`) or the
    time-averaged input current (`pre`)."""
    if kind == "post":
        return run.rates()
    if kind == "pre":
        return run.mean_currents()
    raise ValueError(f"cka_features = {kind!r}; allowed: {list(FEATURES)}")


@torch.no_grad()
def ann_targets(ann: CNN, x: torch.Tensor, kind: str) -> tuple[torch.Tensor, list[torch.Tensor]]:
    """The frozen ANN's logits and its feature per site (a_l for `post`, z_l for `pre`)."""
    logits, zs, acts = ann.currents_and_activations(x)
    return logits, (acts if kind == "post" else zs)


@torch.no_grad()
def initial_cka(snn: SpikingNet, ann: CNN, x: torch.Tensor, T: int, batch: int,
                kind: str = "post", gram: str = "per_step", block: int = 1) -> np.ndarray:
    """CKA₀ per site, unbiased HSIC, averaged over the batches of x: the SNN Gram is the time
    average of the per-step Grams (`per_step`, the released code) or the Gram of the rates."""
    if gram not in GRAMS:
        raise ValueError(f"cka0_gram = {gram!r}; allowed: {list(GRAMS)}")
    values = []
    for i in range(0, len(x), batch):
        xb = x[i:i + batch]
        run = snn.run(xb, T, block, record=True)
        _, targets = ann_targets(ann, xb, kind)
        steps = run.trains if kind == "post" else run.currents
        row = []
        for s, target in enumerate(targets):
            L = cka.gram(target.double())
            K = (torch.stack([cka.gram(X.double()) for X in steps[s]]).mean(0)
                 if gram == "per_step" else cka.gram(steps[s].double().mean(0)))
            row.append(float(cka.cka_unbiased(K, L)))
        values.append(row)
    return np.mean(values, axis=0)


def layer_weights(cka0: np.ndarray, weighting: str) -> np.ndarray:
    """w_l: `adaptive` from CKA₀ (eq. 9), `uniform` 1/L (the ablation)."""
    if weighting == "adaptive":
        return cka.layer_weights(list(cka0))
    if weighting == "uniform":
        return np.full(len(cka0), 1.0 / len(cka0))
    raise ValueError(f"cka_weighting = {weighting!r}; allowed: {list(WEIGHTINGS)}")


@dataclass
class History:
    """Per step: the total loss and its parts, and the norm of the KL term's gradient on the
    output layer's weight (the spec's probe of 'unstable global gradients')."""

    total: list[float] = field(default_factory=list)
    ce: list[float] = field(default_factory=list)
    kl: list[float] = field(default_factory=list)
    local: list[float] = field(default_factory=list)
    kl_grad_norm: list[float] = field(default_factory=list)


def finetune(snn: SpikingNet, ann: CNN, x: torch.Tensor, y: torch.Tensor, arm: str,
             w: np.ndarray, recipe: Recipe, seed: int, desc: str = "fine-tune") -> History:
    """Fine-tune snn in place with Adam for recipe.steps mini-batches drawn from (x, y) by a
    seeded permutation; returns the per-step history."""
    alpha, beta, grad = arm_mix(arm, recipe)
    gen = torch.Generator().manual_seed(seed)
    order = torch.cat([torch.randperm(len(x), generator=gen)
                       for _ in range(-(-recipe.steps * recipe.batch // len(x)))])
    opt = torch.optim.Adam(snn.net.parameters(), lr=recipe.lr)
    out_weight = snn.net.fc2.weight
    hist = History()
    snn.train()
    for step in tqdm(range(recipe.steps), desc=desc, leave=False):
        idx = order[step * recipe.batch:(step + 1) * recipe.batch]
        run = snn.run(x[idx], recipe.T, recipe.block, record=True)
        z_a, feats_a = ann_targets(ann, x[idx], recipe.features)
        parts = losses.closed_loop_loss(run.logits, z_a, y[idx],
                                        snn_features(run, recipe.features), feats_a, w,
                                        alpha, beta, recipe.tau, grad)
        (g,) = torch.autograd.grad(parts.kl, out_weight, retain_graph=True)
        opt.zero_grad(set_to_none=True)
        parts.total.backward()
        opt.step()
        for name in ("total", "ce", "kl", "local"):
            getattr(hist, name).append(float(getattr(parts, name).detach()))
        hist.kl_grad_norm.append(float(g.norm()))
    return hist
