# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # GraphPFN miniature, part 2: does a PFN with neighbourhood attention use the graph?
#
# **Claim of the paper made concrete.** GraphPFN adds attention over graph neighbours to a
# tabular PFN (LimiX) and pretrains it on prior graphs; the abstract says these layers let it
# capture graph dependencies absent from tabular data (P2), so it learns in context on real
# graphs (P3) and is state of the art after finetuning (P4)
# ([spec §2](../../docs/specs/graphpfn.md#s2)). The adapters' output projections are
# zero-initialised, so pretraining starts from the tabular model exactly (P5, [CODE]). Here a
# tiny PFN (d = 64, 3 layers; NB2 of [spec §3](../../docs/specs/graphpfn.md#s3)) is built twice
# from one seed, with the zero-init GA adapters (graph-PFN) and without (tab-PFN); both train on
# the same fresh prior episodes of notebook 01's prior, for the same number of steps, then
# classify held-out prior graphs in context against a GCN and an MLP trained per graph.
#
# **What a miniature cannot show** ([spec §8](../../docs/specs/graphpfn.md#s8)). P3 and P4 on
# GraphLand need the GraphPFN checkpoint, LimiX weights, the datasets and GPU time. The paper's
# tables could not be read, but the authors' repository commits its evaluation reports:
# `paper.graphland` quotes those numbers as the paper's, each with the file it comes from
# (`lib/graphpfn/graphland.py`), never as ours. LimiX itself is not here: the tiny PFN is an
# architectural analogue. The karate club is a toy.
#
# **Provenance and sizes.** Architecture and optimiser settings follow the official
# `model.py` and `pretrain.toml` (read as the reference); the sizes are ours. Both models train
# for `steps` equal steps, the spec's prototype scale (its 2 × 120 CPU-s were about 2 500-3 500
# steps per model), and are evaluated on the spec's 150 held-out graphs; the claims on them
# require both training losses to have converged (`rules.converged`), else they are
# inconclusive. The spec's prototype, at this scale, showed no graph gain; the claims below are
# recorded whatever they say.
#
# **Decisions where the spec is open.** Equal *steps* for both models (spec D2; their wall
# times go to the timing table). Both train all weights from the same initialisation (the
# paper freezes a *pretrained* LimiX; we have none to freeze). The training prior draws
# graph_conv_ratio from {0.5, ..., 1} (spec D1) and adds a per-group offset to the causes
# (`group_signal`); graphs have 50-300 nodes (larger ones cropped to a BFS ball,
# `train.crop`). On karate, features are `n_features` - 1 Laplacian PE columns and log degree
# (the structure features GraphPFN appends), cut to the PFN's input width.
#
# **What to look for.** Identical logits at init; the paired gain's interval against 0 and its
# trend with homophily; whether the PFNs beat per-graph training.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
executor = "inline"  # where the grid's runs go: inline in the kernel (one after the other), debug (in the kernel, through submitit), local subprocesses, or slurm jobs
workers = 1  # runs at once (local) or the SLURM array's parallelism; runs are single-threaded, so the results are the same for any count
slurm_partition = ""  # SLURM partition ('' the cluster's default)
slurm_gpus = 0  # GPUs per SLURM job
slurm_time_min = 240  # a SLURM job's time limit in minutes (≤ 14 days, the runner's paper limit)
sbm_nodes = [2000, 2500]  # configs: min/max_sbm_nodes (all 40 alike)
first_level = [2, 3]  # configs: min/max_first_level_sbm_graphs (all alike)
group_families = [[1, 25, 25, 1000], [10, 100, 10, 250]]  # configs: [min_groups, max_groups, min_group_size, max_group_size], the two families
pa_families = [[400, 500, 2], [800, 1000, 4]]  # configs: [min_ba_nodes, max_ba_nodes, max_ba_deg]
divisors = [1.0, 3.0, 5.0, 7.0, 10.0, 15.0, 20.0, 30.0, 40.0, 50.0]  # configs: the ten sbm_divisor values (the spec's list omits 7, 15, 20, 40)
pa_run_nodes = 25  # generator.py: each price_network run adds N is 25 nodes
scale = 0.05  # first-level SBMs of 100-125 nodes: graphs near the spec's 50-300 without drawing large ones only to crop them
n_features = 8  # spec NB2: features padded or cut to 8 columns
classes = [2, 4]  # spec NB2: 2-4 classes per task
layers = [2, 6]  # spec §1.2: num_layers 2 to about 6
hidden = [4, 32]  # spec §1.2: h from 4 (the paper's reaches ~130; cut for cost)
conv_ratios = [0.5, 0.6, 0.7, 0.8, 0.9, 1.0]  # spec D1: graph_conv_ratio on {0.5, ..., 1} (a stronger graph signal than NB1's uniform draw)
max_causes = 12  # spec §1.2: cause count log-normal with mean up to 12
group_signal = 1.0  # spec D1 (reconstructed): std of a per-group offset on every cause (the group ids are categorical node attributes in the code)
noise = 0.1  # GaussianNoise std after every layer (reconstructed)
p_causal = 0.5  # share of causal-mode tasks (X, y from intermediate outputs; reconstructed)
min_nodes = 50  # spec NB2: graphs of 50-300 nodes ...
max_nodes = 300  # ... larger ones cropped
d = 64  # spec NB2: d is 64
depth = 3  # spec NB2: 3 layers
heads = 4  # spec §1.3: 4-head GA
steps = 3000  # spec NB2 prototype: equal steps per model (spec D2) at the ~2500-3500 steps of its 2 x 120 CPU-s; the mechanism claim needs them (400 steps could not decide it), so this notebook takes ~3 min of the 5 a miniature may
lr = 0.0003  # pretrain.toml: AdamW 3e-4
warmup = 50  # pretrain.toml has a warm-up; 50 steps (reconstructed)
clip = 1.0  # pretrain.toml: clip 1.0
train_frac = [0.1, 0.5]  # spec NB2: train fraction U(0.1, 0.5)
n_eval = 150  # spec NB2 default: 150 held-out prior graphs (range 100-200): the paired gain's replicates
eval_frac = 0.2  # spec NB2: 20 % of nodes labelled
label_fracs = [0.05, 0.1, 0.2, 0.4]  # ICL accuracy against label fraction (spec NB2 figure) ...
n_frac_eval = 50  # ... on the first 50 held-out graphs
gcn_hidden = 16  # GCN width (Kipf-Welling's 16)
gcn_epochs = 200  # spec NB2: 200 epochs, Adam ...
gcn_lr = 0.01  # ... lr 0.01 ...
gcn_dropout = 0.5  # ... dropout 0.5
gcn_wd = 0.0005  # weight decay 5e-4 (GCN's)
boot = 2000  # bootstrap resamples of the paired difference
karate_k = [2, 4, 8]  # spec NB2: k labelled nodes per class
karate_splits = 50  # spec NB2: 50 random splits

# %%
import numpy as np
import pandas as pd
import torch

from lib.companion import notebook, plotting, rules
from lib.graphpfn import (
    baselines,
    decisions,
    experiment,
    graph_stats,
    graphland,
    karate,
    naive,
    tiny_pfn,
    train,
)

nb = notebook.start("graphpfn/02_tiny_pfn", globals())
cfg, ledger, rng, tables = nb.cfg, nb.ledger, nb.rng, nb.tables
grid, sizes = experiment.prior(cfg)
eval_rng = np.random.default_rng([cfg.seed, 1])             # held-out graphs: their own stream
held_out = [train.episode(grid, eval_rng, cfg.eval_frac, **sizes) for _ in range(cfg.n_eval)]

# %% [markdown]
# ## Exact: GA against the per-node loop, and the zero-init identity (P5)

# %%
ep = held_out[0]
gen = torch.Generator().manual_seed(cfg.seed)
q, k, v = (torch.randn(ep.graph.n, cfg.heads, cfg.d // cfg.heads, generator=gen,
                       dtype=torch.float64) for _ in range(3))
e = torch.as_tensor(ep.graph.edges)
src, dst = torch.cat([e[:, 0], e[:, 1]]), torch.cat([e[:, 1], e[:, 0]])
ga_err = float((tiny_pfn.neighbour_attention(q, k, v, src, dst)
                - naive.neighbour_attention_naive(q, k, v, torch.stack([src, dst], 1))).abs().max())
ledger.close("adapter.ga_matches_naive", f"vectorised neighbourhood attention (edge softmax, "
             f"{cfg.heads} heads) equals the per-node loop on a held-out prior graph (n = "
             f"{ep.graph.n}), float64", source="spec §5; official GraphPFNGraphAttentionModule",
             provenance="derived", expected=0.0, measured=ga_err, atol=1e-10,
             why="float64, sums of at most max-degree terms")

tab, graph = tiny_pfn.pair(cfg.n_features, cfg.classes[1], cfg.d, cfg.depth, cfg.heads, cfg.seed)
with torch.no_grad():
    gaps = [float((tab(*h.tensors(), h.task.classes) - graph(*h.tensors(), h.task.classes))
                  [:, : h.task.classes].abs().max()) for h in held_out]
ledger.close("adapter.zero_init", f"before training, graph-PFN (tab-PFN's weights + zero-init GA "
             f"and MLP adapters) and tab-PFN give the same logits on all {cfg.n_eval} held-out "
             "graphs (max |difference|)", source="spec §1.3 [CODE] (P5)", provenance="paper",
             expected=0.0, measured=max(gaps), atol=decisions.ZERO_INIT_ATOL,
             why="spec: <= 1e-6; x + 0 is exact, so 0 is expected")
# negative control: the same check on a graph-PFN whose GA output projection is NOT zero (one
# weight set to 0.1) must see the logits move, or the identity above could not have failed
_, broken = tiny_pfn.pair(cfg.n_features, cfg.classes[1], cfg.d, cfg.depth, cfg.heads, cfg.seed)
with torch.no_grad():
    broken.layers[0].ga.out.weight[0, 0] = 0.1
    broken_gap = max(float((tab(*h.tensors(), h.task.classes) - broken(*h.tensors(), h.task.classes))
                           [:, : h.task.classes].abs().max()) for h in held_out)
ledger.exact("control.nonzero_adapter", "the zero-init check rejects a graph-PFN whose GA "
             "output projection has one non-zero weight (0.1): its logits differ from tab-PFN's "
             "beyond the tolerance on some held-out graph", source="negative control of "
             "adapter.zero_init", provenance="derived", expected=False,
             measured=bool(broken_gap <= decisions.ZERO_INIT_ATOL))

# %% [markdown]
# ## Training both on the same prior episodes (the heavy cell), through the sweep engine
# (`executor`): both arms side by side in one run on one draw of the episodes, or one run per
# arm where the executor runs them at once (the paper profile's two workers)

# %%
trained = experiment.run_arms(cfg, nb.id)
for arm, model in (("graph_pfn", graph), ("tab_pfn", tab)):
    model.load_state_dict(trained[arm].state_dict())
losses = {arm: t.losses for arm, t in trained.items()}
seconds = {arm: t.seconds for arm, t in trained.items()}
curve = pd.DataFrame({"step": np.arange(1, cfg.steps + 1), **losses})
curve.to_csv(tables / "training_loss.csv", index=False)
timing_csv = nb.save_timing(
    pd.DataFrame([{"model": k, "steps": cfg.steps, "seconds": s,
                   "ms_per_step": 1e3 * s / cfg.steps} for k, s in seconds.items()]),
    "training")

# %% [markdown]
# ## In context on held-out prior graphs, against per-graph training

# %%
def per_graph(episodes: list[train.Episode], graph_conv: bool) -> list[float]:
    """GCN (graph_conv) or MLP trained on each episode's labelled nodes; accuracy per graph."""
    b = baselines.pack([(h.graph.n, h.graph.edges) for h in episodes],
                       [h.task.x for h in episodes], [h.task.y for h in episodes],
                       [h.train for h in episodes], [h.task.classes for h in episodes])
    pred = baselines.fit_predict(b, graph_conv, cfg.gcn_hidden, cfg.gcn_epochs, cfg.gcn_lr,
                                 cfg.gcn_dropout, cfg.gcn_wd, cfg.seed).numpy()
    cuts = np.cumsum([h.graph.n for h in episodes])[:-1]
    return [train.accuracy(p, h) for p, h in zip(np.split(pred, cuts), episodes)]


acc = pd.DataFrame({
    "graph_pfn": [train.accuracy(train.predict(graph, h), h) for h in held_out],
    "tab_pfn": [train.accuracy(train.predict(tab, h), h) for h in held_out],
    "gcn": per_graph(held_out, True), "mlp": per_graph(held_out, False),
    "majority": [train.accuracy(baselines.majority(h.task.y, h.train, h.task.classes), h)
                 for h in held_out],
    "n": [h.graph.n for h in held_out], "classes": [h.task.classes for h in held_out],
    "conv_ratio": [h.task.conv_ratio for h in held_out],
    "edge_homophily": [graph_stats.edge_homophily(h.graph, h.task.y) for h in held_out],
    "adjusted_homophily": [graph_stats.adjusted_homophily(h.graph, h.task.y) for h in held_out]})
acc.to_csv(tables / "held_out_accuracy.csv", index=False)
gain = (acc.graph_pfn - acc.tab_pfn).to_numpy()
vs = (acc.graph_pfn - acc.gcn).to_numpy()


def lower_bound(diff: np.ndarray) -> float:
    """The lower end of the mean paired difference's 95 % bootstrap interval (its own seeded
    stream, so a resample of the graphs is judged by the very same rule)."""
    return decisions.bootstrap_mean_ci(np.asarray(diff), cfg.boot,
                                       np.random.default_rng([cfg.seed, 3]))[1]


mean, lo, hi = decisions.bootstrap_mean_ci(gain, cfg.boot, np.random.default_rng([cfg.seed, 3]))
trained = (all(rules.converged(losses[k]) for k in ("graph_pfn", "tab_pfn")),
           "both PFNs converged: the median training loss fell by < 5 % over the last quarter "
           "of the steps (second half against first half)")
ledger.statistical("mechanism.graph_helps", f"mean paired accuracy graph-PFN − tab-PFN over "
                   f"{cfg.n_eval} held-out prior graphs ({cfg.eval_frac:.0%} labelled), with its "
                   f"95 % bootstrap interval, after {cfg.steps} equal steps",
                   source="abstract (P2), spec NB2", provenance="reconstructed",
                   expected="lower 95 % bound > 0", measured=f"{mean:+.4f} [{lo:+.4f}, {hi:+.4f}]",
                   samples=gain, decide=lambda g: decisions.graph_helps(lower_bound(g)),
                   tolerance="threshold fixed in spec", requires=trained)
rho, _ = decisions.homophily_trend(gain, acc.adjusted_homophily.to_numpy())
ledger.statistical("mechanism.homophily_trend", "Spearman correlation of the paired gain "
                   "graph-PFN − tab-PFN with the held-out graphs' adjusted homophily",
                   source="spec NB2", provenance="reconstructed", expected="rho > 0",
                   measured=round(rho, 4),
                   samples=np.column_stack([gain, acc.adjusted_homophily.to_numpy()]),
                   decide=lambda s: decisions.homophily_trend(s[:, 0], s[:, 1])[1],
                   tolerance="threshold fixed in spec", requires=trained)
m2, lo2, hi2 = decisions.bootstrap_mean_ci(vs, cfg.boot, np.random.default_rng([cfg.seed, 3]))
ledger.qualitative("vs_gcn", "graph-PFN in context against a GCN trained from scratch on each "
                   "held-out prior graph: mean paired accuracy difference and its 95 % bootstrap "
                   "interval (the paper's claim is about finetuning on real graphs, which this "
                   "is not)", source="abstract (P3, P4), spec NB2", provenance="reconstructed",
                   expected="lower 95 % bound > 0 (graph-PFN ahead beyond the interval)",
                   measured=f"{m2:+.4f} [{lo2:+.4f}, {hi2:+.4f}]", samples=vs,
                   decide=lambda g: lower_bound(g) > 0, requires=trained)
land = pd.DataFrame(graphland.rows())
land.to_csv(tables / "graphland_quoted.csv", index=False)
tuned = land.dropna(subset=["graphpfn_finetune"])
arms3 = tuned[["graphpfn_finetune", "g2t_fm_finetune", "gcn"]].to_numpy()
wins = arms3[:, 0] > arms3[:, 1:].max(axis=1)
ledger.qualitative("paper.graphland", "the paper's GraphLand results as the authors' committed "
                   "evaluation reports give them (mean test score over 10 seeds; GraphPFN with "
                   "Laplacian PE): finetuned GraphPFN beats both finetuned G2T-FM and a GCN from "
                   "scratch on most of the datasets with a finetuned report (P4). Quoted, never "
                   f"reproduced here: {graphland.REPO}@{graphland.COMMIT[:7]}, files "
                   "exp/graphpfn-eval/finetune/lappe/<dataset>/evaluation/report.json against "
                   "exp/g2t_limix/finetune/... and exp/gnn/gcn/... (every file in "
                   "tables/graphland_quoted.csv)", source="abstract (P4); the authors' "
                   "repository's evaluation reports", provenance="paper",
                   expected="more than half of the datasets",
                   measured=f"{int(wins.sum())} of {len(wins)}: " + ", ".join(
                       f"{d} {'win' if w else 'no'}" for d, w in zip(tuned.dataset, wins)),
                   holds=graphland.finetuned_wins(arms3),
                   rests_on=f"the authors' reports for {len(wins)} datasets (each a 10-seed "
                            "mean); a count over a fixed benchmark, not a sample")

# %%
frac_rows = []
frac_rng = np.random.default_rng([cfg.seed, 4])
for frac in cfg.label_fracs:
    for i, h in enumerate(held_out[: cfg.n_frac_eval]):
        h2 = train.Episode(h.graph, h.task, train.labelled(h.graph.n, frac, frac_rng))
        frac_rows.append({"label_frac": frac, "graph": i,
                          "graph_pfn": train.accuracy(train.predict(graph, h2), h2),
                          "tab_pfn": train.accuracy(train.predict(tab, h2), h2)})
fracs = pd.DataFrame(frac_rows)
fracs.to_csv(tables / "label_fraction.csv", index=False)

# %% [markdown]
# ## A toy real graph: the karate club

# %%
club, factions = karate.karate()
task = type(held_out[0].task)(karate.features(club, cfg.n_features), factions, 2, 0.0, False)
kar_rng = np.random.default_rng([cfg.seed, 5])
episodes, ks = [], []
for kk in cfg.karate_k:
    for mask in karate.splits(factions, kk, cfg.karate_splits, kar_rng):
        episodes.append(train.Episode(club, task, mask))
        ks.append(kk)
kar = pd.DataFrame({"k": ks,
                    "graph_pfn": [train.accuracy(train.predict(graph, h), h) for h in episodes],
                    "tab_pfn": [train.accuracy(train.predict(tab, h), h) for h in episodes],
                    "gcn": per_graph(episodes, True), "mlp": per_graph(episodes, False)})
kar.to_csv(tables / "karate.csv", index=False)
kmeans = kar.groupby("k").mean()
ledger.qualitative("karate", "karate club, mean accuracy over random splits per k labelled "
                   "nodes per class: graph-PFN in context (tab-PFN, GCN, MLP beside it in the "
                   "table); a toy, not the paper's evaluation", source="spec NB2",
                   provenance="reconstructed",
                   expected="graph-PFN above chance (0.5, two factions of 17) at every k",
                   measured="; ".join(f"k={kk}: " + ", ".join(f"{c} {kmeans.loc[kk, c]:.3f}"
                                                             for c in kmeans.columns)
                                      for kk in kmeans.index),
                   samples=kar[["k", "graph_pfn"]].to_numpy(),
                   decide=lambda s: all(s[s[:, 0] == kk, 1].mean() > 0.5
                                        for kk in cfg.karate_k if (s[:, 0] == kk).any()))

# %% [markdown]
# ## Figures

# %%
fig, ax = plotting.figure()
window = max(1, cfg.steps // 8)
for name in ("graph_pfn", "tab_pfn"):
    ax.plot(curve.step, curve[name].rolling(window, min_periods=1).mean(), label=name)
ax.set(xlabel="step", ylabel=f"cross-entropy (running mean of {window})",
       title="training on prior episodes")
ax.legend()
nb.save_figure(fig, "training")

# %%
methods = ["graph_pfn", "tab_pfn", "gcn", "mlp", "majority"]
fig, ax = plotting.figure()
ax.boxplot([acc[m] for m in methods], tick_labels=methods, showmeans=True)
ax.set(ylabel="accuracy on unlabelled nodes", title=f"{cfg.n_eval} held-out prior graphs")
nb.save_figure(fig, "accuracy")

# %%
fig, (ax1, ax2) = plotting.figure(ncols=2)
ax1.scatter(acc.adjusted_homophily, gain, s=10)
ax1.axhline(0, color="k", lw=0.8)
ax1.set(xlabel="adjusted homophily", ylabel="graph-PFN − tab-PFN accuracy",
        title=f"paired gain (Spearman {rho:+.2f})")
ax2.scatter(acc.gcn - acc.mlp, gain, s=10)
ax2.axhline(0, color="k", lw=0.8)
ax2.axvline(0, color="k", lw=0.8)
ax2.set(xlabel="GCN − MLP accuracy (graph signal)", ylabel="graph-PFN − tab-PFN",
        title="gain against the graph signal")
nb.save_figure(fig, "gain")

# %%
fig, ax = plotting.figure()
summary = fracs.groupby("label_frac")[["graph_pfn", "tab_pfn"]].agg(["mean", "sem"])
for name in ("graph_pfn", "tab_pfn"):
    ax.errorbar(summary.index, summary[(name, "mean")], summary[(name, "sem")], marker="o",
                capsize=3, label=name)
ax.set(xscale="log", xlabel="labelled fraction", ylabel="accuracy",
       title=f"in context, {cfg.n_frac_eval} held-out graphs")
ax.set_xticks(cfg.label_fracs, [f"{f:g}" for f in cfg.label_fracs])
ax.minorticks_off()
ax.legend()
nb.save_figure(fig, "label_fraction")

# %%
fig, ax = plotting.figure(width=7.5)
cols = ["graph_pfn", "tab_pfn", "gcn", "mlp"]
width = 0.8 / len(cols)
for j, c in enumerate(cols):
    ax.boxplot([kar[kar.k == kk][c] for kk in cfg.karate_k],
               positions=np.arange(len(cfg.karate_k)) + (j - 1.5) * width, widths=width * 0.9,
               patch_artist=True, boxprops={"facecolor": f"C{j}"}, medianprops={"color": "k"})
ax.set_xticks(np.arange(len(cfg.karate_k)), [f"k = {kk}" for kk in cfg.karate_k])
ax.legend(ax.patches[:: len(cfg.karate_k)][: len(cols)], cols, fontsize=7,
          loc="upper left", bbox_to_anchor=(1.01, 1))
ax.axhline(0.5, color="0.5", ls=":")
ax.set(ylabel="accuracy", title=f"karate club (toy), {cfg.karate_splits} splits per k")
nb.save_figure(fig, "karate")

# %%
nb.finish()

# %% [markdown]
# **What we saw.** The exact claims hold: GA matches its per-node loop in float64, and the
# zero-initialised adapters leave the tabular model's logits unchanged on every held-out graph.
# The headline of the miniature is `mechanism.graph_helps`: whether, after equal training on
# the prior, the graph-PFN beats the tab-PFN on held-out prior graphs beyond the bootstrap
# interval of the paired gain. Its status in the table above is the answer this run gives
# (pass: the neighbourhood attention is used; fail: no gain beyond the interval at this scale;
# inconclusive: a PFN had not converged or the decision does not survive resampling the
# graphs). `mechanism.homophily_trend` says whether the gain grows with homophily, and
# `vs_gcn` whether in-context learning beats a GCN trained on each graph beyond the interval.
# The gain figure's right panel shows how much graph signal the held-out tasks carry at all
# (the GCN − MLP gap). On the karate club, where the labels follow the communities, compare
# the graph-PFN with the tab-PFN and the GCN in the karate panel (`karate`). The paper's own
# GraphLand numbers (`paper.graphland`) are quoted from the authors' reports, not reproduced:
# no conclusion about them follows from this miniature. Cuts that could decide the mechanism
# claims by themselves: a PFN of d = 64 and 3 layers trained for `steps` steps on graphs of
# 50-300 nodes, against LimiX's 12 layers pretrained for 500k steps on 2,000-node graphs.
