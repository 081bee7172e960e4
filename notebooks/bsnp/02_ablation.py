# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # BSNP miniature, part 2: the four-arm ablation (accuracy, calibration, physics residual)
#
# **Claims of the paper made concrete** (abstract, via [spec §2](../../docs/specs/bsnp.md#s2)): stochastic collocation prevents
# discretisation overfitting (P1); enforcing the PDE on the predictive mean only prevents
# uncertainty collapse (P2); BSNP is more accurate and well calibrated with sparse data (P3).
# Four arms trained with the same seed and data stream ([spec §1.7](../../docs/specs/bsnp.md#s1-7), reconstructed: the release
# has BSNP only): **data-only NP** (β = β₀ = 0), **fixed grid** (mean-field residual on fixed
# equispaced points), **sample-level** (fresh points, the residual of predictive samples
# μ + εσ, in its exact expectation r(μ)² + (Lσ)²), and **BSNP** (fresh points, mean field).
# Evaluated on fixed test tasks (N_c ~ U{10..50}, 5% noise), at 15% noise and at N_c = 3:
# MNSE, NLL, ECP₉₀, σ/max|u|, and the mean-field residual of the posterior-mean latent between
# (197 dense points) and at the fixed points. A rough-decoder stress pair (decoder length-scale
# fixed at 0.03) tests P1 where the spec's prototype saw the failure mode.
#
# **What it cannot show ([spec §8](../../docs/specs/bsnp.md#s8)).** Burgers, Navier–Stokes, the paper's baselines and table
# values, and the paper's scale (20k steps, batch 50, 128-dim latent: the `paper` profile).
# Every number here is our miniature's, never the paper's.
#
# **Decisions where the spec is open** (each a parameter): the sample-level arm is the
# closed-form expectation ([spec §7](../../docs/specs/bsnp.md#s7) Q2; A6 checks it against Monte Carlo); the fixed arm uses
# 8 points (`n_fixed`, [spec §7](../../docs/specs/bsnp.md#s7) Q3); the KL is as released (per task, beside a per-point mean
# likelihood; Q4); the spec's default size, 600 steps of 16 tasks and 3 seeds for data-only and
# BSNP (`steps`, `batch`, `n_seeds`: an earlier cut to 300 x 8 and 2 seeds decided the headline
# A2 by itself, issue 42); fixed-grid and sample-level arms one seed, so their claims are decided
# on the test tasks as replicates and cannot show the paper's opposite; the ≥ 1,000-step test of
# A2 is the paper profile's run (skipped below 1,000 steps); A3 is recorded as statistical (a
# learned quantity), not a stop-the-stage bound; contexts are redrawn at every
# draw of a task (`fresh_splits`; the release fixes them per task, used in the paper profile).
#
# **What to look for.** Off-grid residual far lower with physics than without; MNSE and ECP of
# the arms close to each other; the fixed arm's residual low only at its points in the rough
# setting.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
executor = "inline"  # where the grid's runs go: inline in the kernel (one after the other), debug (in the kernel, through submitit), local subprocesses, or slurm jobs
workers = 1  # runs at once (local) or the SLURM array's parallelism; runs are single-threaded, so the results are the same for any count
slurm_partition = ""  # SLURM partition ('' the cluster's default)
slurm_gpus = 0  # GPUs per SLURM job
slurm_time_min = 240  # a SLURM job's time limit in minutes (≤ 14 days, the runner's paper limit)
n_train = 4000  # spec §3 default: 4,000 train tasks
n_test = 128  # budget (≤ 3 min per paper on 2 cores): 128 test tasks (spec §3 default 400) cut every evaluation threefold; A2's standard error is over seeds, not tasks
steps = 600  # spec §3 default: 600 steps (the headline A2 needs the spec's size, issue 42; the ≥ 1,000-step test is the paper profile's)
batch = 16  # spec §3 default: 16 tasks per step (the headline A2 needs it)
grid = 32  # encoder grid M is 32 (spec §1.4)
channels = [32, 32, 32]  # spec §3 default CNN
latent = 16  # spec §3 default latent size
hidden = 32  # spec §3 default decoder head width
rho0 = 0.15  # initial RBF length-scale (release, spec §1.4)
lr = 0.001  # spec §3 default: Adam 1e-3
n_r = 32  # collocation points per task (spec §3 default)
beta = 0.3  # physics weight (release, spec §1.5)
beta0 = 0.05  # boundary weight (release, spec §1.5)
noise = 0.05  # training and test context noise, fraction of max|u|
nc_low = 10  # context size range low (release)
nc_high = 50  # context size range high (release)
z_samples = 20  # latent samples per prediction (spec §3 default)
fresh_splits = True  # decision (spec §3): fresh context/target split per draw; paper: the release's per-task split
n_seeds = 3  # spec A2: 3 seeds (the decision's stability and a paired opposite need ≥ 3)
n_fixed = 8  # decision (spec §7 Q3): the fixed arm's grid; 8 is where overfitting should show
stress_rho = 0.03  # spec A5: decoder length-scale fixed at 0.03 in the rough setting
stress_steps = 400  # spec §3.1: 400 steps for the two rough-decoder arms (issue 58: a cut to 200 is undone); the overfitting ratio is read after the same schedule for both arms
high_noise = 0.15  # spec NB2: also evaluated at 15% noise
sparse_nc = 3  # spec NB2: also evaluated at N_c is 3
grad_eps = 256  # spec A6: eps samples of the MC loss
grad_checks = 10  # spec A6: batches whose gradients are compared

# %%
import numpy as np
import pandas as pd
import torch

from lib.bsnp import choices, evaluate, poisson, train
from lib.companion import notebook, plotting

nb = notebook.start("bsnp/02_ablation", globals())
cfg, ledger, rng, tables = nb.cfg, nb.ledger, nb.rng, nb.tables
tasks = poisson.make_tasks(cfg.n_train, 42)        # the release's train seed
test = poisson.make_tasks(cfg.n_test, 2000)        # the release's test seed
sizes, sched = train.sizes_of(cfg), train.schedule_of(cfg)
rough, rough_sched = train.sizes_of(cfg, cfg.stress_rho), train.schedule_of(cfg, cfg.stress_steps)
arms = {"data": train.Arm("data", 0.0, 0.0, cfg.n_r),
        "fixed": train.Arm("fixed", cfg.beta, cfg.beta0, cfg.n_fixed),
        "sample": train.Arm("sample", cfg.beta, cfg.beta0, cfg.n_r),
        "bsnp": train.Arm("bsnp", cfg.beta, cfg.beta0, cfg.n_r)}
runs = {f"{a}_{s}": train.Run(arms[a], sizes, sched, cfg.seed + s)
        for s in range(cfg.n_seeds) for a in ("data", "bsnp")}
runs |= {"fixed_0": train.Run(arms["fixed"], sizes, sched, cfg.seed),
         "sample_0": train.Run(arms["sample"], sizes, sched, cfg.seed),
         "fixed_rough": train.Run(arms["fixed"], rough, rough_sched, cfg.seed),
         "bsnp_rough": train.Run(arms["bsnp"], rough, rough_sched, cfg.seed)}

# %% [markdown]
# ## Training (the heavy cell): one sweep run per training run (`executor`)
#
# Each run is deterministic in its own seed.

# %%
models, histories = train.fit_runs(tasks, runs, cfg, nb.id)
pd.concat([pd.DataFrame(h).assign(run=n, step=np.arange(len(h))) for n, h in histories.items()]
          ).to_csv(tables / "training.csv", index=False)

# %% [markdown]
# ## Evaluation on the fixed test tasks

# %%
settings = {"base": evaluate.Setting(cfg.nc_low, cfg.nc_high, cfg.noise),
            "noise15": evaluate.Setting(cfg.nc_low, cfg.nc_high, cfg.high_noise),
            "nc3": evaluate.Setting(cfg.sparse_nc, cfg.sparse_nc, cfg.noise)}
test_batches = {k: evaluate.test_batch(test, s, cfg.seed) for k, s in settings.items()}
fixed_x = train.fixed_points(cfg.n_fixed).numpy()
res = pd.DataFrame([{"run": n, "arm": n.rsplit("_", 1)[0], "setting": k,
                     **evaluate.evaluate(m, b, cfg.z_samples, cfg.seed, fixed_x)}
                    for n, m in models.items() for k, b in test_batches.items()])
# the test tasks as replicates of the one-seed comparisons (columns: evaluate.PER_TASK)
tasks_of = {n: evaluate.per_task(models[n], test_batches["base"], cfg.z_samples, cfg.seed, fixed_x)
            for n in ("sample_0", "bsnp_0", "fixed_0", "fixed_rough", "bsnp_rough")}
COL = {c: i for i, c in enumerate(evaluate.PER_TASK)}
learned_runs = [n for n in models if "rough" not in n]
res["decoder_rho"] = res.run.map({n: float(m.log_rho_dec.exp()) for n, m in models.items()})
res.to_csv(tables / "metrics.csv", index=False)
base = res[res.setting == "base"].set_index("run")
print(res.pivot_table(index="run", columns="setting", values=["mnse", "ecp90"]).round(4))
print(base[["nll", "sigma_width", "r2_off", "r2_on", "decoder_rho"]].round(4))

# %% [markdown]
# ## Claims
#
# Their words are in `notebooks/bsnp/claims.yaml`; the claims stage decides the statistical ones
# with the rules of `lib/bsnp/decisions.py`, fixed before the run: A1-A3 on the seeds, A4 and A5
# (one trained seed) on the test tasks as replicates, which resample the evaluation, not the
# training, so a one-seed comparison that goes against the paper is a fail, never its opposite.

# %%
seeds = range(cfg.n_seeds)
one_seed = f"one seed (seed {cfg.seed}), {cfg.steps} steps"
of_seeds = {col: {a: [base[col][f"{a}_{s}"] for s in seeds] for a in ("bsnp", "data")}
            for col in ("mnse", "r2_off", "ecp90")}
tails = {a: [train.loss_tail(histories[f"{a}_{s}"]) for s in seeds] for a in ("bsnp", "data")}
learned = {"run_mnse": base.mnse[learned_runs].tolist()}
r2 = of_seeds["r2_off"]
ledger.record("physics.lowers_residual", measured=f"BSNP {np.mean(r2['bsnp']):.4g}, data "
              f"{np.mean(r2['data']):.4g}", evidence={"r2_bsnp": r2["bsnp"], "r2_data": r2["data"]},
              context=learned, rests_on=one_seed)
mn = of_seeds["mnse"]
long_run = ["accuracy.bsnp_vs_data_long"] if cfg.steps >= 1000 else []
for cid in ["accuracy.bsnp_vs_data", *long_run]:
    ledger.record(cid, measured=f"BSNP {np.mean(mn['bsnp']):.4g}, data {np.mean(mn['data']):.4g} "
                  f"({cfg.n_seeds} seeds, {cfg.steps} steps of batch {cfg.batch})",
                  evidence={"mnse_bsnp": mn["bsnp"], "mnse_data": mn["data"],
                            "tail_bsnp": tails["bsnp"], "tail_data": tails["data"]},
                  context=learned, rests_on=one_seed)
if not long_run:
    ledger.skip("accuracy.bsnp_vs_data_long",
                reason=f"{cfg.steps} steps in this profile; the paper profile runs 20k")
ledger.record("calibration.bsnp_ecp", measured=float(np.mean(of_seeds["ecp90"]["bsnp"])),
              evidence={"ecp90": of_seeds["ecp90"]["bsnp"]}, context=learned, rests_on=one_seed)
inside = {a: tasks_of[f"{a}_0"][:, COL["inside"]] for a in ("sample", "bsnp")}
width = {a: tasks_of[f"{a}_0"][:, COL["width"]] for a in ("sample", "bsnp")}
ledger.record("collapse.sample_level", measured=f"ECP {inside['sample'].mean():.3f} vs "
              f"{inside['bsnp'].mean():.3f}; sigma/max|u| {width['sample'].mean():.4f} vs "
              f"{width['bsnp'].mean():.4f}", context=learned,
              evidence={"inside_sample": inside["sample"], "inside_bsnp": inside["bsnp"],
                        "width_sample": width["sample"], "width_bsnp": width["bsnp"]})
for cid, fixed, stoch, trained in (
        ("overfit.rough_decoder", "fixed_rough", "bsnp_rough", ["fixed_rough"]),
        ("overfit.learned_decoder", "fixed_0", "bsnp_0", learned_runs)):
    off, on = ({run: tasks_of[run][:, COL[c]] for run in (fixed, stoch)} for c in ("r2_off", "r2_on"))
    ledger.record(cid, measured=f"off/on: fixed {off[fixed].mean() / on[fixed].mean():.3g}, BSNP "
                  f"{off[stoch].mean() / on[stoch].mean():.3g}; MNSE fixed "
                  f"{base.mnse[fixed]:.3g}, BSNP {base.mnse[stoch]:.3g}; decoder rho "
                  f"{base.decoder_rho[fixed]:.3g}",
                  evidence={"off_fixed": off[fixed], "on_fixed": on[fixed],
                            "off_bsnp": off[stoch], "on_bsnp": on[stoch]},
                  context={"run_mnse": base.mnse[trained].tolist()})
# draw 1: the model this cell drew when the runs trained in the kernel (its torch stream then stood
# after the last run's own draw 0, seed cfg.seed); seeded here, so no executor changes it
cos = train.physics_gradient_cosines(train.initial_model(sizes, cfg.seed, draw=1), tasks, sched,
                                     cfg.n_r, cfg.grad_eps, cfg.grad_checks, cfg.seed)
ledger.bound("sample_level.gradient_mc", measured=min(cos), lower=choices.GRAD_COS_MIN)

# %% [markdown]
# ## Figures

# %%
xd = torch.as_tensor(evaluate.DENSE, dtype=torch.float32)
b4 = evaluate.test_batch(poisson.Tasks(test.lam[:4], test.u[:4], test.x),
                         settings["base"], cfg.seed)
fig, axes = plotting.figure(nrows=2, ncols=2, width=7.0)
for t, ax in enumerate(np.ravel(axes)):
    ax.plot(test.x, test.u[t], "k-", lw=1, label="true u")
    for name, colour in (("bsnp_0", "C0"), ("data_0", "C1")):
        mu, var = evaluate.predict(models[name], b4, cfg.z_samples,
                                   torch.Generator().manual_seed(cfg.seed), xd.expand(4, -1))
        m, sd = mu[t].numpy(), var[t].sqrt().numpy()
        err = float(((np.interp(evaluate.DENSE, test.x, test.u[t]) - m) ** 2).sum()
                    / (np.interp(evaluate.DENSE, test.x, test.u[t]) ** 2).sum())
        ax.plot(evaluate.DENSE, m, color=colour, label=f"{name.split('_')[0]} (MNSE {err:.2g})")
        ax.fill_between(evaluate.DENSE, m - 1.645 * sd, m + 1.645 * sd, color=colour, alpha=0.2)
    keep = b4.mc[t].numpy()
    ax.plot(b4.xc[t].numpy()[keep], b4.yc[t].numpy()[keep], "k.", ms=3, label="context")
    ax.set(xlabel="x", ylabel="u", title=f"λ = ({test.lam[t, 0]:.2f}, {test.lam[t, 1]:.2f})")
    ax.legend(fontsize=6)
nb.save_figure(fig, "predictions")

# %%
main = res[(res.setting == "base") & ~res.run.str.contains("rough")]
fig, axes = plotting.figure(ncols=4, width=9.0)
for ax, col in zip(axes, ["mnse", "nll", "ecp90", "sigma_width"]):
    g = main.groupby("arm")[col]
    order = ["data", "fixed", "sample", "bsnp"]
    ax.bar(order, g.mean()[order], yerr=g.std(ddof=1).reindex(order).fillna(0),
           color=plotting.palette(4))
    ax.set(title=col)
    if col == "ecp90":
        ax.axhline(0.9, color="k", ls="--")
        ax.set_ylim(0.5, 1.0)
nb.save_figure(fig, "metrics")

# %%
fig, (ax1, ax2) = plotting.figure(ncols=2, width=8.0)
for ax, (fixed, stoch), title in ((ax1, ("fixed_0", "bsnp_0"), "learned decoder ρ"),
                                  (ax2, ("fixed_rough", "bsnp_rough"),
                                   f"decoder ρ fixed at {cfg.stress_rho}")):
    for name, colour in ((fixed, "C2"), (stoch, "C0")):
        prof = evaluate.mean_residual_sq(models[name], test_batches["base"], evaluate.DENSE)
        ax.semilogy(evaluate.DENSE, prof, color=colour, label=name)
    for xf in fixed_x:
        ax.axvline(xf, color="0.7", lw=0.6)
    ax.set(xlabel="x", ylabel="mean r(x)²", title=title)
    ax.legend(fontsize=7)
nb.save_figure(fig, "residual")

# %%
levels = np.linspace(0.1, 0.99, 12)
fig, ax = plotting.figure()
for name in ("data_0", "fixed_0", "sample_0", "bsnp_0"):
    ax.plot(levels, evaluate.coverage(models[name], test_batches["base"], cfg.z_samples,
                                      cfg.seed, levels), "o-", ms=3, label=name)
ax.plot([0, 1], [0, 1], "k:", label="ideal")
ax.set(xlabel="nominal level", ylabel="empirical coverage", title="reliability")
ax.legend(fontsize=7)
nb.save_figure(fig, "reliability")

# %% [markdown]
# ## What the run shows, in its own numbers

# %%
print(base[["mnse", "ecp90", "sigma_width", "r2_off", "r2_on", "decoder_rho"]].round(4).to_string())
print(f"A2: BSNP {np.round(mn['bsnp'], 4).tolist()} against data-only "
      f"{np.round(mn['data'], 4).tolist()}")

# %%
nb.finish()

# %% [markdown]
# **What the runs showed, against the abstract** (the numbers are those printed above and in
# `tables/02_ablation/`; our miniature's, never the paper's). Each claim is decided on seeds (A1,
# A2, A3) or on the test tasks of one trained seed (A4, A5) as replicates, with its resampling
# stability beside it.
#
# - *The physics term on the mean field* (A1, `physics.lowers_residual`): the off-grid residual of
#   BSNP against the data-only NP, seed means.
# - *Accuracy* (P3, A2, `accuracy.bsnp_vs_data`): the headline, at the spec's default size (600
#   steps of 16 tasks, 3 seeds). It is a `deviation` only if the data-only NP is better beyond 2
#   s.e. over the 3 seeds on resamples; otherwise it passes or fails on the spec's rule, and it is
#   inconclusive where a run's training loss is still falling over its last quarter (at 600 steps
#   some are: the length, not the method, may then be what the comparison sees). The spec's prototype called the pass "fragile" and saw the gap close by 1,000 steps: the
#   training length, far below the paper's 20k steps, is what could decide it.
# - *Calibration* (A3, `calibration.bsnp_ecp`): BSNP's ECP₉₀ against the spec's band [0.85, 0.97].
# - *Uncertainty collapse* (P2, A4, `collapse.sample_level`) and *discretisation overfitting* (P1,
#   A5): one trained seed each, so a failure is recorded as a fail, not as the paper shown wrong.
#   The spec's prototype saw no collapse and overfitting only with the rough decoder (length-scale
#   0.03, 400 steps: the spec's length, restored from a cut to 200). A5 is decided only where the
#   fixed grid does overfit its points (off/on >= 2, the precondition): with no overfitting to
#   prevent, stochastic collocation is untested (inconclusive), not the paper failing.
# - The data-only arm never trains on any grid, so its residual at the 8 fixed points says nothing
#   about overfitting.
# - A6: the closed-form and Monte-Carlo sample-level gradients agree (`sample_level.gradient_mc`).
