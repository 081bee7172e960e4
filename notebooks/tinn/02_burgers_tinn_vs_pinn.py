# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # TINN miniature, part 2: TINN + LM against PINN + LM and PINN + Adam on viscous Burgers
#
# **What this miniature shows.** Burgers at the paper's viscosity $\nu = 0.01/\pi$, three arms at
# the same parameter count (413 vs 415), the same points and seed, in float64:
# TINN + Levenberg–Marquardt (the paper's damping rule and resampling rule, [spec §1.4](../../docs/specs/tinn.md#s1-4)),
# PINN + LM (same rule) and PINN + Adam. Relative L² against the spectral reference of part 1,
# logged against iteration (CPU seconds go only to a timing table outside the DVC outputs), a
# space-time error map per arm and the slope error $|u_x(0,t) - u_{x,\mathrm{ref}}(0,t)|$. Before
# training, the mechanism is checked to machine precision: the batched per-point Jacobian against
# `torch.func` (vmap of jacrev with nested input derivatives), the LM step against a dense
# normal-equations solve, the parameter counts, and a singular LM system refused by name.
#
# **What it cannot show ([spec §8](../../docs/specs/tinn.md#s8)).** The paper's accuracy (TINN 6.89e-7 on Burgers with 1145
# parameters, 10,000 points and 30,000 LM steps; PINN 2.19e-4 with 309,440 parameters; PirateNet +
# SOAP 1.97e-6: paper's numbers as reproduced by the spec's notes) needs about a CPU-day per arm;
# here 800 LM steps on 2,000 points. Ours are reduced-scale numbers, never the paper's. The
# paper's baselines are large Adam-trained networks from other papers; our equal-size PINN + LM is
# our own, sharper test of the architecture ([spec §7](../../docs/specs/tinn.md#s7) Q2). GPU wall-clock claims (0.75 h) are not
# comparable with CPU seconds.
#
# **Decisions where the spec is open** (each a parameter): the time network's output layer has no
# bias (the reading that gives the paper's 1145), IC/BC residuals multiplied by λ as coded, the
# resampling rule checked every 5 steps, Adam lr 1e-3 → 1e-4 exponentially [RECON], Adam steps set
# to about the CPU time of an LM arm, 2,000 collocation points ([spec §3.3](../../docs/specs/tinn.md#s3-3)'s default) and 800 LM
# steps (twice the spec's 400: at 400 the run ends inside the oscillation and the verdict
# depends on which logged step is last; the spec's prototype ran 800), LM systems with
# reciprocal condition < 1e-15 refused. An arm's final error is the median of its last quarter of
# logged evaluations, never its last point; a comparison needs both arms trained (error flat over
# the last quarter). "Faster convergence" is measured in steps to reach 1e-2 (the two LM arms
# cost the same per step), on the one seed.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
executor = "inline"  # where the grid's runs go: inline in the kernel (one after the other), debug (in the kernel, through submitit), local subprocesses, or slurm jobs
workers = 1  # runs at once (local) or the SLURM array's parallelism; runs are single-threaded, so the results are the same for any count
slurm_partition = ""  # SLURM partition ('' the cluster's default)
slurm_gpus = 0  # GPUs per SLURM job
slurm_time_min = 240  # a SLURM job's time limit in minutes (≤ 14 days, the runner's paper limit)
nu_pi = 0.01  # viscosity nu is nu_pi / pi (spec §7 Q3: keep the paper's case)
time_widths = [1, 8, 8, 5]  # TINN time network (spec §3.3 default)
tinn_widths = [1, 10, 10, 1]  # TINN backbone (spec §3.3 default)
pinn_widths = [2, 18, 18, 1]  # PINN of about the same size (415 vs 413)
n_col = 2000  # collocation points (spec §3.3 default: the shock needs them)
n_ic = 200  # initial-condition points (spec §3.3 default)
n_bc = 100  # boundary points per side (spec §3.3 default)
lam_ic = 2.0  # IC weight (code, spec §1.5)
lam_bc = 1.0  # BC weight (code, spec §1.5)
lm_steps = 800  # LM steps per LM arm (the spec prototype's 800; its default 400 ends inside the oscillation, issue 42)
adam_steps = 6000  # Adam steps: about the CPU time of one LM arm (measured)
adam_lr0 = 0.001  # Adam lr at the start [RECON, spec §3.3]
adam_lr1 = 0.0001  # Adam lr at the end (exponential decay) [RECON]
eval_every = 10  # relative L2 on the grid every this many steps (Adam: x6)
resample_every = 5  # check the resampling rule every this many steps (0: never)
mu_min = 1e-12  # LM damping floor (code, spec §1.4)
rcond_min = 1e-15  # decision: refuse an LM system with reciprocal condition below this
ref_modes = 2048  # spectral reference resolution (notebook 01: 3e-10 error)
ref_steps = 200  # spectral steps per output interval (dt is 1e-4 at n_t is 51)
n_x = 128  # evaluation grid in x (spec §3.3)
n_t = 51  # evaluation grid in t (spec §3.3)
n_jac_check = 40  # points of the torch.func Jacobian check

# %%
import numpy as np
import pandas as pd
import torch

from lib.companion import notebook, plotting, rules
from lib.tinn import decisions, experiment, lm, models, naive, references, residuals

nb = notebook.start("tinn/02_burgers_tinn_vs_pinn", globals())
cfg, ledger, rng, tables = nb.cfg, nb.ledger, nb.rng, nb.tables
nu = cfg.nu_pi / np.pi
tinn = models.make_tinn(cfg.time_widths, cfg.tinn_widths)
pinn = models.make_pinn(cfg.pinn_widths)

# %% [markdown]
# ## Parameter counts

# %%
ledger.exact("param_count", "TINN layout size equals the closed form 2 N_D + time network + gate",
             source="spec §1.3", provenance="derived",
             expected=models.tinn_count(cfg.time_widths, cfg.tinn_widths), measured=tinn.size)
paper_tinn = models.make_tinn([1, 10, 10, 5], [1, 20, 20, 1])
ledger.exact("param_count_paper", "TINN [1,10,10,5] / [1,20,20,1] has the paper's 1145 parameters",
             source="paper's main table (spec §2 T5, [NOTE])", provenance="paper",
             expected=1145, measured=paper_tinn.size)
print(f"TINN {tinn.size} parameters, PINN {pinn.size} (ratio {pinn.size / tinn.size:.3f}: equal "
      "budgets by the choice of widths, a table entry rather than a claim)")

# %% [markdown]
# ## The reference (spectral ETDRK4 of part 1) on the evaluation grid

# %%
x_eval, t_eval = experiment.eval_grid(cfg)
ref_dt = 1.0 / (cfg.n_t - 1) / cfg.ref_steps
coef, _ = references.burgers_spectral(nu, cfg.ref_modes, ref_dt, t_eval)
u_ref = references.evaluate_fourier(coef, cfg.ref_modes, x_eval)
ux0_ref = references.evaluate_fourier(coef, cfg.ref_modes, np.array([0.0]), deriv=1)[:, 0]

# %% [markdown]
# ## Mechanism checks: Jacobian, LM step, singular system

# %%
probe = residuals.sample_points(np.random.default_rng(cfg.seed + 1), cfg.n_jac_check, 3, 2)
theta_probe = tinn.init(cfg.seed) + 0.1 * torch.as_tensor(
    np.random.default_rng(cfg.seed + 2).standard_normal(tinn.size))
r_probe, jac_probe = residuals.residual_and_jacobian(tinn, theta_probe, probe, nu, cfg.lam_ic,
                                                     cfg.lam_bc)
jac_func = naive.jacobian_func(tinn, theta_probe, probe.xr, probe.tr, nu) / np.sqrt(cfg.n_jac_check)
ledger.close("jacobian.matches_reference", "batched per-point Jacobian of the PDE residual (one "
             "backward into per-point weight copies) equals torch.func vmap(jacrev) with nested "
             "grad input derivatives", source="spec §3.3, §4", provenance="derived", expected=0.0,
             measured=float((jac_probe[:cfg.n_jac_check] - jac_func).abs().max()), atol=1e-12,
             why="two exact autodiff routes; rounding only")
jac_wrong = naive.jacobian_func(tinn, theta_probe, probe.xr, probe.tr, 2 * nu) / np.sqrt(
    cfg.n_jac_check)
ledger.exact("control.jacobian_wrong_nu", "negative control: the same comparison rejects a "
             "reference Jacobian taken at the wrong viscosity (2 nu): the check can fail",
             source="issue 42 (a negative control per mechanism)", provenance="derived",
             expected=False,
             measured=bool((jac_probe[:cfg.n_jac_check] - jac_wrong).abs().max() <= 1e-12))
mu_probe = 1e-3
step = lm.lm_step(jac_probe, r_probe, mu_probe, cfg.rcond_min).numpy()
dense = naive.lm_step_dense(jac_probe.numpy(), r_probe.numpy(), mu_probe)
ledger.close("lm.step_matches_dense", "Cholesky LM step equals numpy.linalg.solve of the dense "
             "normal equations (J^T J + mu I) delta = -J^T r (relative difference)",
             source="spec §1.4", provenance="derived", expected=0.0,
             measured=float(np.linalg.norm(step - dense) / np.linalg.norm(dense)), atol=1e-8,
             why="two direct solves of one SPD system of condition <= ||J||^2/mu; float64")
jac_dup = torch.cat([jac_probe, jac_probe[:, :1]], dim=1)        # a duplicated column
try:
    lm.lm_step(jac_dup, r_probe, 0.0, cfg.rcond_min)
    singular = "no error"
except lm.SingularSystemError as err:
    singular = type(err).__name__
    print(err)
ledger.exact("lm.singular_refused", "an LM system with a duplicated Jacobian column and mu = 0 is "
             "refused with SingularSystemError instead of a NaN step",
             source="issue 13 (bad input)", provenance="derived", expected="SingularSystemError",
             measured=singular)

# %% [markdown]
# ## Training the three arms: one sweep run each (`executor`)

# %%
runs = experiment.run_arms(cfg, u_ref, nb.id)
arms = {n: experiment.arm_model(cfg, n) for n in runs}
final = {n: torch.as_tensor(r.theta) for n, r in runs.items()}
hists = {n: r.hist for n, r in runs.items()}
timing = [{"arm": n, "steps": h.step[-1], "cpu_s": h.cpu_s[-1], "resamples": h.resamples}
          for n, h in hists.items()]
for n, h in hists.items():
    print(f"{n}: relative L2, median of the last quarter {rules.tail_median(h.error):.3e}, "
          f"{h.resamples} resamples")
nb.save_timing(pd.DataFrame(timing), "arms")
curves = pd.concat([pd.DataFrame({"arm": n, "step": h.step, "loss": h.loss, "rel_l2": h.error,
                                  "mu": h.mu}) for n, h in hists.items()])
curves.to_csv(tables / "curves.csv", index=False)
pd.DataFrame({"arm": list(hists), "params": [arms[n].size for n in hists],
              "median_rel_l2_last_quarter": [rules.tail_median(h.error) for h in hists.values()],
              "min_rel_l2_last_quarter": [float(rules.tail(h.error).min())
                                          for h in hists.values()]}
             ).to_csv(tables / "final.csv", index=False)
pd.DataFrame({"method": ["PINN (309,440 params)", "PirateNet+SOAP", "TINN (1145 params)"],
              "paper_rel_l2": [2.19e-4, 1.97e-6, 6.89e-7],
              "source": ["paper's table via spec §2 T5 [NOTE]"] * 3}
             ).to_csv(tables / "paper_numbers.csv", index=False)

# %% [markdown]
# ## Headline claims (thresholds fixed in lib/tinn/decisions.py before the run)
#
# The always-accepted LM step with frequent resampling makes every arm's error oscillate from one
# logged step to the next, so an arm's final error is the median of its last quarter of logged
# evaluations, and those evaluations are the replicates each decision is resampled over (one
# seed: the stability says how much the oscillation, not the seed, could move the verdict). A
# comparison needs both arms trained: each arm's error curve flat over its last quarter.

# %%
enough = cfg.lm_steps >= 100
tails = {n: rules.tail(h.error) for n, h in hists.items()}
trained = {n: decisions.trained(h.error) for n, h in hists.items()}


def needs(*names):
    """The precondition of a comparison: enough steps, and each named arm trained."""
    return (enough and all(trained[n] for n in names),
            f">= 100 LM steps and {' and '.join(names)} trained (relative L2 flat over the last "
            "quarter: its second half's median not 5 % below its first half's)")


def paired(a, b):
    """Rows (arm a's, arm b's) error over the two last quarters, aligned from the end."""
    k = min(len(tails[a]), len(tails[b]))
    return np.column_stack([tails[a][-k:], tails[b][-k:]])


final_err = {n: float(np.median(v)) for n, v in tails.items()}
ledger.statistical("burgers.tinn_lm_error", "TINN + LM final relative L2 on Burgers (nu = "
                   "0.01/pi) at reduced scale: the median over the last quarter of the run",
                   source="spec §3.3 (paper: 6.89e-7 at full scale)",
                   provenance="reconstructed", expected=f"<= {decisions.TINN_ERROR_MAX:g}",
                   measured=final_err["TINN+LM"], samples=tails["TINN+LM"],
                   decide=lambda s: decisions.below(float(np.median(s))),
                   tolerance=f"one seed; replicates: the {len(tails['TINN+LM'])} evaluations of "
                             "the last quarter",
                   requires=(enough, "at least 100 LM steps"))
ledger.statistical("burgers.tinn_vs_pinn_lm", "equal-size PINN + LM error over TINN + LM error "
                   "(same LM rule, points, steps), medians over the last quarter",
                   source="abstract: 'up to 4x improved relative L2' (spec §2 T4)",
                   provenance="reconstructed", expected=f">= {decisions.PINN_OVER_TINN_MIN:g}",
                   measured=final_err["PINN+LM"] / final_err["TINN+LM"],
                   samples=paired("PINN+LM", "TINN+LM"),
                   decide=lambda s: decisions.tail_ratio(s, decisions.PINN_OVER_TINN_MIN),
                   tolerance="one seed; replicates: the last quarter's evaluations, paired by "
                             "step", requires=needs("TINN+LM", "PINN+LM"))
ledger.statistical("burgers.lm_vs_adam", "PINN + Adam error over PINN + LM error at about equal "
                   "CPU work, medians over the last quarter", source="spec §2 T3 (LM solves the "
                   "least-squares problem efficiently)", provenance="reconstructed",
                   expected=f">= {decisions.ADAM_OVER_LM_MIN:g}",
                   measured=final_err["PINN+Adam"] / final_err["PINN+LM"],
                   samples=paired("PINN+Adam", "PINN+LM"),
                   decide=lambda s: decisions.tail_ratio(s, decisions.ADAM_OVER_LM_MIN),
                   tolerance="one seed; replicates: the two last quarters' evaluations, paired "
                             "in order from the end", requires=needs("PINN+Adam", "PINN+LM"))
reach = {n: decisions.first_reach(hists[n].step, hists[n].error) for n in ("TINN+LM", "PINN+LM")}
ledger.statistical("burgers.steps_to_1e-2", "LM steps to first reach relative L2 <= 1e-2: TINN at "
                   "least 3x sooner than PINN (or within a third of the run if PINN never does)",
                   source="abstract: '10x faster convergence' (spec §2 T4, §3.3)",
                   provenance="reconstructed", expected=f">= {decisions.SPEEDUP_MIN:g}x sooner",
                   measured=f"TINN {reach['TINN+LM']}, PINN {reach['PINN+LM']} "
                   f"(of {cfg.lm_steps})",
                   holds=decisions.faster(reach["TINN+LM"], reach["PINN+LM"], cfg.lm_steps),
                   rests_on=f"one seed (seed {cfg.seed}): the first logged step of each curve at "
                            f"or below {decisions.TARGET_ERROR:g}",
                   requires=(enough, "at least 100 LM steps"))
late = t_eval >= 0.4
slope_err = {n: np.abs(residuals.slope_at_origin(m, final[n], t_eval) - ux0_ref)
             for n, m in arms.items()}
mean_slope = {n: float(v[late].mean()) for n, v in slope_err.items()}
ledger.qualitative("burgers.slope_error_after_shock", "mean |u_x(0,t) - ref| over t in [0.4, 1]: "
                   "TINN + LM below PINN + LM", source="spec §2 T7 [NOTE]",
                   provenance="reconstructed", expected="TINN < PINN+LM",
                   measured=f"TINN {mean_slope['TINN+LM']:.3g}, PINN+LM "
                   f"{mean_slope['PINN+LM']:.3g}, PINN+Adam {mean_slope['PINN+Adam']:.3g}",
                   samples=np.column_stack([slope_err["TINN+LM"][late],
                                            slope_err["PINN+LM"][late]]),
                   decide=lambda s: s[:, 0].mean() < s[:, 1].mean(),
                   requires=needs("TINN+LM", "PINN+LM"))

# %% [markdown]
# ## Figures

# %%
fig, ax = plotting.figure()
for n, h in hists.items():
    ax.semilogy(h.step, h.error, label=f"{n} ({arms[n].size} params)")
ax.axhline(6.89e-7, color="k", ls=":", label="paper's TINN, full scale (6.89e-7)")
ax.set(xlabel="iteration", ylabel="relative L² vs spectral reference",
       title="Burgers ν = 0.01/π: error against iteration")
ax.legend(fontsize=7)
nb.save_figure(fig, "curves")

# %%
fig, axes = plotting.figure(ncols=3)
for axis, (n, m) in zip(axes, arms.items()):
    e = np.abs(residuals.predict(m, final[n], x_eval, t_eval) - u_ref)
    im = axis.pcolormesh(t_eval, x_eval, np.log10(e.T + 1e-16), cmap="magma", shading="auto",
                         vmin=-6, vmax=0)
    axis.set(xlabel="t", ylabel="x", title=f"{n}: log10 |u − u_ref|")
fig.colorbar(im, ax=list(axes))
nb.save_figure(fig, "error_maps")

# %%
fig, ax = plotting.figure()
for n, v in slope_err.items():
    ax.semilogy(t_eval, v + 1e-16, label=n)
ax.set(xlabel="t", ylabel="|u_x(0,t) − ref|", title="slope error at the origin")
ax.legend()
nb.save_figure(fig, "slope_error")

# %%
nb.finish()

# %% [markdown]
# **What we saw** (default profile; the claims table above is the record, and the numbers are
# the run's own, printed by the cells). The mechanism checks hold to rounding, and the negative
# control shows the Jacobian check rejects a reference taken at the wrong viscosity. The
# headline, that TINN + LM beats an equal-size PINN + LM, is read from the medians of the last
# quarter of an 800-step run on one seed, and a comparison counts only when both arms have stopped
# improving; each claim's stability says how far the LM rule's step-to-step oscillation could
# move its verdict. What this run shows about the paper's headline is the status of
# `burgers.tinn_vs_pinn_lm`: a pass is the paper's "up to 4x" reproduced at 413 parameters and
# 2,000 points (in the run that set these sizes it passed well beyond the threshold, both arms
# flat over their last quarter, stability 1); a fail or inconclusive is our reduced scale's
# result, not the paper's. None of it is the paper's
# 6.89e-7 (1145 parameters, 10,000 points, 30,000 steps on a GPU), quoted in `paper_numbers.csv`
# beside ours. The budget cut that could decide it: 800 LM steps and 413 parameters against the
# paper's 30,000 and 1145 (the spec's prototype saw the gap grow with size), and a single seed.
