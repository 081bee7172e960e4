# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Region selection as n grows, and Laplace predictive intervals
#
# **Claim (Zhu, Li, Ma, Wu, abstract; P2).** "First theoretical guarantees for a Bayesian deep
# functional model": approximation error bounds, posterior consistency and region-selection
# consistency (Theorems 5.4, 5.7, 5.9 by a third-party audit's labels). The statements were not
# readable ([spec §0](../../docs/specs/sbayfdnn.md#s0)); only their observable consequence is illustrated here: as n grows the
# selected region should approach the true one, and the prediction error should fall.
#
# **What this miniature shows (reconstructed, [spec §3](../../docs/specs/sbayfdnn.md#s3) NB3).** sBayFDNN-MAP on the sin link of
# notebook 02 at SNR 1 (a hard setting, where selection can still improve) and SNR 5 (where the
# prototype already saturated at the basis resolution at n = 100), for n in {50, 100, 200, 400};
# each (n, SNR) is one run of the sweep engine (`executor`), one `vmap`-batched fit of its
# replications and restarts. For each fit: IoU, FPR,
# whether $\hat R \supseteq R$, the PIP of every basis, and a Laplace predictive interval.
#
# **Decisions where the spec is open.** (§7 Q5) "quantified uncertainty" is read as both the PIPs
# and a predictive interval; the interval is the linearised Laplace approximation at the MAP with
# a *diagonal* curvature: the generalised Gauss-Newton diagonal of the likelihood (positive,
# where the exact Hessian diagonal need not be) plus the prior's, the entries of first-layer
# column $j$ getting the precision $\hat q_j/s_1 + (1-\hat q_j)/s_0$ averaged over the column's
# indicator; the interval adds a noise variance equal to the MAP's training residual variance
# (`interval_noise`; the fit's $s^2 = \mathrm{var}(y) = 1$ is the alternative). The spec calls the
# coverage check a `bound` ("reported; flagged otherwise"); it is recorded as `statistical` so
# that a miscalibrated interval is reported, not a stopped stage. PIP > 0.5 (`pip_cut`).
# Selection improving with n (C1) is decided on the gain in IoU from the smallest to the largest
# n, paired by replication, beyond 2 standard errors (with FPR not shown to rise), over 10
# replications (`reps`; the spec's default 3 cannot show a gain beyond 2 s.e.): the spec's
# monotonicity rule on medians of 3 replications had no slack and decided on noise. Every claim
# is resampled over the replications for its stability.
#
# **External findings, not claims ([spec §7](../../docs/specs/sbayfdnn.md#s7) Q4).** A third-party audit reports that Theorem 5.4
# as stated puts no lower bound on the network parameter bound (a trivial counterexample), that
# the proof of 5.7 uses the reverse of its rate condition, and that 5.9 moves from the posterior
# to the MAP plug-in under an unstated condition. The companion cannot check these without the
# statements and does not record them as claims.
#
# **What it cannot show ([spec §8](../../docs/specs/sbayfdnn.md#s8)).** The theorems themselves; the paper's replication counts.
#
# **Look for:** at SNR 1, IoU rising and FPR falling with n; at SNR 5, IoU flat at the basis
# limit and MSE falling; the coverage line against the 90% target.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
executor = "inline"  # where the grid's runs go: inline in the kernel (one after the other), debug (in the kernel, through submitit), local subprocesses, or slurm jobs
workers = 1  # runs at once (local) or the SLURM array's parallelism; runs are single-threaded, so the results are the same for any count
slurm_partition = ""  # SLURM partition ('' the cluster's default)
slurm_gpus = 0  # GPUs per SLURM job
slurm_time_min = 240  # a SLURM job's time limit in minutes (≤ 14 days, the runner's paper limit)
J = 24  # spec §3: J is 24 basis functions (the audit's example value, spec §7 Q2)
degree = 3  # decision (spec §7 Q2): cubic B-splines; the audit's example uses degree 4
support_min = 0.2  # spec §3: the true region R is [0.2, 0.4]
support_max = 0.4  # spec §3: the true region R is [0.2, 0.4]
metric_grid = 1001  # spec §3: region metrics on a 1,001-point grid of [0, 1]
width = 64  # spec §1.2/§3: first hidden layer W is 64 (the column size of the group prior)
lam = 1e-05  # spec §1.2: prior inclusion lambda is 1e-5 (audit's example)
s0 = 1e-05  # spec §1.2: spike variance 1e-5 (audit's example)
s1 = 0.002  # spec §1.2: slab variance 2e-3 (audit's example)
T = 101  # spec §3: T is 101 grid points on [0, 1]
K = 20  # spec §3: 20 sine components per curve
n_test = 1000  # spec §3: MSE on 1,000 test curves
reps = 10  # 10 replications (spec §3 default: 3; the paper: 50): C1 is decided on the gain from the smallest to the largest n paired by replication, beyond 2 s.e., which 3 cannot show
hidden = 32  # spec §3: network 24 -> 64 -> 32 -> 1
steps = 1500  # spec §3 default profile: 1,500 full-batch Adam steps
lr = 0.003  # spec §3: Adam lr 3e-3
restarts = 2  # spec §3: 2 restarts, the lower training error kept
pip_cut = 0.5  # decision (spec §7 Q6): the median-probability rule PIP > 0.5, not a Bayesian FDR
dtype = "float32"  # decision: float32 fits (several times faster than float64 on CPU, bench/)
link = "sin"  # spec §3 NB3: the sin link
snrs = [1.0, 5.0]  # spec §3 NB3: SNR 1 (a visible trend) and 5 (saturated)
ns = [50, 100, 200, 400]  # spec §3 NB3: n in {50, 100, 200, 400}
level = 0.9  # spec §3 NB3: 90% Laplace predictive intervals
interval_noise = "residual"  # decision: noise variance of the interval is MAP training residual variance (likelihood: the fit's s2 is var(y) is 1)

# %%
import numpy as np

from lib.companion import notebook, plotting, rules, sweep
from lib.sbayfdnn import basis, consistency, decisions

nb = notebook.start("sbayfdnn/03_consistency", globals())
cfg, ledger, rng, tables = nb.cfg, nb.ledger, nb.rng, nb.tables
support = (cfg.support_min, cfg.support_max)

# %%
runs = sweep.run_params(consistency.run_setting, consistency.sweep_grid(cfg), cfg, nb.id,
                        labels=[f"n {cfg.ns[ni]} snr {cfg.snrs[si]:g}"
                                for _, ni, si in consistency.sweep_grid(cfg)])
out = consistency.collect(cfg, runs)
res = out.table
res.to_csv(tables / "fits.csv", index=False)
grouped = res.groupby(["snr", "n"])
summary = grouped[["mse", "iou", "fpr", "tpr", "coverage", "half_width"]].median()
summary["p_covers"] = grouped.covers.mean()
summary = summary.reset_index()
summary.to_csv(tables / "summary.csv", index=False)
summary


# %%
def medians(snr: float, key: str) -> list[float]:
    """Median of a metric over replications at each n, for one SNR."""
    rows = summary[summary.snr == snr]
    return [round(float(v), 4) for v in rows.sort_values("n")[key]]


# %% [markdown]
# ## Claims (thresholds of [spec §3](../../docs/specs/sbayfdnn.md#s3) NB3, fixed before the run)

# %%
trend = len(cfg.ns) >= 2


def per_rep(snr, key):
    """A metric as (replications, n), for one SNR: the replications are paired across n."""
    rows = res[res.snr == snr]
    return rows.pivot(index="rep", columns="n", values=key)[cfg.ns].to_numpy()


if trend and 1.0 in cfg.snrs:
    iou1, fpr1 = per_rep(1.0, "iou"), per_rep(1.0, "fpr")
    ledger.statistical("consistency.region_snr1", "region selection improves with n at SNR 1: "
                       f"paired by replication, IoU at n = {cfg.ns[-1]} minus IoU at n = "
                       f"{cfg.ns[0]} is above 0 by more than 2 s.e., and FPR is not shown to "
                       "rise (its difference not 2 s.e. above 0)",
                       source="P2 (Theorem 5.9 in spirit); spec C1 (the rule ours)",
                       provenance="reconstructed",
                       expected="IoU rises beyond 2 s.e.; FPR not shown rising",
                       measured=f"n {cfg.ns}: median IoU {medians(1.0, 'iou')}, median FPR "
                       f"{medians(1.0, 'fpr')}, P(Rhat contains R) {medians(1.0, 'p_covers')}; "
                       f"mean IoU gain {float((iou1[:, -1] - iou1[:, 0]).mean()):.3f}",
                       **rules.evidence_by_index(cfg.reps, lambda i: decisions.improves(
                           iou1[i, 0], iou1[i, -1]) and decisions.not_shown_rising(
                           fpr1[i, 0], fpr1[i, -1])),
                       tolerance=f"2 s.e. over {cfg.reps} replications, first against last n "
                       "(a monotonicity rule on medians of a few replications decides on noise)")
else:
    ledger.skip("consistency.region_snr1", "region selection improves with n at SNR 1",
                source="spec C1", provenance="reconstructed", kind="statistical",
                expected="IoU rises with n", reason="this profile has no SNR 1 or a single n")
if trend and 5.0 in cfg.snrs:
    mse5 = per_rep(5.0, "mse")
    ledger.statistical("consistency.mse_snr5", "prediction improves with n at SNR 5: median test "
                       "MSE over replications strictly decreasing in n", source="P2 (posterior "
                       "contraction, in spirit); spec C1 (the rule ours)",
                       provenance="reconstructed", expected="strictly decreasing",
                       measured=f"n {cfg.ns}: median MSE {medians(5.0, 'mse')}; median IoU "
                       f"{medians(5.0, 'iou')}", **rules.evidence_by_index(
                           cfg.reps, lambda i: decisions.decreasing(np.median(mse5[i], 0))),
                       tolerance="spec C1 rule, strict")
else:
    ledger.skip("consistency.mse_snr5", "prediction improves with n at SNR 5", source="spec C1",
                provenance="reconstructed", kind="statistical", expected="MSE decreasing",
                reason="this profile has no SNR 5 or a single n")
cov = summary.coverage.round(3).tolist()
cov_rep = np.concatenate([per_rep(snr, "coverage") for snr in cfg.snrs], axis=1)  # (reps, cells)
ledger.statistical("laplace.coverage", f"the {cfg.level:.0%} Laplace predictive interval is "
                   "calibrated: median coverage of test responses in [0.8, 0.97] at every "
                   "(SNR, n)", source="spec C2 (reconstructed; 'quantified uncertainty', P1)",
                   provenance="reconstructed", expected="every median coverage in [0.8, 0.97]",
                   measured=f"(snr, n) {list(zip(summary.snr, summary.n))}: coverage {cov}",
                   **rules.evidence_by_index(cfg.reps, lambda i: all(
                       decisions.in_range(c) for c in np.median(cov_rep[i], 0))),
                   tolerance="spec C2 range, fixed before the run")

# %% [markdown]
# ## Figures

# %%
fig, axes = plotting.figure(1, 3, width=9.0)
for si, snr in enumerate(cfg.snrs):
    for ax, key in zip(axes, ("iou", "fpr", "mse")):
        q = grouped[key].quantile([0.25, 0.5, 0.75]).unstack().loc[snr]
        ax.plot(q.index, q[0.5], "o-", color=f"C{si}", label=f"SNR {snr:g}")
        ax.fill_between(q.index, q[0.25], q[0.75], color=f"C{si}", alpha=0.2)
for ax, key in zip(axes, ("IoU", "FPR", "test MSE")):
    ax.set(xscale="log", xlabel="n (train)", ylabel=key, title=f"{key} vs n")
axes[0].legend(fontsize=7)
nb.save_figure(fig, "region")

# %%
knots = basis.clamped_knots(cfg.J, cfg.degree)
meet = [j for j in range(cfg.J) if basis.support(j, knots, cfg.degree)[1] > support[0]
        and basis.support(j, knots, cfg.degree)[0] < support[1]]
fig, axes = plotting.figure(1, len(cfg.snrs), squeeze=False)
for ax, (si, snr) in zip(axes[0], enumerate(cfg.snrs)):
    im = ax.imshow(np.median(out.pips[si], 1).T, aspect="auto", origin="lower", vmin=0, vmax=1,
                   cmap="viridis")
    ax.set(xticks=range(len(cfg.ns)), xticklabels=cfg.ns, xlabel="n (train)",
           ylabel="basis j", title=f"median PIP, SNR {snr:g}")
    ax.plot(np.zeros(len(meet)) - 0.45, meet, "r>", ms=3)
    ax.grid(False)
fig.colorbar(im, ax=axes[0, -1])
nb.save_figure(fig, "pip")

# %%
fig, ax = plotting.figure(width=4.5)
for si, snr in enumerate(cfg.snrs):
    q = grouped.coverage.quantile([0.25, 0.5, 0.75]).unstack().loc[snr]
    ax.plot(q.index, q[0.5], "o-", color=f"C{si}", label=f"SNR {snr:g}")
    ax.fill_between(q.index, q[0.25], q[0.75], color=f"C{si}", alpha=0.2)
ax.axhline(cfg.level, color="k", lw=0.8, ls="--", label="nominal")
ax.axhspan(*decisions.COVERAGE_RANGE, color="0.9", zorder=0, label="accepted range")
ax.set(xscale="log", xlabel="n (train)", ylabel="coverage of test y",
       title=f"{cfg.level:.0%} Laplace interval coverage")
ax.legend(fontsize=7)
nb.save_figure(fig, "coverage")

# %%
nb.finish()

# %% [markdown]
# **What we saw.** Medians per (SNR, n) are in `summary.csv`, every fit in `fits.csv`. Whether
# selection improves with n at SNR 1 and the error falls at SNR 5 is recorded in
# `sbayfdnn.consistency.*` whatever the outcome; the coverage of the Laplace interval in
# `sbayfdnn.laplace.coverage`. Selection is decided on the gain from the smallest to the largest
# n, paired by replication, beyond 2 s.e.; a monotonicity rule on medians of a few replications
# would decide on noise. A reading of the PIP heat map, not a checked claim: when the SNR-1 rule
# fails, look for a neighbouring basis entering at large n. The prior's threshold
# $\tau^*$ does not change with n while the likelihood's pull on a column grows with it, so the
# region can widen by one support while $P(\hat R \supseteq R)$ rises. The rule (ours, from the
# spec's C1), fixed before the run, counts a widening by one basis against it through the FPR.
#
# **What this says about the paper's headline (P2, consistency).** Only the observable consequence
# is tested, at n <= 400 and 10 replications (the paper: 50): the error falling with n
# (`consistency.mse_snr5`) and the selected region approaching R at SNR 1
# (`consistency.region_snr1`). A failure of the latter says that at these n the MAP region does
# not yet tighten beyond its replication noise, not that the theorem is wrong: the theorem is
# asymptotic, and its statement could not be read. The `paper` profile (n up to 800, 50
# replications) is the size that could change the reading.
