# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Learning a solver with 5 inequalities and 3 equalities: feasible by construction
#
# **Claim (Zhao et al., §4.2 and Table 3 via [3P]; [spec §1.5](../../docs/specs/caffnet.md#s1-5) opt, §3.3).** A network maps
# $x \in [-1, 1]^3$ to $y \in \mathbb{R}^5$ minimising $\tfrac12 y^\top Q y + p^\top \sin y$
# subject to $Gy \le h$, $Cy = x$. CAffNet (rows $[G; C; -C]$, $m = 11 > n = 5$) satisfies every
# row for every input; the soft NN and HardNet ($[G; C]$, 8 rows) do not. The layer is trainable
# and "goes beyond fixed orthogonal projections" (P4); post-processing "may lead to
# suboptimality" (P5).
#
# **What this miniature shows.** The official code's instance (legacy numpy stream, seed 1),
# trained here: soft NN, NN + post-hoc projection, HardNet, CAffNet with a learned null-space
# branch $w$, and CAffNet with $w \equiv 0$ (a fixed orthogonal projection trained end to end),
# against an independent reference optimum (SLSQP in the 2-D null space of $C$, multi-start).
# CAffNet enumerates only subsets holding all three equality rows (17 candidates instead of 1024,
# E6); the notebook checks once that all 1024 give the same output.
#
# **What it cannot show ([spec §8](../../docs/specs/caffnet.md#s8)).** The paper's Table 3 values are unknown, so every number here
# is ours; no IPOPT timings; the 10,000-epoch schedule at lr $10^{-4}$ is the `paper` profile's.
#
# **Decisions where the spec is open.** Penalty = sum over samples and rows of
# $\mathrm{ReLU}(Ay - b)^2$, weight 100, the same reduction as the summed task loss ([spec §7](../../docs/specs/caffnet.md#s7) Q1
# proposed a mean over samples; a first run with it left the soft NN's equality violation at 1.2
# in notebook 03, `penalty_reduction`), for NN and HardNet; 500 training inputs
# and 400 epochs at lr $10^{-3}$ (spec default 1000 / 500, cut for the CPU budget); the reference
# is SLSQP with the inequalities from 8 starts in the null space of $C$ (spec: BFGS from 8 starts,
# then an SLSQP polish); post-hoc = the layer with
# $w = 0$ on the trained soft NN; the learned-$w$ selection rule is the code's (distance to $f$,
# [spec §7](../../docs/specs/caffnet.md#s7) Q2).
#
# **Look for:** CAffNet's violations at rounding level; the gap of learned $w$ against $w \equiv 0$.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
executor = "inline"  # where the grid's runs go: inline in the kernel (one after the other), debug (in the kernel, through submitit), local subprocesses, or slurm jobs
workers = 1  # runs at once (local) or the SLURM array's parallelism; runs are single-threaded, so the results are the same for any count
slurm_partition = ""  # SLURM partition ('' the cluster's default)
slurm_gpus = 0  # GPUs per SLURM job
slurm_time_min = 240  # a SLURM job's time limit in minutes (≤ 14 days, the runner's paper limit)
instance_seed = 1  # spec §1.5: numpy.random.seed(1), the official code's instance
n_train = 500  # decision: 500 training inputs (spec 1000; halved to fit 3 CPU minutes)
n_eval = 200  # spec §3.3 default: 200 evaluation inputs
width = 200  # spec §1.2: MLP 3 -> 200^3 -> 5
epochs = 400  # decision: 400 full-batch epochs (spec default 500; cut to fit 3 CPU minutes)
lr = 0.001  # spec §3.3 default: Adam lr 1e-3 (paper 1e-4)
ref_starts = 8  # 8 starts (v is 0, 7 random N(0, 9), in the null space of C), SLSQP (spec §3.3: BFGS multi-start, SLSQP polish)
general_inputs = 100  # inputs on which the 17-candidate enumeration is checked against all 1024
log_every = 10  # epochs between points of the training curves
penalty_weight = 100.0  # spec §1.4: task + 100 * penalty for the soft NN and HardNet
penalty_reduction = "sum"  # decision: penalty summed over samples like the task loss (spec §7 Q1: mean)

# %%
import numpy as np
import pandas as pd
import torch

from lib.caffnet import decisions, problems, projection, train
from lib.companion import notebook, plotting, rules, sweep

nb = notebook.start("caffnet/03_optimisation_proxy", globals())
cfg, ledger, rng, tables = nb.cfg, nb.ledger, nb.rng, nb.tables

# %%
inst = problems.make_instance(cfg.instance_seed)
model = train.OptModel(inst)
x_train = rng.uniform(-1, 1, (cfg.n_train, 3))
x_eval = rng.uniform(-1, 1, (cfg.n_eval, 3))
y_ref = problems.reference_solve(inst, x_eval, cfg.ref_starts, rng)
obj_ref = problems.objective(inst, y_ref)
active = (y_ref @ inst.G.T - inst.h > -1e-7).any(1)
pd.DataFrame(np.c_[x_eval, y_ref, obj_ref], columns=[*(f"x{i}" for i in range(3)),
             *(f"y{i}" for i in range(5)), "objective"]).to_csv(tables / "opt_reference.csv",
                                                                index=False)

# %%
# one sweep run per arm, through the sweep engine (`executor`), joined back into one ensemble
setup = train.OptSetup(cfg.width, cfg.epochs, cfg.lr, cfg.seed, cfg.log_every, cfg.penalty_weight,
                       cfg.penalty_reduction, inst=inst, x_train=x_train)
arm_runs = sweep.run_params(train.train_opt_arm, [(setup, arm) for arm in train.OPT_ARMS], cfg,
                            nb.id, labels=list(train.OPT_ARMS))
net, curves = train.joined_arms(arm_runs)
pd.DataFrame(curves).to_csv(tables / "curves.csv", index=False)
with torch.no_grad():
    xe = torch.as_tensor(x_eval)
    raw = net(xe)
    out = model.outputs(raw, xe)
    posthoc = projection.caffine_project_fixed(raw[0], torch.zeros_like(raw[0]), model.ops,
                                               model.b(xe)).y
ys = {"nn": out["nn"], "posthoc": posthoc, "hardnet": out["hardnet"],
      "caffnet": out["caffnet"], "fixed": out["fixed"]}
rows = []
for m, y in ys.items():
    ineq, eq = problems.residuals(inst, y.numpy(), x_eval)
    gap = problems.objective(inst, y.numpy()) - obj_ref
    rows += [{"method": m, "input": i, "gap": gap[i], "ineq_violation": ineq[i],
              "eq_violation": eq[i], "violated": bool(max(ineq[i], eq[i]) > 1e-6)}
             for i in range(cfg.n_eval)]
per_input = pd.DataFrame(rows)
per_input.to_csv(tables / "per_input.csv", index=False)
summary = per_input.groupby("method", sort=False).agg(
    mean_gap=("gap", "mean"), max_ineq=("ineq_violation", "max"),
    max_eq=("eq_violation", "max"), violated_share=("violated", "mean"))  # rows > 1e-6 (spec §1.5)
summary.to_csv(tables / "summary.csv")
gap = {m: per_input[per_input.method == m].gap.to_numpy() for m in ys}
summary

# %% [markdown]
# ## Claims

# %%
s = summary
ledger.bound("opt.max_eq_violation", f"CAffNet (learned w): max |C y - x| on {cfg.n_eval} eval "
             "inputs", source="P1, P2; spec §3.3", provenance="paper",
             measured=float(max(s.loc["caffnet", "max_eq"], s.loc["fixed", "max_eq"])),
             upper=1e-10, why="0 in exact arithmetic (eq. 8); float64 rounding")
ledger.bound("opt.max_ineq_violation", "CAffNet (learned w and w = 0): max (G y - h)_+ on eval",
             source="P1; spec §3.3", provenance="paper",
             measured=float(max(s.loc["caffnet", "max_ineq"], s.loc["fixed", "max_ineq"])),
             upper=1e-10, why="0 in exact arithmetic; float64 rounding")
xg = torch.as_tensor(rng.uniform(-1, 1, (cfg.general_inputs, 3)))
f_g = torch.as_tensor(rng.standard_normal((cfg.general_inputs, 5)))
w_g = torch.as_tensor(rng.standard_normal((cfg.general_inputs, 5)))
aware = projection.caffine_project_fixed(f_g, w_g, model.ops, model.b(xg)).y
general = projection.caffine_project(f_g, w_g, model.A.expand(cfg.general_inputs, 11, 5),
                                     model.b(xg)).y
ledger.bound("opt.equality_aware_equals_general", f"17-candidate (all equality rows kept) and "
             f"1024-candidate enumerations give the same output on {cfg.general_inputs} random "
             "inputs and random f, w (max abs diff)", source="E6", provenance="derived",
             measured=float((aware - general).abs().max()), upper=1e-12,
             why="the extra feasible candidates are the same points by other pinvs: rounding")
# negative control: the equality bound against a right-hand side off by 1e-3 must fail
_, eq_wrong = problems.residuals(inst, ys["caffnet"].numpy(), x_eval + 1e-3)
ledger.exact("control.eq_wrong_rhs", "the equality bound rejects CAffNet's outputs against x + "
             "1e-3 (a wrong constant: the check can fail)",
             source="negative control of opt.max_eq_violation", provenance="derived",
             expected=False, measured=bool(eq_wrong.max() <= 1e-10))
per_input_note = f"{cfg.n_eval} eval inputs of one trained seed (seed {cfg.seed}), resampled"


def column(method, col):
    """One method's per-input values (the eval inputs are the replicates)."""
    return per_input[per_input.method == method][col].to_numpy()


ledger.qualitative("nn.opt.violates_equalities", "the soft NN violates the equalities by > 1e-4",
                   source="P5", provenance="reconstructed", expected="max |C y - x| > 1e-4",
                   measured=float(s.loc["nn", "max_eq"]), samples=column("nn", "eq_violation"),
                   decide=lambda v: decisions.exceeds(float(np.max(v)), decisions.OPT_EQ_VIOLATES))
hn_viol = float(max(s.loc["hardnet", "max_ineq"], s.loc["hardnet", "max_eq"]))
ledger.qualitative("hardnet.opt.violates", "HardNet ([G; C], 8 rows > n = 5) violates by > 1e-6",
                   source="E7", provenance="derived", expected="max violation > 1e-6",
                   measured=hn_viol,
                   samples=np.maximum(column("hardnet", "ineq_violation"),
                                      column("hardnet", "eq_violation")),
                   decide=lambda v: decisions.exceeds(float(np.max(v)),
                                                      decisions.OPT_HARDNET_VIOLATES))
# one trained seed: the inputs resample the evaluation, not the training, so a failure here is
# recorded as a fail, never as the paper's opposite shown
pair = np.stack([gap["caffnet"], gap["posthoc"], gap["fixed"]], axis=1)    # (inputs, 3)
trace = pd.DataFrame(curves)


def trained(*arms):
    """The precondition of a comparison: each arm's training objective has stopped falling (less
    than 5 % over the last quarter of its logged curve; a curve too short to tell has not)."""
    ok = all(len(trace) >= 16 and rules.converged(trace[a].to_numpy()) for a in arms)
    return ok, f"the {' and '.join(arms)} arms converged: objective fell by < 5 % over the " \
               "last quarter"


ledger.statistical("opt.gap_vs_posthoc", "CAffNet (learned w) mean optimality gap <= that of the "
                   "post-hoc projected soft NN", source="P5", provenance="paper",
                   expected="mean gap CAffNet <= mean gap post-hoc",
                   measured=f"CAffNet {gap['caffnet'].mean():.4g}, post-hoc "
                   f"{gap['posthoc'].mean():.4g} ({cfg.epochs} epochs, lr {cfg.lr:g})",
                   samples=pair, decide=lambda r: decisions.mean_not_worse(r[:, 0], r[:, 1]),
                   tolerance="spec §3.3 rule, fixed before the run (PROTO: not met); "
                             + per_input_note, requires=trained("caffnet", "nn"))
ledger.statistical("opt.learned_w_vs_fixed", "learned null-space branch w: mean gap <= CAffNet "
                   "with w = 0 (fixed orthogonal projection trained end to end)",
                   source="P4 (\"goes beyond fixed orthogonal projections\")", provenance="paper",
                   expected="mean gap learned w <= mean gap w = 0",
                   measured=f"learned {gap['caffnet'].mean():.4g}, fixed {gap['fixed'].mean():.4g}",
                   samples=pair, decide=lambda r: decisions.mean_not_worse(r[:, 0], r[:, 2]),
                   tolerance="spec §3.3 rule, fixed before the run (PROTO: not met); "
                             + per_input_note, requires=trained("caffnet", "fixed"))
vertices = np.stack([(out["_caff_rank"] == 5).numpy(), (out["_fixed_rank"] == 5).numpy()],
                    axis=1).astype(float)                                   # (inputs, 2)
vert_w, vert_0 = vertices.mean(axis=0)
ledger.qualitative("opt.vertex_share", "learned w ends on vertices (rank-5 subsets, zero gradient) "
                   "more often than w = 0 (E5 mechanism)", source="E5; spec §3.3",
                   provenance="reconstructed", expected="share(learned w) > share(w = 0)",
                   measured=f"learned w {vert_w:.3f}, w = 0 {vert_0:.3f}", samples=vertices,
                   decide=lambda r: decisions.exceeds(*r.mean(axis=0)))
ledger.qualitative("opt.reference.active_inequalities", "some reference optima have an active "
                   "inequality, so the task exercises the inequalities", source="reference solver; "
                   "spec §3.3 (PROTO 26.5%)", provenance="reconstructed", expected="share > 0",
                   measured=f"{active.mean():.3f} ({int(active.sum())} of {cfg.n_eval}); mean "
                   f"reference objective {obj_ref.mean():.4f}", samples=active,
                   decide=lambda a: bool(np.any(a)))
feasible_gaps = np.concatenate([gap[m] for m in ("posthoc", "caffnet", "fixed")])
ledger.qualitative("opt.reference.not_beaten", "no feasible method output beats the reference "
                   "optimum by more than 1e-7 (a check of the reference solver)",
                   source="reference solver", provenance="derived", expected="min gap >= -1e-7",
                   measured=float(feasible_gaps.min()), samples=pair,
                   decide=lambda r: decisions.reference_not_beaten(r.ravel()))

# %% [markdown]
# ## Figures

# %%
fig, axes = plotting.figure(1, 2, width=9.0)
names = list(ys)
axes[0].boxplot([gap[m] for m in names], showfliers=False)
axes[0].set_xticks(range(1, len(names) + 1), names, rotation=20)
axes[0].axhline(0, color="k", lw=0.8)
axes[0].set(ylabel="objective - reference", title="optimality gap (NN, HardNet infeasible)")
pos = np.arange(len(names))
axes[1].bar(pos - 0.2, np.maximum(s.max_ineq.to_numpy(), 1e-16), 0.4, label="max (G y - h)+")
axes[1].bar(pos + 0.2, np.maximum(s.max_eq.to_numpy(), 1e-16), 0.4, label="max |C y - x|")
axes[1].set_xticks(pos, names, rotation=20)
axes[1].set(yscale="log", ylabel="violation (floor 1e-16)", title="worst violations")
axes[1].legend(fontsize=7)
nb.save_figure(fig, "gaps")

# %%
fig, ax = plotting.figure()
cv = pd.DataFrame(curves)
for m in ("nn", "hardnet", "caffnet", "fixed"):
    ax.plot(cv.epoch, cv[m], label=m)
ax.axhline(obj_ref.mean(), color="k", ls=":", label="reference (eval mean)")
ax.set(xlabel="epoch", ylabel="mean objective (train)", title="training curves", ylim=(-0.8, 0.6))
ax.legend(fontsize=7)
nb.save_figure(fig, "curves")

# %%
nb.finish()

# %% [markdown]
# **What we saw.** CAffNet satisfies the three equalities and five inequalities to rounding on
# every evaluation input, with either branch; the 17-candidate enumeration gives the same outputs
# as all 1024, and the equality bound rejects a right-hand side off by 1e-3
# (`control.eq_wrong_rhs`). The soft NN and HardNet violate. How the learned $w$ compares with
# $w \equiv 0$ and with post-hoc projection is in `caffnet.opt.learned_w_vs_fixed` and
# `caffnet.opt.gap_vs_posthoc`, recorded whatever the outcome on the 200 evaluation inputs of one
# trained seed, each only where its arms' training objective has stopped falling;
# `caffnet.opt.vertex_share` gives the mechanism ([spec §3.3](../../docs/specs/caffnet.md#s3-3)). One trained seed cannot
# show the paper's opposite (the inputs resample the evaluation, not the training), so a failure
# of P4 here is a fail, not a `deviation`; the spec's prototype found the learned-$w$ gap did not
# close with 4x more epochs, so the budget cut (400 epochs, 500 inputs) is not what decides it.
#
# **Not built: the unicycle control-barrier scenario ([spec §3.4](../../docs/specs/caffnet.md#s3-4)).** Its claims
# (`caffnet.cbf.*`) are not recorded in any profile: the miniature was built in under an hour
# and the cbf rows, PID and rollouts were left out rather than half done.
