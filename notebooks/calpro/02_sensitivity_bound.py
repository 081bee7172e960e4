# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # CalPro miniature, part 2: the sensitivity bound as the shift grows
#
# **What the miniature shows.** The ICML abstract's "sensitivity bounds for coverage
# degradation … how miscoverage increases with model complexity and shift magnitude" (C4,
# [spec §2](../../docs/specs/calpro.md#s2)), in the derived form of [spec §1.5](../../docs/specs/calpro.md#s1-5): under covariate shift the coverage gap of any score is at
# most d_TV(P_S, Q_S), which is at most the TV of what the score reads. A network with R rounds
# of message passing reads a window of 2R + 1 residues, which touches at most m segments, whose
# disorder is drawn independently per segment; so gap ≤ 1 − (1 − τ)^m ≤ … and, by Pinsker,
# gap ≤ √(m·KL(Q‖P)/2), with τ and KL the per-segment TV and KL in closed form. We train four
# arms once and sweep the shift regime's disorder probability p, measuring each gap against both
# bounds and against a histogram TV of the arm's own scores. The complexity side is the
# PAC-Bayes term √((KL(ρ‖π) + ln(2√n/δ))/(2n)) of a Gaussian posterior on the last layer,
# against the regressor's width.
#
# **What it cannot show ([spec §8](../../docs/specs/calpro.md#s8)).** The paper's theorem itself: its ambiguity set and constants
# could not be read ([spec §7](../../docs/specs/calpro.md#s7) Q3); ours is a reconstruction that matches the abstract's wording. No
# protein data.
#
# **Provenance.** The bounds are derived here (data processing, a coupling, Pinsker); the
# PAC-Bayes form and its prior/posterior are reconstructed; the sweep is the spec's NB2.
#
# **Decisions where the spec is open**, each a parameter: the sweep trains on the spec's
# alternative design (training disorder already in [0.6, 1], `design`), because under the
# extrapolation design of part 1 the shift puts mass where P has none and KL(Q‖P) is infinite
# (checked below as `extrapolation.kl_vacuous`); the arms (`arms`); one training seed
# (`seeds`) for the sweep and `width_seeds` for each width of the vanilla regressor (the
# complexity trend is decided on them); the PAC-Bayes prior N(0, 0.1²) and posterior N(w, 0.05²) per weight (`prior_sd`,
# `posterior_sd`), δ = 0.05, n the training residues.
#
# **What to look for.** Every measured gap under both bounds; the gaps growing with p; the
# Pinsker form looser than the TV form at large shifts; the complexity term growing with width
# (by construction) beside the measured gap against the width (`complexity.gap_grows`, on
# `width_seeds` seeds: what tests C4's "model complexity"); the negative control, a shift of the
# noise with the covariates unchanged, above the covariate bound (`control.concept_shift`).
# The gap against the histogram TV of the scores (`bound.sweep`) is a sanity check of the
# computation, not evidence: on the same samples it holds for any shift.

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
design = "interpolate"  # decision: the sweep trains on disorder in [0.6, 1] (spec §1.6's alternative) so KL(Q || P) is finite
p_sweep = [0.08, 0.15, 0.3, 0.45, 0.6]  # spec NB2: the shift regime's disorder probability
arms = ["vanilla", "blind", "p0", "p1"]  # decision: the baseline, the blind NIG and the two prior arms
seeds = 1  # spec §6: NB2 is an evaluation sweep; one training seed per arm
widths = [8, 16, 32, 64]  # decision: vanilla regressors of these widths for the PAC-Bayes complexity term
prior_sd = 0.1  # decision (spec §7 Q3): PAC-Bayes prior N(0, 0.1^2 I) on the last layer ...
posterior_sd = 0.05  # ... posterior N(w, 0.05^2 I) around the trained weights
delta = 0.05  # PAC-Bayes confidence 1 - delta is 0.95
width_seeds = 5  # decision: training seeds of each width's vanilla regressor (complexity.gap_grows is decided on the seeds; 3 left its decision unstable)
concept_scale = 1.5  # decision: the negative control's noise scale (a shift of y given x that the covariate bound does not cover: 1.5 moves a 90 % band to about 73 %)

# %%
import math

import numpy as np
import pandas as pd
import torch

from lib.calpro import chains, choices, evaluate, experiment, shift, train
from lib.companion import notebook, plotting

nb = notebook.start("calpro/02_sensitivity_bound", globals())
cfg, ledger, tables = nb.cfg, nb.ledger, nb.tables
base, shifted = chains.regimes(cfg.design, cfg.p_train, cfg.p_shift)
design = experiment.Design({"train": cfg.n_train, "cal": cfg.n_cal, "id": cfg.n_test,
                            "shift": cfg.n_test}, base, shifted, cfg.contact_radius)
recipe = train.Recipe(cfg.hidden, cfg.rounds, cfg.epochs, cfg.lr, cfg.a, cfg.lam_ev,
                      cfg.lam_prior, cfg.kappa, cfg.lam_cal, cfg.temperature)
seeds = [cfg.seed + s for s in range(cfg.seeds)]
regime = {p: chains.Regime(p, shifted.lo, shifted.hi) for p in cfg.p_sweep}
m = shift.segments_touched(cfg.rounds)
closed = pd.DataFrame([{"p": p, "tv_segment": shift.segment_tv(base, q),
                        "kl_segment": shift.segment_kl(q, base),
                        "window_tv": shift.window_tv_bound(base, q, cfg.rounds),
                        "pinsker": shift.pinsker_bound(base, q, cfg.rounds)}
                       for p, q in regime.items()])
closed.to_csv(tables / "closed_forms.csv", index=False)
closed

# %% [markdown]
# ## The closed forms

# %%
if cfg.design == "interpolate":
    ledger.close("tv.closed_form", expected=0.0, atol=choices.CLOSED_FORM_ATOL,
                 measured=max(abs(t - shift.bernoulli_tv(p, base.p))
                              for p, t in zip(closed.p, closed.tv_segment)))
    ledger.close("kl.closed_form", expected=0.0, atol=choices.CLOSED_FORM_ATOL,
                 measured=max(abs(k - shift.bernoulli_kl(p, base.p))
                              for p, k in zip(closed.p, closed.kl_segment)))
    ledger.exact("control.wrong_base", expected=True,
                 measured=max(abs(t - shift.bernoulli_tv(p, base.p + 0.05))
                              for p, t in zip(closed.p, closed.tv_segment))
                 > choices.CLOSED_FORM_ATOL)
else:
    no_form = "the extrapolation design's disordered ranges differ: no Bernoulli form applies"
    for cid in ("tv.closed_form", "kl.closed_form", "control.wrong_base"):
        ledger.skip(cid, reason=no_form)
xb, xq = chains.regimes("extrapolate", cfg.p_train, cfg.p_shift)
ledger.exact("extrapolation.kl_vacuous", expected=(math.inf, True),
             measured=(shift.segment_kl(xq, xb), shift.window_tv_bound(xb, xq, cfg.rounds) < 1))

# %% [markdown]
# ## Training once, then the sweep (evaluation only)

# %%
jobs = [experiment.Job(arm, s, design, recipe, tuple(cfg.p_sweep)) for s in seeds
        for arm in cfg.arms]
width_seeds = [cfg.seed + s for s in range(cfg.width_seeds)]
wide = [experiment.Job("vanilla", s, design, train.Recipe(**{**vars(recipe), "hidden": w}))
        for s in width_seeds for w in cfg.widths]
results = experiment.run_jobs(jobs + wide, cfg, nb.id)
sweep, wide_runs = results[:len(jobs)], results[len(jobs):]
by_width = wide_runs[:len(cfg.widths)]                 # the first seed's: the PAC-Bayes term

# %%
gaps = evaluate.sweep_gaps(sweep, design, cfg.p_sweep, cfg.a, cfg.tv_bins).merge(closed, on="p")
gaps.to_csv(tables / "gaps.csv", index=False)
splits = {s: experiment.make_splits(design, s) for s in sorted({*seeds, *width_seeds})}
# the negative control: the ID test against itself with the noise scaled (no covariate shift)
control = evaluate.concept_gaps(sweep, splits, cfg.a, cfg.tv_bins, cfg.concept_scale)
control.to_csv(tables / "concept_control.csv", index=False)
by_w = evaluate.gap_table(wide_runs, splits, cfg.a, cfg.tv_bins).assign(
    width=[w for _ in width_seeds for w in cfg.widths])
by_w.to_csv(tables / "width_gaps.csv", index=False)
gaps.pivot_table(index="p", columns="arm", values="gap").round(3)

# %% [markdown]
# ## Claims

# %%
k = choices.BOUND_SE
if cfg.contact_radius == 0:
    ledger.bound("bound.window_tv", upper=0.0,
                 measured=float((gaps.gap - (gaps.window_tv + k * gaps.se)).max()))
    ledger.bound("bound.pinsker", upper=0.0,
                 measured=float((gaps.gap - (gaps.pinsker + k * gaps.se)).max()))
else:
    for cid in ("bound.window_tv", "bound.pinsker"):
        ledger.skip(cid, reason="contact edges widen the receptive field beyond the m-segment "
                                "window")
no_shift = shift.window_tv_bound(base, base, cfg.rounds)        # 0: the covariates are P's
ledger.record("control.concept_shift", measured=f"gaps {control.gap.min():.3f}-"
              f"{control.gap.max():.3f}, SE <= {control.se.max():.3f}, bound {no_shift:g}",
              evidence={"gap": control.gap, "se": control.se}, context={"bound": no_shift})
ledger.bound("bound.sweep", upper=0.0,
             measured=float((gaps.gap.abs() - (gaps.tv_hist + gaps.slack)).max()))
# per seed (rows) vanilla's gap at each level (columns), and the runs' loss tails: the claims
# stage resamples the seeds
G = gaps[gaps.arm == "vanilla"].pivot_table(index="seed", columns="p", values="gap").loc[seeds]
ledger.record("shift.gap_grows", measured="gaps " + ", ".join(f"{g:.3f}" for g in G.mean()),
              evidence={"gap": G, "tail": evaluate.loss_tails(sweep, ["vanilla"], seeds)},
              context={"level": list(G.columns)}, rests_on=f"one seed (seed {seeds[0]})")
GW = by_w.pivot_table(index="seed", columns="width", values="gap").loc[width_seeds]
ledger.record("complexity.gap_grows", measured="gaps " + ", ".join(f"{g:.3f}" for g in GW.mean()),
              evidence={"gap": GW, "tail": evaluate.tails(wide_runs).reshape(
                  len(width_seeds), len(cfg.widths), -1)},
              context={"level": list(GW.columns)}, rests_on=f"one seed (seed {width_seeds[0]})")
n_train = experiment.make_splits(design, seeds[0])["train"].n
pb = []
for w, r in zip(cfg.widths, by_width):
    kl = shift.gaussian_kl(r.head, cfg.posterior_sd, cfg.prior_sd)
    mean_t = torch.as_tensor(r.head)
    ref = torch.distributions.kl_divergence(
        torch.distributions.Normal(mean_t, torch.full_like(mean_t, cfg.posterior_sd)),
        torch.distributions.Normal(torch.zeros_like(mean_t), torch.full_like(mean_t, cfg.prior_sd))
    ).sum().item()
    pb.append({"width": w, "weights": len(r.head), "kl": kl, "kl_torch": ref,
               "term": shift.pac_bayes_term(kl, n_train, cfg.delta)})
pb = pd.DataFrame(pb)
pb.to_csv(tables / "pac_bayes.csv", index=False)
ledger.close("pacbayes.kl_closed_form", expected=0.0, atol=choices.KL_ATOL,
             measured=float((abs(pb.kl - pb.kl_torch) / pb.kl_torch).max()))

# %% [markdown]
# ## Figures

# %%
colours = dict(zip(cfg.arms, plotting.palette(len(cfg.arms))))
fig, ax = plotting.figure(width=5.0, height=3.0)
for arm in cfg.arms:
    g = gaps[gaps.arm == arm].groupby("p")[["gap", "se"]].mean()
    ax.errorbar(g.index, g.gap, yerr=k * g.se, fmt="o-", ms=3, color=colours[arm], label=arm)
ax.plot(closed.p, closed.window_tv, "k--", label=f"1 - (1 - tau)^{m}")
ax.plot(closed.p, closed.pinsker, "k:", label=f"sqrt({m} KL / 2)")
ax.axvline(cfg.p_train, color="0.6", lw=0.6)
for arm in cfg.arms:                     # the control: no covariate shift, the noise scaled
    c = control[control.arm == arm]
    ax.plot(np.full(len(c), cfg.p_train), c.gap, "x", color=colours[arm], ms=5)
ax.plot([], [], "kx", label=f"control: noise x{cfg.concept_scale:g}, bound 0")
ax.set(xlabel="shift regime: disorder probability p", ylabel="coverage gap (ID - shift)",
       ylim=(-0.05, 1.05), title=f"gap against the bound ({cfg.design} design)")
ax.legend(fontsize=6)
nb.save_figure(fig, "sweep")

# %%
fig, ax = plotting.figure()
for arm in cfg.arms:
    g = gaps[gaps.arm == arm]
    ax.errorbar(g.tv_hist, g.gap, yerr=k * g.se, fmt="o", ms=3, color=colours[arm], label=arm)
top = float(max(gaps.tv_hist.max(), gaps.gap.max())) * 1.1
ax.plot([0, top], [0, top], "k:", lw=0.8)
ax.set(xlabel="histogram TV of scores (ID vs shift)", ylabel="coverage gap",
       title="gap <= TV of scores, all levels")
ax.legend(fontsize=6)
nb.save_figure(fig, "scores")

# %%
fig, (ax, ax3) = plotting.figure(ncols=2, width=8.0)
ax.plot(pb.width, pb.term, "o-", color="C0", label="PAC-Bayes term")
ax.set(xlabel="hidden width (last layer: width + 1 weights)", ylabel="complexity term",
       xscale="log", title=f"PAC-Bayes term, n = {n_train}, delta = {cfg.delta:g}")
ax.set_xticks(pb.width, [str(w) for w in pb.width])
ax.minorticks_off()
ax2 = ax.twinx()
ax2.plot(pb.width, pb.kl, "s--", color="C1", label="KL(rho || pi)")
ax2.set(ylabel="KL(rho || pi)")
ax2.grid(False)
ax.legend(handles=[*ax.get_lines(), *ax2.get_lines()], fontsize=6, loc="lower right")
w = by_w.groupby("width")[["gap", "se"]].mean()
ax3.errorbar(w.index, w.gap, yerr=k * w.se, fmt="o-", ms=3, color="C0")
ax3.set(xlabel="hidden width", ylabel="coverage gap (ID - shift)", xscale="log",
        title=f"measured gap, vanilla, {cfg.width_seeds} seed(s)")
ax3.set_xticks(w.index, [str(v) for v in w.index])
ax3.minorticks_off()
nb.save_figure(fig, "pacbayes")

# %%
nb.finish()

# %% [markdown]
# **What we saw** (numbers in the claims table and the tables under results/calpro/, none typed
# here). The sweep figure shows the measured gaps far inside both bounds: the bounds are valid
# but loose, since they charge every residue whose window changed, while a score that reads the
# prior changes its coverage only slightly. The vanilla gap rises with the shift level (C4's
# "shift magnitude"); the prior-aware arms' gaps stay near zero, which no bound of this form can
# express: it depends on the shift only. The Pinsker form is the looser of the two at large
# shifts and infinite under part 1's extrapolation design. The complexity term grows with the
# width; at fixed per-weight variances part of KL(ρ‖π) is a plain count of last-layer weights
# and the rest their squared norm (the pac_bayes table gives the KL and the number of
# weights), so with this prior the "model complexity" direction of C4 is partly a count of
# parameters, and the measured gap against the width (right panel) is what decides the
# complexity side (`complexity.gap_grows`). The negative control shows the bound check can fail:
# with the noise scaled and the covariates' law unchanged, every arm's gap exceeds the
# window bound, which is 0 there, by more than 3 SE.
