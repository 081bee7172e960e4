"""The input stream over T time steps (spec §1.3; InkCoder is only named in the abstract, so the
coarse-to-fine pyramid here is our reconstruction, with its alternatives)."""
from __future__ import annotations

import torch

from lib.spiking.integrate import check_steps

KINDS = ("static", "coarse2fine", "residual")


def pool_up(x: torch.Tensor, s: int) -> torch.Tensor:
    """U_s(P_s(x)): s x s average pooling, then nearest upsampling back to x's (B, C, H, W)
    (H and W multiples of s); s = 1 returns x itself."""
    if s == 1:
        return x
    B, C, H, W = x.shape
    if H % s or W % s:
        raise ValueError(f"pool size {s} does not divide the image {H} x {W}")
    coarse = x.reshape(B, C, H // s, s, W // s, s).mean(dim=(3, 5))
    return coarse.repeat_interleave(s, dim=2).repeat_interleave(s, dim=3)


def input_stream(x: torch.Tensor, T: int, kind: str = "static") -> torch.Tensor:
    """(T, B, C, H, W) from a static batch x (B, C, H, W):
    static x_t = x; coarse2fine x_t = U_s(P_s(x)) with s = 2^(T-1-t) (step T-1 is x);
    residual: step 0 the coarsest, then the signed detail each finer level adds."""
    check_steps(T)
    if kind not in KINDS:
        raise ValueError(f"stream kind = {kind!r}: allowed {', '.join(KINDS)}")
    if kind == "static":
        return x.unsqueeze(0).expand(T, *x.shape)
    levels = [pool_up(x, 2 ** (T - 1 - t)) for t in range(T)]
    if kind == "residual":
        levels = [levels[0]] + [fine - coarse for coarse, fine in zip(levels, levels[1:])]
    return torch.stack(levels)
