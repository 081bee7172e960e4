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


# ---------------------------------------------------------------- E4: emergence during training
ANISO = (0.3, 1.7, 0.8)   # spec §4 E4 (c): x -> x diag(linspace(0.3, 1.7)) + 0.8


def input_law(law: str, n: int, d: int, rng: np.random.Generator) -> np.ndarray:
    """'iso': N(0, I); 'aniso': the non-invariant law of spec §4 E4 (c)."""
    Z = rng.normal(size=(n, d))
    if law == "aniso":
        lo, hi, shift = ANISO
        Z = Z * np.linspace(lo, hi, d) + shift
    return Z


def projected_action(theta, act, group: Group, X_fit: np.ndarray, layer: int):
    """Fitted maps M(g) (h(gx) ≈ M h(x) + c) projected to the nearest element of the activation's
    finite latent group (tanh: signed permutation; ReLU, GELU: positive entries on a permutation
    support): (|G|, d, d) stack, and the largest off-support mass over g (0 = monomial)."""
    from lib.equivariance import metrics
    positive = act != "tanh"
    fits = [metrics.nearest_signed_perm(metrics.fitted_map(theta, act, group.mats[g], X_fit, layer),
                                        positive=positive)
            for g in range(group.order)]
    return np.stack([f.dense() for f in fits]), max(f.off_support for f in fits)


def student_report(theta, act, group: Group, controls: dict, X_fit, X_eval) -> dict:
    """Final float64 analysis of one trained student (spec §4 E4/E5 metrics)."""
    from lib.equivariance import metrics
    out = {"equivariance": latent.equivariance_error_median(theta, act, group, group, X_eval)}
    lv = metrics.lv_errors_group(theta, act, group, X_fit, X_eval)
    for i, v in enumerate(lv):
        out[f"lv{i + 1}"] = float(v)
    for name, R in controls.items():
        out[f"control_{name}"] = float(metrics.lv_errors(theta, act, R, X_fit, X_eval)[0])
    for i in range(len(lv)):
        P, off = projected_action(theta, act, group, X_fit, i)
        out[f"off_support{i + 1}"] = float(off)
        out[f"hom_failing{i + 1}"] = latent.failing_pairs(P, group, 1e-9)
        out[f"char{i + 1}"] = tuple(np.rint(np.trace(P, axis1=1, axis2=2)).astype(int).tolist())
    out["bypass_pairs1"] = metrics.bypass_pairs(theta, 0)
    _, H = mlp.forward(theta, X_eval, act, return_hidden=True)
    out["dead1"] = int((np.abs(H[0]).max(axis=0) < 1e-6).sum()) if act == "relu" else 0
    out["min_active_share1"] = float((H[0] > 0).mean(axis=0).min()) if act == "relu" else 1.0
    return out


def rel_mse(theta, act, X: np.ndarray, Y: np.ndarray) -> float:
    """Relative mean squared error ||f(X) - Y||^2 / ||Y||^2 of one float64 parameter."""
    return float(((mlp.forward(theta, X, act) - Y) ** 2).sum() / (Y ** 2).sum())


def train_students(target, group: Group, acts: list[str], laws: list[tuple[str, bool]],
                   seeds: list[int], widths: list[int], steps: int, lr: float, batch: int,
                   n_train: int, n_test: int, n_fit: int, log_every: int, rng: np.random.Generator,
                   controls: dict, labels: list[str], penalties: list[float] | None = None):
    """Train one student per (acts[m], laws[m], seed) at once; target(m, X) gives model m's
    targets; penalties[m] weights a soft equivariance loss in the second half (0 = none).
    Returns (history, final) DataFrames and float64 parameters (spec §4 E4/E5)."""
    import pandas as pd
    import torch

    from lib.equivariance import train
    d = group.dim
    models = [(m, s) for m in range(len(acts)) for s in seeds]
    data = [train.augment(Z, target(m, Z), group.mats, laws[m][1])
            for m, _ in models for Z in [input_law(laws[m][0], n_train, d, rng)]]
    f32 = torch.float32
    X = torch.tensor(np.stack([x for x, _ in data]), dtype=f32)             # (M, |G| N, d)
    Y = torch.tensor(np.stack([y for _, y in data]), dtype=f32)
    M = X.shape[0]
    Xt_np, Xf_np = rng.normal(size=(n_test, d)), rng.normal(size=(n_fit, d))
    Xt = torch.tensor(Xt_np, dtype=f32).expand(M, -1, -1)
    Yt = torch.tensor(np.stack([target(m, Xt_np) for m, _ in models]), dtype=f32)
    Xf = torch.tensor(Xf_np, dtype=f32).expand(M, -1, -1)
    inits = rng.integers(2 ** 31, size=len(models))              # from the notebook's seed
    students = train.init_students(widths, [acts[m] for m, _ in models], inits.tolist(), dtype=f32)
    gens = [group.words.index(w) for w in group.words if len(w) == 1]      # generators
    pen = None if penalties is None else torch.tensor([penalties[m] for m, _ in models], dtype=f32)
    hist = train.fit(students, X, Y, torch.tensor(group.mats, dtype=f32), steps, lr, batch,
                     int(rng.integers(2 ** 31)), log_every, Xt, Yt, Xf, gens, pen)
    names = [(labels[m], acts[m], s) for m, s in models]
    history = pd.DataFrame([{"condition": c, "act": a, "seed": s, "step": st,
                             "rel_mse": float(r[k]), "equivariance": float(e[k]),
                             "lv1": float(l[k])}
                            for st, r, e, l in zip(hist.steps, hist.rel_mse, hist.equiv, hist.lv1)
                            for k, (c, a, s) in enumerate(names)])
    thetas = [[(W.astype(np.float64), b.astype(np.float64)) for W, b in th]
              for th in students.to_numpy()]
    Xe_np = rng.normal(size=(n_test, d))
    final = pd.DataFrame([{"condition": c, "act": a, "seed": s,
                           "rel_mse": float(hist.rel_mse[-1][k]),
                           **student_report(thetas[k], a, group, controls, Xf_np, Xe_np)}
                          for k, (c, a, s) in enumerate(names)])
    return history, final, thetas


def emergence(teacher, group: Group, act: str, conditions: list[tuple], seeds: list[int],
              widths: list[int], steps: int, lr: float, batch: int, n_train: int, n_test: int,
              n_fit: int, log_every: int, rng: np.random.Generator, controls: dict):
    """E4: one teacher, students of its activation under several conditions
    (law, augment[, penalty lambda])."""
    labels = [f"{c[0]}{'+aug' if c[1] else ''}{f'+penalty{c[2]:g}' if len(c) > 2 and c[2] else ''}"
              for c in conditions]
    pens = [float(c[2]) if len(c) > 2 else 0.0 for c in conditions]
    return train_students(lambda m, Z: mlp.forward(teacher, Z, act), group, [act] * len(conditions),
                          [c[:2] for c in conditions], seeds, widths, steps, lr, batch, n_train,
                          n_test, n_fit, log_every, rng, controls, labels,
                          pens if any(pens) else None)


def torus_blur(k: int) -> np.ndarray:
    """5-point periodic blur on the k x k torus (commutes with D_4 acting on the grid)."""
    n = k * k
    r, c = np.divmod(np.arange(n), k)
    B = np.eye(n)
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        B[np.arange(n), ((r + dr) % k) * k + (c + dc) % k] += 1.0
    return B / 5.0


def generic_target(k: int):
    """f*(x) = tanh(2 B x) ⊙ x (spec §4 E5): D_4-equivariant and in no MLP model class."""
    B = torus_blur(k)
    return lambda X: np.tanh(2.0 * X @ B.T) * X


# ---------------------------------------------------------------- E3 item 5: connected groups
def connected_scan(ns: list[int], channels: list[int], rng: np.random.Generator, X: np.ndarray,
                   n_angles: int):
    """For each n: a planted tanh net exactly equivariant for C_n acting on R^2 by rotations;
    its C_n recovery residual, characters, its SO(2) error at random angles and the best
    signed-permutation matching residual for the rotation by pi/n (midway between C_n elements)."""
    import pandas as pd

    from lib.equivariance import match
    rows = []
    for n in ns:
        g = groups.rotations_2d(n)
        th = construct.planted_mlp(g, channels, rng)
        rec = latent.recover(th, g, g, "signed_perm")
        chars = latent.characters(latent.latent_actions(rec))
        angles = rng.uniform(0, 2 * np.pi, size=n_angles)
        F = mlp.forward(th, X, "tanh")
        so2 = max(mlp.relative_error(mlp.forward(th, X @ groups.rotation(a).T, "tanh"),
                                     F @ groups.rotation(a).T) for a in angles)
        mid = groups.rotation(np.pi / n)
        rel = match.relate(th, latent.g_on_params(th, mid, mid), "signed_perm")
        rows.append({"n": n, "width1": th[0][0].shape[0],
                     "cn_error": latent.equivariance_error(th, "tanh", g, g, X),
                     "cn_match_residual": float(max(rec.residuals.max(), rec.final.max())),
                     "char_identity": (int(round(chars[0][0]))
                                       if abs(chars[0][0] - round(chars[0][0])) < 1e-9 else -1),
                     "char_max_other": float(np.abs(chars[0][1:]).max()),
                     "so2_error": float(so2), "mid_angle_match_residual": float(rel.max_residual)})
    return pd.DataFrame(rows)
