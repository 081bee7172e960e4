# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # CompleteP for RL miniature: does PPO's best learning rate transfer across agent size?
#
# **Claim of the paper made concrete.** CompleteP for RL (Kumar, Lee, Bordelon and Pehlevan,
# ICML 2026) reports that under CompleteP the optimal learning rate approximately transfers from
# small to large agents, in width and depth, and that features and policies stay more
# consistent across model sizes than under NTK ([spec §2](../../docs/specs/completep_rl.md#s2)
# R1, R2). Here PPO trains CartPole agents whose actor and critic are the residual MLPs of
# [spec §1.1](../../docs/specs/completep_rl.md#s1-1), parameterised either way
# ([spec §1.2](../../docs/specs/completep_rl.md#s1-2)), over a grid of learning rates, widths and
# depths; every (parameterisation, η, seed) of one network shape trains in one lock-step
# ensemble (batched matmuls, a hand-rolled Adam with one LR per member). Each agent is scored by
# its mean training return over the run (the area under its learning curve,
# [spec §1.4](../../docs/specs/completep_rl.md#s1-4)). Scaling theory
# ([spec §1.3](../../docs/specs/completep_rl.md#s1-3)) predicts the best η stays put under
# CompleteP and moves to smaller η as N grows under NTK with a fixed η.
#
# **What it cannot show** ([spec §8](../../docs/specs/completep_rl.md#s8)). The paper's 16
# continuous-control tasks, its compute/reward Pareto fronts (R3) and any of its returns: CartPole
# is a stand-in chosen for speed, and no return here is comparable to a paper number. The
# optional Pendulum environment of [spec §1.4](../../docs/specs/completep_rl.md#s1-4) was not
# built. The width range (8 → 128, 16×) is small, so NTK's predicted shift (∝ N^-½, about 0.6 decade) is near the grid step of half a
# decade, and with two seeds the argmax is noisy ([spec §3](../../docs/specs/completep_rl.md#s3)
# NB2, "Risk").
#
# **Provenance.** The claims are the paper's (abstract only); the NTK-under-Adam arm and the
# whole RL protocol are our reconstruction; the exact checks are derived.
#
# **Sizes: the spec's default sweep** (issue 42). The six-value LR grid 10^-3.5 … 10^-1, 60 PPO
# iterations (61k environment steps per agent), widths 8, 32, 128 and depths 1, 2, 4, 8, two
# seeds. An earlier default cut this to five LRs and 20 iterations; under resampling of the two
# seeds its transfer claims were then undecidable, so the headline was being decided by the cut.
# The spec's size fits the 5-minute allowance for a headline (the run's wall time is in
# `results/timings/`). What remains of the budget work: both parameterisations share one
# ensemble per shape, and the sweep runs in float32. The `paper` profile widens to N up to 512,
# 5 seeds and 150 iterations. Smoke runs two widths, two depths, two LRs, one seed and five
# iterations: the code path only, its RL claims skipped.
#
# **Decisions where the spec is open.** `ntk_variant` as in notebook 1 (`adam_fixed_lr`: η the
# same at every width). The policy is a Bernoulli over the two pushes with one logit (the
# two-logit softmax seen through its difference), so actor and critic are the same scalar-output
# network. An episode that ends (terminated or truncated at 200 steps) is not bootstrapped past;
# advantages are normalised per minibatch; value-loss weight 0.5; no entropy bonus, no gradient
# clipping. Members of one seed share their initial standard-normal draws, resets, action noise
# and minibatch orders across η and parameterisation (common random numbers). Consistency
# (`lib/completep_rl/decisions.py`): probe states uniform in a box (x, θ within their termination
# limits, velocities within ±2); `consistency_eta = per_width`: each arm's own best η at each
# width (`per_arm`: one η per arm); KL(π_N ‖ π_4N) of the policies and linear CKA of φ(h_L),
# paired by seed.
#
# **What to look for.** In the width figure, CompleteP's curves peaking at the same η and NTK's
# peak sliding left as N grows; the same for depth; smaller KL and higher CKA for CompleteP.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
executor = "inline"  # where the grid's runs go: inline in the kernel (one after the other), debug (in the kernel, through submitit), local subprocesses, or slurm jobs
workers = 1  # runs at once (local) or the SLURM array's parallelism; runs are single-threaded, so the results are the same for any count
slurm_partition = ""  # SLURM partition ('' the cluster's default)
slurm_gpus = 0  # GPUs per SLURM job
slurm_time_min = 240  # a SLURM job's time limit in minutes (≤ 14 days, the runner's paper limit)
lr_exponents = [-3.5, -3.0, -2.5, -2.0, -1.5, -1.0]  # log10 eta; spec §3 NB2's grid 10^-3.5 ... 10^-1 (restored, issue 42: the transfer headline is decided on it)
widths = [8, 32, 128]  # spec §3 NB2: N in {8, 32, 128} at L is 2
width_depth = 2  # spec §3 NB2: the width sweep's depth L is 2
depths = [1, 2, 4, 8]  # spec §3 NB2: L in {1, 2, 4, 8} at N is 32
depth_width = 32  # spec §3 NB2: the depth sweep's width N is 32
seeds = 2  # spec §3 NB2: 2 seeds (default)
iterations = 60  # PPO iterations; spec §1.4's 60 (issue 42: at the earlier cut to 20 the transfer claims were decided on under-trained agents, inconclusive under resampling; the spec's size takes the notebook to about 2.2 CPU-minutes on one thread, within the 5-minute allowance for a headline)
n_envs = 16  # spec §1.4: 16 environments per agent
steps = 64  # spec §1.4: 64 steps per iteration
epochs = 2  # spec §1.4: 2 epochs
minibatches = 2  # spec §1.4: 2 minibatches
clip = 0.2  # spec §1.4: PPO clip 0.2
gamma = 0.99  # spec §1.4: GAE gamma 0.99
lam = 0.95  # spec §1.4: GAE lambda 0.95
vf_coef = 0.5  # value-loss weight (reconstructed: the usual PPO 0.5; the spec is silent)
max_steps = 200  # spec §1.4: truncation at 200 steps
eps = 1e-08  # Adam epsilon at the base shape, scaled by the CompleteP rule (spec §1.2)
ntk_variant = "adam_fixed_lr"  # spec §1.2 open point: the NTK arm keeps eta fixed across width
dtype = "float32"  # the sweep's precision (budget: float32 bmm is twice as fast); the exact checks run in float64 whatever this says
consistency_eta = "per_width"  # spec §3 NB2 open ('each arm's own best eta'): each width's own best eta; per_arm uses one eta per arm, its best averaged over the widths
probe_states = 4096  # spec §3 NB2: a fixed probe set of 4096 states
n_boot = 400  # bootstrap resamplings of the seeds for the best-eta interval
boot_level = 0.9  # the bootstrap interval's coverage
check_pairs = 1000  # spec §5: 1000 random (state, action) pairs for the CartPole check
check_width = 6  # the naive PPO check's width (the loop is per sample)
check_members = 4  # members of the naive PPO check: both arms, distinct LRs and seeds
check_envs = 4  # environments per member in the naive PPO check
check_steps = 8  # steps per environment in the naive PPO check (its cost is linear in them)

# %%
import numpy as np
import pandas as pd
import torch

from lib.companion import notebook, plotting, rules
from lib.completep_rl import consistency, decisions, envs, naive, param, ppo, transfer

nb = notebook.start("completep_rl/02_lr_transfer_ppo", globals())
cfg, ledger, rng, tables = nb.cfg, nb.ledger, nb.rng, nb.tables
proto = ppo.Protocol(cfg.n_envs, cfg.steps, cfg.iterations, cfg.epochs, cfg.minibatches,
                     cfg.clip, cfg.gamma, cfg.lam, cfg.vf_coef, cfg.max_steps, cfg.eps)

# %% [markdown]
# ## The vectorised CartPole against a plain-Python step
#
# gymnasium is not installed, so the reference is `naive.cartpole_step`: gymnasium's CartPole-v1
# equations written out in Python floats, one state at a time
# ([spec §5](../../docs/specs/completep_rl.md#s5)).

# %%
gen = torch.Generator().manual_seed(cfg.seed)
state = (2 * torch.rand(cfg.check_pairs, 4, generator=gen, dtype=torch.float64) - 1) * \
    torch.tensor(decisions.PROBE_HALF_WIDTHS, dtype=torch.float64)
action = torch.rand(cfg.check_pairs, generator=gen) < 0.5
nxt, done = envs.step(state, action)
reference = [naive.cartpole_step(tuple(s), int(a)) for s, a in zip(state.tolist(), action)]
ledger.close("cartpole.matches_plain_step", f"the vectorised CartPole step equals the "
             f"plain-Python step on {cfg.check_pairs} random (state, action) pairs (largest "
             "absolute gap in the next state)", source="spec §1.4, §5", provenance="derived",
             expected=0.0, measured=float((nxt - torch.tensor([r[0] for r in reference],
                                                              dtype=torch.float64)).abs().max()),
             atol=1e-12, why="float64; the same operations, torch against Python floats")
ledger.exact("cartpole.termination_agrees", "the vectorised and plain steps terminate on the "
             "same pairs (count of disagreements)", source="spec §1.4, §5", provenance="derived",
             expected=0, measured=int(sum(bool(d) != r[1] for d, r in zip(done, reference))))

# %% [markdown]
# ## One ensemble PPO update against separate torch.optim.Adam runs
#
# A small ensemble of both arms, at distinct η and seeds, collects one rollout; its PPO update
# (GAE, then `epochs` × `minibatches` steps of the per-member-LR Adam) is compared with, for each
# member alone, the plain loop of `naive.py`: GAE env by env, the PPO loss sample by sample, and
# `torch.optim.Adam` with one parameter group per tensor. Float64.

# %%
check = [ppo.Member(param.PARAMS[i % 2], 10.0 ** cfg.lr_exponents[i % len(cfg.lr_exponents)],
                    i // 2) for i in range(cfg.check_members)]
check_proto = ppo.Protocol(cfg.check_envs, cfg.check_steps, 1, cfg.epochs, cfg.minibatches,
                           cfg.clip, cfg.gamma, cfg.lam, cfg.vf_coef, cfg.check_steps // 2,
                           cfg.eps)
actor, critic = (ppo.build(check, cfg.check_width, cfg.width_depth, cfg.seed, s,
                           cfg.ntk_variant, torch.float64) for s in (0, 1))
refs = [tuple({k: v.detach()[e].clone().requires_grad_() for k, v in net.weights.items()}
              for net in (actor, critic)) for e in range(len(check))]
seed_of = torch.tensor([m.seed for m in check])
carts = envs.CartPoles(seed_of, 1 + int(seed_of.max()), cfg.check_envs, check_proto.max_steps,
                       gen, torch.float64)
batch, _, ended = ppo.rollout(actor, critic, carts, cfg.check_steps, gen)
orders = ppo.draw_orders(1 + int(seed_of.max()), cfg.check_envs * cfg.check_steps, cfg.epochs,
                         seed_of, gen)
lr = torch.tensor([m.lr for m in check], dtype=torch.float64)
losses = ppo.update(actor, critic, (ppo.optimizer(actor, lr, cfg.eps),
                                    ppo.optimizer(critic, lr, cfg.eps)), batch, orders,
                    check_proto)
loss_gap, weight_gap = 0.0, 0.0
for e, m in enumerate(check):
    ref_losses = naive.ppo_update_one(
        *refs[e], param.table(m.arm, cfg.check_width, cfg.width_depth, ppo.D_IN, cfg.ntk_variant),
        batch.obs[e], batch.action[e], batch.logp[e], batch.done[e], batch.value[e],
        orders[:, e], m.lr, cfg.eps, check_proto)
    loss_gap = max(loss_gap, *(abs(a - b) for a, b in zip(losses[:, e].tolist(), ref_losses)))
    weight_gap = max(weight_gap, *(float((w.detach()[e] - r[k].detach()).abs().max())
                                   for net, r in zip((actor, critic), refs[e])
                                   for k, w in net.weights.items()))
ledger.close("ppo.loss_matches_naive", "the ensemble PPO loss of every member equals the naive "
             "single-agent loss on the same minibatches, through a whole update (largest gap)",
             source="spec §4, §5", provenance="derived", expected=0.0, measured=loss_gap,
             atol=1e-10, why=f"float64; {int(ended.sum())} episodes ended in the rollout")
ledger.close("ppo.adam_matches_torch", "after one PPO update the ensemble's weights (per-member "
             "LR x per-tensor multiplier, scaled epsilon) equal those of separate "
             "torch.optim.Adam runs, one per member (largest absolute gap)",
             source="spec §1.2, §5", provenance="derived", expected=0.0, measured=weight_gap,
             atol=1e-10, why="spec §5: float64, <= 1e-10")

# %% [markdown]
# ## The sweep
#
# One lock-step ensemble per network shape: the width sweep at L = `width_depth` and the depth
# sweep at N = `depth_width` (they share one shape). Each shape is one run of the sweep engine
# (`executor`: in the kernel here, local subprocesses in the paper profile); every run draws its
# randomness from its own arguments (the run seed and seed slots), so the results are the same
# whichever executor ran them.

# %%
sweep = transfer.Sweep(cfg.shapes(), cfg.lr_exponents, cfg.seeds, proto, cfg.seed,
                       cfg.ntk_variant, getattr(torch, cfg.dtype))
scores, trained = transfer.run(sweep, cfg, nb.id)
scores.to_csv(tables / "scores.csv", index=False)
curves = transfer.curves(scores)
best = transfer.best_exponents(scores, cfg.n_boot, cfg.boot_level, rng)
best.to_csv(tables / "best_lr.csv", index=False)

# %% [markdown]
# ## Transfer claims ([spec §3](../../docs/specs/completep_rl.md#s3) NB2)
#
# The spread of the best log10 η across the sizes of a sweep, in decades. The spec's rule: a
# pass when CompleteP's spread is smaller than NTK's. The spec would call anything else a
# deviation; here a deviation needs the opposite shown beyond seed noise (NTK's per-seed spread
# below CompleteP's by more than 2 s.e. over at least 3 seeds), so with the default's two seeds a
# miss is a fail, or inconclusive when resampling the seeds flips the decision.

# %%
def in_sweep(axis: str) -> pd.DataFrame:
    """The best-eta rows of one sweep (width at L = width_depth, or depth at N = depth_width)."""
    return best[best.L == cfg.width_depth] if axis == "N" else best[best.N == cfg.depth_width]


def record_transfer(cid: str, axis: str, sizes: list[int]) -> None:
    """transfer.width / transfer.depth by the spec's rule, or skipped when the sweep is short."""
    statement = f"the best PPO learning rate moves less across {'width' if axis == 'N' else 'depth'}" \
        " under CompleteP than under NTK (spread of the best log10 eta over the sweep, decades)"
    expected = "CompleteP spread < NTK spread (CompleteP <= 0.5 decade; NTK's best eta falls " \
        f"as {axis} grows)"
    why = decisions.rl_checkable(len(sizes), decisions.MIN_TRANSFER_SIZES, cfg.iterations,
                                 cfg.seeds)
    if why:
        ledger.skip(cid, statement, source="spec §2 R1, §3 NB2", provenance="paper",
                    kind="statistical", expected=expected, reason=why)
        return
    part = in_sweep(axis)
    spreads = {a: transfer.spread(part, a, axis, ("L", cfg.width_depth) if axis == "N"
                                  else ("N", cfg.depth_width)) for a in param.PARAMS}
    best_at = {a: list(part[part.arm == a].best_exp) for a in param.PARAMS}
    measured = f"spread CompleteP {spreads['completep']:g}, NTK {spreads['ntk']:g} decades; " \
        f"best log10 eta at {axis} = {sizes}: CompleteP {best_at['completep']}, " \
        f"NTK {best_at['ntk']}"
    fixed = ("L", cfg.width_depth) if axis == "N" else ("N", cfg.depth_width)
    cube = transfer.score_cube(scores, axis, sizes, fixed)            # (seeds, arms, sizes, LRs)
    exps = sorted(cfg.lr_exponents)
    cp, ntk = param.PARAMS.index("completep"), param.PARAMS.index("ntk")
    assert np.allclose(transfer.cube_spreads(cube, exps)[[cp, ntk]],
                       [spreads["completep"], spreads["ntk"]])        # the same rule as `best`
    ledger.compare(
        cid, statement, source="spec §2 R1, §3 NB2", provenance="paper", expected=expected,
        measured=measured, samples=cube,
        decide=lambda c: decisions.transfers_better(*transfer.cube_spreads(c, exps)[[cp, ntk]]),
        opposite=lambda c: rules.opposite_beyond(
            [n - p for p, n in transfer.seed_spreads(c, exps)[:, [cp, ntk]]]),
        power="per-seed spread of NTK minus CompleteP's beyond 2 s.e. below zero over >= 3 "
        f"seeds ({cfg.seeds} here)",
        tolerance=f"{cfg.seeds} seeds (resampled), {cfg.iterations} iterations, grid step 0.5 "
        "decade; the spec's rule: CompleteP's spread of the seed-mean argmax below NTK's")


record_transfer("transfer.width", "N", cfg.widths)
record_transfer("transfer.depth", "L", cfg.depths)

# %% [markdown]
# ## Policy and feature consistency across width
#
# Agents at N and 4N, each at its arm's best η (`consistency_eta`), paired by seed, on a fixed probe
# set. CKA is checked against its definition (Gram matrices and an explicit centring matrix) on
# the first probe states of the first pair.

# %%
probe = decisions.probe_states(cfg.probe_states, gen)
rows = []
for small, big in decisions.pairs(cfg.widths):
    nets = [transfer.agents(trained[n, cfg.width_depth], transfer.members(sweep), arm,
                            decisions.consistency_exponent(scores[scores.N.isin(cfg.widths)],
                                                           arm, n, cfg.width_depth,
                                                           cfg.consistency_eta))
            for arm in param.PARAMS for n in (small, big)]
    for i, arm in enumerate(param.PARAMS):
        kl, cka = transfer.pair_consistency(nets[2 * i], nets[2 * i + 1], probe)
        rows += [{"arm": arm, "N": small, "N_big": big, "seed": s, "kl": float(k),
                  "cka": float(c)} for s, (k, c) in enumerate(zip(kl, cka))]
pair_table = pd.DataFrame(rows, columns=["arm", "N", "N_big", "seed", "kl", "cka"])
pair_table.to_csv(tables / "consistency.csv", index=False)

# %%
if len(pair_table):
    few = probe[:min(512, cfg.probe_states)]
    x = few.to(nets[0].weights["w_in"].dtype).expand(nets[0].beta.shape[0], -1, -1)
    h_s, h_b = (torch.relu(ppo.forward(net, x)[1])[0].double() for net in nets[:2])
    ledger.close("cka.matches_hsic", "linear CKA of two agents' last hidden layers (centred "
                 "Frobenius form) equals its HSIC definition with an explicit centring matrix",
                 source="spec §3 NB2", provenance="derived", expected=naive.cka_hsic(h_s, h_b),
                 measured=float(consistency.linear_cka(h_s, h_b)), atol=1e-10,
                 why=f"float64 on {len(few)} probe states; two summation orders")
else:
    ledger.skip("cka.matches_hsic", "linear CKA equals its HSIC definition", source="spec §3 NB2",
                provenance="derived", kind="exact", expected="equality to 1e-10",
                reason="no (N, 4N) pair in the width sweep")

# %%
def record_consistency(cid: str, column: str, better: str, what: str) -> None:
    """policy_consistency / feature_consistency: CompleteP's mean against NTK's."""
    statement = f"{what} between best-eta agents at N and 4N is {better} under CompleteP than " \
        "under NTK (mean over pairs and seeds, fixed probe set)"
    expected = f"CompleteP {better} than NTK"
    why = decisions.rl_checkable(len(decisions.pairs(cfg.widths)), 1, cfg.iterations, cfg.seeds)
    if why:
        ledger.skip(cid, statement, source="spec §2 R2, §3 NB2", provenance="paper",
                    kind="statistical", expected=expected, reason=why)
        return
    mean = pair_table.groupby("arm")[column].mean()
    per_seed = pair_table.pivot_table(index="seed", columns="arm", values=column)   # pair means
    if better == "smaller":
        rule = lambda d: d[:, 0].mean() < d[:, 1].mean()               # noqa: E731
    else:
        rule = lambda d: d[:, 0].mean() > d[:, 1].mean()               # noqa: E731
    ledger.statistical(cid, statement, source="spec §2 R2, §3 NB2", provenance="paper",
                       expected=expected, measured=f"CompleteP {mean['completep']:.4g}, "
                       f"NTK {mean['ntk']:.4g}",
                       samples=per_seed[["completep", "ntk"]].to_numpy(), decide=rule,
                       tolerance=f"{cfg.seeds} seeds (resampled) x "
                       f"{len(decisions.pairs(cfg.widths))} pairs; the spec's rule: the "
                       "direction of the means")


record_consistency("policy_consistency", "kl", "smaller", "KL(pi_N || pi_4N)")
record_consistency("feature_consistency", "cka", "higher", "linear CKA of phi(h_L)")

# %% [markdown]
# ## Figures

# %%
colors = plotting.palette(max(len(cfg.widths), len(cfg.depths)))
arm_colors = dict(zip(param.PARAMS, plotting.palette(2)))


def transfer_panel(ax, axis: str, sizes: list[int], arm: str) -> None:
    """Score against log10 eta for one arm, one curve per size; a star at each best eta."""
    part = curves[curves.L == cfg.width_depth] if axis == "N" else \
        curves[curves.N == cfg.depth_width]
    for color, size in zip(colors, sizes):
        c = part[(part.arm == arm) & (part[axis] == size)]
        ax.errorbar(c.lr_exp, c["mean"], yerr=[c["mean"] - c["min"], c["max"] - c["mean"]],
                    fmt="o-", ms=3, capsize=2, color=color, label=f"{axis} = {size}")
        top = c.loc[c["mean"].idxmax()]
        ax.plot(top.lr_exp, top["mean"], "*", ms=10, color=color, mec="black", mew=0.5)
    fixed = f"L = {cfg.width_depth}" if axis == "N" else f"N = {cfg.depth_width}"
    ax.set_xticks(cfg.lr_exponents)
    ax.set(xlabel="log10 η", ylabel="mean training return", title=f"{arm}, {fixed}")
    ax.legend(fontsize=6)


fig, axes = plotting.figure(nrows=2, ncols=2, sharey=True)
for row, (axis, sizes) in enumerate((("N", cfg.widths), ("L", cfg.depths))):
    for ax, arm in zip(axes[row], param.PARAMS):
        transfer_panel(ax, axis, sizes, arm)
nb.save_figure(fig, "transfer")


# %%
def best_panel(ax, axis: str) -> None:
    """The best log10 eta against size for both arms, with the bootstrap interval."""
    part = in_sweep(axis)
    for shift, arm in zip((-0.04, 0.04), param.PARAMS):
        p = part[part.arm == arm]
        ax.errorbar(np.log2(p[axis]) + shift, p.best_exp,
                    yerr=[p.best_exp - p.boot_lo, p.boot_hi - p.best_exp], fmt="o-", capsize=3,
                    color=arm_colors[arm], label=arm)
    sizes = sorted(part[axis].unique())
    ax.set_xticks(np.log2(sizes), [str(s) for s in sizes])
    ax.set(xlabel="width N" if axis == "N" else "depth L", ylabel="best log10 η",
           title=f"best η ({cfg.boot_level:.0%} bootstrap over seeds)")
    ax.legend(fontsize=6)


def consistency_panel(ax, column: str, label: str) -> None:
    """KL or CKA per (N, 4N) pair: one point per seed, a bar at the mean, per arm."""
    where = {pair: i for i, pair in enumerate(decisions.pairs(cfg.widths))}
    for shift, arm in zip((-0.15, 0.15), param.PARAMS):
        p = pair_table[pair_table.arm == arm]
        x = np.array([where[n, b] for n, b in zip(p.N, p.N_big)], dtype=float) + shift
        ax.scatter(x, p[column], color=arm_colors[arm], s=12, label=arm)
        means = p.groupby("N")[column].mean()
        ax.scatter(np.arange(len(means)) + shift, means, marker="_", s=200,
                   color=arm_colors[arm])
    ax.set_xticks(range(len(where)), [f"{n} vs {b}" for n, b in where])
    ax.set(xlabel="widths compared", ylabel=label, title="points: seeds; bars: mean")
    ax.legend(fontsize=6)


fig, axes = plotting.figure(nrows=2, ncols=2)
best_panel(axes[0, 0], "N")
best_panel(axes[0, 1], "L")
consistency_panel(axes[1, 0], "kl", "KL(π_N ‖ π_4N)")
consistency_panel(axes[1, 1], "cka", "linear CKA of φ(h_L)")
nb.save_figure(fig, "best_and_consistency")

# %%
status = {c.id.split(".", 1)[1]: c.status for c in ledger.claims}
print("The paper's headline on this miniature (statuses as recorded above):\n"
      f"  R1, the best learning rate transfers: across width {status['transfer.width']}, "
      f"across depth {status['transfer.depth']}\n"
      f"  R2, consistency across width: policy {status['policy_consistency']}, "
      f"features {status['feature_consistency']}")

# %%
nb.finish()

# %% [markdown]
# **What we saw.** The claims table above and the two figures carry the numbers. The exact
# checks tie the fast path to plain references: the vectorised CartPole to a per-state Python
# step, the ensemble PPO update (GAE, loss, per-member-LR Adam) to separate `torch.optim.Adam`
# runs on a sample-by-sample loss, and CKA to its definition. Whether the best η stayed put
# under CompleteP and slid under NTK is recorded in `transfer.width` and `transfer.depth`: a
# pass, a fail, or inconclusive when resampling the two seeds flips the decision (each claim's
# stability is beside it); two seeds cannot show the paper's opposite, so neither can be a
# deviation. Read the bootstrap intervals of the best-η figure beside them. The consistency
# claims compare the arms' mean KL and CKA, resampled over seeds; the figure shows how far apart
# the seeds lie.
#
# **What this shows about the paper's headline.** The cell above the claims table prints it: on
# CartPole at the spec's default sizes, whether the best η stayed put under CompleteP better than
# under NTK (R1) and whether CompleteP's agents at N and 4N agree more (R2). Two caveats bound
# what it can say, and neither is a budget cut: two seeds give a coarse stability (a resample
# holds one seed twice or both once), and over 8 → 128 NTK's predicted shift (about 0.6 decade)
# is barely one grid step, so a miss on R1 says the effect did not show at this scale, not that
# the paper is wrong; the `paper` profile (N to 512, 5 seeds, 150 iterations) is the one that
# could show more. None of this reaches the paper's continuous-control results (R3).
