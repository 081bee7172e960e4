# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # A two-layer model separates data set A in far fewer iterations: Õ(√d) against Θ(d)
#
# **Claim (Tyurin, arXiv 2512.11587, abstract and Theorem 5.1; [spec §3.3](../../docs/specs/gd_perceptron.md#s3-3)).** On the same example,
# GD on a two-layer nonlinear model reaches the goal in Õ(√d) iterations, while linear models need
# Ω(d): implicit acceleration.
#
# **Reconstructed ([spec §2.3](../../docs/specs/gd_perceptron.md#s2-3), §4 F2; provenance `reconstructed`).** The model is the spec's reading
# of the appendix fragment: $h(x)=\sum_j s_j(w_j^\top x)^2$ with $m=2$, fixed $s=(+1,-1)$, $W_0$
# i.i.d. $N(0,1)$, trained by the generalized perceptron (the large-scale limit of GD, notebook 01).
# The step is set through $c=2\eta\|b_1\|^2/n$; the table's step rules are the spec's.
#
# **Decisions where the spec is open.** Theorem 5.1's parameter choice is unknown (open question
# 3): we show fixed $c$ and $c=1/\sqrt d$. Runs still unseparated after `max_iter` are counted as
# capped and reported; the median is then a lower bound. For $c=1/\sqrt d$ the tail is judged by
# the growth of the 90th percentile against the lower quartile (the median falls between the two
# modes of this rule, see below), only over d where fewer than 10 % of the runs are capped (else
# the claim is inconclusive), so the cap cannot fake a heavy tail. Everything runs in the 2-D span of the
# data (exact reduction, checked below against full-dimensional runs).
#
# **Look for:** medians far below the linear line, with slope about ½ at moderate d and flattening
# (≈ log d) for fixed c at large d; heavy tails for $c=1/\sqrt d$.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
log4_min = 2  # d is 4^2 ... 4^10, the spec's F2 table
log4_max = 10  # largest d is 4^log4_max (F2 table)
seeds = 300  # random inits per (d, step rule)
c_fixed = [0.1, 0.2, 0.5]  # step rules of the table, c is 2 eta ||b_1||^2 / n
c_sqrt = [1.0]  # step rules c is c0/sqrt(d) of the table
m = 2  # neurons, outputs s is (+1, -1)
max_iter = 30000  # cap; capped runs are reported, heavy tails of 1/sqrt(d)
slope_d_max = 4096  # spec §5 check 5 fits d is 16 ... 4096
slope_c = 0.1  # step rule of the slope check
plane_ds = [16, 64, 256]  # spec §5 check 3, full d against the plane
plane_seeds = 60  # inits per d in that check
plane_c = 0.2  # step of that check
scale_powers = [-10, 0, 10]  # spec §5 check 9, W_0 times 2^k
scale_d = 256  # d of the scale check

# %%
import numpy as np
import pandas as pd
import torch
from IPython.display import Markdown

from lib.companion import notebook, paths, plotting
from lib.gd_perceptron import decisions, lower_bound, speedup

nb = notebook.start("gd_perceptron/03_two_layer_speedup", globals())
cfg, ledger, tables = nb.cfg, nb.ledger, nb.tables
gen = torch.Generator().manual_seed(cfg.seed)
spec_table = pd.read_csv(paths.data_file("gd_perceptron/spec_f2_medians.csv"))

# %% [markdown]
# ## The F2 table: every (d, step rule, seed) in one batched run

# %%
ds = [4 ** k for k in range(cfg.log4_min, cfg.log4_max + 1)]
rules = [speedup.StepRule(c) for c in cfg.c_fixed] + [speedup.StepRule(c, True) for c in cfg.c_sqrt]
sweep = speedup.quadratic_sweep(ds, rules, cfg.seeds, gen, m=cfg.m, max_iter=cfg.max_iter)
summary = sweep.summary()
summary["linear_T"] = [lower_bound.closed_form_half(int(d)) for d in sweep.d]
summary = summary.merge(spec_table.rename(columns={"median_iterations": "spec_median"}),
                        on=["rule", "d"], how="left")
summary.to_csv(tables / "f2_table.csv", index=False)
summary.pivot(index="d", columns="rule", values="median")

# %%
fig, ax = plotting.figure(width=4.4, height=3.3)
for (label, group), colour in zip(summary.groupby("rule", sort=False), plotting.palette(len(rules))):
    ax.loglog(group.d, group["median"], "o-", c=colour, label=f"quadratic, {label}")
    ax.fill_between(group.d, group.q25, group.q75, color=colour, alpha=0.2)
    capped = group[group.capped_fraction > 0]
    ax.loglog(capped.d, capped["median"], "x", c="k", ms=7)
ax.loglog(ds, [lower_bound.closed_form_half(d) for d in ds], "k--", label="linear (exact): d+2")
ax.loglog(ds, np.sqrt(ds), "k:", label=r"$\sqrt{d}$")
ax.set(xlabel="d (features)", ylabel="iterations to separate (median, IQR)",
       title=f"quadratic GP, {cfg.seeds} inits per d (x: some capped)")
ax.legend(fontsize=6)
nb.save_figure(fig)

# %% [markdown]
# ## $c=1/\sqrt d$: the distribution behind the median
# Quantiles per d (table `sqrt_rule_quantiles.csv`) and the histogram of the counts: a median
# only summarises this rule when the distribution has one mode.

# %%
sqrt_rule = speedup.StepRule(cfg.c_sqrt[0], True).label
k_sqrt = [k for k in range(len(sweep.d)) if sweep.rule[k] == sqrt_rule]
quantiles = summary.iloc[k_sqrt][["d", "q10", "q25", "median", "q75", "q90", "capped_fraction",
                                  "spec_median"]].copy()
quantiles["share_at_or_below_spec_median"] = [float((sweep.iterations[k] <= m).mean()) if m == m
                                              else np.nan for k, m in zip(k_sqrt, quantiles.spec_median)]
quantiles.to_csv(tables / "sqrt_rule_quantiles.csv", index=False)
shown_k = [k for k in k_sqrt if sweep.d[k] >= 1024]
fig, axes = plotting.figure(1, 2, width=8.4, height=3.0)
bins = np.logspace(0, np.log10(cfg.max_iter), 25)
for k, colour in zip(shown_k, plotting.palette(max(len(shown_k), 1))):
    T = np.sort(sweep.iterations[k])
    axes[0].hist(T[~sweep.capped[k]], bins=bins, histtype="step", color=colour,
                 label=f"d={sweep.d[k]} ({sweep.capped[k].mean():.0%} capped)")
    axes[1].step(T, np.arange(1, len(T) + 1) / len(T), where="post", color=colour, label=f"d={sweep.d[k]}")
    spec_m = quantiles.spec_median[quantiles.d == sweep.d[k]]
    axes[1].plot(spec_m, 0.5 + 0 * spec_m, "x", color=colour, ms=7)
axes[0].set(xscale="log", xlabel="iterations to separate (uncapped runs)", ylabel=f"runs (of {cfg.seeds})",
            title=f"{sqrt_rule}: two modes")
axes[0].legend(fontsize=5)
axes[1].axhline(0.5, c="k", ls=":", lw=0.8)
axes[1].set(xscale="log", xlabel="iterations to separate (cap included)", ylabel="share of runs",
            title="ECDF; x: the spec's median")
axes[1].legend(fontsize=5)
nb.save_figure(fig, "sqrt_rule")
quantiles

# %%
src = "Thm 5.1 (O~(sqrt d)) vs the Omega(d) bound; model reconstructed, spec §4 F2 and §5 check 5"
sel = summary[(summary.rule == speedup.StepRule(cfg.slope_c).label) & (summary.d <= cfg.slope_d_max)]
slope = speedup.loglog_slope(sel.d, sel["median"])
ledger.bound("quadratic.slope_moderate_d", f"median slope over d = 16..{cfg.slope_d_max} at c = {cfg.slope_c:g} is in [0.3, 0.6]",
             source=src, provenance="reconstructed", measured=slope, lower=0.3, upper=0.6,
             why="spec §5 check 5 (spec observed 0.47; sqrt(d) is 0.5)")
fast = summary[(summary.rule == speedup.StepRule(cfg.slope_c).label) & (summary.d >= 1024)]
five = ("quadratic.five_times_faster", f"median T_quad <= T_lin / 5 for every d >= 1024 (c = {cfg.slope_c:g})")
if len(fast):
    ledger.bound(*five, source=src, provenance="reconstructed",
                 measured=float((fast["median"] / fast.linear_T).max()), upper=0.2,
                 why="spec §5 check 5: T_quad <= T_lin / 5 at every d >= 1024 (measured: the largest ratio)")
else:
    ledger.skip(*five, source=src, provenance="reconstructed", kind="bound", expected="[-inf, 0.2]",
                reason=f"this profile's sweep stops at d = {max(ds)} < 1024")
fixed = summary[summary.rule.isin([r.label for r in rules if not r.sqrt_d])]
ledger.bound("quadratic.fixed_c_converges", f"no run with fixed c in {cfg.c_fixed} hits the cap of {cfg.max_iter}",
             source="spec §5 check 5", provenance="reconstructed",
             measured=float(fixed.capped_fraction.max()), upper=0.0,
             why="spec §5 check 5: 0 % non-convergence (measured: the largest capped fraction)")
heavy = summary[(summary.rule == sqrt_rule) & (summary.d <= cfg.slope_d_max)]
tail_slopes = (speedup.loglog_slope(heavy.d, heavy.q90), speedup.loglog_slope(heavy.d, heavy.q25))
heavy_inits = sweep.iterations[heavy.index.to_numpy()].T               # (seeds, d): one row per init


def heavy_tail_rule(inits):
    """`decisions.heavy_tail` on the q90 and q25 slopes over d of (resampled) inits."""
    q25, q90 = np.percentile(inits, [25, 90], axis=0)
    return decisions.heavy_tail(speedup.loglog_slope(heavy.d, q90), speedup.loglog_slope(heavy.d, q25))


ledger.statistical("quadratic.sqrt_rule_heavy_tail",
                   f"with {sqrt_rule} the 90th percentile grows like d and pulls away from the lower quartile "
                   f"(log-log slopes over d = {int(heavy.d.min())}..{int(heavy.d.max())})",
                   source="spec §4 F2's counts (90th percentile 37, 134, 519, 1988, 8096 at d = 16..4096: slope 0.97 by our "
                          "fit; its medians over d = 16..65536: slope 0.56 by our fit); the lower quartile stands in for the median, which the bimodal counts make ill-conditioned "
                          "(substitute and thresholds chosen after seeing the counts)",
                   provenance="reconstructed",
                   expected=f"q90 slope >= {decisions.TAIL_Q90_SLOPE_MIN:g} and >= q25 slope + {decisions.TAIL_SPREAD_MIN:g}",
                   measured=f"q90 slope {tail_slopes[0]:.3f}, q25 slope {tail_slopes[1]:.3f} "
                            f"(median slope {speedup.loglog_slope(heavy.d, heavy['median']):.3f})",
                   holds=decisions.heavy_tail(*tail_slopes), samples=heavy_inits, decide=heavy_tail_rule,
                   requires=(decisions.tail_readable(heavy.capped_fraction.tolist()),
                             f"fewer than {decisions.TAIL_CAPPED_MAX:.0%} of the runs capped at every d of the fit, "
                             "so the 90th percentile is a count and not the cap"))
both = summary.dropna(subset=["spec_median"])
for label, group in both.groupby("rule", sort=False):
    ledger.statistical(f"quadratic.spec_table.{label}", f"our medians for {label} are within a factor 1.5 of the spec's simulation at every d >= 256",
                       source="spec §4 F2 table (the spec's own simulation, not the paper)",
                       provenance="reconstructed", expected="ratio in [2/3, 1.5]",
                       measured=f"ratios {np.round(group['median'] / group.spec_median, 2).tolist()}",
                       samples=sweep.iterations[group.index.to_numpy()].T,          # (seeds, d)
                       decide=lambda inits, g=group: decisions.spec_table_agrees(
                           g.d.tolist(), np.median(inits, axis=0).tolist(), g.spec_median.tolist()))

# %% [markdown]
# ## Why the plane is enough: full-dimensional runs, and scale invariance
# The same $W_0$ is run in full $d$ and in the 2-D span of the data ([spec §5](../../docs/specs/gd_perceptron.md#s5) check 3); the
# components of $w_j$ orthogonal to the span never move. The GP is scale-free, so multiplying
# $W_0$ by $2^k$ (exact in floating point) changes no count (check 9).

# %%
plane, drift = speedup.plane_checks(cfg.plane_ds, cfg.plane_seeds, cfg.plane_c, gen, cfg.m, cfg.max_iter)
plane.to_csv(tables / "plane_vs_full.csv", index=False)
ledger.exact("plane.counts_match_full_d", f"full-d and 2-D GP counts agree for every seed at d in {cfg.plane_ds} (c = {cfg.plane_c:g})",
             source="spec §2.3, §5 check 3", provenance="derived",
             expected=f"{cfg.plane_seeds * len(cfg.plane_ds)} of {cfg.plane_seeds * len(cfg.plane_ds)}",
             measured=f"{int(plane.matches.sum())} of {cfg.plane_seeds * len(cfg.plane_ds)}")
ledger.bound("plane.orthogonal_components_fixed", "components of w_j orthogonal to span{b_i} stay unchanged",
             source="spec §2.3, §5 check 3", provenance="derived", measured=drift, upper=1e-12,
             why="spec §5 check 3: 1e-12, float64 (the projector is built from a QR basis)")

init_state = gen.get_state()                       # the control below reuses the same W_0
scaled = speedup.scaled_init_counts(cfg.scale_d, cfg.plane_seeds, cfg.plane_c, cfg.scale_powers, gen,
                                    cfg.m, cfg.max_iter)
ledger.exact("scale.quadratic_counts_invariant", f"GP counts do not change when W_0 is multiplied by 2^k, k in {cfg.scale_powers}",
             source="spec §2.2, §5 check 9", provenance="derived", expected=True,
             measured=all(np.array_equal(scaled[k], scaled[0]) for k in cfg.scale_powers))
gen.set_state(init_state)
doubled = speedup.scaled_init_counts(cfg.scale_d, cfg.plane_seeds, 2 * cfg.plane_c, [0], gen, cfg.m, cfg.max_iter)
ledger.exact("control.doubled_step_changes_counts", "negative control: the same count comparison rejects runs "
             f"from the same W_0 at a doubled step (c = {2 * cfg.plane_c:g} in place of {cfg.plane_c:g})",
             source="spec §5 check 9 (deliberately wrong step)", provenance="derived", expected=False,
             measured=bool(np.array_equal(doubled[0], scaled[0])))
nb.finish()

# %%
status = {c.id.removeprefix("gd_perceptron."): c.status for c in ledger.claims}
gain = np.log10(fixed.linear_T / fixed["median"])                       # decades below the linear count
sq = quantiles.dropna(subset=["spec_median"])
worst = sq.iloc[int(np.argmax(sq["median"] / sq.spec_median))]
Markdown(f"**This run:** with fixed c the quadratic medians sit {gain.min():.1f} to {gain.max():.1f} decades "
         f"below the linear count; " + ", ".join(f"`{k}` is `{v}`" for k, v in status.items()
                                               if k.startswith("quadratic.spec_table") or k.endswith("heavy_tail"))
         + f". For {sqrt_rule} the median is furthest from the spec's at d = {int(worst.d)} "
         f"({worst['median'] / worst.spec_median:.1f}×), where {worst.capped_fraction:.0%} of the runs are capped; "
         f"the spec's medians are our {sq.share_at_or_below_spec_median.min():.0%} to "
         f"{sq.share_at_or_below_spec_median.max():.0%} quantiles over d = {int(sq.d.min())}..{int(sq.d.max())}.")

# %% [markdown]
# **What we saw.** The line above gives this run's figures. The quadratic model's medians sit far
# below the linear count, with a median slope in $[0.3, 0.6]$ over d = 16…`slope_d_max`
# (`quadratic.slope_moderate_d`, a bound that stops the notebook otherwise), flattening at large
# d for fixed c. How close the fixed-c medians come to the spec's own simulation is
# `quadratic.spec_table.*` (the spec's numbers, not the paper's); where a ratio lies close to the
# 1.5× edge, the verdict is resampled over the inits and may be `inconclusive`: the medians of a
# few hundred inits cannot tell 1.4× from 1.6×, so such a claim says "not decided", not
# "disagrees". For $c=1/\sqrt d$ the medians can differ by far more, and the line above says
# whether the cap could be why: a capped share well under one half cannot move a median by an
# order of magnitude. The counts of this rule are **bimodal** (figure
# `03_two_layer_speedup_sqrt_rule`): a fast mode and a slow mode one to two decades apart, so
# the ECDF is nearly flat where it crosses ½. The median is then ill-conditioned: where the
# spec's medians fall a little below our own (the quantiles above), a shift of a small share of
# the runs between the modes moves the median across the gap between them. Whether the 90th
# percentile grows like d and pulls away from the lower quartile, the fast mode, is
# `quadratic.sqrt_rule_heavy_tail`: the heavy tail the spec describes; compare quantiles, not
# medians, for this rule. The full-dimensional runs agree with the plane seed by seed
# (`plane.counts_match_full_d`). What this shows about the paper's headline (Õ(√d) against
# Θ(d)): the reconstructed two-layer model separates data set A far faster than the linear
# model at moderate d, with a fixed-c slope in $[0.3, 0.6]$ (√d has ½); the model is the spec's
# reading of the appendix, Theorem 5.1's parameter choice is unknown, and d stops at
# `4 ** log4_max`.
