# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # CalPro miniature, part 1: coverage under a disorder shift, seven arms
#
# **What the miniature shows.** CalPro's mechanism ([spec §1](../../docs/specs/calpro.md#s1)) on synthetic residue chains
# ([spec §1.6](../../docs/specs/calpro.md#s1-6)): a per-residue regression whose noise grows with a piecewise-constant disorder
# prior d, a network trained and conformally calibrated on an "X-ray-like" regime (few, mildly
# disordered segments) and tested both in distribution and on an "NMR-like" regime (45 % of
# segments strongly disordered, outside the training range of d). Seven arms, all calibrated by
# split conformal on the same calibration chains: **vanilla** (MSE regressor, absolute
# residual), **CQR** (two pinball quantiles), **blind** (plain evidential NIG, no prior),
# **p0** (NIG with the prior as a feature), **p1** (p0 plus the monotone floor: the prior-aware
# arm), **p2** (no feature, prior-modulated evidence), **p1_cal** (p1 plus the differentiable
# calibration surrogate) ([spec §1.4](../../docs/specs/calpro.md#s1-4)). Beside them, **p0_raw**: p0's own Student-t interval with no conformal
# step. Exact checks: the finite-sample conformal guarantee on exchangeable scores (as a
# fraction), the NIG loss against scipy's Student-t, P2's reduction to the plain head, and the
# closed-form coverage under shift ([spec §1.5](../../docs/specs/calpro.md#s1-5)) against Monte Carlo.
#
# **What it cannot show ([spec §8](../../docs/specs/calpro.md#s8)).** Every protein number: coverage across X-ray, NMR and
# cryo-EM structures, the 30-50 % calibration-error reduction and the docking success
# (52 % → 75 %) need AlphaFold DB / PDB structures, disorder annotations and docking software.
# How large the effects are here depends on our synthetic shift, which was designed to show the
# mechanism. Every number below is the miniature's, never the paper's.
#
# **Provenance.** The claims C1, C2, C5 are the paper's abstract, in kind ([spec §2](../../docs/specs/calpro.md#s2)); the data,
# prior forms and surrogate are reconstructed ([spec §1.6](../../docs/specs/calpro.md#s1-6), [spec §1.4](../../docs/specs/calpro.md#s1-4)); the closed form and bounds are
# derived ([spec §1.5](../../docs/specs/calpro.md#s1-5)).
#
# **Decisions where the spec is open** ([spec §7](../../docs/specs/calpro.md#s7)), each a parameter: the extrapolation design
# (`design`); the spec's 64 hidden units (`hidden`; an earlier cut to 32 for the budget is
# undone); 300 epochs (`epochs`; at 64 units the spec's 200 left p1's loss still falling, and
# every comparison requires its arms' losses flat over their last quarter); Adam 1e-2 (`lr`); λ_ev = 0.01, λ_p = 1, surrogate weight 1 with no width term (`lam_*`); the
# "prior-aware arm" of the C1/C5 claims is p1, fixed before the run (`choices.PRIOR_ARM`);
# calibration error is the conditional coverage error over 10 bins of d (`cond_bins`); the TV
# of scores is a 20-bin equal-mass histogram (`tv_bins`). ID validity is the spec's rule
# (seed mean >= 1 - a - 3 SE), with an SE that counts both random draws of split conformal: the
# calibration set (given it, the coverage follows a Beta law over the m calibration scores) and
# the test residues (binomial); a test-only SE leaves out the larger part. Every statistical
# claim is decided on the seeds and resampled over them. The bound claims use chain-cluster
# standard errors (residues of a chain share segments, so the binomial SE is too small for them).
#
# **What to look for.** Every arm near 0.9 in distribution; under shift, vanilla and the blind
# NIG fall far, near the closed-form prediction for vanilla; the arms whose uncertainty reads
# the prior stay close to 0.9, most of the rescue already with the prior as a plain feature.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
executor = "inline"  # the (arm, seed) jobs in the kernel (the sweep engine; local: subprocesses, slurm: on a cluster): a subprocess per job, each importing torch, more than doubled notebook 01's time at this size, and make repro keeps both cores busy with other stages
workers = 1  # jobs at once (local and slurm only); results do not depend on it
slurm_partition = ""  # SLURM partition ('' the cluster's default)
slurm_gpus = 0  # GPUs per SLURM job
slurm_time_min = 240  # a SLURM job's time limit in minutes (≤ 14 days, the runner's paper limit)
p_train = 0.08  # spec §1.6: X-ray-like regime, a segment is disordered w.p. 0.08
p_shift = 0.45  # spec §1.6: NMR-like shift regime, disordered w.p. 0.45
n_train = 80  # spec §1.6: 80 training chains
n_cal = 50  # spec §1.6: 50 calibration chains
n_test = 60  # spec §1.6: 60 chains in each test split (ID and shift)
contact_radius = 0.0  # spec §3 sizes: sequence edges only; > 0 adds contacts of a random 3-D chain walk closer than this (paper profile)
hidden = 64  # spec §1.6: 64 hidden units (issue 58: the budget's cut to 32 is undone; a job costs about 1.8x the CPU of 32's)
rounds = 2  # spec §1.6: 2 message-passing rounds
epochs = 300  # decision: 300 full-batch Adam epochs (spec §1.6: 200, and 100 left the NIG arms' scales untrained; at 64 hidden units 200 left p1's loss falling 6.7 % over its last quarter on seed 1; the paper profile runs 400)
lr = 0.01  # decision (spec §1.6 silent): Adam 1e-2
a = 0.1  # spec §1.6: miscoverage a is 0.1 (90 % intervals)
lam_ev = 0.01  # decision (spec §1.2 silent): evidential weight lambda_ev is 0.01 (Amini et al.'s order)
lam_prior = 1.0  # decision (spec §1.4 P1 silent): floor weight lambda_p is 1
kappa = 4.0  # spec §1.4 P1: kappa is 4
lam_cal = 1.0  # decision (spec §7 Q2): surrogate weight 1, no width term
temperature = 0.1  # spec §1.3: surrogate temperature T is 0.1
tv_bins = 20  # decision: equal-mass bins of the histogram TV of scores (spec §3 bound.tv)
design = "extrapolate"  # spec §1.6: the shift forces extrapolation in d (training disorder d in [0.3, 0.55])
seeds = 3  # spec §3 sizes: 3 seeds
mc_chains = 1500  # chains per regime of the oracle Monte-Carlo checks (about 120k residues each)
cond_bins = 10  # decision (spec §7 Q5): conditional coverage error over 10 equal-width bins of d
cond_min = 30  # ... counting only bins with at least 30 residues

# %%
import math
from fractions import Fraction

import numpy as np
import pandas as pd
import torch
from scipy import stats

from lib.calpro import arms, chains, choices, conformal, evaluate, experiment, nig, shift, train
from lib.companion import notebook, plotting

nb = notebook.start("calpro/01_shift_coverage", globals())
cfg, ledger, tables = nb.cfg, nb.ledger, nb.tables
base, shifted = chains.regimes(cfg.design, cfg.p_train, cfg.p_shift)
design = experiment.Design({"train": cfg.n_train, "cal": cfg.n_cal, "id": cfg.n_test,
                            "shift": cfg.n_test}, base, shifted, cfg.contact_radius)
recipe = train.Recipe(cfg.hidden, cfg.rounds, cfg.epochs, cfg.lr, cfg.a, cfg.lam_ev,
                      cfg.lam_prior, cfg.kappa, cfg.lam_cal, cfg.temperature)
seeds = [cfg.seed + s for s in range(cfg.seeds)]
data = {s: experiment.make_splits(design, s) for s in seeds}
pd.DataFrame([{"seed": s, "split": k, "chains": design.n_chains[k], "residues": c.n,
               "disordered": c.disordered.mean()} for s in seeds for k, c in data[s].items()]
             ).to_csv(tables / "splits.csv", index=False)

# %% [markdown]
# ## The oracle: coverage under shift in closed form ([spec §1.5](../../docs/specs/calpro.md#s1-5))
# With the true mean, the absolute residual calibrated on P covers C_Q(q*) under Q, computed by
# quadrature over the disorder mixture and |f₂|; the normalised score |y − μ|/σ is pivotal and
# covers 1 − a under any covariate shift. Both are checked against Monte Carlo on fresh chains.

# %%
q_abs = shift.calibrated_threshold(cfg.a, base)
c_q = shift.coverage(q_abs, shifted)
q_norm = shift.calibrated_threshold(cfg.a, base, shift.true_sigma)
pivot = shift.coverage(q_norm, shifted, shift.true_sigma)
mc_rng = np.random.default_rng([cfg.seed, 99])
mc_p = chains.sample_chains(cfg.mc_chains, base, mc_rng)
mc_q = chains.sample_chains(cfg.mc_chains, shifted, mc_rng)
hit_abs = np.abs(mc_q.y - mc_q.mu) <= q_abs
se_abs = conformal.chain_se(hit_abs, mc_q.chain)
k = choices.BOUND_SE
ledger.bound("shift.closed_form_mc", measured=float(hit_abs.mean() - c_q), lower=-k * se_abs,
             upper=k * se_abs)
ledger.close("bound.pivotal_oracle", expected=1 - cfg.a, measured=pivot, atol=choices.PIVOT_ATOL)
s_p = np.abs(mc_p.y - mc_p.mu) / mc_p.sigma
hit_norm = np.abs(mc_q.y - mc_q.mu) / mc_q.sigma <= conformal.conformal_quantile(s_p, cfg.a)
se_norm = math.hypot(conformal.chain_se(hit_norm, mc_q.chain),
                     math.sqrt(cfg.a * (1 - cfg.a) / (len(s_p) + 1)))
ledger.bound("bound.pivotal_oracle_mc", measured=float(hit_norm.mean() - (1 - cfg.a)),
             lower=-k * se_norm, upper=k * se_norm)
levels = np.linspace(0.02, 0.9, 23)
curve = [shift.coverage(q_abs, chains.Regime(p, shifted.lo, shifted.hi)) for p in levels]

# %% [markdown]
# ## Training: seven arms × the seeds (each job deterministic in its seed)

# %%
jobs = [experiment.Job(arm, s, design, recipe) for s in seeds for arm in arms.NAMES]
results = experiment.run_jobs(jobs, cfg, nb.id)
by = {(r.arm, r.seed): r for r in results}
pd.DataFrame([{"arm": r.arm, "seed": r.seed, "epoch": i, "loss": v}
              for r in results for i, v in enumerate(r.losses)]
             ).to_csv(tables / "training.csv", index=False)

# %% [markdown]
# ## Coverage, widths, score shift

# %%
cov = evaluate.coverage_table(results, data, cfg.a)
cov.to_csv(tables / "coverage.csv", index=False)
mean = evaluate.seed_means(cov)
mean.reset_index().to_csv(tables / "coverage_mean.csv", index=False)
gaps = evaluate.gap_table(results, data, cfg.a, cfg.tv_bins)
gaps.to_csv(tables / "gaps.csv", index=False)
cond = evaluate.conditional_error(results, data, cfg.a, cfg.cond_bins, cfg.cond_min)
cond.to_csv(tables / "conditional_error.csv", index=False)
err = cond.groupby("arm").error.mean()
mean.xs("all", level="region").coverage.unstack().round(3)

# %% [markdown]
# ## Claims
#
# Their words are in `notebooks/calpro/claims.yaml`; the claims stage decides the statistical
# ones with the rules of `lib/calpro/decisions.py`, fixed before the run.

# %%
P = choices.PRIOR_ARM
s_cal = conformal.scores(by[P, seeds[0]].bands["cal"], data[seeds[0]]["cal"].y)
m = len(s_cal)
formula = Fraction(math.ceil(m * (1 - Fraction(str(cfg.a)))), m)
ledger.exact("conformal.finite_sample_exact", expected=formula,
             measured=conformal.leave_one_out_coverage(s_cal, cfg.a))
ledger.exact("control.wrong_level", expected=False,
             measured=conformal.leave_one_out_coverage(s_cal, cfg.a + 0.05) == formula)
g, nu, al, be = by["p0", seeds[0]].nig["id"]
y_id = data[seeds[0]]["id"].y
ours = nig.nll(torch.as_tensor(y_id), nig.NIG(*map(torch.as_tensor, (g, nu, al, be)))).numpy()
ref = -stats.t.logpdf(y_id, df=2 * al, loc=g, scale=np.sqrt(be * (1 + nu) / (nu * al)))
ledger.close("nig.student_t", expected=0.0, measured=float(np.abs(ours - ref).max()),
             atol=choices.NIG_ATOL)
p_t = nig.NIG(*map(torch.as_tensor, (g, nu, al, be)))
m0 = nig.modulate(p_t, torch.as_tensor(data[seeds[0]]["id"].d_obs),
                  torch.zeros((), dtype=torch.float64))
ledger.exact("nig.p2_reduces", expected=True,
             measured=bool(torch.equal(m0.nu, p_t.nu) and torch.equal(m0.beta, p_t.beta)))

# %%
# per seed (rows, in seed order): coverage of every arm on the ID and shift tests, their drop,
# the variance of the ID coverage (calibration draw and test residues), the ordered residues'
# widths under shift, the conditional coverage error, and the last quarter of each run's loss
# (the precondition: the arms compared trained); the claims stage resamples the seeds
C = evaluate.by_seed(cov, seeds)
cov_id, cov_shift = (C.xs(split, axis=1, level="split") for split in ("id", "shift"))
drop = cov_id - cov_shift
var_id = evaluate.id_variance(cov, {s: data[s]["cal"].n for s in seeds}, seeds, cfg.a)
W = evaluate.by_seed(cov, seeds, "ordered", "width").xs("shift", axis=1, level="split")
E = cond.pivot_table(index="seed", columns="arm", values="error").loc[seeds]
tail = {arm: evaluate.loss_tails(results, [arm], seeds) for arm in arms.NAMES}
with_vanilla = evaluate.loss_tails(results, [P, "vanilla"], seeds)
one = f"one seed (seed {seeds[0]})"
NAMES = list(arms.NAMES)
ledger.record("conformal.id_validity", measured=", ".join(f"{a} {cov_id[a].mean():.3f}"
                                                          for a in NAMES),
              evidence={"coverage": cov_id[NAMES], "variance": var_id[NAMES]},
              context={"a": cfg.a}, rests_on=one)
ledger.record("shift.vanilla_closed_form", measured=f"{cov_shift.vanilla.mean():.4f} (C_Q "
              f"{c_q:.4f})", evidence={"coverage": cov_shift.vanilla, "tail": tail["vanilla"]},
              context={"closed_form": c_q}, rests_on=one)
for cid, arm in (("shift.vanilla_drop", "vanilla"), ("shift.cqr_drop", "cqr"),
                 ("shift.nig_drop", P), ("shift.blind_fails", "blind")):
    ledger.record(cid, measured=drop[arm].mean(), evidence={"drop": drop[arm], "tail": tail[arm]},
                  rests_on=one)
ledger.record("ablation.prior_form", measured=", ".join(f"{a} {v:.3f}" for a, v in
                                                        drop.mean().items())
              + "; p2 learned k " + ", ".join(f"{by['p2', s].k:.2f}" for s in seeds),
              evidence={"drop_p0": drop.p0, "drop_p1": drop.p1, "drop_p2": drop.p2,
                        "drop_blind": drop.blind,
                        "tail": evaluate.loss_tails(results, ["p0", "p1", "p2", "blind"], seeds)},
              rests_on=one)
ledger.record("width.informative", measured="per seed " + ", ".join(
              f"{d:+.4f}" for d in W[P] - W.vanilla), rests_on=one,
              evidence={"width_diff": W[P] - W.vanilla, "tail": with_vanilla})
ledger.record("calibration.conditional_error", measured=f"{P} {E[P].mean():.4f}, vanilla "
              f"{E.vanilla.mean():.4f}", rests_on=one,
              evidence={"error_prior": E[P], "error_vanilla": E.vanilla, "tail": with_vanilla})
ledger.bound("bound.tv", measured=float((gaps.gap.abs() - (gaps.tv_hist + gaps.slack)).max()),
             upper=0.0)
ledger.skip("paper.protein_coverage",
            reason="needs AlphaFold DB / PDB structures across modalities (spec §8)")
ledger.skip("paper.docking", reason="needs docking software and ligand sets (spec §8)")

# %% [markdown]
# ## Figures

# %%
ARMS = [*arms.NAMES, evaluate.RAW]
colours = dict(zip(ARMS, plotting.palette(len(ARMS))))
fig, ax = plotting.figure(width=7.0, height=2.8)
x = np.arange(len(ARMS))
for j, (split, hatch) in enumerate((("id", ""), ("shift", "//"))):
    c = [mean.coverage[a, split, "all"] for a in ARMS]
    e = [1.96 * mean.se_binom[a, split, "all"] for a in ARMS]
    ax.bar(x + (j - 0.5) * 0.38, c, 0.36, yerr=e, color=[colours[a] for a in ARMS],
           hatch=hatch, edgecolor="k", linewidth=0.4, label=f"{split} test")
ax.hlines(c_q, x[0] + 0.02, x[0] + 0.36, color="k", lw=2.5, label="closed form C_Q (oracle)")
ax.axhline(1 - cfg.a, color="k", ls="--", lw=0.8)
ax.set(xticks=x, xticklabels=ARMS, ylabel="coverage", ylim=(0.4, 1.0),
       title=f"coverage, a = {cfg.a:g} ({cfg.seeds} seeds, {cfg.design})")
ax.legend(loc="lower right", fontsize=6)
nb.save_figure(fig, "coverage")

# %%
fig, (ax1, ax2) = plotting.figure(ncols=2, width=7.0)
for j, region in enumerate(("ordered", "disordered")):
    c = [mean.coverage[a, "shift", region] for a in ARMS]
    e = [1.96 * mean.se_binom[a, "shift", region] for a in ARMS]
    ax1.bar(x + (j - 0.5) * 0.38, c, 0.36, yerr=e, color=[colours[a] for a in ARMS],
            hatch="" if region == "ordered" else "..", edgecolor="k", linewidth=0.4,
            label=region)
ax1.axhline(1 - cfg.a, color="k", ls="--", lw=0.8)
ax1.set(xticks=x, xticklabels=ARMS, ylabel="coverage under shift", ylim=(0.0, 1.0))
ax1.tick_params(axis="x", rotation=45)
ax1.legend(fontsize=6, loc="lower left")
ax2.bar(np.arange(len(arms.NAMES)), [err[a] for a in arms.NAMES],
        color=[colours[a] for a in arms.NAMES])
ax2.set(xticks=np.arange(len(arms.NAMES)), xticklabels=arms.NAMES,
        ylabel="conditional coverage error", title=f"mean |cov - {1 - cfg.a:g}| over d bins")
ax2.tick_params(axis="x", rotation=45)
nb.save_figure(fig, "regions")

# %%
fig, ax = plotting.figure(width=7.0, height=2.6)
panels = (("id", "ordered"), ("shift", "ordered"), ("shift", "disordered"))
for j, (split, region) in enumerate(panels):
    ax.bar(x + (j - 1) * 0.27, [mean.width[a, split, region] for a in ARMS], 0.25,
           color=[colours[a] for a in ARMS], hatch=["", "//", ".."][j], edgecolor="k",
           linewidth=0.4, label=f"{split}, {region}")
ax.set(xticks=x, xticklabels=ARMS, ylabel="mean interval width")
ax.legend(fontsize=6, loc="upper left")
nb.save_figure(fig, "width")

# %%
fig, axes = plotting.figure(ncols=3, width=8.0, height=2.6)
sh = data[seeds[0]]["shift"]
for ax, arm in zip(axes, ("p0", "blind", "p1")):
    sig_hat = by[arm, seeds[0]].bands["shift"].scale
    sc = ax.scatter(sh.sigma, sig_hat, c=sh.d, s=2, cmap="viridis", vmin=0, vmax=1,
                    rasterized=True)
    ax.plot([0, sh.sigma.max()], [0, sh.sigma.max()], "k:", lw=0.8)   # sigma^ = sigma
    ax.set(xlabel="true sigma", ylabel="predicted sigma^",
           title=f"{arm} (shift test, seed {seeds[0]})")
fig.colorbar(sc, ax=axes, label="true d", shrink=0.8)
nb.save_figure(fig, "scale")

# %%
fig, ax = plotting.figure()
ax.plot(levels, curve, "k-", label="absolute residual, quadrature")
ax.errorbar([shifted.p], [hit_abs.mean()], yerr=[2 * se_abs], fmt="o", color="C1",
            label="absolute residual, Monte Carlo")
ax.errorbar([shifted.p], [hit_norm.mean()], yerr=[2 * se_norm], fmt="s", color="C2",
            label="normalised score, Monte Carlo")
ax.axhline(pivot, color="C2", ls="--", lw=0.8, label="normalised score, quadrature")
ax.set(xlabel="shift regime: disorder probability p", ylabel="oracle coverage under shift",
       title="the oracle under shift")
ax.legend(fontsize=6)
nb.save_figure(fig, "oracle")

# %%
fig, ax = plotting.figure()
for arm in arms.NAMES:
    gsub = gaps[gaps.arm == arm]
    ax.errorbar(gsub.tv_hist, gsub.gap, yerr=choices.BOUND_SE * gsub.se, fmt="o", ms=3,
                color=colours[arm], label=arm)
top = float(max(gaps.tv_hist.max(), gaps.gap.max())) * 1.1
ax.plot([0, top], [0, top], "k:", lw=0.8)
ax.set(xlabel="histogram TV of scores (ID vs shift)", ylabel="coverage gap (ID - shift)",
       title="gap <= TV")
ax.legend(fontsize=6)
nb.save_figure(fig, "bound")

# %%
nb.finish()

# %% [markdown]
# **What we saw** (the claims table above and the figures carry the numbers; nothing here is
# typed in). Read the coverage figure first: in distribution every conformal arm sits on the
# 0.9 line, as the finite-sample theorem says, and the exact leave-one-out fraction confirms the
# guarantee on exchangeable scores to the last residue. Under shift the arms split into two
# groups: those whose interval cannot read the disorder prior (vanilla, CQR's quantiles learned
# on mild disorder, the blind NIG) lose a large share of coverage, concentrated on the
# disordered residues (regions figure); those whose predicted scale reads d̃ stay near 0.9. The
# ledger says whether the prior-aware arm stays within the paper's 5 pp and whether the floor
# or the surrogate add anything beyond the plain feature (`ablation.prior_form`). The raw
# Student-t interval of p0 shows what the conformal step adds in distribution. The scale figure
# shows a side effect of the P1 floor as the spec writes it: measured against the batch's own
# detached median, the floor is met by driving alpha towards 1, which inflates sigma^ by a
# near-constant factor (far above the true sigma) without changing the Student-t fit; the
# normalised conformal step absorbs any constant factor, so coverage is unaffected, but sigma^
# of p1 is no longer a standard deviation. These are outcomes of a synthetic design that say
# nothing about the paper's protein numbers.
