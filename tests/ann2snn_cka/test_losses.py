"""lib/ann2snn_cka/losses.py against naive.py (spec §5 item 6; claim C1).

Tolerances: float64 throughout; the loss is a handful of log-sum-exps and three CKAs on 12
samples, so agreement with the plain loops is near 1e-15; 1e-10 (1e-12 for single terms) leaves
ample headroom and still catches a wrong term or weight.
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import torch

from lib.ann2snn_cka import losses, naive
from lib.ann2snn_cka.cka import CKA_GRADS, layer_weights
from tests.conftest import assert_close

torch.set_num_threads(1)
D = torch.float64
ALPHA, BETA, TAU = 0.3, 0.4, 2.0


def batch(seed: int = 0, B: int = 12, C: int = 5) -> dict:
    """A fixed float64 batch: SNN/ANN logits, labels, 3 layers of SNN/ANN features, weights."""
    g = torch.Generator().manual_seed(seed)
    z_a = 2.0 * torch.randn(B, C, generator=g, dtype=D)
    z_s = z_a + torch.randn(B, C, generator=g, dtype=D)
    y = torch.randint(0, C, (B,), generator=g)
    shapes = [(4, 3, 3), (8,), (6, 2)]
    feats_a = [torch.relu(torch.randn(B, *s, generator=g, dtype=D)) for s in shapes]
    feats_s = [a + 0.4 * torch.rand(B, *a.shape[1:], generator=g, dtype=D) for a in feats_a]
    w = layer_weights([0.9, 0.6, 0.75])
    return dict(z_s=z_s, z_a=z_a, y=y, feats_s=feats_s, feats_a=feats_a, w=w)


@pytest.mark.parametrize("cka_grad", CKA_GRADS)
@pytest.mark.parametrize("alpha, beta", [(ALPHA, BETA), (0.8, 0.1), (1.0, 0.0)])
def test_total_equals_the_naive_loss(cka_grad, alpha, beta):
    b = batch()
    parts = losses.closed_loop_loss(**b, alpha=alpha, beta=beta, tau=TAU, cka_grad=cka_grad)
    ref = naive.closed_loop_loss_naive(**b, alpha=alpha, beta=beta, tau=TAU)
    assert_close("total", ref, parts.total.item(), rtol=1e-10, atol=0)


def test_parts_are_the_named_terms():
    b = batch(1)
    parts = losses.closed_loop_loss(**b, alpha=ALPHA, beta=BETA, tau=TAU)
    cka_ref = [naive.linear_cka_naive(s, a) for s, a in zip(b["feats_s"], b["feats_a"])]
    assert parts.cka.shape == (3,)
    assert_close("cka per layer", cka_ref, parts.cka.numpy(), rtol=1e-12, atol=0)
    assert_close("local", np.sum(b["w"] * (1.0 - np.asarray(cka_ref))), parts.local.item(),
                 rtol=1e-12, atol=0)
    assert_close("kl", naive.kl_naive(b["z_s"], b["z_a"], TAU), parts.kl.item(),
                 rtol=1e-12, atol=0)
    assert_close("total from parts",
                 (1 - ALPHA) * parts.ce.item()
                 + ALPHA * (BETA * parts.kl.item() + (1 - BETA) * parts.local.item()),
                 parts.total.item(), rtol=1e-14, atol=0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        parts.total = parts.ce


def test_beta_one_is_ce_plus_kl():
    b = batch(2)
    parts = losses.closed_loop_loss(**b, alpha=ALPHA, beta=1.0, tau=TAU)
    assert parts.total.item() == ((1 - ALPHA) * parts.ce + ALPHA * parts.kl).item()
    ce = naive.closed_loop_loss_naive(**b, alpha=0.0, beta=1.0, tau=TAU)
    ref = (1 - ALPHA) * ce + ALPHA * naive.kl_naive(b["z_s"], b["z_a"], TAU)
    assert_close("beta = 1 total", ref, parts.total.item(), rtol=1e-12, atol=0)


def test_beta_one_needs_no_features():
    b = batch(2)
    full = losses.closed_loop_loss(**b, alpha=ALPHA, beta=1.0, tau=TAU)
    bare = losses.closed_loop_loss(b["z_s"], b["z_a"], b["y"], [], [], [],
                                   alpha=ALPHA, beta=1.0, tau=TAU)
    assert bare.cka.shape == (0,) and bare.local.item() == 0.0
    assert bare.total.item() == full.total.item()


def test_alpha_zero_is_cross_entropy():
    b = batch(3)
    parts = losses.closed_loop_loss(**b, alpha=0.0, beta=BETA, tau=TAU)
    assert parts.total.item() == parts.ce.item()
    # the naive CE: -log softmax(z_s)_y, one sample at a time
    rows, labels = b["z_s"].tolist(), b["y"].tolist()
    ce = np.mean([np.log(np.sum(np.exp(r))) - r[c] for r, c in zip(rows, labels)])
    assert_close("CE", ce, parts.ce.item(), rtol=1e-12, atol=0)


def test_kl_vanishes_when_the_logits_agree():
    b = batch(4)
    b["z_a"] = b["z_s"].clone()
    parts = losses.closed_loop_loss(**b, alpha=ALPHA, beta=BETA, tau=TAU)
    assert abs(parts.kl.item()) <= 1e-12
    assert abs(losses.kl_distill(b["z_s"], b["z_s"], TAU).item()) <= 1e-12


@pytest.mark.parametrize("tau", [1.0, 2.0, 4.5])
def test_kl_distill_equals_the_naive_loop(tau):
    b = batch(5)
    z_s = 3.0 * b["z_s"]                                       # sharper distributions, too
    assert_close(f"kl tau = {tau}", naive.kl_naive(z_s, b["z_a"], tau),
                 losses.kl_distill(z_s, b["z_a"], tau).item(), rtol=1e-12, atol=0)


@pytest.mark.parametrize("cka_grad", CKA_GRADS)
def test_no_gradient_reaches_the_ann(cka_grad):
    b = batch(6)
    leaves = [b["z_s"], b["z_a"], *b["feats_s"], *b["feats_a"]]
    for t in leaves:
        t.requires_grad_(True)
    parts = losses.closed_loop_loss(**b, alpha=ALPHA, beta=BETA, tau=TAU, cka_grad=cka_grad)
    parts.total.backward()
    assert b["z_a"].grad is None and all(a.grad is None for a in b["feats_a"])
    assert b["z_s"].grad.abs().sum() > 0 and all(s.grad.abs().sum() > 0 for s in b["feats_s"])


@pytest.mark.parametrize("w", [[0.5, 0.5], [0.2, 0.3, 0.4, 0.1], [[0.3, 0.3, 0.4]]])
def test_bad_w_is_refused(w):
    b = batch(7)
    b["w"] = w
    with pytest.raises(ValueError, match=r"^w has shape"):
        losses.closed_loop_loss(**b, alpha=ALPHA, beta=BETA, tau=TAU)


def test_mismatched_feature_lists_and_unknown_cka_grad_are_refused():
    b = batch(8)
    with pytest.raises(ValueError, match="feats_a has 2 layers"):
        losses.closed_loop_loss(**{**b, "feats_a": b["feats_a"][:2]}, alpha=ALPHA, beta=BETA,
                                tau=TAU)
    with pytest.raises(ValueError, match="cka_grad = 'none'"):
        losses.closed_loop_loss(**b, alpha=ALPHA, beta=BETA, tau=TAU, cka_grad="none")
