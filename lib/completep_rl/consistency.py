"""How alike two agents of different width are on a fixed probe set (spec §3 NB2, §7 Q3): the
mean KL between their policies and the linear CKA between their last hidden layers."""
from __future__ import annotations

import torch
import torch.nn.functional as F


def bernoulli_kl(f_p: torch.Tensor, f_q: torch.Tensor) -> torch.Tensor:
    """Mean over the last axis of KL(pi_p || pi_q) for Bernoulli policies with logits f_p, f_q."""
    p = torch.sigmoid(f_p)
    kl = p * (F.logsigmoid(f_p) - F.logsigmoid(f_q)) + \
        (1 - p) * (F.logsigmoid(-f_p) - F.logsigmoid(-f_q))
    return kl.mean(-1)


def linear_cka(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Linear CKA of features x (..., B, N) and y (..., B, M) over the B probe states:
    ||Yc^T Xc||_F^2 / (||Xc^T Xc||_F ||Yc^T Yc||_F) with columns centred."""
    xc = x - x.mean(-2, keepdim=True)
    yc = y - y.mean(-2, keepdim=True)

    def fro2(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return (a.transpose(-1, -2) @ b).pow(2).sum((-1, -2))
    return fro2(yc, xc) / (fro2(xc, xc) * fro2(yc, yc)).sqrt()
