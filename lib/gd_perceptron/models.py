"""Models h(b; theta) with explicit gradients, batched over runs (torch, float64).

Axes: R runs (seeds x step parameters x d), n points, d features, m neurons. Data may be shared,
B of shape (n, d), or per run, B of shape (R, n, d) (the span-reduced engine stacks a different
reduced data set per d). `direction(theta, B, coef)` returns sum_i coef[:, i] * grad h(b_i; theta),
the only thing GD and the generalized perceptron need (spec §1.3, §2.1). The linear and two-layer
models also take `pre`, their `project(theta, B)` when the caller has it: a step needs the
projection for the outputs and (two-layer) for the direction, and computing it once saves one
of a two-layer step's three products (bench/profiles/gd_perceptron_07_real_data.txt).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import torch


def _project(theta: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
    """theta (R, ..., d) against B: (R, ..., n). Shared B (n, d) is one matmul, not a batch."""
    if B.dim() == 2:
        return theta @ B.T
    return torch.einsum("r...d,rnd->r...n", theta, B)


def _combine(coef: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
    """sum_i coef[..., i] b_i: (R, ..., n) -> (R, ..., d)."""
    if B.dim() == 2:
        return coef @ B
    return torch.einsum("r...n,rnd->r...d", coef, B)


@dataclass(frozen=True)
class Linear:
    """h(x; v) = v^T x, theta of shape (R, d); homogeneous of degree 1."""

    degree: int = 1
    name: str = "linear"

    def project(self, theta: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return _project(theta, B)                                               # (R, n)

    def output(self, theta: torch.Tensor, B: torch.Tensor,
               pre: torch.Tensor | None = None) -> torch.Tensor:
        return _project(theta, B) if pre is None else pre                       # (R, n)

    def direction(self, theta: torch.Tensor, B: torch.Tensor, coef: torch.Tensor,
                  pre: torch.Tensor | None = None) -> torch.Tensor:
        """The gradient of v^T x is x whatever v: `pre` is not needed (taken for the interface)."""
        return _combine(coef, B)                                                # (R, d)


@dataclass(frozen=True)
class LinearGram:
    """The linear model from 0 in the coefficients a of u = sum_i a_i b_i (spec §6).

    Pass the Gram matrix G = B B^T (n, n) or (R, n, n) where other models take B. Outputs are
    G a, and the update adds the per-point weights to a. With integer data G is exact, so exact
    ties (data set A at t = 1) stay exact, which an orthonormal basis in float64 would break.
    G a is summed from rounded products, not by a matmul: BLAS fuses a multiply into the add
    (FMA), so G_21 a_1 + G_22 a_2 with G_21 = G_22 and a_2 = -a_1 came out as +-1e-19 instead of
    0 and the sign of a rounding error decided data set A's tie (issue 12, notebook 04).
    """

    degree: int = 1
    name: str = "linear (Gram coefficients)"

    def output(self, theta: torch.Tensor, G: torch.Tensor) -> torch.Tensor:
        Gr = G if G.dim() == 3 else G.unsqueeze(0)                              # (R|1, n, n)
        return (theta.unsqueeze(-2) * Gr).sum(dim=-1)                           # (R, n)

    def direction(self, theta: torch.Tensor, G: torch.Tensor, coef: torch.Tensor) -> torch.Tensor:
        return coef                                                              # (R, n)


@dataclass(frozen=True)
class TwoLayer:
    """h(x; W) = sum_j s_j phi(w_j^T x) with fixed outputs s, W of shape (R, m, d).

    phi = "quadratic" (z^2, degree 2, spec §2.3) or "relu" (degree 1). Only W is trained.
    """

    s: tuple[float, ...] = (1.0, -1.0)
    activation: str = "quadratic"

    def __post_init__(self):
        if self.activation not in ("quadratic", "relu"):
            raise ValueError(f"TwoLayer: activation = {self.activation!r}; allowed: "
                             "'quadratic', 'relu'")

    @property
    def degree(self) -> int:
        return 2 if self.activation == "quadratic" else 1

    @property
    def name(self) -> str:
        return f"two-layer {self.activation}"

    def _s(self, like: torch.Tensor) -> torch.Tensor:
        return _signs(self.s, like.dtype, like.device)

    def _phi(self, z: torch.Tensor) -> torch.Tensor:
        return z * z if self.activation == "quadratic" else torch.relu(z)

    def _dphi(self, z: torch.Tensor) -> torch.Tensor:
        return 2 * z if self.activation == "quadratic" else (z > 0).to(z.dtype)

    def project(self, theta: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return _project(theta, B)                                               # (R, m, n)

    def output(self, theta: torch.Tensor, B: torch.Tensor,
               pre: torch.Tensor | None = None) -> torch.Tensor:
        pre = _project(theta, B) if pre is None else pre                        # (R, m, n)
        return torch.einsum("m,rmn->rn", self._s(theta), self._phi(pre))        # (R, n)

    def direction(self, theta: torch.Tensor, B: torch.Tensor, coef: torch.Tensor,
                  pre: torch.Tensor | None = None) -> torch.Tensor:
        pre = _project(theta, B) if pre is None else pre                        # (R, m, n)
        c = coef[:, None, :] * self._s(theta)[None, :, None] * self._dphi(pre)  # (R, m, n)
        return _combine(c, B)                                                    # (R, m, d)


@cache
def _signs(s: tuple[float, ...], dtype: torch.dtype, device: torch.device) -> torch.Tensor:
    """The fixed output weights as a tensor, made once per dtype: a new tensor every step was
    three of a span step's ~37 dispatched ops (bench/gd_perceptron_span.py)."""
    return torch.tensor(s, dtype=dtype, device=device)


def make_model(kind: str, m: int = 2, activation: str = "quadratic"):
    """The swappable model entry point: "linear" or "two_layer" (outputs s = +-1 alternating)."""
    if kind == "linear":
        return Linear()
    if kind == "two_layer":
        if m < 1:
            raise ValueError(f"make_model: m = {m}; allowed: m >= 1")
        return TwoLayer(s=tuple(1.0 if j % 2 == 0 else -1.0 for j in range(m)),
                        activation=activation)
    raise ValueError(f"make_model: kind = {kind!r}; allowed: 'linear', 'two_layer'")
