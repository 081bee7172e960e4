"""Planted constructions with known answers (spec §4 E1, E3; §5.1 `construct`).

`planted_mlp`: an exactly G-equivariant MLP whose hidden layers carry regular representations
(neurons indexed (h, c), h in G, c a channel) plus optional sign-twisted neurons in layer 1:
  layer 1   row (h, c) = w_c rho_in(h)^{-1}, bias b_c; twisted neuron: w with
            w rho_in(g)^{-1} = chi(g) w, bias 0;
  layer i>1 group convolution W[(h,c),(h',c')] = a[c, c', h^{-1}h'], bias per channel; a column
            from a chi-twisted neuron is v[(h,c)] = t_c chi(h);
  output    W[:, (h,c)] = rho_out(h) u_c, bias in the rho_out-fixed subspace.
Neuron (h, c) sits at index c * |G| + h. The planted latent action is the regular permutation
(rho_i(g) v)[(h,c)] = v[(g^{-1}h, c)] (character |G| C at e, 0 elsewhere) times chi on twisted
neurons, so its character is known in closed form (`planted_characters`).
"""
from __future__ import annotations

import numpy as np

from lib.equivariance.groups import Group
from lib.equivariance.mlp import Theta


def chi_projection(group: Group, chi: np.ndarray, w: np.ndarray) -> np.ndarray:
    """(1/|G|) sum_g chi(g) w rho(g): satisfies v rho(g)^{-1} = chi(g) v."""
    return sum(chi[g] * w @ group.mats[g] for g in range(group.order)) / group.order


def isotypic_multiplicity(group: Group, chi: np.ndarray) -> int:
    """<chi, tr rho> = (1/|G|) sum_g chi(g) tr rho(g): how often chi occurs in rho (an integer)."""
    val = sum(chi[g] * np.trace(group.mats[g]) for g in range(group.order)) / group.order
    return int(np.rint(val))


def fixed_projection(rep: Group, b: np.ndarray) -> np.ndarray:
    """(1/|G|) sum_g rho(g) b, the rho-fixed part of b."""
    return sum(rep.mats[g] @ b for g in range(rep.order)) / rep.order


def planted_mlp(group: Group, channels: list[int], rng: np.random.Generator,
                twisted: list[np.ndarray] = (), rho_out: Group | None = None,
                filters: np.ndarray | None = None, biases: np.ndarray | None = None) -> Theta:
    """An exactly equivariant MLP with len(channels) hidden layers (see module docstring);
    `filters` (channels[0], n) and `biases` (channels[0],) fix the layer-1 channels if given."""
    G, n = group.order, group.dim
    rho_out = rho_out or group
    inv = group.inv
    theta = []
    # layer 1: regular channels then twisted neurons
    w = rng.normal(size=(channels[0], n)) if filters is None else filters
    b0 = rng.normal(size=channels[0]) * 0.5 if biases is None else biases
    rows = [w[c] @ group.mats[inv[h]] for c in range(channels[0]) for h in range(G)]
    bias = list(np.repeat(b0, G))                                   # b_c shared over h
    for chi in twisted:
        if isotypic_multiplicity(group, chi) == 0:
            raise ValueError("sign character does not occur in rho_in: no twisted filter exists")
        v = chi_projection(group, chi, rng.normal(size=n))
        rows.append(v / np.linalg.norm(v) * np.sqrt(n) * 0.5)
        bias.append(0.0)
    theta.append((np.array(rows) / np.sqrt(n), np.array(bias)))
    # group convolutions: hsub[h, h'] = index of h^{-1} h'
    hsub = group.table[inv]                                     # (G, G): [h, h'] -> h^{-1} h'
    prev_c, prev_tw = channels[0], len(twisted)
    for C in channels[1:]:
        a = rng.normal(size=(C, prev_c, G))
        W = np.einsum("cdhk->chdk", a[:, :, hsub])               # (C, G, prev_c, G)
        W = W.reshape(C * G, prev_c * G)                          # rows (c,h), cols (c',h')
        cols = [W]
        for t in range(prev_tw):
            tvec = rng.normal(size=C)
            cols.append(np.outer(tvec, twisted[t]).reshape(C * G, 1))  # v[(h,c)] = t_c chi(h)
        W = np.hstack(cols) / np.sqrt(prev_c * G + prev_tw)
        b = np.repeat(rng.normal(size=C) * 0.5, G)
        theta.append((W, b))
        prev_c, prev_tw = C, 0
    # output
    n_out = rho_out.dim
    u = rng.normal(size=(prev_c, n_out))
    cols = [rho_out.mats[h] @ u[c] for c in range(prev_c) for h in range(G)]
    W = np.array(cols).T
    if prev_tw:
        # a twisted neuron feeds the output through a vector v with rho_out(g) v = chi(g) v
        extra = [fixed_projection_chi(rho_out, chi, rng.normal(size=n_out)) for chi in twisted]
        W = np.hstack([W, np.array(extra).T])
    W = W / np.sqrt(W.shape[1])
    b = fixed_projection(rho_out, rng.normal(size=n_out))
    theta.append((W, b))
    return theta


def fixed_projection_chi(rep: Group, chi: np.ndarray, v: np.ndarray) -> np.ndarray:
    """(1/|G|) sum_g chi(g) rho(g) v: satisfies rho(g) u = chi(g) u."""
    return sum(chi[g] * rep.mats[g] @ v for g in range(rep.order)) / rep.order


def regular_perm(group: Group, channels: int) -> np.ndarray:
    """(|G|, channels*|G|) index arrays p_g with
    (rho(g) v)[(h,c)] = v[p_g[(h,c)]] = v[(g^{-1}h, c)]."""
    G = group.order
    hsrc = group.table[group.inv]                               # (G, G): [g, h] -> g^{-1} h
    return np.stack([np.concatenate([c * G + hsrc[g] for c in range(channels)])
                     for g in range(G)])


def planted_characters(group: Group, channels: list[int],
                       twisted: list[np.ndarray] = ()) -> list[np.ndarray]:
    """Closed-form characters of the planted latent actions, one (|G|,) int array per layer."""
    out = []
    for i, C in enumerate(channels):
        chi = np.zeros(group.order, dtype=int)
        chi[group.identity] = group.order * C
        if i == 0:
            for t in twisted:
                chi = chi + np.asarray(t, dtype=int)
        out.append(chi)
    return out


def planted_action(group: Group, channels: list[int],
                   twisted: list[np.ndarray] = ()) -> list[np.ndarray]:
    """Dense planted latent actions, one (|G|, d_i, d_i) stack per hidden layer: the regular
    permutation (rho(g) v)[(h,c)] = v[(g^{-1}h, c)], times chi(g) on twisted neurons (layer 1)."""
    out = []
    for i, C in enumerate(channels):
        perms = regular_perm(group, C)                         # (|G|, C*|G|)
        d = C * group.order + (len(twisted) if i == 0 else 0)
        rho = np.zeros((group.order, d, d))
        for g in range(group.order):
            rho[g, np.arange(C * group.order), perms[g]] = 1.0
            if i == 0:
                for t, chi in enumerate(twisted):
                    rho[g, C * group.order + t, C * group.order + t] = chi[g]
        out.append(rho)
    return out
