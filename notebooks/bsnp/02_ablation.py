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
# likelihood; Q4); 2 seeds for data-only and BSNP within the budget (`n_seeds`; paper profile 3;
# A2's standard error is the 2-seed one); fixed-grid and sample-level arms one seed; the
# ≥ 1,000-step test of A2 is the paper profile's run (skipped below 1,000 steps); A3 is recorded
# as statistical (a learned quantity), not a stop-the-stage bound; contexts are redrawn at every
# draw of a task (`fresh_splits`; the release fixes them per task, used in the paper profile).
#
# **What to look for.** Off-grid residual far lower with physics than without; MNSE and ECP of
# the arms close to each other; the fixed arm's residual low only at its points in the rough
# setting.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
n_train = 4000  # spec §3 default: 4,000 train tasks
n_test = 128  # budget (≤ 3 min per paper on 2 cores): 128 test tasks (spec §3 default 400) cut every evaluation threefold; A2's standard error is over seeds, not tasks
steps = 300  # budget (≤ 3 min per paper on 2 cores, 8 runs in 02): 300 steps (spec §3 default 600); the ≥ 1,000-step tests are the paper profile's
batch = 8  # budget (≤ 3 min per paper on 2 cores): 8 tasks per step (spec §3 default 16) cut a step's time by a quarter
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
n_seeds = 2  # decision (spec §6 allows 2 when the budget forces it): 2 seeds for A2; paper 3
n_fixed = 8  # decision (spec §7 Q3): the fixed arm's grid; 8 is where overfitting should show
stress_rho = 0.03  # spec A5: decoder length-scale fixed at 0.03 in the rough setting
stress_steps = 200  # budget: 200 steps for the two rough-decoder arms (spec §3.1: 400); the overfitting ratio is read after the same schedule for both arms
high_noise = 0.15  # spec NB2: also evaluated at 15% noise
sparse_nc = 3  # spec NB2: also evaluated at N_c is 3
grad_eps = 256  # spec A6: eps samples of the MC loss
grad_checks = 10  # spec A6: batches whose gradients are compared

# %%
import numpy as np
import pandas as pd
import torch

from lib.bsnp import decisions, evaluate, model, poisson, train
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
# ## Training (every run deterministic in its seed)

# %%
models, histories = train.fit_runs(tasks, runs)
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
res["decoder_rho"] = res.run.map({n: float(m.log_rho_dec.exp()) for n, m in models.items()})
res.to_csv(tables / "metrics.csv", index=False)
base = res[res.setting == "base"].set_index("run")
print(res.pivot_table(index="run", columns="setting", values=["mnse", "ecp90"]).round(4))
print(base[["nll", "sigma_width", "r2_off", "r2_on", "decoder_rho"]].round(4))

# %% [markdown]
# ## Claims (thresholds fixed in lib/bsnp/decisions.py before the run)

# %%
seeds = range(cfg.n_seeds)
mnse_d = [base.mnse[f"data_{s}"] for s in seeds]
mnse_b = [base.mnse[f"bsnp_{s}"] for s in seeds]
learned = (all(decisions.trained(v) for v in base.mnse[[n for n in base.index
                                                          if "rough" not in n]]),
           f"every learned-decoder run has MNSE <= {decisions.TRAINED_MNSE_MAX} (it learned)")
r2_d = float(np.mean([base.r2_off[f"data_{s}"] for s in seeds]))
r2_b = float(np.mean([base.r2_off[f"bsnp_{s}"] for s in seeds]))
ledger.statistical("physics.lowers_residual", "off-grid mean-field residual r^2 (197 points, "
                   "posterior-mean latent): BSNP against the data-only NP, seed mean",
                   source="spec A1 (mechanism of the physics term)", provenance="derived",
                   expected=f"r2(BSNP) <= {decisions.RESIDUAL_RATIO_MAX} r2(data)",
                   measured=f"BSNP {r2_b:.4g}, data {r2_d:.4g} (ratio {r2_b / r2_d:.3g})",
                   holds=decisions.residual_lowered(r2_b, r2_d), requires=learned)
enough_seeds = cfg.n_seeds >= 2
se = decisions.standard_error(mnse_b, mnse_d)
a2 = dict(source="abstract P3 via spec A2", provenance="paper",
          expected=f"mean MNSE(BSNP) < mean MNSE(data) - {decisions.SE_FACTOR:g} se",
          measured=f"BSNP {np.mean(mnse_b):.4g}, data {np.mean(mnse_d):.4g}, se {se:.2g} "
                   f"({cfg.n_seeds} seeds, {cfg.steps} steps)",
          holds=enough_seeds and decisions.lower_by_se(mnse_b, mnse_d),
          tolerance=f"{cfg.n_seeds}-seed standard error")
ledger.statistical("accuracy.bsnp_vs_data", "BSNP has lower test MNSE than the data-only NP at "
                   "the profile's training length", **a2,
                   requires=(learned[0] and enough_seeds, learned[1] + "; >= 2 seeds"))
if cfg.steps >= 1000:
    ledger.statistical("accuracy.bsnp_vs_data_long", "the same test after >= 1,000 steps "
                       "(prototype: the gap closes)", **a2,
                       requires=(learned[0] and enough_seeds, learned[1] + "; >= 2 seeds"))
else:
    ledger.skip("accuracy.bsnp_vs_data_long", "the A2 test after >= 1,000 steps",
                source="spec A2", provenance="paper", kind="statistical",
                expected="MNSE(BSNP) < MNSE(data) - 2 se",
                reason=f"{cfg.steps} steps in this profile; the paper profile runs 20k")
ecp_b = float(np.mean([base.ecp90[f"bsnp_{s}"] for s in seeds]))
ledger.statistical("calibration.bsnp_ecp", "BSNP's 90% predictive band covers about 90% of the "
                   "noise-free test targets (seed mean)", source="abstract P2/P3 via spec A3",
                   provenance="paper",
                   expected=f"ECP90 in [{decisions.ECP_LOW}, {decisions.ECP_HIGH}]",
                   measured=ecp_b, holds=decisions.calibrated(ecp_b), requires=learned)
e_s, e_b = base.ecp90["sample_0"], base.ecp90["bsnp_0"]
w_s, w_b = base.sigma_width["sample_0"], base.sigma_width["bsnp_0"]
collapse = decisions.collapsed(e_s, e_b, w_s, w_b)
a4 = dict(statement="sample-level enforcement collapses the predictive uncertainty against BSNP "
                    "(same seed)", source="abstract P2 via spec A4",
          expected=f"ECP(sample) < ECP(BSNP) - {decisions.COLLAPSE_ECP_DROP} and sigma ratio < "
                   f"{decisions.COLLAPSE_SIGMA_RATIO}",
          measured=f"ECP {e_s:.3f} vs {e_b:.3f}; sigma/max|u| {w_s:.4f} vs {w_b:.4f} "
                   f"(ratio {w_s / w_b:.3f})")
if collapse or not learned[0]:
    ledger.statistical("collapse.sample_level", **a4, provenance="paper", holds=collapse,
                       requires=learned)
else:
    ledger.deviation("collapse.sample_level", **a4, kind="statistical",
                     evidence="the sample-level arm keeps its coverage or width: the collapse "
                              "the abstract names does not arise at this scale",
                     shown=e_s >= e_b - decisions.COLLAPSE_ECP_DROP
                     or w_s / w_b >= decisions.COLLAPSE_SIGMA_RATIO)


def overfit_ratios(fixed: str, stoch: str) -> tuple[float, float, bool]:
    f, s = base.loc[fixed], base.loc[stoch]
    return f.r2_off / f.r2_on, s.r2_off / s.r2_on, decisions.overfits(f.r2_off, f.r2_on,
                                                                       s.r2_off, s.r2_on)


fr, sr, rough_overfits = overfit_ratios("fixed_rough", "bsnp_rough")
rough_trained = (base.mnse["fixed_rough"] <= decisions.TRAINED_MNSE_MAX,
                 f"the rough fixed-grid run has MNSE <= {decisions.TRAINED_MNSE_MAX}")
ledger.statistical("overfit.rough_decoder", "decoder length-scale fixed at "
                   f"{cfg.stress_rho}: the fixed grid's residual between its {cfg.n_fixed} "
                   "points far exceeds that at them, stochastic collocation's does not",
                   source="abstract P1 via spec A5 (rough setting)", provenance="paper",
                   expected=f"off/on >= {decisions.OVERFIT_FIXED_MIN} (fixed) and <= "
                            f"{decisions.OVERFIT_STOCH_MAX} (BSNP)",
                   measured=f"fixed {fr:.3g}, BSNP {sr:.3g}; MNSE fixed "
                            f"{base.mnse['fixed_rough']:.3g}, BSNP {base.mnse['bsnp_rough']:.3g}",
                   holds=rough_overfits, requires=rough_trained)
fl, sl, learned_overfits = overfit_ratios("fixed_0", "bsnp_0")
a5 = dict(statement=f"learned decoder length-scale: the same test with the {cfg.n_fixed}-point "
                    "fixed grid against BSNP", source="abstract P1 via spec A5 (learned setting)",
          expected=f"off/on >= {decisions.OVERFIT_FIXED_MIN} (fixed) and <= "
                   f"{decisions.OVERFIT_STOCH_MAX} (BSNP)",
          measured=f"fixed {fl:.3g}, BSNP {sl:.3g}; decoder rho "
                   f"{base.decoder_rho['fixed_0']:.3g}")
if learned_overfits or not learned[0]:
    ledger.statistical("overfit.learned_decoder", **a5, provenance="paper",
                       holds=learned_overfits, requires=learned)
else:
    ledger.deviation("overfit.learned_decoder", **a5, kind="statistical",
                     evidence="with the learned (smooth) decoder the fixed grid's residual "
                              "between its points is not 2x that at them: no discretisation "
                              "overfitting to prevent",
                     shown=fl < decisions.OVERFIT_FIXED_MIN)
cos = train.physics_gradient_cosines(model.BSNP(sizes), tasks, sched, cfg.n_r, cfg.grad_eps,
                                     cfg.grad_checks, cfg.seed)
ledger.bound("sample_level.gradient_mc", "worst cosine between the parameter gradients of the "
             f"sample-level residual in closed form and by Monte Carlo ({cfg.grad_eps} eps), "
             f"{cfg.grad_checks} batches at initialisation", source="spec A6 (D4 identity)",
             provenance="derived", measured=min(cos), lower=decisions.GRAD_COS_MIN,
             why="spec A6: >= 0.99 with 256 eps samples")

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

# %%
nb.finish()

# %% [markdown]
# **What the runs showed, against the abstract** (the default profile: 300 steps of batch 8,
# against the spec's default 600 × 16, cut for the budget; 2 seeds for data-only and BSNP, one
# for the other arms; 128 test tasks; our miniature's numbers, never the paper's).
#
# - *The physics term does its job on the mean field* (A1 passes): off-grid r² 0.449 for BSNP
#   against 3.53 for the data-only NP (seed means, ratio 0.13).
# - *BSNP is not more accurate (P3, A2 fails):* MNSE 0.2015 against 0.0895 for the data-only NP
#   (2 seeds, se 0.0011), and worse at N_c = 3 too (0.260 and 0.411 against 0.143 and 0.149).
#   At this training length the physics term slows the fit of the data. Our MNSE is untuned and
#   3.6× (data-only) to 11× (BSNP) the spec's prototype at 600 × 16 steps (0.0246, 0.0177).
# - *Calibration* (A3 passes): BSNP's ECP₉₀ is 0.958, with wide bands (σ / max|u| 0.32).
# - *Sample-level enforcement does not collapse the uncertainty (P2, deviation):* ECP 0.956
#   against BSNP's 0.962, σ ratio 0.978.
# - *Discretisation overfitting (P1) appears only with the rough decoder.* With the learned
#   decoder length-scale (0.155) the 8-point fixed grid's residual is the same at and between
#   its points (off/on 1.00; deviation). With the decoder fixed at ρ = 0.03 it overfits, just:
#   off/on 2.12 against the threshold 2, BSNP 1.10 (pass); both rough runs are barely trained
#   (MNSE 0.433 fixed grid, 0.439 BSNP, against the 0.5 precondition) and equally accurate
#   here (the prototype, at 400 × 16 steps, saw BSNP 5× worse).
# - The data-only arm's residual at the 8 fixed points is at its off-grid level (2.976 against
#   2.974, seed 0): it never trains on any grid, so its ratio says nothing about overfitting.
# - A6: the closed-form and Monte-Carlo sample-level gradients agree (worst cosine 0.9953).
