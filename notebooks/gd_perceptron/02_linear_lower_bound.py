# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Linear models need Θ(d) iterations on data set A
#
# **Claim (Tyurin, arXiv 2512.11587, abstract; [spec §3.2](../../docs/specs/gd_perceptron.md#s3-2)).** On the paper's minimalistic example,
# linear models need Ω(d) iterations.
#
# **Reconstructed ([spec §4](../../docs/specs/gd_perceptron.md#s4) F1, provenance `reconstructed`).** The example itself could not be read.
# We use the spec's data set A: $b_1=\mathbf 1_d$ ($y=+1$), $b_2=\mathbf 1_d-e_d$ ($y=-1$), two points
# differing in one feature. It is swappable through `datasets.make_dataset`.
#
# **Decisions where the spec is open.** Iteration complexity is the first $t$ with
# $y_i\,b_i^\top u_t>0$ for all $i$ (strict, [spec §3.5](../../docs/specs/gd_perceptron.md#s3-5)). Data set A has an exact tie at $t=1$, so
# the tie rule matters ([spec §8](../../docs/specs/gd_perceptron.md#s8)): we show both the ½ rule (what GD itself gives, $S(0)=½$) and the
# author's Batch Perceptron rule (weight 1 on ties after the first step), each in exact rational
# arithmetic; GD runs in float64 in the coefficients of $u=\sum_i a_i b_i$ so integer Gram entries
# keep the tie exact. The Ω(d) is a large-step statement here: in exact arithmetic small steps
# solve data set A in two iterations (notebook 04 checks GD against that).
#
# **Look for:** straight lines of slope 1 on log-log axes; GD at γ = 10⁴ on the ½-rule line.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
d_exact_max = 300  # spec §5 check 4: every d in [2, 300) exactly
slope_log2_min = 4  # slope fitted over d is 2^4 ... 2^16
slope_log2_max = 16  # slope fitted up to d is 2^16
gd_ds = [8, 32, 128, 512, 1024]  # GD in float64 against the exact counts
gd_gamma_large = 10000.0  # spec §4 F1 large step, gives the 1/2-tie counts
gd_gamma_soft = 100.0  # spec §4 F1 near-ties resolved softly
perturbed_sigma = 0.001  # noise on b_2 that removes the exact ties
perturbed_seeds = 64  # data draws per d
perturbed_ds = [16, 64, 256, 1024, 4096]  # d of the perturbed data set A
eta_powers = [-10, 0, 10]  # spec §5 check 9, GP step eta is 2^k (exact in floating point)

# %%
import numpy as np
import pandas as pd
from IPython.display import Markdown

from lib.companion import notebook, plotting
from lib.gd_perceptron import decisions, lower_bound, speedup

nb = notebook.start("gd_perceptron/02_linear_lower_bound", globals())
cfg, ledger, tables = nb.cfg, nb.ledger, nb.tables

# %% [markdown]
# ## Exact counts for every small d, both tie rules

# %%
ds = list(range(2, cfg.d_exact_max))
half = lower_bound.exact_counts(ds, "half")
author = lower_bound.exact_counts(ds, "author")
closed = np.array([lower_bound.closed_form_half(d) for d in ds])
pd.DataFrame({"d": ds, "half_tie": half, "author_tie": author, "closed_form_half": closed}).to_csv(
    tables / "exact_counts.csv", index=False)
src = "abstract (Omega(d)); data set A reconstructed, spec §4 F1 and §8"
ledger.exact("linear.exact_half_tie", f"T = d+2 (even d), d+1 (odd d) for every d in [2, {cfg.d_exact_max}) with 1/2 on ties",
             source=src, provenance="reconstructed", expected=f"{len(ds)} of {len(ds)} d match",
             measured=f"{int((half == closed).sum())} of {len(ds)} d match")
ledger.exact("linear.exact_author_tie", f"T = 2d for every d in [2, {cfg.d_exact_max}) under the author's Batch Perceptron rule",
             source="spec §8 (Batch Perceptron of arXiv 2412.08424)", provenance="reconstructed",
             expected=f"{len(ds)} of {len(ds)} d match",
             measured=f"{int((author == 2 * np.array(ds)).sum())} of {len(ds)} d match")
ledger.exact("control.closed_form_off_by_one", "negative control: the same exact comparison rejects a closed "
             "form off by one (d+3 / d+2 in place of d+2 / d+1): it matches at no d",
             source="spec §4 F1 (deliberately wrong constant)", provenance="derived",
             expected=f"0 of {len(ds)} d match", measured=f"{int((half == closed + 1).sum())} of {len(ds)} d match")

# %% [markdown]
# ## The slope over d = 2^4 … 2^16 (exact), GD in float64, and a perturbed data set A

# %%
big_ds = [2 ** k for k in range(cfg.slope_log2_min, cfg.slope_log2_max + 1)]
big_half = lower_bound.exact_counts(big_ds, "half")
slope = speedup.loglog_slope(big_ds, big_half)
gd_large = lower_bound.float_counts(cfg.gd_ds, "gd", cfg.gd_gamma_large)[:, 0]
gd_soft = lower_bound.float_counts(cfg.gd_ds, "gd", cfg.gd_gamma_soft)[:, 0]
pert = lower_bound.float_counts(cfg.perturbed_ds, "gp", 1.0, "A_perturbed",
                                list(range(cfg.seed, cfg.seed + cfg.perturbed_seeds)),
                                sigma=cfg.perturbed_sigma)                            # (D, S)
trivial = (pert <= 1).mean(axis=1)
pert_median = lower_bound.median_nontrivial(pert)
pd.DataFrame({"d": big_ds, "half_tie": big_half}).to_csv(tables / "slope_counts.csv", index=False)
pd.DataFrame({"d": cfg.gd_ds, f"gd_gamma_{cfg.gd_gamma_large:g}": gd_large,
              f"gd_gamma_{cfg.gd_gamma_soft:g}": gd_soft}).to_csv(tables / "gd_counts.csv", index=False)
pd.DataFrame({"d": cfg.perturbed_ds, "fraction_separated_by_t1": trivial,
              "median_T_of_the_rest": pert_median}).to_csv(tables / "perturbed.csv", index=False)

fig, ax = plotting.figure(width=4.2, height=3.2)
ax.loglog(ds, author, "-", label="Batch Perceptron (author's tie rule): 2d")
ax.loglog(ds + big_ds, np.r_[half, big_half], "-", label="½ on ties (GD limit): d+2 / d+1")
ax.loglog(cfg.gd_ds, gd_large, "o", label=f"GD, γ={cfg.gd_gamma_large:g}")
ax.loglog(cfg.gd_ds, gd_soft, "x", label=f"GD, γ={cfg.gd_gamma_soft:g}")
ax.loglog(cfg.perturbed_ds, pert_median, "s", mfc="none",
          label=f"perturbed A (σ={cfg.perturbed_sigma:g}), median of non-trivial draws")
ax.set(xlabel="d (features)", ylabel="iterations to separate",
       title=f"linear model on data set A: slope {slope:.3f}")
ax.legend(loc="upper left")
nb.save_figure(fig)

# %%
ledger.bound("linear.slope", f"fitted log-log slope of T(d) over d = 2^{cfg.slope_log2_min}..2^{cfg.slope_log2_max} is in [0.99, 1.01]",
             source="spec §5 check 4", provenance="reconstructed", measured=slope, lower=0.99,
             upper=1.01, why="spec §5 check 4; exact counts, the +2 offset bends the fit only at small d")
ledger.exact("linear.gd_large_step_matches_half_rule", f"GD at gamma = {cfg.gd_gamma_large:g} gives the 1/2-rule counts",
             source="spec §4 F1 (10, 34, 130, 514 at d = 8, 32, 128, 512)", provenance="reconstructed",
             expected=[lower_bound.closed_form_half(d) for d in cfg.gd_ds], measured=gd_large.tolist())
ledger.statistical("linear.gd_soft_ties", f"GD at gamma = {cfg.gd_gamma_soft:g} resolves the near-ties softly and needs exactly d",
                   source="spec §4 F1 (8, 32, 128, 512)", provenance="reconstructed",
                   expected=cfg.gd_ds, measured=gd_soft.tolist(), holds=decisions.soft_ties_need_d(gd_soft.tolist(), cfg.gd_ds),
                   rests_on="one deterministic float64 GD run per d on data set A (no random draw)")
pert_slope = speedup.loglog_slope(cfg.perturbed_ds, pert_median)
draws = pert.T                                                          # (S, D): one row per noise draw
ledger.statistical("linear.perturbed_theta_d",
                   "without exact ties the linear count is still Theta(d) (slope of the median in [0.9, 1.1])",
                   source="spec §8 (perturbed data set A)", provenance="reconstructed",
                   expected="slope in [{}, {}]".format(*decisions.PERTURBED_SLOPE),
                   measured=f"slope {pert_slope:.3f}; separated by t=1 in "
                   f"{trivial.round(2).tolist()} of draws",
                   samples=draws, decide=lambda c: decisions.perturbed_theta_d(
                       speedup.loglog_slope(cfg.perturbed_ds, lower_bound.median_nontrivial(c.T))))
ledger.deviation("linear.perturbed_trivial_draws",
                 "the spec expects the perturbed data set to keep the Theta(d) behaviour; instead about half "
                 "the noise draws separate at t = 1 (shown: pooled share >= {:g})".format(decisions.TRIVIAL_SHARE_FLOOR),
                 source="spec §8", kind="statistical", expected="Theta(d) for every draw (share separated by t = 1: 0)",
                 measured=f"fraction separated by t = 1 per d: {trivial.round(2).tolist()} (pooled {trivial.mean():.3f}; "
                          f"derived Phi(sigma sqrt d) = {np.round(lower_bound.trivial_share(cfg.perturbed_ds, cfg.perturbed_sigma), 3).tolist()})",
                 evidence="the noise decides the sign of the t = 1 tie y_2 b_2^T u_1 = (sigma (sum_{i<d} g_i - g_d) "
                          "+ sigma^2 |g|^2)/4, positive with probability Phi(sigma sqrt d) ~ 1/2; then both points "
                          "are already correct",
                 power=f"the pooled share over {cfg.perturbed_seeds} draws per d against the floor "
                       f"{decisions.TRIVIAL_SHARE_FLOOR:g}, about 3 binomial s.d. below the derived 1/2 at 40 draws; "
                       "resampled over the draws",
                 samples=draws, decide=lambda c: decisions.trivial_draws_shown((c <= 1).mean(axis=0).tolist()))

# %% [markdown]
# ## The step size does not matter from 0 ([spec §5](../../docs/specs/gd_perceptron.md#s5) check 9)
# From $u_0=0$ every GP iterate is $\eta$ times the $\eta=1$ iterate, so the counts cannot depend
# on $\eta$. With $\eta=2^k$ that scaling is exact in binary floating point too, so the float
# counts on the tie-free perturbed data must agree draw by draw, not only in distribution.

# %%
by_eta = {k: pert if k == 0 else                                                      # eta = 1: above
          lower_bound.float_counts(cfg.perturbed_ds, "gp", 2.0 ** k, "A_perturbed",
                                   list(range(cfg.seed, cfg.seed + cfg.perturbed_seeds)),
                                   sigma=cfg.perturbed_sigma) for k in cfg.eta_powers}   # k -> (D, S)
ref_k = min(cfg.eta_powers, key=abs)
pd.DataFrame({f"median_T_eta_2^{k}": np.median(c, axis=1) for k, c in by_eta.items()},
             index=pd.Index(cfg.perturbed_ds, name="d")).to_csv(tables / "eta_invariance.csv")
others = [c for k, c in by_eta.items() if k != ref_k]
agree = sum(int((c == by_eta[ref_k]).sum()) for c in others)
ledger.exact("scale.linear_eta_invariant", f"linear GP counts from 0 at eta = 2^k equal those at eta = 2^{ref_k}, "
             f"k in {cfg.eta_powers}, for every perturbed draw at d in {cfg.perturbed_ds}",
             source="spec §2.2, §5 check 9", provenance="derived",
             expected=f"{(len(cfg.eta_powers) - 1) * pert.size} of {(len(cfg.eta_powers) - 1) * pert.size}",
             measured=f"{agree} of {sum(c.size for c in others)}")
nb.finish()

# %%
status = {c.id.removeprefix("gd_perceptron."): c.status for c in ledger.claims}
Markdown(f"**This run:** fitted slope {slope:.3f}; perturbed draws solved at $t=1$: {trivial.mean():.0%} pooled "
         f"over d in {cfg.perturbed_ds}; " + ", ".join(f"`{k}` is `{v}`" for k, v in status.items()) + ".")

# %% [markdown]
# **What we saw.** The line above gives this run's slope, shares and statuses. The counts follow
# the closed form exactly for every d below `d_exact_max`, and the slope lies within 0.01 of 1
# (`linear.slope`; both stop the notebook otherwise); the tie rule changes the constant (d+2 vs
# 2d), not the rate. GD at a large step reproduces the ½-rule counts; at γ = `gd_gamma_soft` the
# near-ties resolve softly, and `linear.gd_soft_ties` says whether it then needs exactly d.
# Removing the ties by perturbing $b_2$ splits the draws: those where the noise breaks the $t=1$
# tie in favour of $b_2$ are solved at once, the rest still take Θ(d) iterations
# (`linear.perturbed_theta_d`). The share solved at once is expected near the ½ derived from the
# sign of the $t=1$ margin, $\Phi(\sigma\sqrt d)$; where it stays above the claim's floor the
# spec's expectation (Θ(d) for every draw) is recorded as a deviation
# (`linear.perturbed_trivial_draws`). What this shows about the paper's headline (linear models
# need Ω(d) iterations): on the spec's data set A the large-step count is Θ(d) exactly; it is a
# statement about that data set's tie, which the paper's own example (not read) may or may not
# share. From 0 the step size does not matter:
# the counts at $\eta=2^k$ agree draw by draw (`scale.linear_eta_invariant`).
