"""TINN and PINN on one flat float64 parameter vector (spec §1.3).

TINN: u(x, t) = u_{theta(t)}(x). A time network N: t -> R^{2L-1} (tanh hidden layers, linear
output without bias [RECON: the only reading of §1.3 that gives the paper's 1145]) and a gate
alpha (init 1) give Phi(t) = (1 - alpha) t + alpha N(t). Hidden layer l of the spatial backbone has
W_l(t) = B_l + Phi_{2l}(t) A_l and b_l(t) = c_l + Phi_{2l+1}(t) a_l; the output layer
W_out(t) = B_out + Phi_last(t) A_out, no output bias. A = 0 at init, B and a Xavier-uniform, c = 0.

PINN: a tanh MLP on (x, t) with biases, Xavier-uniform weights and zero biases.

Every forward takes theta of shape (P,) (shared) or (N, P) (one copy per point: the gradient of
the summed residual with respect to the copies is then the per-point Jacobian), or its blocks
already split (`Layout.views`, `Layout.leaves`).

`jet` gives u and the input derivatives the Burgers residual needs, u_x, u_t and u_xx, by forward
(Taylor-mode) propagation: each layer carries four streams (value, d/dx, d/dt, d2/dx2) through
the same products, so a residual is one forward pass and its Jacobian one first-order backward,
where nested autograd builds and walks a third-order graph. Through z = tanh(a), s = 1 - z^2:
z_x = s a_x, z_t = s a_t, z_xx = s a_xx - 2 z s a_x^2. A TINN layer's weight B + phi(t) A depends
on t, so its t-stream adds phi_t (z A) (and a hidden bias c + phi' a adds phi'_t a).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import torch

Params = dict[str, torch.Tensor]     # a flat vector's blocks by name (`Layout.views`)


@dataclass(frozen=True)
class Layout:
    """Names, shapes and offsets of the blocks of the flat vector."""

    blocks: tuple[tuple[str, tuple[int, ...]], ...]

    @property
    def size(self) -> int:
        return int(sum(np.prod(s) for _, s in self.blocks))

    def views(self, theta: torch.Tensor | Params) -> Params:
        """theta (..., P) -> {name: (..., *shape)}; blocks already split pass through."""
        if isinstance(theta, dict):
            return theta
        lead = theta.shape[:-1]
        return {name: theta[..., a:b].reshape(*lead, *shape) for name, a, b, shape in self.spans}

    @cached_property
    def spans(self) -> tuple[tuple[str, int, int, tuple[int, ...]], ...]:
        """(name, start, stop, shape) of each block in the flat vector, worked out once."""
        out, at = [], 0
        for name, shape in self.blocks:
            n = int(np.prod(shape))
            out.append((name, at, at + n, shape))
            at += n
        return tuple(out)

    def leaves(self, theta: torch.Tensor, rows: int) -> Params:
        """`rows` copies of theta (P,), each block its own leaf (rows, *shape) that requires
        grad: the gradient of a sum of per-row outputs is then each block's per-row Jacobian,
        without the (rows, P) zero-filled gradient that a slice of one flat leaf costs per
        block in the backward pass."""
        return {name: v.expand(rows, *v.shape).clone().requires_grad_(True)
                for name, v in self.views(theta.detach()).items()}


def tinn_layout(time_widths: list[int], widths: list[int]) -> Layout:
    """time_widths [1, h, ..., 2L-1], widths [in, w, ..., 1] with L = len(widths) - 1 layers."""
    layers = len(widths) - 1
    if time_widths[0] != 1 or time_widths[-1] != 2 * layers - 1:
        raise ValueError(f"time network {time_widths} must map 1 -> 2L-1 = {2 * layers - 1} for "
                         f"the backbone {widths}")
    blocks: list[tuple[str, tuple[int, ...]]] = []
    for i, (a, b) in enumerate(zip(time_widths, time_widths[1:])):
        blocks.append((f"tw{i}", (a, b)))
        if i < len(time_widths) - 2:
            blocks.append((f"tb{i}", (b,)))
    blocks.append(("alpha", (time_widths[-1],)))
    for i, (a, b) in enumerate(zip(widths, widths[1:])):
        blocks += [(f"B{i}", (a, b)), (f"A{i}", (a, b))]
        if i < layers - 1:
            blocks += [(f"c{i}", (b,)), (f"a{i}", (b,))]
    return Layout(tuple(blocks))


def pinn_layout(widths: list[int]) -> Layout:
    blocks: list[tuple[str, tuple[int, ...]]] = []
    for i, (a, b) in enumerate(zip(widths, widths[1:])):
        blocks += [(f"W{i}", (a, b)), (f"b{i}", (b,))]
    return Layout(tuple(blocks))


def tinn_count(time_widths: list[int], widths: list[int]) -> int:
    """Closed form: 2 N_D (backbone, one B and one A per weight and hidden bias) + time network
    (biases on hidden layers only) + gate."""
    nd = sum(a * b for a, b in zip(widths, widths[1:])) + sum(widths[1:-1])
    tn = sum(a * b for a, b in zip(time_widths, time_widths[1:])) + sum(time_widths[1:-1])
    return 2 * nd + tn + time_widths[-1]


def _xavier(gen: torch.Generator, fan_in: int, fan_out: int, shape) -> torch.Tensor:
    lim = np.sqrt(6.0 / (fan_in + fan_out))
    return (torch.rand(shape, generator=gen, dtype=torch.float64) * 2 - 1) * lim


def init_tinn(layout: Layout, seed: int) -> torch.Tensor:
    gen = torch.Generator().manual_seed(seed)
    parts = []
    for name, shape in layout.blocks:
        if name.startswith("tw") or name.startswith("B"):
            parts.append(_xavier(gen, shape[0], shape[1], shape).ravel())
        elif name.startswith("a") and name != "alpha":
            parts.append(_xavier(gen, 1, shape[0], shape))
        elif name == "alpha":
            parts.append(torch.ones(shape, dtype=torch.float64))
        else:                                            # tb, c, A: zero
            parts.append(torch.zeros(int(np.prod(shape)), dtype=torch.float64))
    return torch.cat(parts)


def init_pinn(layout: Layout, seed: int) -> torch.Tensor:
    gen = torch.Generator().manual_seed(seed)
    parts = [(_xavier(gen, s[0], s[1], s).ravel() if n.startswith("W")
              else torch.zeros(s, dtype=torch.float64)) for n, s in layout.blocks]
    return torch.cat(parts)


def _dense(z: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """z (N, a) times w (a, b) or per-point w (N, a, b) -> (N, b)."""
    return z @ w if w.dim() == 2 else torch.einsum("na,nab->nb", z, w)


def tinn_forward(theta: torch.Tensor | Params, x: torch.Tensor, t: torch.Tensor, layout: Layout,
                 n_time: int, n_layers: int) -> torch.Tensor:
    """u at the points (x_i, t_i): x (N, d_in), t (N,); theta (P,) or (N, P) -> (N,)."""
    p = layout.views(theta)
    h = t[:, None]
    for i in range(n_time):                              # time network, (N, width)
        h = _dense(h, p[f"tw{i}"])
        if i < n_time - 1:
            h = torch.tanh(h + p[f"tb{i}"])
    phi = (1 - p["alpha"]) * t[:, None] + p["alpha"] * h  # (N, 2L-1)
    z = x
    for i in range(n_layers):
        s = phi[:, 2 * i][:, None, None]                 # (N, 1, 1)
        w = p[f"B{i}"] + s * p[f"A{i}"]                  # (N, a, b)
        z = torch.einsum("na,nab->nb", z, w)
        if i < n_layers - 1:
            z = torch.tanh(z + p[f"c{i}"] + phi[:, 2 * i + 1][:, None] * p[f"a{i}"])
    return z[:, 0]


def _streams(z: torch.Tensor, w: torch.Tensor) -> list[torch.Tensor]:
    """Streams z (N, k, a) times w (a, b) or per-point w (N, a, b): the k products (N, b),
    unbound (whose backward stacks once, where k selects would each fill a zero (N, k, b))."""
    return list((z @ w if w.dim() == 2 else torch.bmm(z, w)).unbind(1))


def _tanh_streams(a: list[torch.Tensor]) -> torch.Tensor:
    """tanh of the value stream and the chain rule on the others: a = [value, d/dx, d/dt,
    d2/dx2] (N, b) each -> the same streams of tanh(a), stacked (N, 4, b)."""
    z = torch.tanh(a[0])
    s = 1 - z * z
    return torch.stack([z, s * a[1], s * a[2], s * a[3] - 2 * z * s * a[1] ** 2], 1)


def tinn_jet(theta: torch.Tensor | Params, x: torch.Tensor, t: torch.Tensor, layout: Layout,
             n_time: int, n_layers: int) -> torch.Tensor:
    """(u, u_x, u_t, u_xx) at the points (x_i, t_i) as (N, 4): x (N, 1), t (N,); theta (P,) or
    (N, P). The time network carries (value, d/dt), the backbone the four streams."""
    p = layout.views(theta)
    h = torch.stack([t, torch.ones_like(t)], 1)[..., None]             # (N, 2, 1): value, d/dt
    for i in range(n_time):
        value, d_t = _streams(h, p[f"tw{i}"])
        if i < n_time - 1:
            z = torch.tanh(value + p[f"tb{i}"])
            h = torch.stack([z, (1 - z * z) * d_t], 1)
    alpha = p["alpha"]                                                  # (2L-1,) or (N, 2L-1)
    phi = ((1 - alpha) * t[:, None] + alpha * value).unbind(1)          # 2L-1 of (N,)
    phi_t = ((1 - alpha) + alpha * d_t).unbind(1)
    zero = torch.zeros_like(x)
    z = torch.stack([x, torch.ones_like(x), zero, zero], 1)             # (N, 4, d_in)
    for i in range(n_layers):
        s, s_t = phi[2 * i][:, None], phi_t[2 * i][:, None]             # (N, 1) each
        z_a = _streams(z, p[f"A{i}"])                                   # 4 of (N, b)
        a = [zb + s * za for zb, za in zip(_streams(z, p[f"B{i}"]), z_a)]
        a[2] = a[2] + s_t * z_a[0]                                      # d/dt of phi(t) A
        if i == n_layers - 1:
            return torch.stack(a, 1)[..., 0]
        q, q_t = phi[2 * i + 1][:, None], phi_t[2 * i + 1][:, None]
        a[0] = a[0] + p[f"c{i}"] + q * p[f"a{i}"]                       # bias c + phi'(t) a
        a[2] = a[2] + q_t * p[f"a{i}"]
        z = _tanh_streams(a)
    raise ValueError(f"a backbone needs at least one layer; got {n_layers}")


def pinn_jet(theta: torch.Tensor | Params, x: torch.Tensor, t: torch.Tensor, layout: Layout,
             n_layers: int) -> torch.Tensor:
    """(u, u_x, u_t, u_xx) at the points as (N, 4): x (N, 1), t (N,); theta (P,) or (N, P)."""
    p = layout.views(theta)
    one, zero = torch.ones_like(x), torch.zeros_like(x)
    z = torch.stack([torch.cat([x, t[:, None]], 1), torch.cat([one, zero], 1),
                     torch.cat([zero, one], 1), torch.cat([zero, zero], 1)], 1)  # (N, 4, 2)
    for i in range(n_layers):
        a = _streams(z, p[f"W{i}"])
        a[0] = a[0] + p[f"b{i}"]
        if i == n_layers - 1:
            return torch.stack(a, 1)[..., 0]
        z = _tanh_streams(a)
    raise ValueError(f"a PINN needs at least one layer; got {n_layers}")


def pinn_forward(theta: torch.Tensor | Params, x: torch.Tensor, t: torch.Tensor, layout: Layout,
                 n_layers: int) -> torch.Tensor:
    p = layout.views(theta)
    z = torch.cat([x, t[:, None]], dim=1)
    for i in range(n_layers):
        z = _dense(z, p[f"W{i}"]) + p[f"b{i}"]
        if i < n_layers - 1:
            z = torch.tanh(z)
    return z[:, 0]


@dataclass(frozen=True)
class Model:
    """A model kind with its layout: `u(theta, x, t)` with x (N,) and t (N,)."""

    kind: str                       # "tinn" | "pinn"
    layout: Layout
    time_widths: tuple[int, ...] = ()
    widths: tuple[int, ...] = ()

    @property
    def size(self) -> int:
        return self.layout.size

    def init(self, seed: int) -> torch.Tensor:
        return init_tinn(self.layout, seed) if self.kind == "tinn" else init_pinn(self.layout, seed)

    def u(self, theta: torch.Tensor | Params, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        if self.kind == "tinn":
            return tinn_forward(theta, x[:, None], t, self.layout, len(self.time_widths) - 1,
                                len(self.widths) - 1)
        return pinn_forward(theta, x[:, None], t, self.layout, len(self.widths) - 1)

    def jet(self, theta: torch.Tensor | Params, x: torch.Tensor, t: torch.Tensor
            ) -> torch.Tensor:
        """(u, u_x, u_t, u_xx) at x (N,), t (N,) as (N, 4), by forward propagation."""
        if self.kind == "tinn":
            return tinn_jet(theta, x[:, None], t, self.layout, len(self.time_widths) - 1,
                            len(self.widths) - 1)
        return pinn_jet(theta, x[:, None], t, self.layout, len(self.widths) - 1)


def make_tinn(time_widths, widths) -> Model:
    return Model("tinn", tinn_layout(list(time_widths), list(widths)), tuple(time_widths),
                 tuple(widths))


def make_pinn(widths) -> Model:
    return Model("pinn", pinn_layout(list(widths)), (), tuple(widths))
