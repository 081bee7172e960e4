"""The proof construction of Theorem 4.1 / Remark 4.2 (spec §1.7), made executable.

1. g.theta = (W_1 rho_in(g)^{-1}, b_1; theta_2..theta_{L-1}; rho_out(g) W_L, rho_out(g) b_L).
2. relate(theta, g.theta) gives the unique k(g) with g.theta = k(g).theta (identifiable theta).
3. k(gh) = k(h) k(g) (anti-homomorphism), so rho_i(g) := k_i(g)^{-1} is a homomorphism.
4. every layer is then equivariant: f_i(rho_{i-1}(g) x) = rho_i(g) f_i(x).
5. weakly identifiable theta = beta(theta~): lift rho = alpha rho~ alpha* + (I - alpha alpha*).
Representations are stacks (|G|, d, d) of dense matrices so that lifted (non-monomial) actions
are handled by the same checks.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lib.equivariance import mlp
from lib.equivariance.groups import Group
from lib.equivariance.match import Relation, relate
from lib.equivariance.mlp import Theta
from lib.equivariance.sym import Monomial


def g_on_params(theta: Theta, R_in: np.ndarray, R_out: np.ndarray) -> Theta:
    """The adjunction action of spec §1.5 on the outer layers (step 1)."""
    out = mlp.copy(theta)
    W1, b1 = out[0]
    out[0] = (W1 @ np.linalg.inv(R_in), b1)
    WL, bL = out[-1]
    out[-1] = (R_out @ WL, R_out @ bL)
    return out


def equivariance_error(theta: Theta, act, group: Group, rho_out: Group, X: np.ndarray) -> float:
    """max over g of ||f(rho_in(g) x) - rho_out(g) f(x)|| / ||f|| on the sample X (N, d_0)."""
    FX = mlp.forward(theta, X, act)
    errs = [mlp.relative_error(mlp.forward(theta, X @ group.mats[g].T, act), FX @ rho_out.mats[g].T)
            for g in range(group.order)]
    return float(max(errs))


@dataclass
class Recovery:
    """k(g) for every group element: ks[g][i] a Monomial, residuals (|G|, L-1), final (|G|,)."""

    relations: list[Relation]

    @property
    def ks(self) -> list[list[Monomial]]:
        return [r.ks for r in self.relations]

    @property
    def residuals(self) -> np.ndarray:
        return np.array([r.residuals for r in self.relations])

    @property
    def final(self) -> np.ndarray:
        return np.array([r.final_residual for r in self.relations])

    @property
    def gaps(self) -> np.ndarray:
        return np.array([r.gaps for r in self.relations])


def recover(theta: Theta, group: Group, rho_out: Group, kind: str) -> Recovery:
    """Steps 1-2: k(g) from relate(theta, g.theta) for every g."""
    return Recovery([relate(theta, g_on_params(theta, group.mats[g], rho_out.mats[g]), kind)
                     for g in range(group.order)])


def latent_actions(rec: Recovery, naive: bool = False) -> list[np.ndarray]:
    """Step 3: rho_i(g) = k_i(g)^{-1} (the naive, wrong choice rho = k if naive); one
    (|G|, d_i, d_i) stack per hidden layer."""
    n_hidden = len(rec.ks[0])
    return [np.stack([(k[i] if naive else k[i].inverse()).dense() for k in rec.ks])
            for i in range(n_hidden)]


def homomorphism_defects(rho: np.ndarray, group: Group) -> np.ndarray:
    """(|G|, |G|) table of max |rho(gh) - rho(g) rho(h)| entries."""
    prod = np.einsum("gij,hjk->ghik", rho, rho)                  # (G, G, d, d)
    return np.abs(rho[group.table] - prod).max(axis=(2, 3))


def failing_pairs(rho: np.ndarray, group: Group, atol: float) -> int:
    """Number of ordered pairs (g, h) with homomorphism defect above atol."""
    return int((homomorphism_defects(rho, group) > atol).sum())


def noncommuting_pairs(group: Group) -> int:
    """#{(g, h): gh != hg}, read off the multiplication table (independent of any network)."""
    return int((group.table != group.table.T).sum())


def layer_reps(rho: list[np.ndarray], group: Group,
               rho_out: Group) -> list[tuple[np.ndarray, np.ndarray]]:
    """(input action, output action) of every layer: (rho_in, rho_1), ..., (rho_{L-1}, rho_out)."""
    chain = [group.mats] + list(rho) + [rho_out.mats]
    return list(zip(chain[:-1], chain[1:]))


def layerwise_errors(theta: Theta, act, rho: list[np.ndarray], group: Group, rho_out: Group,
                     rng: np.random.Generator, n: int = 512, scale: float = 1.0) -> np.ndarray:
    """Step 4: per layer, max over g of ||f_i(R_in(g) z) - R_out(g) f_i(z)|| / ||f_i(z)|| on
    Gaussian inputs z of the layer's input space (layerwise equivariance is a statement on all
    of V_{i-1}, not only on hidden states reached from data)."""
    errs = []
    for i, (R_in, R_out) in enumerate(layer_reps(rho, group, rho_out)):
        Z = rng.normal(size=(n, R_in.shape[1])) * scale         # (n, d_{i-1})
        FZ = mlp.layer(theta, i, Z, act)
        errs.append(max(mlp.relative_error(mlp.layer(theta, i, Z @ R_in[g].T, act), FZ @ R_out[g].T)
                        for g in range(group.order)))
    return np.array(errs)


def characters(rho: list[np.ndarray]) -> list[np.ndarray]:
    """tr rho_i(g) per layer, (|G|,) each."""
    return [np.trace(r, axis1=1, axis2=2) for r in rho]


def positive_normalizer(rho: np.ndarray) -> np.ndarray:
    """Positive diagonal d with diag(d) rho(g) diag(d)^{-1} a permutation for every g, for a
    positive monomial representation of a finite group (spec §1.8: BFS over neuron orbits with
    d_i = d_{p(i)} / s_i, consistent because stabilizers act with scale 1)."""
    G, d = rho.shape[0], rho.shape[1]
    perms = rho.argmax(axis=2)                                  # (G, d): p_g[i]
    scales = np.take_along_axis(rho, perms[..., None], axis=2)[..., 0]
    dvec = np.full(d, np.nan)
    for start in range(d):
        if not np.isnan(dvec[start]):
            continue
        dvec[start], stack = 1.0, [start]
        while stack:
            j = stack.pop()
            for g in range(G):
                for i in np.nonzero(perms[g] == j)[0]:          # rho(g) moves coordinate j to i
                    if np.isnan(dvec[i]):
                        dvec[i] = dvec[j] / scales[g, i]
                        stack.append(i)
    assert np.isfinite(dvec).all()
    return dvec


def conjugate(rho: np.ndarray, dvec: np.ndarray) -> np.ndarray:
    """diag(d) rho(g) diag(d)^{-1} for every g."""
    return dvec[None, :, None] * rho / dvec[None, None, :]


def lift_action(rho_small: np.ndarray, alpha: np.ndarray, alpha_star: np.ndarray) -> np.ndarray:
    """Step 5: rho(g) = alpha rho~(g) alpha* + (I - alpha alpha*), a homomorphism when
    alpha* alpha = I."""
    proj = np.eye(alpha.shape[0]) - alpha @ alpha_star
    return np.einsum("ij,gjk,kl->gil", alpha, rho_small, alpha_star) + proj[None]


def equivariance_error_median(theta: Theta, act, group: Group, rho_out: Group,
                              X: np.ndarray) -> float:
    """max over g of the median over samples of ||f(gx) - g f(x)|| / ||f(x)|| (trained nets)."""
    FX = mlp.forward(theta, X, act)
    den = np.maximum(np.linalg.norm(FX, axis=1), 1e-300)
    return float(max(np.median(np.linalg.norm(mlp.forward(theta, X @ group.mats[g].T, act)
                                              - FX @ rho_out.mats[g].T, axis=1) / den)
                     for g in range(group.order)))
