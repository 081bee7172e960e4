# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # E4: students trained on an equivariant identifiable teacher become layerwise equivariant, with a signed-permutation latent action
#
# **Claim ([spec §1.6](../../docs/specs/equivariance.md#s1-6) interpretation: "if training converges to an equivariant function, equivariance
# appears in the layers"; [spec §1.8](../../docs/specs/equivariance.md#s1-8) "augmentation vs architecture"; reconstructed experiment:
# [spec §4](../../docs/specs/equivariance.md#s4) E4).** Theorem 4.1 is about exact equivariance at identifiable parameters; a trained
# network is only close to one. The prediction is that layerwise equivariance, measured by the
# Lenc–Vedaldi (LV) metric, tracks how well the student fits an identifiable equivariant teacher,
# however the equivariance was obtained (augmentation or an invariant input law).
#
# **Reconstructed.** Teacher: the planted $D_4$ tanh net of E1 on 4×4 images (widths 16, 8,
# output action = input action). Students: tanh MLPs of the same widths, trained from scratch under
# five conditions: isotropic Gaussian inputs with/without full-orbit augmentation, the anisotropic
# shifted law of [spec §4](../../docs/specs/equivariance.md#s4) E4 (c) with/without augmentation, and (e) the anisotropic law without
# augmentation but with a soft equivariance penalty in the second half of training (the paper's
# own device). All metrics on fresh isotropic inputs.
#
# **Decisions (spec open or changed).** Adam with lr 3e-2 (not the spec's 3e-3: with 3e-3 our
# students stalled at relative MSE ~1e-2 in earlier runs; whether 3e-2 gets below `fit_ok` is
# `e4.aug.fit`), batch 256, cosine
# decay, float32 training and float64 analysis; `n_seeds` seeds per condition instead of 5
# (2-core budget); condition (e) uses a random non-identity $g$ per step for the soft penalty,
# ramped linearly from 0 at mid-training to its weight $\lambda$ at three quarters, and
# $\lambda$ is chosen from `penalty_grid` by the median relative MSE on a held-out validation
# split drawn from the (anisotropic) training law, never from the isotropic test metrics;
# controls: a random pixel permutation and a Haar-random orthogonal map (not the spec's
# $x\mapsto -x$: tanh is odd, so a linear map explains most of a tanh layer's response to
# $-x$ and that control cannot come out far from equivariant); the wider students only with augmentation on isotropic inputs and width (32, 16). Projected
# action: the least-squares map of each $g$ rounded to the nearest signed permutation (Hungarian).
# The "at least 3 of 5 seeds" rule of the spec becomes "at least 60% of the seeds".
# Each condition is one sweep run (its `n_seeds` students batched; the wide students one more):
# the notebook draws every data set, test input and initialisation seed as before, and each
# run draws its minibatches (and penalty elements) from `SeedSequence([s, condition index])`, `s`
# one seed the notebook draws, so any executor gives the same results; this changed the default
# numbers once, on 2026-12-05, from the shared-stream design (one generator drew every
# student's minibatches, and one penalty element per step, for all conditions at once).
# Every claim hands its replicates (seeds, or students with their checkpoints) to the ledger,
# whose stability is the share of bootstrap resamples repeating the decision (below 0.9:
# `inconclusive`). A comparison between trained arms (`e4.wide.less_monomial`,
# `e4.penalty_vs_none`, `e4.conditions`) requires each arm's median test-MSE curve to have
# stopped falling (< 5 % over its last quarter); unmet, the comparison is `inconclusive`.
#
# **Look for:** in the scatter, layer-1 LV error rising with end-to-end error across all
# conditions and checkpoints; the well-fitted students carrying the planted regular character.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
executor = "inline"  # where the grid's runs go: inline in the kernel (one after the other), debug (in the kernel, through submitit), local subprocesses, or slurm jobs
workers = 1  # runs at once (local) or the SLURM array's parallelism; runs are single-threaded, so the results are the same for any count
slurm_partition = ""  # SLURM partition ('' the cluster's default)
slurm_gpus = 0  # GPUs per SLURM job
slurm_time_min = 240  # a SLURM job's time limit in minutes (≤ 14 days, the runner's paper limit)
grid = 4  # D_4 on 4x4 images
teacher_channels = [2, 1]  # planted teacher widths 16, 8 (spec §4 E4)
steps = 3000  # Adam steps
lr = 0.03  # spec's 3e-3 stalls at rel. MSE 1e-2 in our runs
batch = 256  # minibatch size
n_train = 4096  # training inputs per student before augmentation (spec)
n_test = 4096  # fresh isotropic inputs for the metrics
n_fit = 4000  # LV fit sample, at least 50 x width
log_every = 250  # checkpoint spacing (spec: every 250 steps)
n_seeds = 3  # students per condition (spec: 5; 2-core budget)
fit_ok = 0.001  # relative MSE counted as a good fit (spec §4 E4)
lv_ok = 0.03  # layer-1 LV error counted as equivariant (spec §4 E4)
control_min = 0.3  # controls must exceed this (spec §4 E4)
wide_widths = [32, 16]  # over-parameterized students (spec §4 E4), iso+aug only
penalty_grid = [0.01, 0.1, 1.0]  # soft-penalty weights of condition (e), chosen on a validation split
n_val = 2048  # validation inputs from the anisotropic training law (penalty selection)

# %%
import numpy as np
import pandas as pd
import torch
from IPython.display import Markdown

from lib.companion import notebook, plotting, rules
from lib.equivariance import construct, decisions, experiments, groups, metrics, mlp

nb = notebook.start("equivariance/04_training_emergence", globals())
cfg, ledger, rng, tables = nb.cfg, nb.ledger, nb.rng, nb.tables
torch.use_deterministic_algorithms(True)  # history.csv identical run to run
D4 = groups.d4_grid(cfg.grid)
n = cfg.grid ** 2
teacher = construct.planted_mlp(D4, cfg.teacher_channels, rng)
widths = [n] + [c * D4.order for c in cfg.teacher_channels] + [n]
controls = {"random_perm": groups.control_permutation(n, rng),
            "random_orthogonal": groups.control_orthogonal(n, rng)}
CONDITIONS = [("iso", True), ("iso", False), ("aniso", True), ("aniso", False)] + [
    ("aniso", False, lam) for lam in cfg.penalty_grid]             # (e): soft penalty, no augmentation

# %%
history, final, thetas = experiments.emergence(
    teacher, D4, "tanh", CONDITIONS, list(range(cfg.n_seeds)), widths, cfg.steps, cfg.lr, cfg.batch,
    cfg.n_train, cfg.n_test, cfg.n_fit, cfg.log_every, rng, controls, cfg, nb.id)
X_val = experiments.input_law("aniso", cfg.n_val, n, rng)         # validation split, training law
Y_val = mlp.forward(teacher, X_val, "tanh")
final["val_rel_mse"] = [experiments.rel_mse(th, "tanh", X_val, Y_val) for th in thetas]
pen_rows = [final[final.condition == f"aniso+penalty{lam:g}"] for lam in cfg.penalty_grid]
lam_star = decisions.select_weight(cfg.penalty_grid, [r.val_rel_mse for r in pen_rows])
tuning = pd.DataFrame([{"penalty": lam, "median_val_rel_mse": float(r.val_rel_mse.median()),
                        "median_test_rel_mse": float(r.rel_mse.median()), "selected": lam == lam_star}
                       for lam, r in zip(cfg.penalty_grid, pen_rows)])
tuning.to_csv(tables / "penalty_tuning.csv", index=False)
history.to_csv(tables / "history.csv", index=False)
final.to_csv(tables / "final.csv", index=False)
final

# %%
fig, axes = plotting.figure(1, 3, width=7.0, height=2.4)
conds = list(dict.fromkeys(history.condition))
for col, cond in zip(plotting.palette(len(conds)), conds):
    med = history[history.condition == cond].groupby("step")[["rel_mse", "lv1"]].median()
    axes[0].semilogy(med.index, med.rel_mse, c=col, label=cond)
    axes[1].semilogy(med.index, med.lv1, c=col, label=cond)
    pts = history[history.condition == cond]
    axes[2].loglog(pts.equivariance, pts.lv1, ".", c=col, ms=3, label=cond)
axes[0].set(xlabel="step", ylabel="relative test MSE (median)", title="fit")
axes[1].set(xlabel="step", ylabel="layer-1 LV error (median)", title="layerwise equivariance")
axes[2].set(xlabel="end-to-end equivariance error", ylabel="layer-1 LV error", title="all checkpoints")
axes[0].legend(fontsize=6)
nb.save_figure(fig, "curves")

best = int(final[final.condition == "iso+aug"].rel_mse.idxmin())
P, _ = experiments.projected_action(thetas[best], "tanh", D4, np.random.default_rng(cfg.seed).normal(size=(cfg.n_fit, n)), 0)
Mfit = metrics.fitted_map(thetas[best], "tanh", D4.mats[D4.words.index("m")], rng.normal(size=(cfg.n_fit, n)), 0)
fig, axes = plotting.figure(1, 2, width=5.0, height=2.4)
axes[0].imshow(np.abs(Mfit), cmap="viridis")
axes[0].set(title="|A(m)|, layer 1, best iso+aug student", xticks=[], yticks=[])
axes[1].imshow(P[D4.words.index("m")], cmap="RdBu_r", vmin=-1, vmax=1)
axes[1].set(title="nearest signed permutation", xticks=[], yticks=[])
nb.save_figure(fig, "fitted_map")

# %% [markdown]
# ## Over-parameterized students (iso + augmentation)
# Spec §3.3: a wider student fits as well, but the signed-permutation structure covers only the
# teacher-matched units; extra units become near-duplicates or low-norm near-linear units.

# %%
wide = [n] + cfg.wide_widths + [n]
history_w, final_w, thetas_w = experiments.emergence(
    teacher, D4, "tanh", [("iso", True)], list(range(cfg.n_seeds)), wide, cfg.steps, cfg.lr, cfg.batch,
    cfg.n_train, cfg.n_test, cfg.n_fit, cfg.log_every, rng, controls, cfg, nb.id)
final_w["near_parallel1"] = [metrics.near_parallel_pairs(th, 0) for th in thetas_w]
final_w.to_csv(tables / "final_wide.csv", index=False)
final_w[["seed", "rel_mse", "lv1", "lv2", "off_support1", "near_parallel1"]]

# %% [markdown]
# ## Claims (statistical: seeds, float32 training)

# %%
src = "spec §4 E4 (reconstructed); interpretation of Thm 4.1"
a = final[final.condition == "iso+aug"].sort_values("seed")
need = rules.seeds_needed(len(a), decisions.SEED_SHARE)
planted = tuple(tuple(c.tolist()) for c in construct.planted_characters(D4, cfg.teacher_channels))
one = "one seed (this profile runs one student per condition)"
ledger.statistical("e4.aug.fit", f"iso+aug students fit the teacher (rel. MSE < {cfg.fit_ok:g})",
                   source=src, provenance="reconstructed", expected=f">= {need} of {len(a)} seeds",
                   measured=a.rel_mse.round(8).tolist(),
                   **rules.evidence(a.rel_mse.tolist(), lambda s: decisions.enough_below(s, cfg.fit_ok), one))
ledger.statistical("e4.aug.lv1", f"iso+aug students' layer 1 is linearly equivariant (LV < {cfg.lv_ok:g})",
                   source=src, provenance="reconstructed", expected=f">= {need} of {len(a)} seeds",
                   measured=a.lv1.round(5).tolist(),
                   **rules.evidence(a.lv1.tolist(), lambda s: decisions.enough_below(s, cfg.lv_ok), one))
for name in controls:
    ledger.statistical(f"e4.aug.control_{name}", f"control transformation {name} is far from equivariant (LV > {cfg.control_min:g})",
                       source=src, provenance="reconstructed", expected=f">= {need} of {len(a)} seeds",
                       measured=a[f"control_{name}"].round(4).tolist(),
                       **rules.evidence(a[f"control_{name}"].tolist(),
                                            lambda s: decisions.enough_above(s, cfg.control_min), one))
hom_ok = [decisions.projected_action_planted((r.hom_failing1, r.hom_failing2), (r.char1, r.char2), planted)
          for r in a.itertuples()]
ledger.statistical("e4.aug.projected_action", "projected signed permutations form a homomorphism with the planted (regular) characters",
                   source="spec §4 E4, §1.8 (characters)", provenance="reconstructed",
                   expected=f">= {need} of {len(a)} seeds; characters {planted}",
                   measured=[(int(r.hom_failing1), r.char1) for r in a.itertuples()],
                   **rules.evidence(hom_ok, decisions.enough_seeds, one))
last = history[history.step == history.step.max()]
allp = history[history.step > 0]
rho_s, rho_all = decisions.spearman(last.rel_mse, last.lv1), decisions.spearman(allp.equivariance, allp.lv1)
ledger.statistical("e4.tracks_fit", "across all conditions, layer-1 LV error rises with the final fit error (Spearman > 0.5)",
                   source="spec §3.3 conclusion: structure tracks fit quality", provenance="reconstructed",
                   expected=f"Spearman(rel. MSE, LV1) > {decisions.MIN_SPEARMAN:g} over all final students "
                            "(students resampled)", measured=round(float(rho_s), 3),
                   samples=last[["rel_mse", "lv1"]].to_numpy(float),
                   decide=lambda d: decisions.rises_with(d[:, 0], d[:, 1]))
students = [g[["equivariance", "lv1"]].to_numpy(float) for _, g in allp.groupby(["condition", "seed"], sort=False)]
ledger.statistical("e4.scatter_trend", "layer-1 LV error rises with end-to-end error over all checkpoints (Spearman > 0.5)",
                   source="spec §4 E4 (scatter plot)", provenance="reconstructed",
                   expected=f"Spearman > {decisions.MIN_SPEARMAN:g} (students resampled with all their checkpoints)",
                   measured=round(float(rho_all), 3), samples=students,
                   decide=lambda s: decisions.rises_with(*np.concatenate(s).T))
final_w = final_w.sort_values("seed")
ledger.statistical("e4.wide.fit", f"wider students {cfg.wide_widths} also fit the teacher (rel. MSE < {cfg.fit_ok:g})",
                   source="spec §3.3 (wider tanh student)", provenance="reconstructed",
                   expected=f">= {rules.seeds_needed(len(final_w), decisions.SEED_SHARE)} of {len(final_w)} seeds", measured=final_w.rel_mse.round(8).tolist(),
                   **rules.evidence(final_w.rel_mse.tolist(), lambda s: decisions.enough_below(s, cfg.fit_ok), one))
trained_wide = (decisions.converged_arms(history, ["iso+aug"]) and decisions.converged_arms(history_w, ["iso+aug"]),
                "both arms trained: the matched and the wide iso+aug students' median test-MSE curves fell by "
                "< 5 % over their last quarter")
ledger.statistical("e4.wide.less_monomial", "wider students' layer-1 action is further from a signed permutation than matched students'",
                   source="spec §3.3 (structure only on teacher-matched units)", provenance="reconstructed",
                   expected="median off-support (wide) > median off-support (matched, iso+aug), seeds resampled",
                   measured={"wide": float(f"{final_w.off_support1.median():.3g}"),
                             "matched": float(f"{a.off_support1.median():.3g}")},
                   **rules.evidence(np.column_stack([final_w.off_support1, a.off_support1]),
                                        lambda d: decisions.median_greater(d[:, 0], d[:, 1]), one),
                   requires=trained_wide)
pen = final[final.condition == f"aniso+penalty{lam_star:g}"].sort_values("seed")
plain = final[final.condition == "aniso"].sort_values("seed")
trained_pen = (decisions.converged_arms(history, [f"aniso+penalty{lam_star:g}", "aniso"]),
               "both arms trained: their median test-MSE curves fell by < 5 % over their last quarter")
ledger.statistical("e4.penalty_vs_none", "a soft equivariance penalty (no augmentation), its weight chosen on a validation "
                   "split of the training law, lowers the end-to-end and layer-1 errors vs no penalty",
                   source="spec §4 E4 (e); the paper's soft loss", provenance="reconstructed",
                   expected="median equivariance and LV1 lower with the penalty (anisotropic law), seeds resampled",
                   measured={"lambda": lam_star,
                             "penalty": (float(f"{pen.equivariance.median():.3g}"), float(f"{pen.lv1.median():.3g}")),
                             "none": (float(f"{plain.equivariance.median():.3g}"), float(f"{plain.lv1.median():.3g}"))},
                   **rules.evidence(np.column_stack([pen.equivariance, pen.lv1, plain.equivariance, plain.lv1]),
                                        lambda d: decisions.medians_lower(d, [(0, 2), (1, 3)]), one),
                   requires=trained_pen)
summary = final.groupby("condition")[["rel_mse", "equivariance", "lv1", "lv2"]].median()
summary.to_csv(tables / "summary_by_condition.csv")
no_sym = summary[[c.startswith("aniso") and "+aug" not in c for c in summary.index]]
per_seed = np.stack([final[final.condition == c].sort_values("seed")[["rel_mse", "lv1"]].to_numpy(float)
                     for c in summary.index], axis=1)                  # (seeds, conditions, 2)
fits_somewhere = decisions.any_below(no_sym.rel_mse, cfg.fit_ok)
all_trained = decisions.converged_arms(history, list(summary.index))
ledger.qualitative("e4.conditions", "per condition, the median student's layer 1 is linearly equivariant "
                   f"(LV1 < {cfg.lv_ok:g}) exactly when it fits (rel. MSE < {cfg.fit_ok:g})",
                   source="spec §3.3 conclusion (structure tracks fit, however equivariance was obtained); "
                          "thresholds spec §4 E4", provenance="reconstructed",
                   expected="LV1 < lv_ok iff rel. MSE < fit_ok, for every condition's (rel. MSE, LV1) median "
                            "(seeds resampled)",
                   measured={c: (float(f"{r.rel_mse:.3g}"), float(f"{r.lv1:.3g}")) for c, r in summary.iterrows()},
                   **rules.evidence(per_seed, lambda d: decisions.structure_tracks_fit(
                       np.median(d[:, :, 0], axis=0), np.median(d[:, :, 1], axis=0), cfg.fit_ok, cfg.lv_ok), one),
                   requires=(fits_somewhere and all_trained,
                             f"some condition without augmentation on the non-invariant law fits "
                             f"({'yes' if fits_somewhere else 'no'}; otherwise fit and equivariance both come from "
                             "the invariant law or augmentation, and the iff holds on the trivial diagonal only), "
                             f"and every condition's median test-MSE curve fell by < 5 % over its last quarter "
                             f"({'yes' if all_trained else 'no'})"))
summary

# %%
nb.finish()

# %%
status = {c.id.removeprefix("equivariance."): c.status for c in ledger.claims}
HEADLINE = ["e4.aug.fit", "e4.aug.lv1", "e4.aug.projected_action", "e4.aug.control_random_perm",
            "e4.aug.control_random_orthogonal", "e4.tracks_fit", "e4.scatter_trend"]
held = all(status[k] == "pass" for k in HEADLINE)
Markdown(f"**Plainly:** at {cfg.steps} steps with {cfg.n_seeds} seed(s) per condition, the headline (students "
         f"that fit an identifiable equivariant teacher are layerwise equivariant, and LV error tracks fit "
         f"error) {'holds' if held else 'is not shown'} in this run: "
         + ", ".join(f"`{k}` is `{status[k]}`" for k in HEADLINE)
         + f". A non-augmented condition on the anisotropic law fits: {'yes' if fits_somewhere else 'no'}; "
         f"`e4.conditions` is `{status['e4.conditions']}`, `e4.penalty_vs_none` is "
         f"`{status['e4.penalty_vs_none']}`, `e4.wide.less_monomial` is `{status['e4.wide.less_monomial']}`.")

# %% [markdown]
# **What we saw.** The cell above says what this run shows. The headline is the first group of
# claims: students that fit the teacher well (relative MSE below `fit_ok`) should have a layer-1
# LV error below `lv_ok` (`e4.aug.fit`, `e4.aug.lv1`), fitted maps that round to signed
# permutations forming an exact homomorphism with the planted regular characters
# (`e4.aug.projected_action`), controls far from equivariant (`e4.aug.control_*`), and LV error
# following fit error across conditions and checkpoints (`e4.tracks_fit`, `e4.scatter_trend`),
# each decided on resamples of the seeds. Where they pass, equivariance appears in the layers
# whenever the equivariant identifiable target is learned, with augmentation or from an invariant
# (isotropic) input law.
#
# What this run may not decide, and why (the ledger gives each claim's stability and
# precondition): where no condition without augmentation on the anisotropic law fits on isotropic
# test inputs (the line above says), `e4.conditions`' "iff" would only be checked on the trivial
# diagonal and is `inconclusive` (the spec's prototype, §3.3, reached relative MSE 2e-4 to 1e-3
# there with 6000 steps; we run `steps` with `n_seeds` seeds, a budget cut that can decide it);
# the soft penalty of condition (e), its weight chosen on the validation split
# (`tables/04_training_emergence/penalty_tuning.csv`), is compared with no penalty over the same
# few seeds, and whatever its sign the comparison is recorded with its stability
# (`e4.penalty_vs_none`; the penalty acts on the shifted training law while all metrics use
# isotropic inputs, which is why E6 adds noise samples); and the wider students (whose fit is
# `e4.wide.fit`) are compared with the matched ones only once both arms' test-MSE curves have
# stopped falling (`e4.wide.less_monomial`): where, at this budget (`steps` against the spec's 6000), a
# cosine-decayed curve still falls by more than 5 % over its last quarter, that budget cut, not
# the wide students' structure, decides the claim's `inconclusive` status. Deviations from the spec's protocol are listed in the opening cell.
