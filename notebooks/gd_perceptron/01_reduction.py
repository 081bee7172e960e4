# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # GD on the logistic loss becomes a (generalized) perceptron at large scale
#
# **Claim (Tyurin, arXiv 2512.11587, abstract and §2; [spec §2.2](../../docs/specs/gd_perceptron.md#s2-2)).** For models trained with the
# logistic loss, GD steps reduce to generalized-perceptron steps: for linear models from 0,
# $v_t/\gamma \to u_t$ (batch perceptron) as $\gamma\to\infty$; for a model homogeneous of degree
# $k$ started at $\alpha\bar W_0$ with step $\gamma=\eta\alpha^{2-k}$, $W_t/\alpha \to$ the GP
# iterate from $\bar W_0$.
#
# **Sources.** F0 uses the author's own examples from his earlier paper (Tyurin 2025, arXiv
# 2412.08424, Thm 4.1, Thm 5.1 and Table 1; [spec §8](../../docs/specs/gd_perceptron.md#s8)). They are prior literature, not statements of
# the paper under study, so their claims carry that paper in `source` and provenance `derived`
# (checked here). F3 is the spec's reconstruction ([spec §4](../../docs/specs/gd_perceptron.md#s4) F3, provenance `reconstructed`): random
# Gaussian data and a quadratic two-layer model with $m=4$.
#
# **Decisions where the spec is open.** The scaled form of the reduction ([spec §2.2](../../docs/specs/gd_perceptron.md#s2-2), open
# question 7) is the one checked. The worst-case set's $n$ is not printed, so $n$ is *fitted*: we
# scan $n$ and keep the values whose LR+GD count at γ = 100 is the published 308 ([spec §8](../../docs/specs/gd_perceptron.md#s8) guesses
# $n\approx300$). That fit is reported in a table, not claimed; the check is out of sample: the
# fitted $n$ must also give the four published Normalized LR+GD counts, which the fit never saw.
#
# **Look for:** the loss at $t=1$ growing linearly in $\gamma$ while $t=2$ separates; the gap
# between GD and the GP falling off a cliff to machine precision as the scale grows.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
gammas = [1.0, 10.0, 100.0, 1000.0, 10000.0, 100000.0]  # Thm 4.1 example: loss blows up with gamma
worst_case_n = [10, 100, 300, 997, 998, 999, 1000, 1001, 1002, 1003, 1010]  # which n gives 308?
worst_case_gamma = 100.0  # Table 1 row: LR+GD at gamma is 100
worst_case_max_iter = 5000  # generous cap, reported if hit
equiv_n = 20  # spec §4 F3: 20 Gaussian points
equiv_d = 50  # F3: dimension of the points; labels from a random teacher
equiv_linear_steps = 60  # F3: horizon of the linear gap (max over t ≤ 60)
equiv_linear_gammas = [10.0, 100.0, 1000.0, 10000.0, 1000000.0]  # F3 linear model: step sizes of the GD vs GP gap
equiv_m = 4  # quadratic model, m is 4, s is +-1
equiv_eta = 0.05  # GP step of the quadratic model (scale-free in the GP)
equiv_quad_steps = 40  # F3: horizon of the quadratic gap
equiv_scales = [1.0, 10.0, 100.0, 1000.0, 10000.0, 100000.0, 1000000.0]  # saturation alpha^k

# %%
from fractions import Fraction

import numpy as np
import pandas as pd
import torch

from lib.companion import notebook, paths, plotting
from lib.gd_perceptron import datasets, decisions, equivalence, exact, examples, models

nb = notebook.start("gd_perceptron/01_reduction", globals())
cfg, ledger, rng, tables = nb.cfg, nb.ledger, nb.rng, nb.tables
table1 = pd.read_csv(paths.data_file("gd_perceptron/table1_tyurin2025.csv"))
gen = torch.Generator().manual_seed(cfg.seed)

# %% [markdown]
# ## F0a: the loss is an unreliable progress measure (author's Thm 4.1 example)
# Points $(1,-1)$ labelled $+1$ and $(-1,-4)$ labelled $-1$. The GP limit is computed exactly in
# rational arithmetic; GD is run in float64 for every $\gamma$ at once.

# %%
B41, y41 = datasets.loss_unreliable_2d()
steps = exact.perceptron_steps(exact.gram(B41), y41, tie="half")
gp_coef = [next(steps)[1] for _ in range(3)]                   # a_t, u_t = sum_i a_t[i] b_i
gp_iter = [tuple(sum(a[i] * int(B41[i, k]) for i in range(2)) for k in range(2)) for a in gp_coef]
run41 = examples.thm41_runs(cfg.gammas)

fig, axes = plotting.figure(1, 3)
axes[0].loglog(run41.gammas, run41.loss[:, 1], "o-", label="t = 1")
axes[0].loglog(run41.gammas, np.maximum(run41.loss[:, 2], 1e-300), "s-", label="t = 2")
axes[0].set(xlabel=r"step size $\gamma$", ylabel="logistic loss", title="loss after 1 and 2 steps")
axes[0].legend()
err2 = np.abs(run41.theta2 - np.array([1.0, 0.25])).max(axis=1)
axes[1].loglog(run41.gammas, np.maximum(err2, 1e-18), "o-")
axes[1].set(xlabel=r"$\gamma$", ylabel=r"$\|\theta_2/\gamma-(1,1/4)\|_\infty$",
            title="GD iterate -> perceptron iterate")
axes[2].semilogx(run41.gammas, run41.grad_norm[:, 1], "o-", label="t = 1")
axes[2].semilogx(run41.gammas, run41.grad_norm[:, 2], "s-", label="t = 2")
axes[2].axhline(np.sqrt(2) / 2, ls=":", c="k", label=r"$\sqrt{2}/2$")
axes[2].set(xlabel=r"$\gamma$", ylabel=r"$\|\nabla f\|$", title="gradient norm")
axes[2].legend()
nb.save_figure(fig, "thm41")

# %%
src41 = "Tyurin 2025, arXiv 2412.08424 (the author's earlier paper), Thm 4.1 (spec §8)"
ledger.exact("thm41.theta1_over_gamma", "from 0 the GP (gamma -> oo limit) gives theta_1 = (1/2, 3/4)",
             source=src41, provenance="derived", expected=(Fraction(1, 2), Fraction(3, 4)),
             measured=gp_iter[1])
ledger.exact("thm41.theta2_over_gamma", "the second GP iterate is (1, 1/4), which separates the data",
             source=src41, provenance="derived", expected=(Fraction(1), Fraction(1, 4)),
             measured=gp_iter[2])
ledger.close("thm41.gd_theta1_exact", "GD's theta_1/gamma equals (1/2, 3/4) for every gamma (S(0) = 1/2)",
             source=src41, provenance="derived", expected=0.0,
             measured=float(np.abs(run41.theta1 - [0.5, 0.75]).max()), atol=1e-15,
             why="two float64 roundings")
gap_top = float(err2[int(np.argmax(run41.gammas))])               # at the largest gamma
ledger.bound("thm41.gd_theta2_converges", "at the largest gamma, GD's theta_2/gamma is (1, 1/4) to 1e-12",
             source=src41, provenance="derived", measured=gap_top, upper=1e-12,
             why="float64 rounding tolerance: the GD-GP gap at t = 2 is O(exp(-gamma/4)) (margin "
                 "-1/4 at theta_1/gamma), nil in float64 from gamma = 1e4")
loss_t1, loss_t2 = run41.loss[:, 1].tolist(), run41.loss[:, 2].tolist()     # over gamma, not a curve in t
ledger.qualitative("thm41.loss_blows_up", "f(theta_1) grows with gamma while f(theta_2) -> 0",
                   source=src41, provenance="derived", expected="loss_1 increasing, loss_2 decreasing",
                   measured=f"loss_1 {min(loss_t1):.3g} -> {max(loss_t1):.3g}; "
                            f"loss_2 {max(loss_t2):.3g} -> {min(loss_t2):.3g} over gamma {min(cfg.gammas):g}..{max(cfg.gammas):g}",
                   holds=decisions.loss_blows_up(loss_t1, loss_t2),
                   rests_on="one deterministic float64 GD run per gamma on the two fixed points (no random draw)")
# Negative control: the same exact check on a deliberately wrong data set (b_2 = (-1, -5) in place
# of (-1, -4)) must reject its GP iterates.
B_bad = np.array(B41, copy=True)
B_bad[1, 1] -= 1
steps_bad = exact.perceptron_steps(exact.gram(B_bad), y41, tie="half")
coef_bad = [next(steps_bad)[1] for _ in range(3)]
iter_bad = [tuple(sum(a[i] * int(B_bad[i, k]) for i in range(2)) for k in range(2)) for a in coef_bad]
ledger.exact("control.thm41_wrong_point", "negative control: the exact check of theta_1 = (1/2, 3/4) and "
             "theta_2 = (1, 1/4) rejects the GP iterates of the data set with b_2 = (-1, -5) in place of (-1, -4)",
             source=src41, provenance="derived", expected=False,
             measured=iter_bad[1:] == [(Fraction(1, 2), Fraction(3, 4)), (Fraction(1), Fraction(1, 4))])
ledger.close("thm41.grad_norm_t1", "the gradient norm at theta_1 tends to sqrt(2)/2",
             source=src41, provenance="derived", expected=float(np.sqrt(2) / 2),
             measured=float(run41.grad_norm[-1, 1]), atol=1e-9, why="exp(-gamma) terms at gamma=1e5")

# %% [markdown]
# ## F0b: the worst-case set (author's Thm 5.1) and his Table 1
# One point $(0.5,-1)$ labelled $+1$ and $n-1$ copies of $(-0.5,-1)$ labelled $-1$. His Table 1
# reports 308 iterations for LR+GD at $\gamma=100$ and 2 / 2 / 16 / 157 for Normalized LR+GD at
# $\gamma$ = 100 / 10 / 1 / 0.1, without stating $n$. We fit $n$ to the 308 and test the fit on
# the Normalized row.

# %%
scan = examples.worst_case_scan(cfg.worst_case_n, cfg.worst_case_gamma, False, cfg.worst_case_max_iter)
paper_wc = table1[table1.dataset == "worst_case_thm5_1"]
target = int(paper_wc[paper_wc.method == "LR+GD"].iterations.iloc[0])
matching = scan[scan.iterations == target].n.tolist()
norm_rows = paper_wc[paper_wc.method == "Normalized LR+GD"]
ours = examples.normalized_counts(matching, norm_rows.gamma.tolist(), cfg.worst_case_max_iter)
compare = pd.concat([norm_rows.assign(n=n, ours=ours[n]) for n in matching] or [norm_rows.assign(n=np.nan, ours=np.nan)])
scan.to_csv(tables / "worst_case_scan.csv", index=False)
compare.to_csv(tables / "table1_worst_case.csv", index=False)
fit = pd.DataFrame({"published_LR+GD_count": [target], "scanned_n": [str(cfg.worst_case_n)],
                    "fitted_n": [str(matching)]})
fit.to_csv(tables / "worst_case_fit.csv", index=False)

fig, ax = plotting.figure()
ax.plot(scan.n, scan.iterations, "o-", label=rf"LR+GD, $\gamma$={cfg.worst_case_gamma:g}")
ax.axhline(target, ls=":", c="k", label=f"Table 1: {target}")
ax.set(xlabel="n (points)", ylabel="iterations to separate", title="worst-case set: Θ(n)")
ax.legend()
nb.save_figure(fig, "worst_case")
compare

# %%
srcT1 = ("Tyurin 2025, arXiv 2412.08424 (the author's earlier paper), Table 1 (spec §8); n not printed "
         "there, fitted here to its LR+GD count (tables/01_reduction/worst_case_fit.csv)")
ledger.statistical("worst_case.all_rows_reproduced",
                   f"with n fitted to the published {target} LR+GD iterations, the published Normalized LR+GD row "
                   "(2/2/16/157, not used in the fit) is reproduced exactly",
                   source=srcT1, provenance="derived", expected=norm_rows.iterations.tolist(),
                   measured={n: ours[n] for n in matching},
                   holds=decisions.reproduces_row(ours, norm_rows.iterations.tolist()),
                   rests_on="deterministic iteration counts on the fixed worst-case set at each fitted n (no random draw)")

# %% [markdown]
# ## F3: GD -> GP equivalence, error vs scale
# Linear model from 0 on 20 Gaussian points in $d=50$ (random teacher labels); quadratic
# two-layer model ($m=4$, $s=\pm1$) from $\alpha\bar W_0$ with $\gamma=\eta$ (degree $k=2$) and a
# ReLU model ($k=1$) with $\gamma=\eta\alpha$. The sigmoid saturates like $\exp(-\alpha^k|h|)$, so
# both are compared at the same saturation scale $\alpha^k$.

# %%
Beq, yeq = datasets.random_separable(cfg.equiv_n, cfg.equiv_d, rng)
lin_gap = equivalence.linear_gap(models.Linear(), Beq, yeq, cfg.equiv_linear_gammas,
                                 cfg.equiv_linear_steps).numpy()
W0 = torch.randn(cfg.equiv_m, cfg.equiv_d, generator=gen, dtype=torch.float64)
saturation = np.array(cfg.equiv_scales)                       # alpha^k, k = degree
gaps = {act: equivalence.scaled_gap(model, Beq, yeq, W0, cfg.equiv_eta,
                                    list(saturation ** (1 / model.degree)), cfg.equiv_quad_steps).numpy()
        for act in ("quadratic", "relu")
        for model in [models.make_model("two_layer", cfg.equiv_m, act)]}

fig, axes = plotting.figure(1, 2)
axes[0].loglog(cfg.equiv_linear_gammas, np.maximum(lin_gap, 1e-18), "o-")
axes[0].set(xlabel=r"$\gamma$", ylabel=r"$\max_t\|v_t/\gamma-u_t\|_\infty$", title="linear, from 0")
for act, g in gaps.items():
    axes[1].loglog(saturation, np.maximum(g, 1e-18), "o-", label=act)
axes[1].set(xlabel=r"saturation scale $\alpha^k$", ylabel="max relative error",
            title="two-layer, from αW̄₀")
axes[1].legend()
nb.save_figure(fig, "equivalence")
pd.DataFrame({"gamma": cfg.equiv_linear_gammas, "linear_gap": lin_gap}).to_csv(
    tables / "equivalence_linear.csv", index=False)
pd.DataFrame({"alpha_pow_k": saturation, **{f"{a}_gap": g for a, g in gaps.items()}}).to_csv(
    tables / "equivalence_two_layer.csv", index=False)

# %%
src3 = "spec §5 checks 1-2 (F3 reconstructed)"
big = [g for g in cfg.equiv_linear_gammas if g >= 1e4]
ledger.bound("equivalence.linear_large_gamma", "linear GD/gamma matches the GP to 1e-12 for gamma >= 1e4",
             source=src3, provenance="reconstructed",
             measured=float(max(lin_gap[i] for i, g in enumerate(cfg.equiv_linear_gammas) if g >= 1e4)),
             upper=1e-12, why="spec §5 check 1: 1e-12 in float64 (spec observed 5.6e-17 at 1e3)")
small = [lin_gap[i] for i, g in enumerate(cfg.equiv_linear_gammas) if g <= 1e3]
monotone = ("equivalence.linear_monotone", "the linear gap does not increase with gamma up to 1e3")
if len(small) >= 2:
    ledger.qualitative(*monotone, source=src3, provenance="reconstructed", expected="non-increasing",
                       measured=[float(x) for x in small], holds=decisions.gap_non_increasing(small),
                       rests_on=f"one random data set (seed {cfg.seed}), deterministic float64 runs at each gamma")
else:
    ledger.skip(*monotone, source=src3, provenance="reconstructed", kind="qualitative",
                expected="non-increasing", reason=f"{len(small)} gamma <= 1e3 in this profile; a trend needs two")
for act, g in gaps.items():
    ledger.bound(f"equivalence.{act}_alpha_max", f"{act} two-layer GD/alpha matches the GP to 1e-10 at the largest alpha^k",
                 source=src3, provenance="reconstructed", measured=float(g[-1]), upper=1e-10,
                 why="spec §5 check 2: relative error 1e-10 in float64 (spec observed 1.1e-15 for quadratic at alpha = 100)")
nb.finish()

# %% [markdown]
# **What we saw.** The Thm 4.1 iterates match the published values exactly, and GD's loss at
# $t=1$ grows with $\gamma$ while the second iterate already separates. Fitting $n$ to the
# published 308 iterations of LR+GD picks the $n$ in `tables/01_reduction/worst_case_fit.csv`
# (the spec guessed $n\approx300$; a fit, so not a claim). The test of the fit
# is the Normalized LR+GD row, which it reproduces or not as `worst_case.all_rows_reproduced`
# records (`tables/01_reduction/table1_worst_case.csv`).
# The GD-GP gap collapses to float64 rounding once the scale saturates the sigmoid.
