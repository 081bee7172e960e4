# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # MUSA-PINN miniature, part 2: strong-form against weak-form PINNs in a perforated domain
#
# **Claims of the paper made concrete** ([spec §2](../../docs/specs/musa_pinn.md#s2)): pointwise residuals suffer convergence
# pathologies in topologically complex domains (M1); flux balances over hierarchical control
# volumes, with a continuity-first two-stage schedule, reduce the error (M2: "by up to 93 %" in
# their TPMS cases); the weak form preserves mass (M3). Steady Navier–Stokes, Kovasznay flow at
# Re = 20 in a box minus seven discs (exact reference, Dirichlet data on every wall), one tanh
# MLP per seed, arms trained for the same number of steps from the same initial weights:
# **strong** (pointwise residuals, second derivatives), **weak** (disc fluxes over large, meso and
# small discs, Q = 16, first derivatives only), **weak2** (the same with the momentum weight 0.1
# for the first 30 % of the steps) and, as ablations of the three scales, weak2 without meso
# and without small discs (their discs shared among the other scales, same count per step).
#
# **What it cannot show** ([spec §8](../../docs/specs/musa_pinn.md#s8)). The 3-D TPMS geometries, the authors' CFD references
# and baselines, the "up to 93 %" (quoted beside ours in `nb2.vs_paper`, never reproduced), and
# the paper's training scale. Every number here is our miniature's.
#
# **Provenance and decisions** ([spec §7](../../docs/specs/musa_pinn.md#s7)). The arms, the domain, the samplers, the area
# normalisation of the disc residuals (Q1: each scale's residual is a disc average, so all
# scales weigh alike), the soft Dirichlet penalty (Q3), the pressure form of the momentum flux
# (Q4) and the schedule (Q5: `stage_switch`, `stage_weight`; `decisions.momentum_weight`) are
# reconstructed. D1, the case that should make the strong form fail: no case beyond the spec's
# perforated Kovasznay flow fitted the time we had (the MAC-referenced porous cell is not built),
# so the notebook keeps that case and *tests* whether the strong form fails in it
# (`nb2.pathology`, threshold 5 % fixed in `lib/musa_pinn/decisions.py`: our line, not the
# paper's). Budget: width 32 (spec 64), 1200 steps (spec 2000), 400 collocation and boundary
# points, 64 discs per step, the spec's 3 seeds, and Adam at 5·10⁻³ (spec 10⁻³: at 10⁻³ no arm
# left the initial plateau within 600 steps). The `paper` profile carries the spec's sizes.
#
# **How the claims are decided.** Every comparison is paired over seeds: a difference counts
# when its mean lies beyond 2 standard errors (`rules.beyond`, >= 3 seeds), and its stability
# under resampling the seeds is recorded. A comparison needs its arms trained: an arm whose
# seed-mean error was still falling by more than 5 % over the last quarter of the steps
# (`rules.converged`) makes the claim inconclusive, never a pass. `nb2.error` becomes a
# deviation only if weak2 is *worse* than strong beyond 2 standard errors.
#
# **What to look for.** Error curves that sit on a plateau, then drop; whether the weak arms drop
# earlier or further than the strong one; where in the channels the errors sit.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
executor = "inline"  # where the grid's runs go: inline in the kernel (one after the other), debug (in the kernel, through submitit), local subprocesses, or slurm jobs
workers = 1  # runs at once (local) or the SLURM array's parallelism; runs are single-threaded, so the results are the same for any count
slurm_partition = ""  # SLURM partition ('' the cluster's default)
slurm_gpus = 0  # GPUs per SLURM job
slurm_time_min = 240  # a SLURM job's time limit in minutes (≤ 14 days, the runner's paper limit)
re = 20.0  # spec §1.5: Kovasznay at Re is 20 (nu is 1/Re is 0.05)
r_large = 0.12  # spec §1.4: large discs, radius 0.12 (long-range coupling)
r_small = 0.02  # spec §1.4: small discs, radius 0.02 (local refinement)
meso_power = 4.0  # spec §1.4 [RECON]: meso centres drawn with weight d^4 (the channels' medial axis)
meso_fraction = 0.8  # spec §1.4 [RECON]: meso radius 0.8 d(x)
meso_r_min = 0.01  # decision (spec §7 Q2): meso discs no smaller than 0.01, so that none degenerates to a point near a wall
width = 32  # budget (≤ 45 s per notebook on 2 shared cores): width 32 (spec 64)
depth = 4  # spec NB2: 4 hidden tanh layers
steps = 1200  # budget (a miniature may take up to 5 min where its headline needs it): 1200 Adam steps, so that the strong arm can converge before it is judged (at 800, nb2.pathology passed only because the strong arm was still falling; spec 2000, paper profile 6000)
lr = 0.005  # budget decision (spec NB2: 1e-3 over 2000 steps): at 1e-3 no arm left the initial plateau (rel L2(u) ~0.59) within 600 steps; at 5e-3 all arms did by ~400
decay_at = [0.6, 0.85]  # spec NB2: decay at 60% and 85% of the steps
gamma = 0.3  # spec NB2: learning-rate decay x0.3
bc_weight = 10.0  # spec NB2: boundary loss weight 10
n_boundary = 400  # budget: 400 boundary points per step (spec 800)
n_colloc = 400  # budget: 400 collocation points per step for the strong arm (spec 800)
n_large = 16  # budget: 16 large discs per step (spec 32; 1/4 of the discs)
n_meso = 24  # budget: 24 meso discs per step (spec 48; 3/8)
n_small = 24  # budget: 24 small discs per step (spec 48; 3/8)
quad = 16  # spec §1.3: Q is 16 trapezoidal nodes per circle (NB1: ~1e-10 exact)
pool_factor = 20  # spec §1.4: pools of 20x the per-step count of each scale
stage_switch = 0.3  # spec §1.4 [RECON]: continuity first for 30% of the steps
stage_weight = 0.1  # spec §1.4 [RECON]: momentum weight 0.1 in the first stage
n_seeds = 3  # spec NB2: 3 seeds (a paired difference beyond 2 s.e. needs ≥ 3)
ablations = True  # spec NB2 optional: weak2 without meso, without small discs
n_eval = 20000  # spec NB2: 20k interior points
n_curve = 2000  # decision: interior points of the error-against-step curve
eval_every = 50  # decision: steps between points of the error curve
n_held = 2000  # spec NB2: 2000 held-out discs
r_held = 0.05  # spec NB2: held-out discs of radius 0.05
x_line = 0.2  # spec NB2: net flux through the line x is 0.2
n_line = 4000  # decision: midpoints on the line (one rule for net and exact)

# %%
import numpy as np
import pandas as pd
import torch

from lib.companion import notebook, plotting, rules
from lib.musa_pinn import decisions, experiment, geometry, kovasznay, metrics, train

nb = notebook.start("musa_pinn/02_strong_vs_weak", globals())
cfg, ledger, rng, tables = nb.cfg, nb.ledger, nb.rng, nb.tables
domain = geometry.Domain()
setup = train.Setup(re=cfg.re, width=cfg.width, depth=cfg.depth, steps=cfg.steps, lr=cfg.lr,
                    milestones=tuple(cfg.decay_at), gamma=cfg.gamma, bc_weight=cfg.bc_weight,
                    n_boundary=cfg.n_boundary, n_colloc=cfg.n_colloc, quad=cfg.quad,
                    counts={"large": cfg.n_large, "meso": cfg.n_meso, "small": cfg.n_small},
                    r_large=cfg.r_large, r_small=cfg.r_small, meso_power=cfg.meso_power,
                    meso_fraction=cfg.meso_fraction, meso_r_min=cfg.meso_r_min,
                    pool_factor=cfg.pool_factor, stage_switch=cfg.stage_switch,
                    stage_weight=cfg.stage_weight, eval_every=cfg.eval_every)
seeds = [cfg.seed + s for s in range(cfg.n_seeds)]
eval_pts = geometry.sample_interior(domain, cfg.n_eval, rng)
curve_pts = geometry.sample_interior(domain, cfg.n_curve, rng)
held = geometry.fixed_radius_discs(domain, cfg.n_held, cfg.r_held, rng)
weak_arms = [train.Arm("weak", "weak"), train.Arm("weak2", "weak", two_stage=True)]
if cfg.ablations:
    weak_arms += [train.Arm("weak2_no_meso", "weak", True, ("large", "small")),
                  train.Arm("weak2_no_small", "weak", True, ("large", "meso"))]
groups = {"strong": [train.Arm("strong", "strong")], "weak": weak_arms}

# %% [markdown]
# ## Training: one run per (form, seed) through the sweep engine (`executor`)
#
# Every arm and seed is deterministic; a seed's weak arms share one batched pass. The runs come
# back as one batched net per form, members and history in the order of one pass over all seeds.

# %%
nets, members, history, seconds = experiment.train_forms(groups, setup, domain, seeds, curve_pts,
                                                         cfg, nb.id)
history.to_csv(tables / "history.csv", index=False)
timing_csv = nb.save_timing(seconds, "training")

# %% [markdown]
# ## Evaluation: field errors, held-out disc mass flux, line flux

# %%
rows, fluxes = [], {}
for name, net in nets.items():
    err = metrics.field_errors(net, eval_pts, cfg.re)                      # (S, 3)
    mass = metrics.disc_mass_flux(net, held, cfg.quad, 1.0 / cfg.re)       # (S, n_held)
    line = metrics.line_flux_error(net, domain, cfg.x_line, cfg.n_line, cfg.re)
    for i, (arm, seed) in enumerate(members[name]):
        fluxes[(arm, seed)] = mass[i]
        rows.append({"arm": arm, "seed": seed, "err_u": err[i, 0], "err_v": err[i, 1],
                     "err_p": err[i, 2], "mass_flux": mass[i].mean(), "line_flux": line[i]})
res = pd.DataFrame(rows)
res.to_csv(tables / "metrics.csv", index=False, float_format="%.6g")
summary = res.drop(columns="seed").groupby("arm", sort=False).mean()
summary.to_csv(tables / "summary.csv", float_format="%.6g")
summary


# %% [markdown]
# ## Claims (thresholds fixed in lib/musa_pinn/decisions.py before the run)

# %%
def per_seed(arm: str, col: str) -> list[float]:
    return res[res.arm == arm].sort_values("seed")[col].tolist()


def tail_curve(arm: str) -> np.ndarray:
    """The seed-mean rel L2(u) curve of one arm (history points in step order)."""
    return history[history.arm == arm].groupby("step").err_u.mean().to_numpy()


def paired(base: str, other: str, col: str) -> np.ndarray:
    """Per-seed differences base - other of one column (positive: `other` lower)."""
    return np.asarray(per_seed(base, col)) - np.asarray(per_seed(other, col))


err_s, err_w2 = per_seed("strong", "err_u"), per_seed("weak2", "err_u")
learned = (all(decisions.trained(per_seed(a, "err_u")) for a in ("strong", "weak", "weak2")),
           f"every seed of strong, weak and weak2 has rel L2(u) < {decisions.TRAINED_MAX}")
strong_done = (learned[0] and rules.converged(tail_curve("strong")),
               learned[1] + "; the strong arm converged: its seed-mean rel L2(u) fell by < 5 % "
               "over the last quarter of the steps")
both_done = (strong_done[0] and rules.converged(tail_curve("weak2")),
             strong_done[1] + "; so did weak2's")
ledger.statistical("nb2.pathology", "the strong-form PINN fails in this domain at this budget "
                   "(seed-mean rel L2(u) of a converged strong arm)",
                   source="abstract M1 via spec §2, D1 (the 5 % line is ours)",
                   provenance="reconstructed", expected=f">= {decisions.PATHOLOGY_MIN}",
                   measured=float(np.mean(err_s)), samples=err_s,
                   decide=decisions.strong_fails, requires=strong_done)
gain = paired("strong", "weak2", "err_u")
ledger.compare("nb2.error", "weak2 (two-stage, three scales) has lower rel L2(u) than strong, "
               "paired over seeds at equal steps", source="abstract M2 via spec NB2",
               provenance="reconstructed",
               expected="mean(strong - weak2) > 2 se over >= 3 seeds",
               measured=f"strong {np.mean(err_s):.4g}, weak2 {np.mean(err_w2):.4g}; paired gain "
                        f"{gain.mean():.3g} (per seed {', '.join(f'{g:.3g}' for g in gain)}; "
                        f"{cfg.n_seeds} seeds, {cfg.steps} steps)",
               samples=gain, decide=rules.beyond, opposite=rules.opposite_beyond,
               power="paired difference strong - weak2 beyond 2 s.e. below zero over >= 3 "
                     "seeds, both arms converged", requires=both_done)
mass = np.column_stack([paired("strong", a, "mass_flux") for a in ("weak", "weak2")])
ledger.statistical("nb2.mass", "mean |continuity flux| on held-out discs (r = "
                   f"{cfg.r_held}): both weak arms below strong, paired over seeds",
                   source="abstract M3 via spec NB2", provenance="reconstructed",
                   expected="mean(strong - weak) > 2 se over >= 3 seeds, both weak arms",
                   measured=f"strong {np.mean(per_seed('strong', 'mass_flux')):.4g}, " + ", ".join(
                       f"{a} {np.mean(per_seed(a, 'mass_flux')):.4g}" for a in ("weak", "weak2")),
                   samples=mass, decide=lambda m: all(rules.beyond(m[:, j]) for j in range(2)),
                   requires=both_done)
line = paired("strong", "weak2", "line_flux")
ledger.statistical("nb2.line_flux", f"error of the net flux through x = {cfg.x_line}: weak2 "
                   "below strong, paired over seeds", source="abstract M3 via spec NB2",
                   provenance="reconstructed",
                   expected="mean(strong - weak2) > 2 se over >= 3 seeds",
                   measured=f"strong {np.mean(per_seed('strong', 'line_flux')):.4g}, weak2 "
                            f"{np.mean(per_seed('weak2', 'line_flux')):.4g}",
                   samples=line, decide=rules.beyond, requires=both_done)
if cfg.ablations:
    abl = {a: float(np.mean(per_seed(a, "err_u"))) for a in ("weak2_no_meso", "weak2_no_small")}
    ablated = np.column_stack([per_seed(a, "err_u")
                               for a in ("weak2", "weak2_no_meso", "weak2_no_small")])
    ledger.qualitative("nb2.scales", "the ablation table: removing the meso or the small scale "
                       "raises weak2's seed-mean rel L2(u)", source="abstract M2 (hierarchical "
                       "control volumes) via spec NB2", provenance="reconstructed",
                       expected="both ablations' seed means above weak2's",
                       measured=f"weak2 {np.mean(err_w2):.4g}, " + ", ".join(
                           f"{a} {v:.4g}" for a, v in abl.items()),
                       samples=ablated,
                       decide=lambda e: bool((e[:, 1:].mean(0) > e[:, 0].mean()).all()),
                       requires=both_done)
else:
    ledger.skip("nb2.scales", "the ablation table of the three scales", source="spec NB2",
                provenance="reconstructed", kind="qualitative",
                expected="both ablations above weak2", reason="ablations = false in this run")
reduction = 1 - np.mean(err_w2) / np.mean(err_s)
ledger.skip("nb2.vs_paper", "relative error reduction of the weak form over the strong form",
            source="abstract M2 ('up to 93 %', 3-D TPMS against their baselines)",
            provenance="paper", kind="qualitative", expected="up to 93 % (the paper's, TPMS)",
            reason=f"not comparable (2-D miniature, our baselines): ours is {100 * reduction:.3g} "
                   "% (1 - mean weak2 / mean strong rel L2(u))")

# %% [markdown]
# ## Figures

# %%
xs = np.linspace(domain.box[0], domain.box[1], 121)
ys = np.linspace(domain.box[2], domain.box[3], 161)
grid = np.stack(np.meshgrid(xs, ys), -1).reshape(-1, 2)
fluid = domain.wall_distance(grid) > 0
exact_u = kovasznay.velocity_pressure(torch.as_tensor(grid), cfg.re)[:, 0].numpy()
shown = ["strong", "weak", "weak2"]
fig, axes = plotting.figure(ncols=len(shown) + 1, width=10.0)
axes[0].contourf(xs, ys, np.where(fluid, exact_u, np.nan).reshape(len(ys), len(xs)), 20,
                 cmap="coolwarm")
axes[0].set(aspect="equal", title="exact u", xlabel="x", ylabel="y")
errs = {}
for arm in shown:
    name = "strong" if arm == "strong" else "weak"
    i = members[name].index((arm, seeds[0]))
    with torch.no_grad():
        pred = nets[name](torch.as_tensor(grid, dtype=torch.float32).expand(len(members[name]),
                                                                            -1, -1))[i, :, 0]
    errs[arm] = np.where(fluid, np.abs(pred.numpy() - exact_u), np.nan).reshape(len(ys), len(xs))
top = max(np.nanmax(e) for e in errs.values())
for ax, (arm, e) in zip(axes[1:], errs.items()):
    im = ax.contourf(xs, ys, e, levels=np.linspace(0, top, 21), cmap="magma")
    ax.set(aspect="equal", title=f"|u − u_exact|, {arm}", xlabel="x")
fig.colorbar(im, ax=list(axes[1:]), shrink=0.8)
nb.save_figure(fig, "maps")

# %%
fig, (ax1, ax2) = plotting.figure(ncols=2, width=9.0)
colours = dict(zip(history.arm.unique(), plotting.palette(history.arm.nunique())))
for arm, grp in history.groupby("arm", sort=False):
    mean = grp.groupby("step").err_u.mean()
    ax1.semilogy(mean.index, mean.values, "-", color=colours[arm], label=arm)
    for _, one in grp.groupby("seed"):
        ax1.semilogy(one.step, one.err_u, "-", color=colours[arm], lw=0.5, alpha=0.4)
ax1.axvline(cfg.stage_switch * cfg.steps, color="0.6", ls=":", label="weak2 stage switch")
ax1.set(xlabel="step", ylabel=f"rel L2(u) on {cfg.n_curve} points", title="error against step")
ax1.legend(fontsize=7)
order = list(summary.index)
for j, col in enumerate(["err_u", "err_v", "err_p"]):
    ax2.bar(np.arange(len(order)) + (j - 1) * 0.27, summary[col], width=0.27, label=col)
    for k, arm in enumerate(order):
        ax2.plot(np.full(cfg.n_seeds, k + (j - 1) * 0.27), per_seed(arm, col), "k.", ms=3)
ax2.set_xticks(np.arange(len(order)), order, rotation=30, ha="right")
ax2.set(yscale="log", ylabel="rel L2 (p mean-removed)", title=f"{cfg.n_eval} points, seeds as dots")
ax2.legend(fontsize=7)
nb.save_figure(fig, "curves")

# %%
fig, ax = plotting.figure()
bins = np.linspace(-6, 1, 50)
for arm in ["strong", "weak", "weak2"]:
    ax.hist(np.log10(fluxes[(arm, seeds[0])] + 1e-12), bins=bins, histtype="step",
            color=colours[arm], label=f"{arm} (mean {fluxes[(arm, seeds[0])].mean():.3g})")
ax.set(xlabel="log₁₀ |continuity flux| / area", ylabel="held-out discs",
       title=f"mass balance on {cfg.n_held} discs, r = {cfg.r_held}, seed {seeds[0]}")
ax.legend(fontsize=7)
nb.save_figure(fig, "mass")

# %%
nb.finish()

# %% [markdown]
# **What we saw** (the claims table and the figures hold the numbers; our miniature's, never the
# paper's). Every arm first sits on a plateau while the net fits the boundary data, then drops;
# the two-stage arms leave the plateau first, right after the stage switch. The headline M2 is
# `nb2.error`: its status above says whether, at equal steps, weak2 ends below the strong form
# beyond the seeds' spread (pass), above it beyond that spread (deviation), neither (fail), or
# whether an arm had not converged or the decision does not survive resampling the seeds
# (inconclusive). `nb2.pathology` asks whether the converged strong form misses by 5 % or more;
# if it does not, this domain does not show the pathology the paper targets, and no weak-form
# gain here could be read as the paper's fix (spec D1: a case where the strong form fails is
# not built). The error maps show where each arm's error sits: read them for whether it is in
# the narrow passages or at the inflow wall (x = −0.5, where e^{λx} is largest). `nb2.mass`,
# `nb2.line_flux` and `nb2.scales` are decided by the same paired rule. The weak arms cost a
# fraction of the strong arm's time per member-step (results/timings/, not a claim: a time
# differs on every run). Budget cuts that could decide these verdicts: width 32 against 64 and
# 1200 steps against 2000.
