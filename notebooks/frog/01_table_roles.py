# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # FROG miniature, part 1: a table as nodes or as edges, and a gate that picks the role
#
# **What this miniature shows.** FROG (Huang et al., ICML 2026) argues that the fixed schema
# graph of relational deep learning, where every row of every table is a node, limits message
# passing, and lets each table take the role of a node set or of an edge set, learned jointly
# with the GNN ([spec §1.1](../../docs/specs/frog.md#s1-1)). On a synthetic three-table database
# (users, items, a tx table with two foreign keys) this notebook checks the mechanism exactly and
# then measures it: the planted targets against their plain loops; the edge-role graph rebuilds
# tx row for row, multi-edges kept (full resolution); the co-purchase relation is 4 hops with tx
# as nodes and 2 with tx as edges ([§1.2](../../docs/specs/frog.md#s1-2)); a K-layer GNN's logit
# depends on exactly the users within K hops (read off autograd); the gated model at p = 0 and
# p = 1 is the fixed-role model. Then the same 2-layer GNN is trained in each mode on two planted
# tasks, a 2-hop one (direct) and a 4-hop one (co-purchase), over seeds.
#
# **What it cannot show** ([§8](../../docs/specs/frog.md#s8)). The paper's RelBench results
# (claim F4): `relbench` downloads its databases and the paper's settings are unknown. The
# paper's own role parameterisation, message functions and FD constraint: only the abstract was
# readable. The planted tasks are *designed* to need many hops, so "the fixed schema graph is
# worse" holds here almost by construction; what is tested is the mechanism (hop reduction
# without loss of resolution, and the gate's ability to find the role), not the paper's
# empirical claim.
#
# **Provenance.** The node role is RelBench's [LIT]; the edge role is the abstract's idea with our
# details [RECON]; hop counts and losslessness are derived [DERIVED]; the gate, the message
# functions and the FD regulariser are reconstructed ([§1.1](../../docs/specs/frog.md#s1-1)).
# Nothing here is a number of the paper.
#
# **Decisions where the spec is open** ([§7](../../docs/specs/frog.md#s7)). One soft gate
# p = σ(a) per eligible table, shared by all layers, starting at 0.5 (Q1; a Gumbel-hard gate is
# not built). Edge features are the encoded row attributes, fixed across layers, entering the
# edge message ψ([h_i, e_tx]) (Q2). The FD term is `choices.fd_residual`, over the tx states the
# users read, at weight `fd_weight` (Q3). Only two-FK tables become edges (Q4). Training: full
# batch Adam (`lr`, `gate_lr`), `epochs` steps, `n_seeds` seeds each with its own database; the
# budget cuts (150 epochs, 3 seeds; [spec §6](../../docs/specs/frog.md#s6)) are the parameters'
# reasons.
#
# **What to look for.** Co-buyers at 4 hops in the node role and 2 in the edge role; the
# receptive field jumping at K = 4 (node) and K = 2 (edge). At K = 2, the node role near chance
# on co-purchase and the edge role well above it, while on the direct task the roles are close;
# the gate drifting towards the edge role.

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
depth = 2  # spec §3 NB1: the same 2-layer GNN in every mode (≥ 2: the FD term reads layer 1)
gate_lr = 0.01  # decision (spec §1.1: the gate is trained jointly): the body's Adam rate
fd_weight = 0.1  # decision (spec §7 Q3, the weight unknown): L_FD enters the loss at 0.1
n_probe = 8  # users whose receptive field is read off autograd at every depth up to 4

# %%
import dataclasses

import numpy as np
import pandas as pd
import torch

from lib.companion import notebook, plotting
from lib.frog import experiment as ex
from lib.frog import gnn, naive, rdb, roles, train

nb = notebook.start("frog/01_table_roles", globals())
cfg, ledger, rng, tables = nb.cfg, nb.ledger, nb.rng, nb.tables
db, test_mask = ex.database(cfg, 0)
probes = rng.choice(cfg.n_users, cfg.n_probe, replace=False)
print(f"seed 0's database: {cfg.n_users} users, {cfg.n_items} items, {cfg.n_tx} tx rows; "
      f"{test_mask.sum()} test users; probes {sorted(probes.tolist())}")

# %% [markdown]
# ## The planted targets against their loops, and the round trip tx → edges → tx

# %%
gap = max(float(np.abs(rdb.TARGETS[t](db) - getattr(naive, f"{t}_target")(db)).max())
          for t in ex.TASKS)
ledger.close("targets.match_naive", expected=0.0, measured=gap, atol=1e-12)
graph = roles.edge_role_graph(db)
user, item, attr = roles.rebuild_tx(graph)
same = int(((user == db.tx_user) & (item == db.tx_item) & (attr == db.tx_x).all(1)).sum())
moved = int((graph.row_id != np.arange(cfg.n_tx)).sum())
dup = roles.duplicate_edges(graph)
ledger.exact("lossless.round_trip", expected=(cfg.n_tx, cfg.n_tx),
             measured=(same, len(graph.row_id)))
bad_item = graph.item.copy()
bad_item[0] = (bad_item[0] + 1) % cfg.n_items                          # one edge re-pointed
b_user, b_item, b_attr = roles.rebuild_tx(dataclasses.replace(graph, item=bad_item))
ledger.exact("control.round_trip_rejects_moved_edge", expected=False,
             measured=int(((b_user == db.tx_user) & (b_item == db.tx_item)
                           & (b_attr == db.tx_x).all(1)).sum()) == cfg.n_tx)
pd.DataFrame([{"tx_rows": cfg.n_tx, "edges": len(graph.row_id), "rows_equal": same,
               "moved_by_sort": moved, "multi_edges": dup,
               "simple_graph_edges": cfg.n_tx - dup}]).to_csv(tables / "round_trip.csv",
                                                              index=False)

# %% [markdown]
# ## Hop counts, and the receptive field read off the model
#
# `hop_check` runs the frontier expansion from the probe users in each role's graph. The
# receptive field of a K-layer GNN at initialisation (float64) is the set of users whose features
# have a nonzero gradient in the probe's logit; it must equal the K-hop ball of the role's graph.

# %%
hops = ex.hop_check(db, probes)
ledger.exact("hops.copurchase", expected=((2, 2, 4, 4, True), (1, 1, 2, 2, True)),
             measured=(hops["node"], hops["edge"]))
rows, depths = [], range(1, 5)
for mode in ("node", "edge"):
    for k in depths:
        field = ex.receptive_field(db, mode, k, cfg.hidden, ex.weight_seed(cfg, 0), probes)
        ball = ex.hop_ball(db, mode, k, probes)
        rows += [{"role": mode, "K": k, "probe": int(u), "field": len(f), "ball": len(b),
                  "equal": f == b} for u, f, b in zip(probes, field, ball)]
receptive = pd.DataFrame(rows)
receptive.to_csv(tables / "receptive_field.csv", index=False)
ledger.exact("receptive.matches_hops", expected=len(receptive),
             measured=int(receptive.equal.sum()))
dist = {role: roles.hop_distances(roles.adjacency(db, role), probes, 8)[:, :cfg.n_users]
        for role in ("node", "edge")}

# %%
fig, (ax1, ax2) = plotting.figure(ncols=2)
bins = np.arange(-0.5, 9.5, 1)
for role, colour in (("node", "C0"), ("edge", "C1")):
    d = dist[role][dist[role] > 0]
    ax1.hist(d, bins=bins, color=colour, alpha=0.6, label=f"tx as {role}s")
    mean = receptive[receptive.role == role].groupby("K").field.mean()
    ax2.plot(mean.index, mean.values, "o-", color=colour, label=f"tx as {role}s")
ax1.set(xlabel="hop distance to another user", ylabel="user pairs (8 probes)",
        title="co-buyers: 4 hops vs 2")
ax1.legend(fontsize=7)
ax2.axhline(cfg.n_users, color="0.6", ls=":", lw=0.8)
ax2.set(xlabel="GNN depth K", ylabel="users in receptive field (mean)",
        title="what the logit depends on", xticks=list(depths))
ax2.legend(fontsize=7)
nb.save_figure(fig, "hops")

# %% [markdown]
# ## The gate's limits: p = 0 and p = 1 are the fixed roles
#
# With the weights they share, the gated forward at p = 0 must equal the node-role model and at
# p = 1 the edge-role model, to the last bit (the mixture is 1·m + 0·m′).

# %%
one = gnn.stack([db], [rdb.binarise(rdb.copurchase_target(db))], [test_mask], torch.float64)
w64 = gnn.init_weights([ex.weight_seed(cfg, 0)], cfg.hidden, cfg.depth, torch.float64)
limits = []
for p, mode in ((0.0, "node"), (1.0, "edge")):
    fixed = gnn.forward(one, w64, cfg.depth, mode).logits
    gated = gnn.forward(one, w64, cfg.depth, "gate", p=torch.full((1, 1, 1), p,
                                                                    dtype=torch.float64)).logits
    limits.append(float((fixed - gated).abs().max()))
with torch.no_grad():
    half = gnn.forward(one, w64, cfg.depth, "gate", p=torch.full((1, 1, 1), 0.5,
                                                                   dtype=torch.float64)).logits
    node_logits = gnn.forward(one, w64, cfg.depth, "node").logits
ledger.exact("control.gate_check_rejects_mid_gate", expected=False,
             measured=float((node_logits - half).abs().max()) == 0.0)
ledger.exact("gate.limits", expected=(0.0, 0.0), measured=tuple(limits))

# %% [markdown]
# ## The three modes and the FD ablation, trained (K = 2)

# %%
st, reps = ex.replicas(cfg)
base = dict(depth=cfg.depth, hidden=cfg.hidden, epochs=cfg.epochs, lr=cfg.lr,
            gate_lr=cfg.gate_lr)
plan = [("node", "node", train.Setup(**base, fd_weight=0.0)),
        ("edge", "edge", train.Setup(**base, fd_weight=0.0)),
        ("gate", "gate", train.Setup(**base, fd_weight=0.0)),
        ("gate+FD", "gate", train.Setup(**base, fd_weight=cfg.fd_weight))]
results, runs = ex.run_grid(st, reps, plan, cfg, nb.id)
results.to_csv(tables / "accuracy.csv", index=False)
acc = results.pivot_table(index=["task", "seed"], columns="run", values="test_accuracy")
print(acc.groupby("task").mean().round(3))

# %%
arms = ["node", "edge", "gate", "gate+FD"]
by_task = {t: acc.loc[t][arms] for t in ex.TASKS}                     # (seeds, arms) per task
gap = {t: (a.edge - a.node).to_numpy() for t, a in by_task.items()}  # paired, per seed
co = by_task["copurchase"]
gate_co = results[(results.run == "gate") & (results.task == "copurchase")].sort_values("seed")
gated = results[results.run.str.startswith("gate")].pivot_table(
    index=["task", "seed"], columns="run", values=["fd_r2", "tx_energy"])
seeds_text = f"over {cfg.n_seeds} seed(s)"
ledger.record("roles.copurchase", measured=f"{gap['copurchase'].mean():.4f} {seeds_text} (per "
              f"seed {np.round(gap['copurchase'], 4).tolist()})",
              evidence={"edge": co.edge, "node": co.node, "accuracy": co})
ledger.record("roles.contrast", measured=f"co-purchase {gap['copurchase'].mean():.4f}, direct "
              f"{gap['direct'].mean():.4f} {seeds_text}",
              evidence={"gap_far": gap["copurchase"], "gap_near": gap["direct"],
                        "accuracy_far": co, "accuracy_near": by_task["direct"]})
ledger.record("gate.selects", measured=f"p {gate_co.gate_final.mean():.4f}; gate "
              f"{co.gate.mean():.4f} vs node {co.node.mean():.4f} {seeds_text}",
              evidence={"p_final": gate_co.gate_final, "gate": co.gate, "node": co.node,
                        "accuracy": co})
ledger.record("fd.ablation", measured=f"R^2 {gated.fd_r2['gate+FD'].mean():.3f} vs "
              f"{gated.fd_r2['gate'].mean():.3f}; mean ||h_tx||^2 "
              f"{gated.tx_energy['gate+FD'].mean():.4g} vs {gated.tx_energy['gate'].mean():.4g}; "
              "accuracy change " + ", ".join(
                  f"{t} {(a['gate+FD'] - a.gate).mean():+.4f}" for t, a in by_task.items()),
              evidence={"r2_with": gated.fd_r2["gate+FD"], "r2_without": gated.fd_r2.gate})
ledger.skip("paper.relbench", reason="relbench downloads its databases at run time and the "
            "paper's settings are unknown (spec §8)")

# %%
fig, axes = plotting.figure(ncols=2, sharey=True)
for ax, task in zip(axes, ex.TASKS):
    sub = by_task[task]
    ax.bar(range(len(arms)), sub.mean(), color=plotting.palette(len(arms)), alpha=0.5)
    for j, run in enumerate(arms):
        ax.plot(np.full(len(sub), j), sub[run], "k.", ms=5)
    ax.axhline(0.5, color="0.6", ls=":", lw=0.8)
    hop = ex.HOPS[task]
    ax.set(xticks=range(len(arms)), xticklabels=arms, ylim=(0.4, 1.0),
           title=f"{task} ({hop['node']} hops as nodes, {hop['edge']} as edges)")
axes[0].set_ylabel(f"test accuracy, K = {cfg.depth}")
nb.save_figure(fig, "accuracy")

# %%
fig, axes = plotting.figure(ncols=2, sharey=True)
for ax, label in zip(axes, ("gate", "gate+FD")):
    traj = runs[label].gate
    for r, rep in reps.iterrows():
        ax.plot(traj[:, r], color="C1" if rep.task == "copurchase" else "C0", lw=1,
                label=rep.task if rep.seed == 0 else None)
    ax.axhline(0.5, color="0.6", ls=":", lw=0.8)
    ax.set(xlabel="epoch", title=label)
    ax.legend(fontsize=7)
axes[0].set_ylabel("gate p = P(edge role)")
nb.save_figure(fig, "gate")

# %%
nb.finish()

# %% [markdown]
# **What we saw.** The claims table above carries every number; the figures show them. The
# mechanism checks are exact by construction of the graphs (the round trip, the hop counts, the
# receptive field equal to the K-hop ball, the gate's limits), and they say *why* the trained
# comparison looks as it does: at K = 2 the node-role model cannot see a user's co-buyers at
# all, so on co-purchase it learns only what the user's own purchases say, while on the direct
# task both roles reach the items. Whether the gate moved to the edge side, how far, and what
# L_FD did are in `gate.selects` and `fd.ablation`. The FD term as reconstructed has a trivial
# minimiser (h_tx = 0, g = 0): `fd.ablation` sets the tx states' scale beside their R², so a
# reader can see whether training took that way out rather than making h_tx recoverable; the soft gate is expected to stay well short
# of 1 ([spec §3](../../docs/specs/frog.md#s3) [PROTO]), which is why the paper profile should add a hard or annealed gate.
#
# **What this shows about the paper's headline.** On a planted task that needs four hops through
# tx, letting tx act as edges lets a 2-layer GNN use a relation the fixed node role cannot reach
# (`roles.copurchase`, decided on paired seeds with its bootstrap stability beside it); that is
# the mechanism FROG builds on, not its RelBench gains (F4, skipped). Every trained claim is
# resampled over the seeds: one whose seeds disagree is recorded inconclusive, not pass or fail.
# Budget cuts that could decide a trained claim: 150 epochs (the spec's prototype 300) and 3
# seeds (the spec's 5), which bound how far the gate can move and how stable a decision can be.
# The exact checks each have a negative control (`control.*`): a broken input they reject.
