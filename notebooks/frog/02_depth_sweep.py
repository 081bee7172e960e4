# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # FROG miniature, part 2: accuracy against GNN depth, tx as nodes and as edges
#
# **What this miniature shows.** The hop-count mechanism behind FROG's case against a fixed
# schema graph ([spec §1.2](../../docs/specs/frog.md#s1-2)), measured: the same heterogeneous
# mean-aggregation GNN as notebook 01, trained at each depth K with tx as a node set (the
# RelBench schema graph) and as an edge set, on the two planted tasks. A relation of h hops is
# out of reach below K = h: co-purchase is 4 hops as nodes and 2 as edges, direct is 2 and 1.
# So the node role should trail on co-purchase until K = 4 and catch up there, and at K = 1 the
# node role should not see the items at all on the direct task, while the edge role does.
#
# **What it cannot show** ([§8](../../docs/specs/frog.md#s8)). Anything about RelBench (claim F4,
# downloads), or about the paper's own architecture (unreadable). The tasks are planted so that
# hop counts decide them; this is a check of the mechanism, not of the paper's benchmark claim.
#
# **Provenance.** Hop counts [DERIVED]; the sweep and its thresholds are the spec's
# reconstruction ([§3](../../docs/specs/frog.md#s3)); the models as in notebook 01 [RECON].
#
# **Decisions where the spec is open.** The spec leaves the sweep's schedule open
# ([§6](../../docs/specs/frog.md#s6)): it runs the default schedule of notebook 01 (`epochs`,
# `lr`, `n_seeds`, one database per seed) at every depth in `depths`, both tasks. The gated
# mode is not swept (notebook 01 holds it).
#
# **What to look for.** Where each curve may rise: not before the task's hop count in its role
# (the dotted lines; notebook 01's receptive field). On co-purchase the spec expects the node
# role to catch up at K = 4; `roles.depth` compares the gaps and `roles.node_catches_up` asks
# whether the node role itself improved, since a gap can also close because the edge role falls
# when depth grows past its need. On direct, the node role at chance at K = 1.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
executor = "inline"  # where the grid's runs go: inline in the kernel (one after the other), debug (in the kernel, through submitit), local subprocesses, or slurm jobs
workers = 1  # runs at once (local) or the SLURM array's parallelism; runs are single-threaded, so the results are the same for any count
slurm_partition = ""  # SLURM partition ('' the cluster's default)
slurm_gpus = 0  # GPUs per SLURM job
slurm_time_min = 240  # a SLURM job's time limit in minutes (≤ 14 days, the runner's paper limit)
n_users = 400  # spec §3 NB1: 400 users
n_items = 150  # spec §3 NB1: 150 items
n_tx = 4000  # spec §3 NB1: 4,000 tx rows (at least one per user and per item)
test_fraction = 0.4  # spec §3 [PROTO]: 160 of 400 users held out
hidden = 32  # spec §3 NB1: hidden 32
epochs = 150  # budget (≤ 2 min for both notebooks on 2 idle cores): 150 full-batch epochs (prototype 300; spec §6 proposes 200, which ran over)
lr = 0.01  # decision (spec silent): Adam 1e-2, full batch
n_seeds = 3  # budget: 3 seeds, the cut spec §6 proposes (spec §3: 5); each seed draws its own database and weights
depths = [1, 2, 3, 4]  # spec §3 NB1: K in {1, 2, 3, 4}

# %%
import numpy as np

from lib.companion import notebook, plotting
from lib.frog import experiment as ex
from lib.frog import train

nb = notebook.start("frog/02_depth_sweep", globals())
cfg, ledger, tables = nb.cfg, nb.ledger, nb.tables

# %%
st, reps = ex.replicas(cfg)
plan = [(f"{mode}-K{k}", mode, train.Setup(depth=k, hidden=cfg.hidden, epochs=cfg.epochs,
                                             lr=cfg.lr, gate_lr=cfg.lr, fd_weight=0.0))
        for k in cfg.depths for mode in ("node", "edge")]
results, _ = ex.run_grid(st, reps, plan, cfg, nb.id)
results.to_csv(tables / "depth_sweep.csv", index=False)
acc = results.pivot_table(index=["task", "depth", "seed"], columns="mode",
                          values="test_accuracy")
gap = (acc.edge - acc.node).groupby(["task", "depth"]).mean()
print(acc.groupby(["task", "depth"]).mean().round(3))

# %%
by_k = {t: acc.loc[t].unstack("depth") for t in ex.TASKS}    # (seeds, (role, K)) per task
co = by_k["copurchase"]
node_gain = (co.node[4] - co.node[2]).to_numpy()
k1 = by_k["direct"].edge[1] - by_k["direct"].node[1]
seeds_text = f"over {cfg.n_seeds} seed(s)"
ledger.record("roles.depth", measured=f"K = 4: {gap.loc[('copurchase', 4)]:.4f}; K = 2: "
              f"{gap.loc[('copurchase', 2)]:.4f} {seeds_text}",
              evidence={"gap_deep": co.edge[4] - co.node[4], "gap_shallow": co.edge[2]
                        - co.node[2], "accuracy": co})
ledger.record("roles.node_catches_up", measured=f"{node_gain.mean():.4f} {seeds_text} (per seed "
              f"{np.round(node_gain, 4).tolist()})", evidence={"gain": node_gain, "accuracy": co})
ledger.record("roles.direct_k1", measured=f"{k1.mean():.4f} {seeds_text} (per seed "
              f"{np.round(k1, 4).tolist()})", evidence={"edge": by_k["direct"].edge[1],
                                                         "node": by_k["direct"].node[1],
                                                         "accuracy": by_k["direct"]})

# %%
fig, axes = plotting.figure(ncols=2, sharey=True)
for ax, task in zip(axes, ex.TASKS):
    for mode, colour in (("node", "C0"), ("edge", "C1")):
        per = acc.loc[task][mode]
        mean = per.groupby("depth").mean()
        ax.plot(mean.index, mean.values, "o-", color=colour, label=f"tx as {mode}s")
        depth = per.index.get_level_values("depth")
        ax.plot(depth + (0.06 if mode == "edge" else -0.06), per.values, ".", color=colour,
                ms=4, alpha=0.6)
        ax.axvline(ex.HOPS[task][mode], color=colour, ls=":", lw=0.8)
    ax.axhline(0.5, color="0.6", ls=":", lw=0.8)
    ax.set(xlabel="GNN depth K", xticks=cfg.depths, title=task, ylim=(0.4, 1.0))
    ax.legend(fontsize=7, loc="lower right")
axes[0].set_ylabel("test accuracy")
nb.save_figure(fig)

# %%
nb.finish()

# %% [markdown]
# **What we saw.** The two claims above carry the numbers and the figure shows them. The
# receptive field of notebook 01 says where each curve may rise (the dotted lines): a relation
# beyond K hops is invisible to the model, so below those depths an accuracy above chance can
# only come from what the target shares with nearer features. Whether the node role caught up
# at K = 4 (`roles.depth`), and whether at K = 1 the edge role's one-hop view of the items won
# the direct task (`roles.direct_k1`), is recorded whatever the outcome. Read `roles.depth`
# beside `roles.node_catches_up`: the first can pass because the edge role loses accuracy at
# larger K (at K = 4 its receptive field is every user, and mean aggregation averages the
# co-buyer signal into that of users 4 hops away), while the node role, which now sees the
# relation, need not have learned it within the schedule. Each claim is resampled over the seeds
# (its stability is beside it). The budget cut that could decide `roles.node_catches_up` is the
# schedule: 150 epochs against the spec prototype's 300, for a node role that must learn a
# 4-hop relation; a fail there says the node role did not catch up within this schedule, not
# that it cannot.
