"""The time loops of notebook 08's recurrent mixers, each with a hand-written backward.

A loop differentiated by autograd records every op of every step and, going back, runs each
step's backward ops one by one, the parameter gradients included (a d x d weight gradient and
its accumulation per step). Here each loop is a `torch.autograd.Function`: the forward runs
without recording, the backward walks the steps once with the two or three ops that carry the
gradient from step t to step t - 1, and every gradient that does not feed back into the loop
(weights, biases, keys, values, gates) is formed afterwards in a few ops over all steps at once.
Training is the same up to float32 rounding (tests: every gradient equals autograd's on the
plain loop of `naive`, float64); bench/linear_rnns_recurrences.py times both.

Shapes are per model (one seed): `torch.func.vmap` batches the seeds through each Function
(`generate_vmap_rule`), so the code below never sees the seed axis. Time is axis 1.
"""
from __future__ import annotations

import torch
from torch.autograd import Function


def _prev(h: torch.Tensor) -> torch.Tensor:
    """(B, T, ...) -> the state before each step: zeros, h_1, ..., h_{T-1}."""
    return torch.cat([torch.zeros_like(h[:, :1]), h[:, :-1]], dim=1)


class ClampedReLURNN(Function):
    """h_t = min(relu(u_t + W h_{t-1} + b), clip), h_0 = 0. u (B, T, d), W (d, d), b (d,)."""

    generate_vmap_rule = True

    @staticmethod
    def forward(u, W, b, clip):
        v = (u + b).unbind(1)
        h, hs, pres = u.new_zeros(u.shape[0], u.shape[2]), [], []
        for v_t in v:
            pre = torch.addmm(v_t, h, W.t())
            h = pre.clamp(0.0, clip)
            hs.append(h)
            pres.append(pre)
        return torch.stack(hs, 1), torch.stack(pres, 1)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, W, _, clip = inputs
        H, pre = output
        ctx.mark_non_differentiable(pre)
        ctx.save_for_backward(W, H, pre)
        ctx.clip = clip

    @staticmethod
    def backward(ctx, gH, _):
        W, H, pre = ctx.saved_tensors
        # relu then clamp(max): the gradient passes where 0 < pre <= clip (autograd's rule)
        mask = ((pre > 0) & (pre <= ctx.clip)).to(pre.dtype).unbind(1)
        g_in, dpre = gH.unbind(1), [None] * len(mask)
        g = g_in[-1]
        for t in range(len(mask) - 1, -1, -1):
            dpre[t] = g * mask[t]
            if t:
                g = torch.addmm(g_in[t - 1], dpre[t], W)
        D = torch.stack(dpre, 1)                                          # d pre_t, (B, T, d)
        dW = D.flatten(0, 1).t() @ _prev(H).flatten(0, 1)
        return D, dW, D.sum((0, 1)), None


class GRU(Function):
    """torch.nn.GRU's update: r, z = sigmoid(u_rz + W_rz h + b_rz), n = tanh(u_n + r (W_n h + b_n)),
    h_t = (1 - z) n + z h_{t-1}, h_0 = 0. u (B, T, 3d) = (u_r, u_z, u_n), W (3d, d), b (3d,)."""

    generate_vmap_rule = True

    @staticmethod
    def forward(u, W, b):
        d = W.shape[1]
        h, hs, rzs, ns, wns = u.new_zeros(u.shape[0], d), [], [], [], []
        for u_t in u.unbind(1):
            w = torch.addmm(b, h, W.t())                                  # W h + b, (B, 3d)
            rz = torch.sigmoid(u_t[:, :2 * d] + w[:, :2 * d])
            n = torch.tanh(torch.addcmul(u_t[:, 2 * d:], rz[:, :d], w[:, 2 * d:]))
            h = torch.lerp(n, h, rz[:, d:])                               # (1 - z) n + z h
            hs.append(h), rzs.append(rz), ns.append(n), wns.append(w[:, 2 * d:])
        return tuple(torch.stack(z, 1) for z in (hs, rzs, ns, wns))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.mark_non_differentiable(*output[1:])
        ctx.save_for_backward(inputs[1], *output)

    @staticmethod
    def backward(ctx, gH, *_):
        W, H, rz, n, wn = ctx.saved_tensors
        d = W.shape[1]
        r, z = rz[..., :d], rz[..., d:]
        Hp = _prev(H)
        # per step, every gradient is g_t (the gradient reaching h_t) times a factor known
        # from the forward: d pre_n = g (1 - z)(1 - n^2), d pre_r = d pre_n wn r (1 - r),
        # d pre_z = g (h_{t-1} - n) z (1 - z), d (W_n h + b_n) = d pre_n r
        kn = (1 - z) * (1 - n * n)
        coef = torch.stack([kn * wn * r * (1 - r), (Hp - n) * z * (1 - z), kn * r], -2)  # B,T,3,d
        c_t, z_t, g_in = coef.unbind(1), z.unbind(1), gH.unbind(1)
        g, gs = g_in[-1], [None] * len(g_in)
        for t in range(len(g_in) - 1, -1, -1):
            gs[t] = g
            if t:
                dw = (g[:, None, :] * c_t[t]).flatten(1)                   # d (W h + b), (B, 3d)
                g = torch.addmm(torch.addcmul(g_in[t - 1], g, z_t[t]), dw, W)
        G = torch.stack(gs, 1)                                            # (B, T, d)
        dw = (G.unsqueeze(-2) * coef).flatten(-2)                         # (B, T, 3d)
        du = torch.cat([dw[..., :2 * d], G * kn], -1)
        dW = dw.flatten(0, 1).t() @ Hp.flatten(0, 1)
        return du, dW, dw.sum((0, 1))


class AffineSequential(Function):
    """h_t = A_t h_{t-1} + b_t, h_0 = 0, A (B, T, n) diagonal or (B, T, n, n) dense,
    b (B, T, n, m); returns h (B, T, n, m)."""

    generate_vmap_rule = True

    @staticmethod
    def forward(A, b):
        diagonal = A.dim() == b.dim() - 1
        h, hs = torch.zeros_like(b[:, 0]), []
        for A_t, b_t in zip((A.unsqueeze(-1) if diagonal else A).unbind(1), b.unbind(1)):
            h = torch.addcmul(b_t, A_t, h) if diagonal else torch.baddbmm(b_t, A_t, h)
            hs.append(h)
        return torch.stack(hs, 1)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0], output)

    @staticmethod
    def backward(ctx, gH):
        A, H = ctx.saved_tensors
        diagonal = A.dim() == H.dim() - 1
        A_t = (A.unsqueeze(-1) if diagonal else A.transpose(-1, -2)).unbind(1)
        g_in = gH.unbind(1)
        g, gs = g_in[-1], [None] * len(g_in)
        for t in range(len(g_in) - 1, -1, -1):
            gs[t] = g
            if t:
                g = torch.addcmul(g_in[t - 1], A_t[t], g) if diagonal \
                    else torch.baddbmm(g_in[t - 1], A_t[t], g)
        G = torch.stack(gs, 1)                                            # d h_t, (B, T, n, m)
        Hp = _prev(H)
        dA = (G * Hp).sum(-1) if diagonal else G @ Hp.transpose(-1, -2)
        return dA, G


class DPLR(Function):
    """S_t = diag(w_t) S_{t-1} - c_t (u_t^T S_{t-1}) + e_t v_t^T, S_0 = 0, o_t = S_t^T q_t.
    q, w, c, u, e (Z, T, k), v (Z, T, m); w None means w = 1. Returns o (Z, T, m).

    Every product is a broadcast multiply and a sum over one step's (Z, k, m) state, which stays
    in cache: MKL's batched k x 1 by 1 x m (or 1 x k by k x m) products took 3-10x as long at
    k = m = 16, and contracting all steps at once after the loop wrote (Z, T, k, m)
    temporaries whose first touch cost more than the loop (bench/linear_rnns_recurrences.py).
    The states S_0..S_T and the reads u_t^T S_{t-1} are extra outputs, so that the backward
    (under vmap too) finds them."""

    generate_vmap_rule = True

    @staticmethod
    def forward(q, w, c, u, e, v):
        T = q.shape[1]
        ws = [None] * T if w is None else _cols(w)
        S = q.new_zeros(q.shape[0], q.shape[2], v.shape[2])
        states, reads, out = [S], [], []
        steps = zip(ws, _cols(c), _cols(u), _cols(e), _rows(v), _cols(q))
        for w_t, c_t, u_t, e_t, v_t, q_t in steps:
            r = (u_t * S).sum(1, keepdim=True)                             # u_t^T S, (Z, 1, m)
            kept = torch.addcmul(S, e_t, v_t) if w_t is None else \
                torch.addcmul(e_t * v_t, w_t, S)
            S = torch.addcmul(kept, c_t, r, value=-1)
            states.append(S)
            reads.append(r)
            out.append((S * q_t).sum(1))                                   # S_t^T q_t
        return torch.stack(out, 1), *states, *reads

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.mark_non_differentiable(*output[1:])
        ctx.save_for_backward(*inputs, *output[1:])
        ctx.steps = inputs[0].shape[1]

    @staticmethod
    def backward(ctx, gO, *_):
        q, w, c, u, e, v, *kept = ctx.saved_tensors
        T = ctx.steps
        S, R = kept[:T + 1], kept[T + 1:]                                 # S_0..S_T, reads 1..T
        ws = [None] * T if w is None else _cols(w)
        c_t, u_t, e_t, v_t, q_t, g_t = (*map(_cols, (c, u, e)), _rows(v), _cols(q), _rows(gO))
        grads = {k: [None] * T for k in ("q", "w", "c", "u", "e", "v")}
        D = M = None                                                       # D: d S_t
        for t in range(T - 1, -1, -1):
            direct = q_t[t] * g_t[t]                                       # from o_t
            D = direct if D is None else _back(direct, ws[t + 1], D, u_t[t + 1], M)
            M = (c_t[t] * D).sum(1, keepdim=True)                          # c_t^T D, (Z, 1, m)
            grads["q"][t] = (S[t + 1] * g_t[t]).sum(-1)
            if w is not None:
                grads["w"][t] = (D * S[t]).sum(-1)
            grads["c"][t] = -(D * R[t]).sum(-1)
            grads["u"][t] = -(S[t] * M).sum(-1)
            grads["e"][t] = (D * v_t[t]).sum(-1)
            grads["v"][t] = (D * e_t[t]).sum(-2)
        return tuple(None if g[0] is None else torch.stack(g, 1) for g in grads.values())


def _cols(z: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """(Z, T, k) -> T column vectors (Z, k, 1)."""
    return z.unsqueeze(-1).unbind(1)


def _rows(z: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """(Z, T, m) -> T row vectors (Z, 1, m)."""
    return z.unsqueeze(2).unbind(1)


def _back(direct: torch.Tensor, w_next, D: torch.Tensor, u_next: torch.Tensor,
          M: torch.Tensor) -> torch.Tensor:
    """d S_t = q_t gO_t^T + A_{t+1}^T d S_{t+1}, A = diag(w) - c u^T (w None: 1)."""
    kept = direct + D if w_next is None else torch.addcmul(direct, w_next, D)
    return torch.addcmul(kept, u_next, M, value=-1)
