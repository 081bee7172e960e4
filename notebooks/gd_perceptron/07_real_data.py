# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Real data: larger steps give higher, oscillating losses but separate sooner
#
# **Claim (Tyurin, arXiv 2512.11587, abstract; third-party summaries [3P]; [spec §4](../../docs/specs/gd_perceptron.md#s4) F8 and §8).**
# Nonlinear models converge faster than linear ones, and in the large-step regime the loss is
# non-monotone. The experimental protocol is the author's earlier paper's (Tyurin 2025, arXiv
# 2412.08424, read in full, [spec §8](../../docs/specs/gd_perceptron.md#s8)): two Fashion-MNIST classes, 5 000 images, LR+GD with
# γ ∈ {0.001 … 100}, Normalized LR+GD and the Batch Perceptron; panels of accuracy, loss and
# gradient norm; iterations to accuracy 1.0 set beside his Table 1. What that earlier paper reports
# is prior literature: its claims carry it in `source` with provenance `derived`, and those decided
# on a threshold of ours (10 % of the Batch Perceptron, a factor 2, >= 10 loss increases) are
# `reconstructed`, the loss oscillation included, which the paper under study also states (its
# abstract) without a number. The linear runs start at 0 and draw nothing, so each claim rests on
# one deterministic run (its `rests_on`), not on replicates.
#
# **Reconstructed.** The class pair, preprocessing and two-layer models of the paper are unknown.
# We use T-shirt/top (+1) against Trouser (−1), pixels scaled to [0, 1], the first 2 500 training
# images of each class (data/fashion_mnist/subset.npz), and two-layer models with fixed ±1
# outputs, ReLU and quadratic (the paper's two-layer model, [spec §1.2](../../docs/specs/gd_perceptron.md#s1-2)).
#
# **Decisions where the spec is open.** The pair was chosen because it is linearly separable with
# 5 000 images (most pairs are not, so accuracy 1.0 is never reached); Table 1's balanced rows are
# for an unknown pair, so the comparison is of magnitude, not of exact counts. Runs that never
# reach accuracy 1.0 within the cap are reported as such. Linear against two-layer is compared
# only at the spec's F8 setting: width 256, every linear step size, the linear cap
# (`decisions.f8_setting_gaps`). That is 12 two-layer runs of 3 500 full-batch steps at width 256,
# about two hours on one core, so it runs in the `paper` profile; the default and smoke profiles
# run small two-layer models (width 16, fewer step sizes, a shorter cap) as an illustration only
# and record the comparison as skipped.
#
# **Look for:** large-γ curves that reach accuracy 1.0 first while their loss is the highest;
# LR+GD at γ = 100 tracking the Batch Perceptron.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
executor = "inline"  # where the grid's runs go: inline in the kernel (one after the other), debug (in the kernel, through submitit), local subprocesses, or slurm jobs
workers = 1  # runs at once (local) or the SLURM array's parallelism; runs are single-threaded, so the results are the same for any count
slurm_partition = ""  # SLURM partition ('' the cluster's default)
slurm_gpus = 0  # GPUs per SLURM job
slurm_time_min = 240  # a SLURM job's time limit in minutes (≤ 14 days, the runner's paper limit)
class_pos = 0  # T-shirt/top (+1); the author's pair is not printed
class_neg = 1  # Trouser (-1); separable with 5 000 images, others we tried were not
per_class = 2500  # 5 000 images in all, as in the author's protocol
linear_gammas = [0.001, 0.01, 0.1, 1.0, 10.0, 100.0]  # the author's step sizes
normalized_gammas = [0.1, 1.0, 10.0, 100.0]  # Normalized LR+GD rows of his Table 1
linear_steps = 3500  # cap; the slowest solved linear run needs about 3 300
width = 16  # two-layer hidden units, outputs fixed to +-1
relu_gammas = [0.01, 0.1, 1.0, 10.0]  # ReLU two-layer step sizes
quadratic_gammas = [0.001, 0.01, 0.1]  # larger steps blow up the quadratic model
two_layer_steps = 1500  # cap of the two-layer runs, above the best linear count (about 1 400)

# %%
import numpy as np
import pandas as pd

from lib.companion import notebook, paths, plotting, sweep
from lib.gd_perceptron import decisions, real_data

nb = notebook.start("gd_perceptron/07_real_data", globals())
cfg, ledger, tables = nb.cfg, nb.ledger, nb.tables
table1 = pd.read_csv(paths.data_file("gd_perceptron/table1_tyurin2025.csv"))
names = real_data.load_pair(cfg.class_pos, cfg.class_neg, cfg.per_class)[2]
names

# %% [markdown]
# ## The full-batch runs (the heavy cell): one run per model, through the sweep engine (`executor`)

# %%
linear, *two = sweep.run_params(real_data.run_model, [(cfg, model) for model in real_data.MODELS], cfg,
                                nb.id, labels=[f"{model} model" for model in real_data.MODELS])
two_layer = dict(zip(real_data.MODELS[1:], two))

# %%
fig, axes = plotting.figure(2, 3, width=10.5, height=5.6)
histories = [("linear", linear)] + [(f"two-layer {a}, width {cfg.width}", h) for a, h in two_layer.items()]
for row, key in enumerate(("accuracy", "loss")):
    for col, (title, h) in enumerate(histories):
        for r, m in enumerate(h.methods):
            axes[row, col].plot(getattr(h, key)[:, r], lw=0.8, label=m.label)
        axes[row, col].set(xlabel="iteration", ylabel=key, title=title,
                           yscale="log" if key == "loss" else "linear")
        if key == "accuracy":
            axes[row, col].set_ylim(0.9, 1.001)
axes[0, 0].legend(fontsize=5)
axes[0, 1].legend(fontsize=5)
axes[0, 2].legend(fontsize=5)
nb.save_figure(fig, "curves")

fig, ax = plotting.figure(width=4.2, height=3.0)
for r, m in enumerate(linear.methods):
    if m.rule == "gd" and not m.normalized:
        ax.semilogy(linear.grad_norm[:, r], lw=0.8, label=m.label)
ax.set(xlabel="iteration", ylabel="gradient norm", title="linear LR+GD")
ax.legend(fontsize=6)
nb.save_figure(fig, "grad_norm")

# %%
ours = pd.concat([linear.solved_table(cfg.linear_steps).assign(model="linear")]
                 + [h.solved_table(cfg.two_layer_steps).assign(model=f"two-layer {a}")
                    for a, h in two_layer.items()])
ours.to_csv(tables / "iterations_to_accuracy_1.csv", index=False)
paper = table1[table1.dataset == "fashion_mnist_balanced"].copy()
paper["method"] = paper.apply(lambda r: f"{r.method} γ={r.gamma:g}", axis=1)
side = paper.merge(ours[ours.model == "linear"], on="method", how="left", suffixes=("_paper", "_ours"))
side.to_csv(tables / "table1_side_by_side.csv", index=False)
side[["method", "iterations_paper", "iterations_ours"]]

# %%
src = "Tyurin 2025, arXiv 2412.08424 (the author's earlier paper): experiments, spec §8"
ONE_RUN = (f"one deterministic full-batch run per method on the {2 * cfg.per_class:,} images of the pair "
           "(the linear models start at 0: no random draw to resample)")
lin = dict(zip([m.label for m in linear.methods], linear.solved_at))
solved_gd = [(g, lin[f"LR+GD γ={g:g}"]) for g in cfg.linear_gammas if lin[f"LR+GD γ={g:g}"] >= 0]
ledger.statistical("real.larger_gamma_faster", "among LR+GD runs that reach accuracy 1.0, a larger gamma needs fewer iterations",
                   source=src, provenance="derived", expected="non-increasing in gamma",
                   measured=dict((f"{g:g}", int(t)) for g, t in solved_gd),
                   holds=decisions.larger_gamma_faster(cfg.linear_gammas, [lin[f"LR+GD γ={g:g}"] for g in cfg.linear_gammas]),
                   rests_on=ONE_RUN)
bp, big = lin["Batch Perceptron"], lin.get(f"LR+GD γ={max(cfg.linear_gammas):g}", -1)
ledger.statistical("real.large_gamma_tracks_perceptron", "at the largest gamma LR+GD needs within 10 % of the Batch Perceptron's iterations",
                   source=src + "; the 10 % is ours", provenance="reconstructed", expected="|T_LR+GD - T_BP| <= 0.1 T_BP",
                   measured=f"LR+GD {big}, Batch Perceptron {bp}",
                   holds=decisions.tracks_perceptron(int(big), int(bp)), rests_on=ONE_RUN)
gd_idx = [r for r, m in enumerate(linear.methods) if m.rule == "gd" and not m.normalized]
ups = (np.diff(linear.loss[:, gd_idx], axis=0) > 0).sum(axis=0)          # loss increases per gamma
ledger.qualitative("real.loss_oscillates_at_large_gamma", "the loss oscillates (goes up at >= 10 steps) at the largest gamma and never goes up at the smallest",
                   source="abstract of arXiv 2512.11587 (function-value oscillations); protocol and threshold "
                          "from Tyurin 2025, arXiv 2412.08424 (spec §8); the >= 10 threshold is ours",
                   provenance="reconstructed", expected="increases(gamma max) >= 10, increases(gamma min) = 0",
                   measured=dict(zip([f"{g:g}" for g in cfg.linear_gammas], ups.tolist())),
                   holds=decisions.loss_oscillates(cfg.linear_gammas, ups.tolist()), rests_on=ONE_RUN)
gaps = decisions.f8_setting_gaps(cfg.width, {"relu": cfg.relu_gammas, "quadratic": cfg.quadratic_gammas},
                                 cfg.linear_gammas, cfg.two_layer_steps, cfg.linear_steps)
fewer = ("real.two_layer_fewer_iterations",
         "at the spec's F8 setting (width 256, every linear gamma, the linear cap) the best two-layer run reaches "
         "accuracy 1.0 in fewer iterations than the best linear run")
src_fewer = "abstract of arXiv 2512.11587; [3P] summaries; setting spec §4 F8"
if not gaps:
    ledger.statistical(*fewer, source=src_fewer, provenance="reconstructed", expected="best two-layer < best linear",
                       measured=f"two-layer {real_data.first_solved(list(two_layer.values()))}, "
                                f"linear {real_data.first_solved([linear])}",
                       holds=decisions.two_layer_fewer(ours[ours.model != "linear"].iterations.tolist(),
                                                       ours[ours.model == "linear"].iterations.tolist()),
                       rests_on=f"one run per method from one random two-layer init (seed {cfg.seed})",
                       requires=(bool((linear.solved_at >= 0).any()),
                                 "some linear run reaches accuracy 1.0 within its cap (the reference)"))
else:
    ledger.skip(*fewer, source=src_fewer, provenance="reconstructed", kind="statistical",
                expected="best two-layer < best linear",
                reason=f"this profile's two-layer runs are not at the F8 setting ({'; '.join(gaps)}); at it the "
                       "runs take about two hours on one core: paper profile only")
ledger.statistical("real.table1_magnitude", "our counts for Table 1's balanced Fashion-MNIST methods are within a factor 2 of the published ones (class pair unknown)",
                   source="Tyurin 2025, arXiv 2412.08424 (the author's earlier paper), Table 1 (spec §8); the factor 2 is ours",
                   provenance="reconstructed",
                   expected=dict(zip(side.method, side.iterations_paper.astype(int))),
                   measured=dict(zip(side.method, side.iterations_ours)),
                   holds=decisions.table1_magnitude(side.iterations_ours.tolist(), side.iterations_paper.tolist()),
                   rests_on=ONE_RUN)
nb.finish()

# %% [markdown]
# **What we saw.** See `tables/07_real_data/`: the large-γ LR+GD runs reach accuracy 1.0 first
# while their losses are the highest and oscillate, and at γ = 100 LR+GD tracks the Batch
# Perceptron, as the author reported. Whether the two-layer models beat the linear one on this
# pair is decided only at the spec's F8 setting, in the `paper` profile
# (`real.two_layer_fewer_iterations`; skipped in the smaller profiles, whose width-16 two-layer
# curves above are an illustration with fewer step sizes and a shorter cap than the linear runs,
# so their not reaching accuracy 1.0 says nothing about the claim). The paper's own two-layer
# models are unknown.
