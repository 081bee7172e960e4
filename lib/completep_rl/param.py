"""The two parameterisations as one table (spec §1.2): per tensor the init variance, forward
multiplier and LR multiplier, plus the residual factor and Adam's epsilon multiplier."""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import torch

N0, L0 = 16, 1          # base shape (spec §1.1)
TENSORS = ("w_in", "b_in", "w_hid", "w_out")
PARAMS = ("completep", "ntk")
NTK_VARIANTS = ("adam_fixed_lr", "adam_lazy")


@dataclass(frozen=True)
class Rule:
    """One tensor's rule: raw init variance, squared forward multiplier, LR multiplier squared
    (kept squared so that square roots stay exact Fractions)."""

    init_var: Fraction
    mult_sq: Fraction
    lr_sq: Fraction

    @property
    def effective_var(self) -> Fraction:
        """Variance of the entry as the forward pass sees it (init variance x multiplier^2)."""
        return self.init_var * self.mult_sq


@dataclass(frozen=True)
class Table:
    """Everything the parameterisation fixes for width n, depth depth (spec §1.2)."""

    rules: dict[str, Rule]
    beta_sq: Fraction       # residual factor squared
    eps_mult: Fraction      # Adam epsilon multiplier


def table(param: str, n: int, depth: int, d_in: int, ntk_variant: str = "adam_fixed_lr") -> Table:
    """The spec §1.2 table at width n, depth `depth`, input size d_in, in exact arithmetic."""
    m_n, m_l = Fraction(n, N0), Fraction(depth, L0)
    if param == "completep":
        rules = {"w_in": Rule(Fraction(1, d_in), Fraction(1), Fraction(1)),
                 "b_in": Rule(Fraction(0), Fraction(1), Fraction(1)),
                 "w_hid": Rule(Fraction(1, n), Fraction(1), 1 / m_n ** 2),
                 "w_out": Rule(1 / (n * m_n), Fraction(1), 1 / m_n ** 2)}
        return Table(rules, 1 / m_l ** 2, 1 / (m_n * m_l))
    if param != "ntk":
        raise ValueError(f"param = {param!r}; allowed: {PARAMS}")
    if ntk_variant not in NTK_VARIANTS:
        raise ValueError(f"ntk_variant = {ntk_variant!r}; allowed: {NTK_VARIANTS}")
    lr_sq = Fraction(1) if ntk_variant == "adam_fixed_lr" else 1 / m_n
    rules = {"w_in": Rule(Fraction(1), Fraction(1, d_in), lr_sq),
             "b_in": Rule(Fraction(0), Fraction(1), Fraction(1)),
             "w_hid": Rule(Fraction(1), Fraction(1, n), lr_sq),
             "w_out": Rule(Fraction(1), Fraction(1, n), lr_sq)}
    return Table(rules, 1 / m_l, Fraction(1))


def shapes(n: int, depth: int, d_in: int, members: int) -> dict[str, tuple[int, ...]]:
    """Tensor shapes of an ensemble of `members` residual MLPs with scalar output."""
    return {"w_in": (members, d_in, n), "b_in": (members, 1, n),
            "w_hid": (members, depth, n, n), "w_out": (members, n, 1)}


def make_mlp(param: str, n: int, depth: int, d_in: int, members: int, gen: torch.Generator,
             ntk_variant: str = "adam_fixed_lr",
             dtype: torch.dtype = torch.float64) -> tuple[dict[str, torch.Tensor], Table]:
    """Weights of an ensemble drawn by the table (one draw per member), and the table."""
    tab = table(param, n, depth, d_in, ntk_variant)
    weights = {}
    for name, shape in shapes(n, depth, d_in, members).items():
        std = math.sqrt(tab.rules[name].init_var)
        weights[name] = (torch.randn(shape, generator=gen, dtype=dtype) * std).requires_grad_()
    return weights, tab


def forward(weights: dict[str, torch.Tensor], tab: Table,
            x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Outputs f (members, batch) and last hidden pre-activations h_L (members, batch, n)."""
    mult = {k: math.sqrt(r.mult_sq) for k, r in tab.rules.items()}
    beta = math.sqrt(tab.beta_sq)
    h = torch.matmul(x, weights["w_in"]) * mult["w_in"] + weights["b_in"]
    for layer in range(weights["w_hid"].shape[1]):
        h = h + beta * mult["w_hid"] * torch.bmm(torch.relu(h), weights["w_hid"][:, layer])
    f = torch.bmm(torch.relu(h), weights["w_out"])[..., 0] * mult["w_out"]
    return f, h
