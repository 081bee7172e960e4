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
# (`design`); 32 hidden units (`hidden`; the spec's 64 is the paper profile's, for the budget);
# Adam 1e-2 (`lr`); λ_ev = 0.01, λ_p = 1, surrogate weight 1 with no width term (`lam_*`); the
# "prior-aware arm" of the C1/C5 claims is p1, fixed before the run (`decisions.PRIOR_ARM`);
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
hidden = 32  # budget: 32 hidden units (spec §1.6: 64, the paper profile's); 200 epochs of 7 arms x 3 seeds at 64 took 4x the budget on 2 shared cores
rounds = 2  # spec §1.6: 2 message-passing rounds
epochs = 200  # spec §1.6: 200 full-batch Adam epochs (100 left the NIG arms' scales untrained)
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

from lib.calpro import arms, chains, conformal, decisions, evaluate, experiment, nig, shift, train
from lib.companion import notebook, plotting, rules

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
ledger.bound("shift.closed_form_mc", "Monte-Carlo coverage under shift of the oracle absolute "
             f"residual at the population threshold, minus the closed form C_Q = {c_q:.4f}",
             source="spec §1.5 (closed form), spec §5", provenance="derived",
             measured=float(hit_abs.mean() - c_q), lower=-decisions.SE_FACTOR * se_abs,
             upper=decisions.SE_FACTOR * se_abs,
             why=f"3 chain-cluster SE of {mc_q.n} shift residues ({cfg.mc_chains} chains)")
ledger.close("bound.pivotal_oracle", "the oracle normalised score |y - mu| / sigma calibrated "
             "on P covers exactly 1 - a under the shift Q (quadrature over Q)",
             source="spec §1.5 (pivotal score)", provenance="derived", expected=1 - cfg.a,
             measured=pivot, atol=decisions.PIVOT_ATOL, why="quadrature and Brent's method")
s_p = np.abs(mc_p.y - mc_p.mu) / mc_p.sigma
hit_norm = np.abs(mc_q.y - mc_q.mu) / mc_q.sigma <= conformal.conformal_quantile(s_p, cfg.a)
se_norm = math.hypot(conformal.chain_se(hit_norm, mc_q.chain),
                     math.sqrt(cfg.a * (1 - cfg.a) / (len(s_p) + 1)))
ledger.bound("bound.pivotal_oracle_mc", "finite-sample split conformal with the oracle "
             "normalised score, calibrated on P chains, tested on Q chains: coverage - (1 - a)",
             source="spec §1.5 (pivotal score), spec §3 bound.pivotal_oracle",
             provenance="derived", measured=float(hit_norm.mean() - (1 - cfg.a)),
             lower=-decisions.SE_FACTOR * se_norm, upper=decisions.SE_FACTOR * se_norm,
             why="3 SE: test residues by chain clusters, and the calibration quantile's "
                 "sqrt(a (1 - a) / (n + 1))")
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
drop = {arm: mean.coverage[arm, "id", "all"] - mean.coverage[arm, "shift", "all"]
        for arm in (*arms.NAMES, evaluate.RAW)}
mean.xs("all", level="region").coverage.unstack().round(3)

# %% [markdown]
# ## Claims (thresholds fixed in lib/calpro/decisions.py before the run)

# %%
s_cal = conformal.scores(by[decisions.PRIOR_ARM, seeds[0]].bands["cal"], data[seeds[0]]["cal"].y)
m = len(s_cal)
ledger.exact("conformal.finite_sample_exact", "exchangeability made exact: each of the n + 1 "
             f"calibration scores of {decisions.PRIOR_ARM} (seed {seeds[0]}, "
             f"{len(np.unique(s_cal))} distinct of {m}) in turn the test point, the other n "
             "calibrating: the fraction covered is ceil((n + 1)(1 - a)) / (n + 1)",
             source="spec §1.3 (finite-sample marginal coverage)", provenance="derived",
             expected=Fraction(math.ceil(m * (1 - Fraction(str(cfg.a)))), m),
             measured=conformal.leave_one_out_coverage(s_cal, cfg.a))
ledger.exact("control.wrong_level", "the exchangeability check rejects a quantile taken at "
             "level a + 0.05 in place of a (its leave-one-out coverage is not the formula's)",
             source="negative control of conformal.finite_sample_exact", provenance="derived",
             expected=False, measured=conformal.leave_one_out_coverage(s_cal, cfg.a + 0.05)
             == Fraction(math.ceil(m * (1 - Fraction(str(cfg.a)))), m))
g, nu, al, be = by["p0", seeds[0]].nig["id"]
y_id = data[seeds[0]]["id"].y
ours = nig.nll(torch.as_tensor(y_id), nig.NIG(*map(torch.as_tensor, (g, nu, al, be)))).numpy()
ref = -stats.t.logpdf(y_id, df=2 * al, loc=g, scale=np.sqrt(be * (1 + nu) / (nu * al)))
ledger.close("nig.student_t", "the NIG loss equals minus the Student-t log-density "
             "St(y; gamma, beta (1 + nu) / (nu alpha), 2 alpha) at p0's predictions on every ID "
             "test residue (max abs difference)", source="spec §1.2, spec §5",
             provenance="derived", expected=0.0, measured=float(np.abs(ours - ref).max()),
             atol=1e-9, why="float64 log-gamma and logs of O(10) terms, ~1e-14 each")
p_t = nig.NIG(*map(torch.as_tensor, (g, nu, al, be)))
m0 = nig.modulate(p_t, torch.as_tensor(data[seeds[0]]["id"].d_obs), torch.zeros((), dtype=torch.float64))
ledger.exact("nig.p2_reduces", "P2's prior-modulated evidence with k = 0 returns the plain "
             "head's (nu, beta) bit for bit", source="spec §1.4 P2, spec §5",
             provenance="derived", expected=True,
             measured=bool(torch.equal(m0.nu, p_t.nu) and torch.equal(m0.beta, p_t.beta)))

# %%
# per seed (rows, in seed order): coverage of every arm and split, over all residues; each
# claim below is decided on the seeds drawn (`idx`) and resampled over them by the ledger
allr = cov[cov.region == "all"]
C = allr.pivot_table(index="seed", columns=["arm", "split"], values="coverage").loc[seeds]
N = allr.pivot_table(index="seed", columns=["arm", "split"], values="n").loc[seeds]
idx = np.arange(len(seeds))[:, None]
one_seed = f"one seed (seed {seeds[0]})"


def cv(arm, split, i):
    """Coverage of one arm and split on the seeds i (an array)."""
    return C[arm, split].to_numpy()[i]


def dr(arm, i):
    """Coverage drop ID - shift of one arm on the seeds i, seed mean."""
    return float(np.mean(cv(arm, "id", i) - cv(arm, "shift", i)))


def ev(rule):
    """Evidence for a rule on seed indices (see rules.evidence)."""
    return rules.evidence(idx, lambda j: bool(rule(j[:, 0])), one_seed)


# id_validity's SE (spec: 3 SE; the variance counts both draws): per seed, the calibration
# draw's Beta law over its m scores plus the binomial spread of the n test residues
m_cal = np.array([len(data[s]["cal"].y) for s in seeds])
var_id = {arm: np.array([conformal.calibration_var(int(m), cfg.a) for m in m_cal])
          + cv(arm, "id", slice(None)) * (1 - cv(arm, "id", slice(None)))
          / N[arm, "id"].to_numpy() for arm in arms.NAMES}
se_id = {arm: decisions.seed_mean_se(v) for arm, v in var_id.items()}
ledger.statistical("conformal.id_validity", "every conformal arm covers >= 1 - a in "
                   "distribution (seed mean, >= 1 - a - 3 SE; the SE counts the calibration "
                   "draw (Beta law of split conformal's coverage) and the test residues "
                   "(binomial), per seed)", source="spec §3 (finite-sample theorem)",
                   provenance="derived",
                   expected=f">= {1 - cfg.a:g} - {decisions.SE_FACTOR:g} SE for each arm",
                   measured="; ".join(f"{arm} {mean.coverage[arm, 'id', 'all']:.3f} (SE "
                                      f"{se_id[arm]:.4f})" for arm in arms.NAMES),
                   **ev(lambda i: all(decisions.covers_seeds(cv(arm, "id", i), cfg.a,
                                                             var_id[arm][i])
                                      for arm in arms.NAMES)),
                   tolerance=f"3 SE; calibration Beta SD per seed about "
                   f"{np.sqrt(conformal.calibration_var(int(m_cal[0]), cfg.a)):.4f}")
v_shift = mean.coverage["vanilla", "shift", "all"]
ledger.statistical("shift.vanilla_closed_form", "vanilla coverage under shift matches the "
                   "closed form C_Q(q) of the oracle absolute residual (seed mean)",
                   source="spec §1.5", provenance="derived",
                   expected=f"C_Q = {c_q:.4f} +- {decisions.CLOSED_FORM_TOL}", measured=v_shift,
                   **ev(lambda i: decisions.near(float(cv("vanilla", "shift", i).mean()), c_q,
                                                 decisions.CLOSED_FORM_TOL)))
lo, hi = decisions.BASELINE_DROP
for arm, cid_ in (("vanilla", "shift.vanilla_drop"), ("cqr", "shift.cqr_drop")):
    ledger.statistical(cid_, f"{arm} loses coverage under the shift as the paper's baselines "
                       "do across modalities (ID - shift, seed mean)",
                       source="abstract C1 (baselines 15-25 pp) via spec §2", provenance="paper",
                       expected=f"drop in [{lo:g}, {hi:g}]", measured=drop[arm],
                       **ev(lambda i, arm=arm: rules.within(dr(arm, i), lo, hi)))
ledger.statistical("shift.nig_drop", f"the prior-aware arm ({decisions.PRIOR_ARM}: prior "
                   "feature + monotone floor, normalised conformal) loses <= 5 pp under shift",
                   source="abstract C1 via spec §3", provenance="paper",
                   expected=f"drop <= {decisions.PRIOR_DROP_MAX:g}",
                   measured=f"{drop[decisions.PRIOR_ARM]:.4f} (p0 {drop['p0']:.4f}, p1_cal "
                            f"{drop['p1_cal']:.4f})",
                   **ev(lambda i: dr(decisions.PRIOR_ARM, i) <= decisions.PRIOR_DROP_MAX))
ledger.statistical("shift.blind_fails", "the NIG blind to the prior loses coverage like vanilla",
                   source="spec §3 (pLDDT-like uncertainty)", provenance="reconstructed",
                   expected=f"drop >= {decisions.BLIND_DROP_MIN:g}", measured=drop["blind"],
                   **ev(lambda i: dr("blind", i) >= decisions.BLIND_DROP_MIN))
k_p2 = [by["p2", s].k for s in seeds]
ledger.qualitative("ablation.prior_form", "the prior forms ranked by coverage drop: "
                   "feature-informed (p0, p1) < crude evidence modulation (p2) < blind",
                   source="spec §3 (reading of the prototype)", provenance="reconstructed",
                   expected="max(drop p0, drop p1) < drop p2 < drop blind",
                   measured=", ".join(f"{a} {drop[a]:.3f}" for a in arms.NAMES)
                   + f", p0_raw {drop[evaluate.RAW]:.3f}; p2 learned k "
                   + ", ".join(f"{k:.2f}" for k in k_p2),
                   **ev(lambda i: decisions.ordered_drops({a: dr(a, i) for a in
                                                           ("p0", "p1", "p2", "blind")})))
w_diff = np.array([cov.query("seed == @s and split == 'shift' and region == 'ordered'")
                   .set_index("arm").width.pipe(lambda w: w[decisions.PRIOR_ARM] - w["vanilla"])
                   for s in seeds])
ledger.statistical("width.informative", f"on ordered residues under shift the prior-aware arm "
                   f"({decisions.PRIOR_ARM}) gives narrower intervals than vanilla conformal",
                   source="abstract C5 (v1) via spec §3", provenance="paper",
                   expected="mean over seeds of paired width difference < 0",
                   measured="per seed " + ", ".join(f"{d:+.4f}" for d in w_diff),
                   **ev(lambda i: decisions.narrower(w_diff[i])))
err = cond.groupby("arm").error.mean()
E = cond.pivot_table(index="seed", columns="arm", values="error").loc[seeds]
ledger.statistical("calibration.conditional_error", "the prior-aware arm's conditional "
                   "coverage error over bins of d (ID + shift tests) is >= 30 % below vanilla's",
                   source="abstract C2 (30-50 %) via spec §2, our metric (spec §7 Q5)",
                   provenance="reconstructed",
                   expected=f"error({decisions.PRIOR_ARM}) <= {decisions.ERROR_RATIO_MAX} "
                            "error(vanilla)",
                   measured=f"{decisions.PRIOR_ARM} {err[decisions.PRIOR_ARM]:.4f}, vanilla "
                            f"{err['vanilla']:.4f} (ratio {err[decisions.PRIOR_ARM] / err['vanilla']:.3f})",
                   **ev(lambda i: decisions.error_reduced(
                       float(E[decisions.PRIOR_ARM].to_numpy()[i].mean()),
                       float(E["vanilla"].to_numpy()[i].mean()))))
slack = gaps.gap - (gaps.tv_hist + decisions.SE_FACTOR * gaps.se)
tight = gaps.loc[slack.idxmax()]
ledger.bound("bound.tv", "every arm and seed: coverage gap - (histogram TV of the scores "
             "between ID and shift tests + 3 SE) <= 0 (data processing)",
             source="spec §1.5 (gap <= d_TV(P_S, Q_S))", provenance="derived",
             measured=float(slack.max()), upper=0.0,
             why=f"TV bounds any event's probability change; tightest: {tight.arm} seed "
                 f"{tight.seed}, gap {tight.gap:.3f}, TV {tight.tv_hist:.3f}")
ledger.skip("paper.protein_coverage", "on protein structures, CalPro's coverage degrades <= 5 pp "
            "across X-ray, NMR and cryo-EM, the baselines' 15-25 pp", source="abstract C1",
            provenance="paper", kind="statistical", expected="<= 5 pp vs 15-25 pp",
            reason="needs AlphaFold DB / PDB structures across modalities (spec §8)")
ledger.skip("paper.docking", "filtering by CalPro's uncertainty raises docking success from "
            "52 % to 75 %", source="abstract C3", provenance="paper", kind="statistical",
            expected="52 % -> 75 %", reason="needs docking software and ligand sets (spec §8)")

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
    ax.errorbar(gsub.tv_hist, gsub.gap, yerr=decisions.SE_FACTOR * gsub.se, fmt="o", ms=3,
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
