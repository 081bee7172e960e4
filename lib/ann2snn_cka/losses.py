"""The closed-loop fine-tuning loss (spec §1.3 eqs. (7)-(9), §4; tested by §5 item 6):

    L = (1 - alpha) CE(z_S, y) + alpha [beta L_global + (1 - beta) L_local]
    L_global = tau^2 KL(softmax(z_A / tau) || softmax(z_S / tau))      (batch mean; eq. 7)
    L_local  = sum_l w_l (1 - CKA(A_l^S, A_l^A))                         (linear CKA; eq. 8)

The ANN side (z_A, A^A) is the frozen teacher: the loss detaches it, so no gradient reaches it.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F

from lib.ann2snn_cka.cka import check_cka_grad, linear_cka


def kl_distill(z_s: torch.Tensor, z_a: torch.Tensor, tau: float) -> torch.Tensor:
    """Eq. (7): tau^2 KL(softmax(z_a/tau) || softmax(z_s/tau)) of logits (B, C), summed over
    classes and averaged over the batch; differentiable in both arguments."""
    log_ps = F.log_softmax(z_s / tau, dim=-1)
    log_pa = F.log_softmax(z_a / tau, dim=-1)
    return tau ** 2 * (log_pa.exp() * (log_pa - log_ps)).sum(dim=-1).mean()


@dataclass(frozen=True)
class LossParts:
    """The total loss and its parts: cross-entropy, the tau^2-scaled KL, the weighted local term
    sum_l w_l (1 - CKA_l), and the per-layer linear CKA values (1-D)."""

    total: torch.Tensor
    ce: torch.Tensor
    kl: torch.Tensor
    local: torch.Tensor
    cka: torch.Tensor


def closed_loop_loss(z_s: torch.Tensor, z_a: torch.Tensor, y: torch.Tensor,
                     feats_s: Sequence[torch.Tensor], feats_a: Sequence[torch.Tensor],
                     w: Sequence[float] | np.ndarray, alpha: float, beta: float, tau: float,
                     cka_grad: str = "full") -> LossParts:
    """Spec §1.3's loss of SNN logits z_s against ANN logits z_a and labels y, with one feature
    pair and one weight w_l per layer; the ANN side is detached (a constant teacher)."""
    check_cka_grad(cka_grad)
    feats_s, feats_a = list(feats_s), list(feats_a)
    if len(feats_a) != len(feats_s):
        raise ValueError(f"feats_a has {len(feats_a)} layers, feats_s has {len(feats_s)}")
    w_arr = np.asarray(w, dtype=np.float64)
    if w_arr.ndim != 1 or w_arr.size != len(feats_s):
        raise ValueError(f"w has shape {w_arr.shape}; need one weight per feature layer, "
                         f"({len(feats_s)},)")
    z_a = z_a.detach()
    ce = F.cross_entropy(z_s, y)
    kl = kl_distill(z_s, z_a, tau)
    if feats_s:
        cka = torch.stack([linear_cka(s, a.detach(), cka_grad) for s, a in zip(feats_s, feats_a)])
    else:
        cka = z_s.new_zeros(0)
    local = (torch.as_tensor(w_arr, dtype=cka.dtype, device=cka.device) * (1.0 - cka)).sum()
    total = (1.0 - alpha) * ce + alpha * (beta * kl + (1.0 - beta) * local)
    return LossParts(total=total, ce=ce, kl=kl, local=local, cka=cka)
