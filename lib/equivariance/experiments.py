"""Composite experiments the notebooks call in one line (loops over cases live here, not in
notebooks). E1: planted recovery (spec §4 E1)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lib.equivariance import construct, groups, latent, mlp, sym
from lib.equivariance.groups import Group


@dataclass
class RecoveryCase:
    """Everything E1 checks for one (group, activation)."""

    group: Group
    act: str
    kind: str
    theta: list
    scrambled: list
    twisted: list
    planted_rho: list          # dense, on the unscrambled parameter
    expected_rho: list         # s rho0 s^{-1}: what the construction predicts after scrambling
    rho: list                  # recovered k^{-1}
    rho_naive: list            # recovered k (wrong)
    equivariance: float
    scramble_fn: float
    residual: float
    min_gap: float
    layerwise: np.ndarray
    hom_defect: float
    failing_inverse: int
    failing_naive: int
    noncommuting: int
    characters: list
    expected_characters: list
    expected_gap: float        # max |rho - expected_rho|


def twisted_characters(group: Group, act: str) -> list[np.ndarray]:
    """Non-trivial sign characters occurring in rho_in (tanh only: sign flips lie in K)."""
    if act != "tanh":
        return []
    return [c for c in groups.sign_characters(group)
            if (c != 1).any() and construct.isotypic_multiplicity(group, c) > 0]


def recovery_case(group: Group, act: str, channels: list[int], rng: np.random.Generator,
                  n_samples: int) -> RecoveryCase:
    """Plant, scramble by a random latent symmetry s, recover k(g), build rho = k^{-1}."""
    kind = mlp.KIND[act]
    tw = twisted_characters(group, act)
    theta = construct.planted_mlp(group, channels, rng, twisted=tw)
    s = sym.random_K(theta, kind, rng)
    scr = sym.apply_K(theta, s)
    X = rng.normal(size=(n_samples, group.dim))
    rec = latent.recover(scr, group, group, kind)
    rho, rho_naive = latent.latent_actions(rec), latent.latent_actions(rec, naive=True)
    planted = construct.planted_action(group, channels, tw)
    expected = [np.einsum("ij,gjk,kl->gil", k.dense(), r, k.inverse().dense())
                for k, r in zip(s, planted)]
    return RecoveryCase(
        group, act, kind, theta, scr, tw, planted, expected, rho, rho_naive,
        equivariance=latent.equivariance_error(theta, act, group, group, X),
        scramble_fn=mlp.same_function(theta, scr, X, act),
        residual=float(max(rec.residuals.max(), rec.final.max())),
        min_gap=float(rec.gaps.min()),
        layerwise=latent.layerwise_errors(scr, act, rho, group, group, rng),
        hom_defect=float(max(latent.homomorphism_defects(r, group).max() for r in rho)),
        failing_inverse=sum(latent.failing_pairs(r, group, 1e-9) for r in rho),
        failing_naive=max(latent.failing_pairs(r, group, 1e-9) for r in rho_naive),
        noncommuting=latent.noncommuting_pairs(group),
        characters=latent.characters(rho),
        expected_characters=construct.planted_characters(group, channels, tw),
        expected_gap=float(max(np.abs(a - b).max() for a, b in zip(rho, expected))))


def recovery_suite(groups_: list[Group], acts: list[str], channels: list[int],
                   rng: np.random.Generator, n_samples: int) -> list[RecoveryCase]:
    return [recovery_case(g, a, channels, rng, n_samples) for g in groups_ for a in acts]


def suite_table(cases: list[RecoveryCase]):
    """One row per case (pandas DataFrame)."""
    import pandas as pd
    return pd.DataFrame([{
        "group": c.group.name, "order": c.group.order, "act": c.act, "twisted": len(c.twisted),
        "widths": "-".join(str(r.shape[1]) for r in c.rho),
        "end_to_end_err": c.equivariance, "scramble_fn_err": c.scramble_fn,
        "match_residual": c.residual, "min_gap": c.min_gap,
        "layerwise_err_max": float(c.layerwise.max()), "hom_defect": c.hom_defect,
        "failing_pairs_rho_inv_k": c.failing_inverse, "failing_pairs_rho_k": c.failing_naive,
        "noncommuting_pairs": c.noncommuting, "rho_vs_planted": c.expected_gap,
        "chars": ";".join(str(np.rint(ch).astype(int).tolist()) for ch in c.characters)}
        for c in cases])
