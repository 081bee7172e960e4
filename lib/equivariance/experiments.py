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


@dataclass
class StudentRun:
    """One sweep run of teacher–student training (spec §4 E4/E5): one student per seed, all of
    one activation and condition, with the data the notebook's rng drew for them (float64)."""

    label: str                 # the condition, as the tables name it
    act: str
    X: np.ndarray              # (seeds, |G| N, d) training inputs, augmented where wanted
    Y: np.ndarray              # (seeds, |G| N, d_L) their targets
    X_test: np.ndarray         # (n_test, d) fresh isotropic inputs for the checkpoints
    Y_test: np.ndarray         # (n_test, d_L)
    X_fit: np.ndarray          # (n_fit, d) LV fit sample
    X_eval: np.ndarray         # (n_test, d) final evaluation inputs
    inits: list[int]           # one init seed per student
    batch_seed: int            # this run's minibatch (and penalty element) generator
    penalty: float             # soft-penalty weight in the second half of training (0: none)


def draw_runs(target, group: Group, acts: list[str], laws: list[tuple[str, bool]],
              seeds: list[int], n_train: int, n_test: int, n_fit: int, rng: np.random.Generator,
              labels: list[str], penalties: list[float] | None = None) -> list[StudentRun]:
    """The notebook rng's draws for one run per (acts[m], laws[m], labels[m]), a student per
    seed; target(m, X) gives run m's targets. Drawn in the order of the former single batched
    program (data run by run and seed by seed, test and fit inputs, every init seed, one
    minibatch seed, evaluation inputs), so data, inits and later draws are as they were; run m
    seeds its minibatches from SeedSequence([that seed, m]), its own stream in any executor."""
    from lib.equivariance import train
    d, S = group.dim, len(seeds)
    data = [[train.augment(Z, target(m, Z), group.mats, laws[m][1])
             for _ in seeds for Z in [input_law(laws[m][0], n_train, d, rng)]]
            for m in range(len(acts))]
    Xt, Xf = rng.normal(size=(n_test, d)), rng.normal(size=(n_fit, d))
    inits = rng.integers(2 ** 31, size=len(acts) * S).reshape(len(acts), S)
    batch_seed = int(rng.integers(2 ** 31))
    Xe = rng.normal(size=(n_test, d))
    return [StudentRun(labels[m], acts[m], np.stack([x for x, _ in data[m]]),
                       np.stack([y for _, y in data[m]]), Xt, target(m, Xt), Xf, Xe,
                       inits[m].tolist(),
                       int(np.random.SeedSequence([batch_seed, m]).generate_state(1)[0]),
                       0.0 if penalties is None else float(penalties[m]))
            for m in range(len(acts))]


def train_run(run: StudentRun, group: Group, widths: list[int], steps: int, lr: float,
              batch: int, log_every: int, controls: dict):
    """One sweep run (one torch thread): its students trained in one batched float32 program,
    then analysed in float64; randomness only from the run's own init and minibatch seeds.
    Returns the checkpoint history, float64 parameters and one `student_report` row each."""
    import torch

    from lib.equivariance import train
    f32, S = torch.float32, len(run.inits)
    students = train.init_students(widths, run.act, run.inits, dtype=f32)
    gens = [group.words.index(w) for w in group.words if len(w) == 1]      # generators
    pen = torch.full((S,), run.penalty, dtype=f32) if run.penalty else None
    hist = train.fit(students, torch.tensor(run.X, dtype=f32), torch.tensor(run.Y, dtype=f32),
                     torch.tensor(group.mats, dtype=f32), steps, lr, batch, run.batch_seed,
                     log_every, torch.tensor(run.X_test, dtype=f32).expand(S, -1, -1),
                     torch.tensor(run.Y_test, dtype=f32).expand(S, -1, -1),
                     torch.tensor(run.X_fit, dtype=f32).expand(S, -1, -1), gens, pen)
    thetas = [[(W.astype(np.float64), b.astype(np.float64)) for W, b in th]
              for th in students.to_numpy()]
    reports = [student_report(th, run.act, group, controls, run.X_fit, run.X_eval)
               for th in thetas]
    return hist, thetas, reports


def train_students(runs: list[StudentRun], group: Group, seeds: list[int], widths: list[int],
                   steps: int, lr: float, batch: int, log_every: int, controls: dict, cfg,
                   notebook: str):
    """Every run of `draw_runs` through the sweep engine (cfg's executor), then (history, final)
    DataFrames, rows by checkpoint, run and seed, and the float64 parameters (spec §4 E4/E5)."""
    import pandas as pd

    from lib.companion import sweep
    out = sweep.run_params(train_run, [(r, group, widths, steps, lr, batch, log_every, controls)
                                       for r in runs], cfg, notebook,
                           labels=[f"{r.label} {'x'.join(map(str, widths))}" for r in runs])
    names = [(r.label, r.act, s) for r in runs for s in seeds]
    curves = {key: np.concatenate([np.stack(getattr(h, key)) for h, _, _ in out], axis=1)
              for key in ("rel_mse", "equiv", "lv1")}                 # (checkpoints, students)
    history = pd.DataFrame([{"condition": c, "act": a, "seed": s, "step": st,
                             "rel_mse": float(curves["rel_mse"][i, k]),
                             "equivariance": float(curves["equiv"][i, k]),
                             "lv1": float(curves["lv1"][i, k])}
                            for i, st in enumerate(out[0][0].steps)
                            for k, (c, a, s) in enumerate(names)])
    reports = [rep for _, _, reps in out for rep in reps]
    final = pd.DataFrame([{"condition": c, "act": a, "seed": s,
                           "rel_mse": float(curves["rel_mse"][-1, k]),
                           **reports[k]} for k, (c, a, s) in enumerate(names)])
    return history, final, [th for _, ths, _ in out for th in ths]


def emergence(teacher, group: Group, act: str, conditions: list[tuple], seeds: list[int],
              widths: list[int], steps: int, lr: float, batch: int, n_train: int, n_test: int,
              n_fit: int, log_every: int, rng: np.random.Generator, controls: dict, cfg,
              notebook: str):
    """E4: one teacher, students of its activation, one sweep run per condition
    (law, augment[, penalty lambda]) with a student per seed."""
    labels = [f"{c[0]}{'+aug' if c[1] else ''}{f'+penalty{c[2]:g}' if len(c) > 2 and c[2] else ''}"
              for c in conditions]
    runs = draw_runs(lambda m, Z: mlp.forward(teacher, Z, act), group, [act] * len(conditions),
                     [c[:2] for c in conditions], seeds, n_train, n_test, n_fit, rng, labels,
                     [float(c[2]) if len(c) > 2 else 0.0 for c in conditions])
    return train_students(runs, group, seeds, widths, steps, lr, batch, log_every, controls,
                          cfg, notebook)


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
