# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 1-D piecewise bounds: CAffNet stays inside the band; the soft NN and HardNet do not
#
# **Claim (Zhao et al., §4.1 and Table 2 via [3P]; [spec §1.5](../../docs/specs/caffnet.md#s1-5) pwc, §3.2).** On $x \in [-2, 2]$
# with two lower and two upper bounds per region (an equality $y = -2$ on $(-1, 0]$), CAffNet-FF
# reaches test MSE **0.0020 ± 0.0032 (the paper's Table 2, quoted by a third party)** with zero
# violation, while the soft-penalty NN violates; joint training is said to beat post-processing
# (P5).
#
# **What this miniature shows.** Four methods on the paper's target and bounds, trained here:
# soft NN (squared error + 100 · penalty), the same NN projected after training (post-hoc),
# HardNet-Aff ($A = [1; 1]$, two intervals) and CAffNet. With $n = 1$ the layer is exactly a clamp
# into $[\max_i \ell_i, \min_i u_i]$ (E4) and has zero gradient outside the band (E5).
#
# **What it cannot show ([spec §8](../../docs/specs/caffnet.md#s8)).** The paper's 50,000-epoch runs at lr $10^{-4}$ (`paper`
# profile only) and CAffNet-TF; the default is a shorter schedule whose MSE is ours, not the
# paper's. Only the CAffNet-FF MSE of Table 2 is known.
#
# **Decisions where the spec is open.** Penalty = sum over samples and rows of
# $\mathrm{ReLU}(Ay - b)^2$, weight 100, the same reduction as the summed task loss ([spec §7](../../docs/specs/caffnet.md#s7) Q1
# proposed a mean over samples; a first run with it left the soft NN's equality violation at 1.2
# in notebook 03, `penalty_reduction`); the spec's 3000 epochs at lr $10^{-3}$ (`epochs`; a
# first cut to 2000 left every seed stalled); the null-space branch $w$ is dropped for CAffNet
# because at $n = 1$ it has no effect (E4); post-hoc = the layer with $w = 0$ on the trained soft NN; a
# "dead start" is a CAffNet seed with MSE above 10x the median post-hoc MSE (the spec's median
# over CAffNet's own seeds cannot flag a run in which every seed stalls; changed after the first
# default run showed exactly that).
#
# **A second run at the paper's lr $10^{-4}$** (same epochs, `paper_lr_run`) was added after the
# first default run at lr $10^{-3}$ (the spec's default) left every CAffNet seed stalled on an
# upper bound near $x \in [-1.6, -1]$ (MSE about 0.27, the E5 dead zone). Both runs are
# recorded; the thresholds are the same for both.
#
# **Look for:** CAffNet's curve inside the shaded band everywhere, the soft NN and HardNet
# leaving it on $(-1, 0]$ (zero-width band) and near $x \approx 1$.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
executor = "inline"  # where the grid's runs go: inline in the kernel (one after the other), debug (in the kernel, through submitit), local subprocesses, or slurm jobs
workers = 1  # runs at once (local) or the SLURM array's parallelism; runs are single-threaded, so the results are the same for any count
slurm_partition = ""  # SLURM partition ('' the cluster's default)
slurm_gpus = 0  # GPUs per SLURM job
slurm_time_min = 240  # a SLURM job's time limit in minutes (≤ 14 days, the runner's paper limit)
seeds = 3  # spec §3.2 default: 3 seeds
width = 200  # spec §1.2: MLP 1 -> 200^3 -> 1
epochs = 3000  # spec §3.2 default: 3000 full-batch epochs (issue 42: the earlier cut to 2000 left every lr 1e-3 seed stalled, so the cut could decide caffnet.pwc.mse; the spec's size costs well under a minute more)
lr = 0.001  # spec §3.2 default: Adam lr 1e-3 (paper 1e-4)
paper_lr = 0.0001  # spec §1.5: the paper's Adam lr, for the second run
paper_lr_run = True  # decision: also train at the paper's lr (added after the lr 1e-3 run stalled)
n_train = 50  # spec §1.5: 50 training inputs uniform on [-2, 2]
n_grid = 400  # spec §1.5: 400 evaluation inputs on a uniform grid
log_every = 50  # epochs between logs of the share of raw outputs outside
penalty_weight = 100.0  # spec §1.4: task + 100 * penalty for the soft NN and HardNet
penalty_reduction = "sum"  # decision: penalty summed over samples like the task loss (spec §7 Q1: mean)

# %%
import numpy as np
import pandas as pd

from lib.caffnet import decisions, problems, train
from lib.companion import notebook, plotting, rules, sweep

nb = notebook.start("caffnet/02_piecewise_fit", globals())
cfg, ledger, rng, tables = nb.cfg, nb.ledger, nb.rng, nb.tables

# %%
x_train = rng.uniform(-2, 2, cfg.n_train)
x_grid = np.linspace(-2, 2, cfg.n_grid)
bounds = problems.pwc_bounds(x_grid)                 # (grid, 4), numpy, independent of torch
target = problems.pwc_target(x_grid)
lo, hi = bounds[:, :2].max(1), bounds[:, 2:].min(1)
# per lr its seeds as sweep runs (all in one ensemble in the kernel, else one group per worker),
# through the sweep engine (`executor`), joined back per lr
setups = [train.PwcSetup(cfg.width, cfg.epochs, lr, cfg.seed, cfg.log_every, cfg.penalty_weight,
                         cfg.penalty_reduction, x_train=x_train, x_grid=x_grid, seeds=cfg.seeds)
          for lr in ([cfg.lr, cfg.paper_lr] if cfg.paper_lr_run else [cfg.lr])]
groups = cfg.seed_groups()
grid = [(st, g) for st in setups for g in groups]
done = sweep.run_params(train.train_pwc, grid, cfg, nb.id,
                        labels=[f"lr {st.lr:g} seeds {g[0]}-{g[-1]}" for st, g in grid])
runs = {st.lr: train.joined_seeds(done[i * len(groups):(i + 1) * len(groups)])
        for i, st in enumerate(setups)}
evals = {lr: train.pwc_evaluate(r, x_grid) for lr, r in runs.items()}
res, (outs, per_seed) = runs[cfg.lr], evals[cfg.lr]
per_seed_all = pd.concat([t.assign(lr=lr) for lr, (_, t) in evals.items()])
per_seed_all.to_csv(tables / "per_seed.csv", index=False)
mse = {m: per_seed[per_seed.method == m].mse.to_numpy() for m in outs}
viol = {m: per_seed[per_seed.method == m].max_violation.to_numpy() for m in outs}
summary = per_seed_all.groupby(["lr", "method"], sort=False).agg(
    mse_mean=("mse", "mean"), mse_median=("mse", "median"),
    max_violation=("max_violation", "max")).reset_index()
summary["paper_mse (Table 2, [3P])"] = np.where(summary.method == "caffnet", "0.0020 ± 0.0032", "")
summary.to_csv(tables / "summary.csv", index=False)
summary

# %% [markdown]
# ## Claims

# %%
caff_viol = per_seed_all[per_seed_all.method == "caffnet"].max_violation.max()
ledger.bound("pwc.zero_violation", f"CAffNet's max violation on the {cfg.n_grid}-point grid, every "
             "seed and learning rate (bounds re-evaluated in numpy)", source="P1, P7, E4; spec §3.2",
             provenance="paper", measured=float(caff_viol), upper=1e-12,
             why="0 in exact arithmetic; the clamp's candidates are the bounds up to one rounding")
ledger.close("pwc.is_clamp", "CAffNet equals clamp(f, max l, min u) of its own raw output "
             "(worst |difference| on the grid)", source="E4", provenance="derived", expected=0.0,
             measured=float(np.abs(res.out[2] - np.clip(res.raw[2], lo, hi)).max()), atol=1e-12,
             why="the candidate of a bound row is f - (f - b) = b up to rounding")
# negative control: the same clamp check against a band whose upper edge is off by 0.1 must fail
# (on (-1, 0] the band is the single point -2, where every output sits)
ledger.exact("control.clamp_wrong_band", "the clamp check rejects clamp(f, max l, min u - 0.1) "
             "(a wrong constant: the check can fail)", source="negative control of pwc.is_clamp",
             provenance="derived", expected=False,
             measured=bool(np.abs(res.out[2] - np.clip(res.raw[2], lo, hi - 0.1)).max() <= 1e-12))
per_seed_note = f"{cfg.seeds} seeds, resampled" if cfg.seeds >= 2 else "one seed"
one_seed = f"one seed (seed {cfg.seed}), {cfg.epochs} epochs"
ev = rules.evidence(viol["nn"], decisions.violates_every_seed, one_seed)
ledger.qualitative("nn.pwc.violates", "the soft-penalty NN violates the bounds by > 1e-3 on every "
                   "seed", source="P5, P7 [3P]", provenance="reconstructed",
                   expected="> 1e-3 every seed", measured=viol["nn"].tolist(),
                   **ev)
ev = rules.evidence(viol["hardnet"], decisions.violates_every_seed, one_seed)
ledger.qualitative("hardnet.pwc.violates", "HardNet-Aff (A = [1; 1], rank 1 < 2 rows) violates by "
                   "> 1e-3 on every seed", source="E7", provenance="derived",
                   expected="> 1e-3 every seed", measured=viol["hardnet"].tolist(),
                   **ev)
region = (x_grid > -1) & (x_grid <= 0)
f_hn = res.raw[1][:, region]                          # HardNet's raw f on (-1, 0]
usable = (f_hn >= -3) & (f_hn <= 2)
if usable.any():
    v_hn = problems.pwc_violation(res.out[1][:, region], bounds[region])
    ledger.bound("hardnet.pwc.equality_region_closed_form", f"on (-1, 0] HardNet's violation equals "
                 f"|f + 2| / 2 ({int(usable.sum())} grid points with f in [-3, 2]; worst |diff|)",
                 source="E8", provenance="derived",
                 measured=float(np.abs(v_hn - np.abs(f_hn + 2) / 2)[usable].max()), upper=1e-12,
                 why="closed form (f - 2)/2 for the output; rounding only")
else:
    ledger.skip("hardnet.pwc.equality_region_closed_form", "on (-1, 0] HardNet's violation "
                "equals |f + 2| / 2", source="E8", provenance="derived", kind="bound",
                expected="|f + 2| / 2", reason="no grid point with f in [-3, 2] on (-1, 0]")
ok_seeds = sum(decisions.pointwise_not_worse((o["posthoc"][s] - target) ** 2,
                                             (o["nn"][s] - target) ** 2)
               for o, _ in evals.values() for s in range(cfg.seeds))
ledger.exact("posthoc.pwc.not_worse_than_nn", "post-hoc projection never increases the pointwise "
             "error of the soft NN (seeds on which it holds at every grid point)",
             source="derived: the target lies in the band, and clamping onto an interval holding "
             "it never moves away from it", provenance="derived", expected=cfg.seeds * len(runs),
             measured=int(ok_seeds))
ev = rules.evidence(mse["caffnet"], decisions.within_paper_mse, one_seed)
ledger.statistical("pwc.mse", "CAffNet-FF test MSE: median over seeds <= 0.0020 + 0.0032 (paper)",
                   source="P7, Table 2 (via [3P])", provenance="paper",
                   expected="paper 0.0020 ± 0.0032", measured=(
                       f"median {np.median(mse['caffnet']):.4g}, mean {mse['caffnet'].mean():.4g}, "
                       f"std {mse['caffnet'].std():.4g} over {cfg.seeds} seeds, {cfg.epochs} "
                       f"epochs, lr {cfg.lr:g}"),
                   **ev,
                   tolerance=f"threshold mean + 1 std of the paper, fixed before the run; "
                             f"{per_seed_note}")
# at the spec's lr (not the paper's) a plain statistical claim: a failure here is about this
# schedule, not the paper's statement, which the paper-lr twin compares with
joint_vs_posthoc = np.stack([mse["caffnet"], mse["posthoc"]], axis=1)      # (seeds, 2)
ev = rules.evidence(joint_vs_posthoc,
                        lambda r: decisions.median_not_worse(r[:, 0], r[:, 1]), one_seed)
ledger.statistical("pwc.joint_vs_posthoc", "joint training (CAffNet) reaches a median MSE no worse "
                   f"than post-hoc projection of the soft NN, at lr {cfg.lr:g}",
                   source="P5 (abstract); the spec's lr, not the paper's",
                   provenance="reconstructed", expected="median CAffNet <= median post-hoc",
                   measured=f"CAffNet {np.round(mse['caffnet'], 5).tolist()}, post-hoc "
                   f"{np.round(mse['posthoc'], 5).tolist()}",
                   **ev,
                   tolerance="spec §3.2 rule, fixed before the run (PROTO expected it not met); "
                             + per_seed_note)
if cfg.paper_lr_run:
    _, t_p = evals[cfg.paper_lr]
    mse_p = {m: t_p[t_p.method == m].mse.to_numpy() for m in outs}
    ev = rules.evidence(mse_p["caffnet"], decisions.within_paper_mse, one_seed)
    ledger.statistical("pwc.mse_paper_lr", "CAffNet-FF test MSE at the paper's lr: median over "
                       "seeds <= 0.0020 + 0.0032 (paper)", source="P7, Table 2 (via [3P])",
                       provenance="paper", expected="paper 0.0020 ± 0.0032", measured=(
                           f"median {np.median(mse_p['caffnet']):.4g}, mean "
                           f"{mse_p['caffnet'].mean():.4g} over {cfg.seeds} seeds, {cfg.epochs} "
                           f"epochs, lr {cfg.paper_lr:g}"),
                       **ev,
                       tolerance="same rule as caffnet.pwc.mse; this run was added after the "
                       f"lr 1e-3 run; {per_seed_note}")
    paper_pairs = np.stack([mse_p["caffnet"], mse_p["posthoc"]], axis=1)   # (seeds, 2)
    jv = dict(source="P5 (abstract)", provenance="paper",
              expected="median CAffNet <= median post-hoc",
              measured=f"CAffNet {np.round(mse_p['caffnet'], 5).tolist()}, post-hoc "
                       f"{np.round(mse_p['posthoc'], 5).tolist()}",
              tolerance="same rule as caffnet.pwc.joint_vs_posthoc; " + per_seed_note)
    jv_statement = "at the paper's lr, CAffNet's median MSE is no worse than post-hoc projection's"
    if cfg.seeds >= 2:
        ledger.compare("pwc.joint_vs_posthoc_paper_lr", jv_statement, **jv, samples=paper_pairs,
                       decide=lambda r: decisions.median_not_worse(r[:, 0], r[:, 1]),
                       opposite=lambda r: rules.opposite_beyond(r[:, 1] - r[:, 0]),
                       power="the paired (per seed) MSE difference post-hoc minus CAffNet beyond "
                             "2 s.e. below zero over >= 3 seeds")
    else:
        ledger.statistical("pwc.joint_vs_posthoc_paper_lr", jv_statement, **jv,
                           holds=decisions.median_not_worse(mse_p["caffnet"], mse_p["posthoc"]),
                           rests_on=one_seed)
else:
    for cid, what in (("pwc.mse_paper_lr", "CAffNet MSE at the paper's lr"),
                      ("pwc.joint_vs_posthoc_paper_lr", "CAffNet vs post-hoc at the paper's lr")):
        ledger.skip(cid, what, source="P7, P5", provenance="paper", kind="statistical",
                    expected="as caffnet.pwc.mse / joint_vs_posthoc",
                    reason="this profile's lr is already the paper's (no second run)")
dead = decisions.dead_starts(mse["caffnet"], mse["posthoc"])
ev = rules.evidence(joint_vs_posthoc,
                        lambda r: decisions.dead_starts(r[:, 0], r[:, 1]) == 0, one_seed)
ledger.qualitative("pwc.dead_start_rate", "no CAffNet seed is a dead start (MSE > 10x the median "
                   "post-hoc MSE of the same seeds; the spec's 10x its own median cannot flag a "
                   "run where every seed is dead, rule changed after the first run): "
                   "the clamp has zero gradient outside the band (E5)", source="E5 (not in the "
                   "paper)", provenance="reconstructed", expected="0 dead starts",
                   measured=f"{dead} of {cfg.seeds} at lr {cfg.lr:g}",
                   **ev)

# %% [markdown]
# ## Figures

# %%
fig, ax = plotting.figure(width=7.5, height=4.2)
ax.fill_between(x_grid, lo, hi, color="#cfe3f5", label="feasible band")
ax.plot(x_grid, target, "k--", lw=1, label="target")
for m, c in (("nn", "C1"), ("posthoc", "C2"), ("hardnet", "C4"), ("caffnet", "C0")):
    ax.plot(x_grid, outs[m][0], color=c, lw=1.2, label=f"{m} (lr {cfg.lr:g})")
if cfg.paper_lr_run:
    ax.plot(x_grid, evals[cfg.paper_lr][0]["caffnet"][0], color="C0", ls="--", lw=1.2,
            label=f"caffnet (lr {cfg.paper_lr:g})")
ax.plot(x_train, problems.pwc_target(x_train), "k.", ms=3)
ax.set(xlabel="x", ylabel="y", title="pwc: fitted curves (seed 0)", ylim=(-8, 4))
ax.legend(fontsize=7, ncol=3, loc="lower right")
inset = ax.inset_axes([0.38, 0.62, 0.25, 0.33])
zoom = (x_grid > -1) & (x_grid <= 0)
inset.fill_between(x_grid[zoom], lo[zoom] - 0.005, hi[zoom] + 0.005, color="#cfe3f5")
for m, c in (("nn", "C1"), ("hardnet", "C4"), ("caffnet", "C0")):
    inset.plot(x_grid[zoom], outs[m][0][zoom], color=c, lw=1)
inset.set_title("(-1, 0]: y = -2", fontsize=7)
inset.tick_params(labelsize=6)
nb.save_figure(fig, "curves")

# %%
fig, axes = plotting.figure(1, 2)
methods = list(outs)
for k, (lr, (_, t)) in enumerate(evals.items()):
    for j, m in enumerate(methods):
        vals = t[t.method == m].mse.to_numpy()
        axes[0].scatter(np.full(len(vals), j + 0.2 * k - 0.1), vals, s=14, color=f"C{k}",
                        label=f"lr {lr:g}" if j == 0 else None)
axes[0].axhline(0.0020, color="k", ls=":", lw=1, label="paper CAffNet-FF 0.0020")
axes[0].set(yscale="log", ylabel="test MSE (one dot per seed)", title="MSE per seed",
            xticks=range(len(methods)), xticklabels=methods)
axes[0].legend(fontsize=7)
for k, (lr, r) in enumerate(runs.items()):
    axes[1].plot(r.log_epochs, r.outside, lw=1, color=f"C{k}", ls="-" if k == 0 else "--")
axes[1].set(xlabel="epoch", ylabel="share of train points",
            title="CAffNet raw f outside the band (per seed)")
nb.save_figure(fig, "seeds")

# %%
nb.finish()

# %% [markdown]
# **What we saw.** CAffNet stays inside the band to rounding (`caffnet.pwc.zero_violation`) and
# is exactly the clamp of its raw output (E4; the same check rejects a band off by 0.1,
# `control.clamp_wrong_band`); the soft NN and HardNet leave it. How CAffNet's MSE compares with
# the paper's 0.0020 ± 0.0032 and with post-hoc projection is in `caffnet.pwc.mse` /
# `caffnet.pwc.joint_vs_posthoc` (the spec's lr 1e-3) and their `_paper_lr` twins (the paper's lr
# 1e-4), each decided on the seeds with its resampling stability and recorded whatever the outcome.
# Only the paper-lr twin is a comparison with the paper's own setting: it could be a `deviation`
# only if post-hoc projection were better on every resample beyond 2 s.e. over >= 3 seeds; at the
# spec's lr a failure says that this schedule stalls in the clamp's dead zone, not that P5 is
# wrong. The schedule is far shorter than the paper's 50,000 epochs, the budget cut that could
# decide both MSE claims. The share of raw outputs outside the band (right panel) is the
# mechanism: a clamped point has zero gradient (E5). Per-seed numbers: `per_seed.csv`.
