"""The BSNP network of the release, written afresh (spec §1.4): RBF deposit, CNN, latent, decoder.

Encoder (Eq. 7-11): the context is deposited on a uniform grid s_1..s_M of [0, 1] with an RBF
kernel (learnable length-scale), a density channel and a lam-embedding are stacked on it, a CNN
gives grid features g_m, mean pooling gives the latent Gaussian q(z). Decoder (Eq. 12-13):
q_m = Head([g_m, z]); the query point reads sum_m alpha_m(x) q_m with normalised RBF weights, and
two linear heads give mu and sigma = softplus(.) + 1e-4. Because the heads are linear, mu(x) is a
normalised kernel sum N(x) / K(x) of per-node values, so its x-derivatives have a closed form
(`mean_derivatives`): the physics term needs no double backward.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

EPS = 1e-6          # guards the kernel normalisation (release value)
SIGMA_MIN = 1e-4    # floor of the predictive std (release value)


@dataclass(frozen=True)
class Sizes:
    """Network sizes of one profile (spec §3 table)."""

    grid: int = 32
    channels: tuple[int, ...] = (32, 32, 32)
    kernel: int = 5
    latent: int = 16
    hidden: int = 32
    lam_embed: int = 16
    rho0: float = 0.15
    decoder_rho: float | None = None     # None: learned from rho0; a number: fixed (stress arm)


def _mlp(i: int, h: int, o: int) -> nn.Sequential:
    return nn.Sequential(nn.Linear(i, h), nn.SiLU(), nn.Linear(h, o))


def _kernel_sum(k: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
    """sum_m k[b, n, m] c[..., b, m] as one batched matmul: (..., B, N)."""
    return (k @ c[..., None])[..., 0]


def rbf(diff: torch.Tensor, rho: torch.Tensor) -> torch.Tensor:
    """exp(-diff^2 / (2 rho^2))."""
    return torch.exp(-0.5 * diff.square() / rho.square())


class BSNP(nn.Module):
    """Encoder, latent and decoder; every tensor method says its axes."""

    def __init__(self, sizes: Sizes):
        super().__init__()
        self.sizes = sizes
        self.register_buffer("s", torch.linspace(0.0, 1.0, sizes.grid))
        self.log_rho_enc = nn.Parameter(torch.tensor(sizes.rho0).log())
        self.phi_y = nn.Linear(1, 1)
        self.phi_lam = _mlp(2, sizes.lam_embed, sizes.lam_embed)
        layers, c_in = [], 2 + sizes.lam_embed
        for c in sizes.channels:
            layers += [nn.Conv1d(c_in, c, sizes.kernel, padding=sizes.kernel // 2),
                       nn.GroupNorm(min(8, c), c), nn.SiLU()]
            c_in = c
        self.cnn = nn.Sequential(*layers)
        self.psi = nn.Linear(c_in, c_in)
        self.to_mean = nn.Linear(c_in, sizes.latent)
        self.to_logvar = nn.Linear(c_in, sizes.latent)
        self.head = _mlp(c_in + sizes.latent, sizes.hidden, sizes.hidden)
        self.mu_head = nn.Linear(sizes.hidden, 1)
        self.sigma_head = nn.Linear(sizes.hidden, 1)
        rho_dec = sizes.rho0 if sizes.decoder_rho is None else sizes.decoder_rho
        self.log_rho_dec = nn.Parameter(torch.tensor(float(rho_dec)).log(),
                                        requires_grad=sizes.decoder_rho is None)

    def deposit(self, x: torch.Tensor, y: torch.Tensor, mask: torch.Tensor,
                lam: torch.Tensor) -> torch.Tensor:
        """Grid input channels [h, density, lam-embedding]: (B, 2 + E, M)."""
        k = rbf(self.s[None, :, None] - x[:, None, :], self.log_rho_enc.exp())   # (B, M, N)
        k = k * mask[:, None, :].to(k.dtype)
        dens = k.sum(-1)                                                         # (B, M)
        h = (k * self.phi_y(y[..., None])[..., 0][:, None, :]).sum(-1) / (dens + EPS)
        emb = self.phi_lam(lam)[:, :, None].expand(-1, -1, self.sizes.grid)     # (B, E, M)
        return torch.cat([h[:, None], dens[:, None], emb], dim=1)

    def encode(self, x: torch.Tensor, y: torch.Tensor, mask: torch.Tensor, lam: torch.Tensor
               ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Grid features g (B, M, C), latent mean and log-variance (B, L)."""
        g = self.cnn(self.deposit(x, y, mask, lam)).transpose(1, 2)             # (B, M, C)
        r = self.psi(g).mean(dim=1)                                              # (B, C)
        return g, self.to_mean(r), self.to_logvar(r)

    def node_values(self, g: torch.Tensor, z: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Per-node mean and sigma pre-activations without bias: (..., B, M) each, for z of axes
        (..., B, L) (a leading sample axis is allowed)."""
        zz = z[..., None, :].expand(*z.shape[:-1], g.shape[1], z.shape[-1])    # (..., B, M, L)
        q = self.head(torch.cat([g.expand(*zz.shape[:-1], g.shape[-1]), zz], dim=-1))
        return (q @ self.mu_head.weight[0]), (q @ self.sigma_head.weight[0])  # (..., B, M)

    def _weights(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """Decoder kernel k_m(x) and its first two x-derivatives, axes (B, N, M)."""
        rho2 = self.log_rho_dec.exp().square()
        diff = x[..., None] - self.s                                             # (B, N, M)
        k = torch.exp(-0.5 * diff.square() / rho2)
        return k, -diff / rho2 * k, (diff.square() / rho2 - 1.0) / rho2 * k

    def decode(self, g: torch.Tensor, z: torch.Tensor, x: torch.Tensor
               ) -> tuple[torch.Tensor, torch.Tensor]:
        """Predictive mean and std at x (B, N): outputs (..., B, N)."""
        cm, cs = self.node_values(g, z)
        k = self._weights(x)[0]
        norm = k.sum(-1) + EPS                                                   # (B, N)
        mu = _kernel_sum(k, cm) / norm + self.mu_head.bias
        pre = _kernel_sum(k, cs) / norm + self.sigma_head.bias
        return mu, nn.functional.softplus(pre) + SIGMA_MIN

    def field_derivatives(self, g: torch.Tensor, z: torch.Tensor, x: torch.Tensor,
                          sigma: bool = False) -> dict[str, torch.Tensor]:
        """mu, mu', mu'' at x in closed form (and sigma, sigma', sigma'' if asked): each (B, N).
        For m = N / D with N = sum k_m c_m, D = sum k_m + eps:
        m' = (N' - m D') / D, m'' = (N'' - 2 m' D' - m D'') / D."""
        cm, cs = self.node_values(g, z)
        k, k1, k2 = self._weights(x)
        d0, d1, d2 = k.sum(-1) + EPS, k1.sum(-1), k2.sum(-1)

        def ratio(c: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
            m = _kernel_sum(k, c) / d0
            m1 = (_kernel_sum(k1, c) - m * d1) / d0
            m2 = (_kernel_sum(k2, c) - 2 * m1 * d1 - m * d2) / d0
            return m, m1, m2

        m, m1, m2 = ratio(cm)
        out = {"mu": m + self.mu_head.bias, "mu1": m1, "mu2": m2}
        if sigma:
            p, p1, p2 = ratio(cs)
            p = p + self.sigma_head.bias
            sg = torch.sigmoid(p)                     # softplus' = sigmoid, sigmoid' = sg(1-sg)
            out.update(sigma=nn.functional.softplus(p) + SIGMA_MIN, sigma1=sg * p1,
                       sigma2=sg * (1 - sg) * p1.square() + sg * p2)
        return out
