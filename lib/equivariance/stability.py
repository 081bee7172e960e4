"""E8: approximate equivariance and the (missing) stability of the construction (spec §4 E8,
§7 item 10). Perturb an exactly equivariant planted parameter and follow every quantity of the
proof construction; then approach a degenerate parameter (two channels at distance delta)."""
from __future__ import annotations

import numpy as np

from lib.equivariance import construct, latent, metrics
from lib.equivariance.groups import Group
from lib.equivariance.mlp import Theta


def perturb(theta: Theta, eps: float, rng: np.random.Generator) -> Theta:
    """theta + eps * N(0, 1) scaled per layer by the layer's RMS entry (relative noise)."""
    out = []
    for W, b in theta:
        s = np.sqrt(np.mean(np.concatenate([W.ravel(), b]) ** 2))
        out.append((W + eps * s * rng.normal(size=W.shape), b + eps * s * rng.normal(size=b.shape)))
    return out


def construction_report(theta: Theta, group: Group, act: str, kind: str, X: np.ndarray,
                        X_fit: np.ndarray, rng: np.random.Generator, reference=None) -> dict:
    """Every quantity of the proof construction at one (approximately equivariant) theta."""
    rec = latent.recover(theta, group, group, kind)
    rho = latent.latent_actions(rec)
    out = {"end_to_end": latent.equivariance_error(theta, act, group, group, X),
           "match_residual": float(max(rec.residuals.max(), rec.final.max())),
           "gap": float(rec.gaps.min()),
           "layerwise": float(latent.layerwise_errors(theta, act, rho, group, group, rng,
                                                      n=256).max()),
           "failing_pairs": int(sum(latent.failing_pairs(r, group, 1e-9) for r in rho)),
           "lv1": float(metrics.lv_errors_group(theta, act, group, X_fit, X)[0])}
    if reference is not None:
        out["same_action"] = bool(all(np.array_equal(np.rint(a), np.rint(b))
                                      for a, b in zip(rho, reference)))
    return out, rho


def eps_scan(theta: Theta, group: Group, act: str, kind: str, eps: list[float], X, X_fit,
             rng: np.random.Generator):
    """construction_report along theta + eps noise (one noise draw per eps)."""
    import pandas as pd
    _, ref = construction_report(theta, group, act, kind, X, X_fit, rng)
    rows = [{"eps": e, **construction_report(perturb(theta, e, rng), group, act, kind, X, X_fit,
                                             rng, ref)[0]}
            for e in eps]
    return pd.DataFrame(rows)


def near_duplicate(group: Group, delta: float, rng: np.random.Generator) -> Theta:
    """Planted net (channels [2, 1]) whose two layer-1 channels differ by delta (relative):
    exactly equivariant for every delta, degenerate (duplicated channel) at delta = 0."""
    w = rng.normal(size=group.dim)
    u = rng.normal(size=group.dim)
    b = rng.normal() * 0.5
    filt = np.stack([w, w + delta * np.linalg.norm(w) / np.linalg.norm(u) * u])
    return construct.planted_mlp(group, [2, 1], rng, filters=filt, biases=np.array([b, b]))


def delta_scan(group: Group, act: str, kind: str, deltas: list[float], eps: float, X, X_fit,
               rng: np.random.Generator, seed: int):
    """At fixed noise eps, move the two channels together (delta -> 0); same base draw for all
    delta (generator re-seeded), fresh noise draws."""
    import pandas as pd
    rows = []
    for dlt in deltas:
        theta = near_duplicate(group, dlt, np.random.default_rng(seed))
        rep, _ = construction_report(perturb(theta, eps, rng), group, act, kind, X, X_fit, rng)
        rows.append({"delta": dlt, **rep})
    return pd.DataFrame(rows)
