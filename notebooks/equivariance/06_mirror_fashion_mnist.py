# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # E6 (exploratory): a soft mirror loss on Fashion-MNIST MLPs, measured layer by layer as in the paper's table
#
# **Claim (paper's CIFAR-10 experiment via the notes, [spec §3.1](../../docs/specs/equivariance.md#s3-1); analogue reconstructed: spec
# §4 E6).** Depth-4 MLPs trained with a soft left–right mirror loss in the second half of
# training become (approximately) mirror-equivariant in their hidden layers; the paper reports
# tanh's first layer close to linearly equivariant (LV error 0.029 for the autoencoder) and
# GELU's not (0.40), with equivariance reappearing at $f_2$, and the up–down mirror as control.
#
# **Reconstructed.** Fashion-MNIST (the bundled 25 000-image subset) instead of CIFAR-10; images
# 2×2 average-pooled to 14×14 (pooling commutes with both mirrors), standardised by one global
# mean and scale. Autoencoder 196-64-32-64-196 and classifier 196-64-32-10, first activation tanh
# or GELU, later ones GELU. Soft loss $\lambda\|f(Mx)-Mf(x)\|^2$ (autoencoder) or
# $\lambda\|f(Mx)-f(x)\|^2$ (classifier) in the second half, on data and on Gaussian noise of data
# scale (the spec found the noise term necessary for any layerwise effect).
#
# **Decisions.** Adam 3e-3 with cosine decay, batch 256, float32 training; LV metric of [spec §5.6](../../docs/specs/equivariance.md#s5-6)
# with the paper's normalisation, fit on `n_fit` and evaluated on `n_eval` fresh samples, on
# Gaussian noise (as the paper) and on held-out images. The paper's table is read from
# `data/equivariance/mirror_table_cifar10.csv` (provenance `paper`, via the notes). Per the spec the
# outcome is exploratory: orderings are recorded, never asserted.
#
# "Trained to a fit" means beating the best linear model of the task on the same split (rank-32
# PCA reconstruction; least-squares linear classifier); the mirror claims require it. Claims are
# decided on medians over the seeds and resampled over them (stability below 0.9:
# `inconclusive`); the paper's tanh-vs-GELU ordering is recorded as a deviation only if GELU's
# f1 comes out more equivariant by more than 2 standard errors of the seed-paired difference.
#
# **Look for:** left–right errors below the up–down control; whether tanh's $f_1$ beats GELU's.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
executor = "inline"  # where the grid's runs go: inline in the kernel (one after the other), debug (in the kernel, through submitit), local subprocesses, or slurm jobs
workers = 1  # runs at once (local) or the SLURM array's parallelism; runs are single-threaded, so the results are the same for any count
slurm_partition = ""  # SLURM partition ('' the cluster's default)
slurm_gpus = 0  # GPUs per SLURM job
slurm_time_min = 240  # a SLURM job's time limit in minutes (≤ 14 days, the runner's paper limit)
n_train = 5000  # training images (of the 25 000 bundled)
n_test = 2000  # held-out images
n_seeds = 3  # models per first activation (issue 12: ≥ 3 seeds)
steps = 1500  # Adam steps per task
lr = 0.003  # Adam learning rate, cosine decay
batch = 256  # minibatch size
lam = 1.0  # weight of the soft mirror loss (paper's value unknown)
n_fit = 4000  # LV fit sample, at least 50 x 64 units
n_eval = 2000  # LV evaluation sample

# %%
import numpy as np
import pandas as pd

from lib.companion import notebook, paths, plotting, rules, sweep
from lib.equivariance import decisions, groups, mirror, mlp

nb = notebook.start("equivariance/06_mirror_fashion_mnist", globals())
cfg, ledger, rng, tables = nb.cfg, nb.ledger, nb.rng, nb.tables
raw = np.load(paths.data_file("fashion_mnist/subset.npz"))
paper = pd.read_csv(paths.data_file("equivariance/mirror_table_cifar10.csv"))
x, y = mirror.load_pooled(raw["images"], raw["labels"], cfg.n_train + cfg.n_test, rng)
mean, scale = float(x[:cfg.n_train].mean()), float(x[:cfg.n_train].std())
x = mirror.standardise(x, mean, scale)
Xtr, ytr, Xte, yte = x[:cfg.n_train], y[:cfg.n_train], x[cfg.n_train:], y[cfg.n_train:]
LR, UD = groups.mirror_grid(14, "lr").mats[1], groups.mirror_grid(14, "ud").mats[1]
first = ["tanh", "gelu"] * cfg.n_seeds
seeds = [s for s in range(cfg.n_seeds) for _ in ("tanh", "gelu")]
WIDTHS = {"autoencoder": [196, 64, 32, 64, 196], "classifier": [196, 64, 32, 10]}

# %%
grid = [(task, Xtr, ytr, first, w, cfg.steps, cfg.lr, cfg.batch, cfg.lam, cfg.seed, LR)
        for task, w in WIDTHS.items()]
runs = dict(zip(WIDTHS, sweep.run_params(mirror.train_run, grid, cfg, nb.id, labels=list(WIDTHS))))
samples = {"noise": (rng.normal(size=(cfg.n_fit, 196)), rng.normal(size=(cfg.n_eval, 196))),
           "data": (Xtr[:cfg.n_fit], Xte[:cfg.n_eval])}
lv = pd.concat([mirror.lv_table(t, th, first, seeds, {"left-right": LR, "up-down (control)": UD}, samples)
                for t, (th, _) in runs.items()])
lv.to_csv(tables / "lv_all.csv", index=False)
ours = lv.groupby(["task", "layer", "mirror", "sample", "act"]).lv.median().unstack("act").reset_index()
ours.to_csv(tables / "lv_table.csv", index=False)
side = ours[ours["sample"] == "noise"].merge(paper, on=["task", "layer", "mirror"], how="left",
                                            suffixes=("_ours", "_paper"))
side.to_csv(tables / "paper_vs_ours.csv", index=False)
side[["task", "layer", "mirror", "tanh_ours", "tanh_paper", "gelu_ours", "gelu_paper"]]

# %%
acc = [float((mlp.forward(th, Xte, [a, "gelu"]).argmax(axis=1) == yte).mean())
       for th, a in zip(runs["classifier"][0], first)]                   # one per (act, seed)
fe = [mlp.relative_error(mlp.forward(th, Xte, [a, "gelu", "gelu"]), Xte)
      for th, a in zip(runs["autoencoder"][0], first)]
base = mirror.linear_baselines(Xtr, ytr, Xte, yte, WIDTHS["autoencoder"][2])
fitted = {"classifier": decisions.beats_baselines(acc, [0.0], base["accuracy"], 1.0),
          "autoencoder": decisions.beats_baselines([1.0], fe, 0.0, base["ae_error"])}
types = mirror.filter_types(runs["autoencoder"][0][0], "tanh", LR, samples["noise"][0])  # tanh, seed 0
counts = {t: int((types == t).sum()) for t in ("self", "pair", "negated")}
perf = pd.DataFrame([{"model": f"classifier/{a}", "seed": s, "test_accuracy": v} for a, s, v in zip(first, seeds, acc)]
                    + [{"model": f"autoencoder/{a}", "seed": s, "relative_reconstruction_error": v}
                       for a, s, v in zip(first, seeds, fe)]
                    + [{"model": "linear baseline", "seed": np.nan, "test_accuracy": base["accuracy"],
                        "relative_reconstruction_error": base["ae_error"]}])
perf.to_csv(tables / "task_performance.csv", index=False)
perf

# %%
fig, axes = plotting.figure(1, 2, width=6.8, height=2.6)
for ax, task in zip(axes, WIDTHS):
    sub = ours[(ours.task == task) & (ours["sample"] == "noise")]
    lab = [f"{r.layer}\n{r.mirror.split(' ')[0]}" for r in sub.itertuples()]
    xs = np.arange(len(sub))
    ax.bar(xs - 0.2, sub.tanh, width=0.4, label="tanh first (ours)")
    ax.bar(xs + 0.2, sub.gelu, width=0.4, label="GELU first (ours)")
    pp = side[side.task == task]
    ax.plot(xs - 0.2, pp.tanh_paper, "k^", ms=4, label="paper (CIFAR-10)")
    ax.plot(xs + 0.2, pp.gelu_paper, "kv", ms=4)
    ax.set_xticks(xs, lab, fontsize=6)
    ax.set(title=f"{task}: LV error on noise", ylabel="median LV error")
axes[0].legend(fontsize=6)
nb.save_figure(fig, "table")

W1 = runs["autoencoder"][0][0][0][0]                                   # tanh AE, (64, 196)
order = np.argsort(pd.Categorical(types, ["self", "pair", "negated"]).codes, kind="stable")
fig, ax = plotting.figure(width=7.0, height=2.2)
ax.imshow(mirror.mosaic(W1[order], 14, 16), cmap="RdBu_r", vmin=-1, vmax=1)
ax.set(xticks=[], yticks=[], title=f"tanh autoencoder first-layer filters sorted by mirror type "
                                   f"(self, pair, negated): {counts}")
ax.grid(False)
nb.save_figure(fig, "filters")

# %% [markdown]
# ## Claims (exploratory: recorded, never asserted)

# %%
src = "paper CIFAR-10 mirror table via notes (spec §3.1); analogue spec §4 E6 (exploratory)"
noise = ours[ours["sample"] == "noise"].set_index(["task", "layer", "mirror"])
per_model = lv[lv["sample"] == "noise"].pivot_table(index=["task", "act", "seed"], columns=["layer", "mirror"],
                                                   values="lv")       # one row per trained model
one = "one model (this profile trains one per first activation)"
for task in WIDTHS:
    trained = (fitted[task], f"every {task} beats the linear baseline of its task (trained to a fit)")
    for act in ("tanh", "gelu"):
        lr_err = [noise.loc[(task, layer, "left-right"), act] for layer in ("f1", "f2")]
        control = noise.loc[(task, "f1", "up-down (control)"), act]
        rows = per_model.loc[(task, act)][[("f1", "left-right"), ("f2", "left-right"),
                                           ("f1", "up-down (control)")]].to_numpy(float)  # (seeds, 3)
        ledger.statistical(f"e6.{task}.{act}.below_control", f"{task}, {act} first: left-right LV at f1 and f2 below the up-down control at f1",
                           source=src, provenance="reconstructed",
                           expected="both medians below the control's (paper: yes), seeds resampled",
                           measured={"f1": round(float(lr_err[0]), 4), "f2": round(float(lr_err[1]), 4),
                                     "control_f1": round(float(control), 4)},
                           **rules.evidence(rows, lambda d: decisions.below_control(
                               list(np.median(d[:, :2], axis=0)), float(np.median(d[:, 2]))), one),
                           requires=trained)
    t1, g1 = noise.loc[(task, "f1", "left-right"), "tanh"], noise.loc[(task, "f1", "left-right"), "gelu"]
    pp = paper[(paper.task == task) & (paper.layer == "f1") & (paper.mirror == "left-right")].iloc[0]
    pair = np.column_stack([per_model.loc[(task, act)][("f1", "left-right")].to_numpy(float)
                            for act in ("tanh", "gelu")])              # (seeds, [tanh, gelu])
    ordering = dict(source=src, provenance="paper", expected=f"median tanh < median gelu (paper {pp.tanh} vs {pp.gelu})",
                    measured=f"tanh {t1:.3g} vs gelu {g1:.3g}", requires=trained)
    if len(pair) >= 2:
        ledger.compare(f"e6.{task}.paper_ordering_f1", f"{task}: tanh's f1 more mirror-equivariant than GELU's (paper's ordering)",
                       samples=pair, decide=lambda d: decisions.paper_ordering(np.median(d[:, 0]), np.median(d[:, 1])),
                       opposite=lambda d: rules.opposite_beyond(d[:, 1] - d[:, 0]),
                       power="seed-paired difference (GELU - tanh) beyond 2 s.e. below zero over >= 3 seeds",
                       **ordering)
    else:
        ledger.statistical(f"e6.{task}.paper_ordering_f1", f"{task}: tanh's f1 more mirror-equivariant than GELU's (paper's ordering)",
                           holds=decisions.paper_ordering(t1, g1), rests_on=one, **ordering)
ae_tanh = [th for th, a in zip(runs["autoencoder"][0], first) if a == "tanh"]   # one per seed
type_counts = [{t: int((ft == t).sum()) for t in decisions.FILTER_TYPES}
               for ft in (mirror.filter_types(th, "tanh", LR, samples["noise"][0]) for th in ae_tanh)]
ledger.qualitative("e6.filter_types", "tanh autoencoder filters split into self-symmetric, mirrored-pair and negated types",
                   source="paper filter figure via notes (spec §3.1)", provenance="paper",
                   expected=f"all three types present in >= {rules.seeds_needed(len(type_counts), decisions.SEED_SHARE)} "
                            f"of {len(type_counts)} tanh autoencoders",
                   measured=type_counts,
                   **rules.evidence(type_counts, lambda s: decisions.enough_seeds(
                       [decisions.all_filter_types(c) for c in s]), one),
                   requires=(fitted["autoencoder"], "every autoencoder beats the rank-32 linear (PCA) reconstruction"))
perf_rows = np.column_stack([np.reshape(acc, (cfg.n_seeds, 2)), np.reshape(fe, (cfg.n_seeds, 2))])  # (seeds, 4)
ledger.statistical("e6.task_performance", "the networks are trained to a fit: every classifier beats the least-squares "
                   "linear classifier, every autoencoder the rank-32 linear (PCA) reconstruction",
                   source="reconstructed: the best linear model of each task (spec §4 E6 gives no number)",
                   provenance="reconstructed",
                   expected=f"accuracy > {base['accuracy']:.3g} and relative reconstruction error < {base['ae_error']:.3g} "
                            "(linear baselines on the same split; seeds resampled)",
                   measured={"accuracy": [round(v, 3) for v in acc], "ae_error": [round(v, 3) for v in fe]},
                   **rules.evidence(perf_rows, lambda d: decisions.beats_baselines(
                       d[:, :2].ravel(), [1.0], base["accuracy"], 1.0) and decisions.beats_baselines(
                       [1.0], d[:, 2:].ravel(), 0.0, base["ae_error"]), one))

# %%
nb.finish()

# %% [markdown]
# **What we saw.** See `tables/06_mirror_fashion_mnist/paper_vs_ours.csv`,
# `task_performance.csv` and the `e6.*` records. In the default profile (`steps` Adam steps on
# `n_train` images, `n_seeds` models per first activation) `e6.task_performance` says whether
# every autoencoder beats the rank-32 linear (PCA) reconstruction and every classifier the
# least-squares linear classifier. Where it fails, the networks are not trained to a fit, so every
# mirror claim is recorded `inconclusive` rather than read as a failure to reproduce the paper.
# The numbers are still in the tables: compare the first-layer LV errors on noise with the
# up–down control and with the paper's 0.03 for tanh, and the second layer's with the first's.
# The `paper` profile (all 20 000
# training images, longer training, five seeds) is the run meant to reach a fit; it is beyond the
# default budget. Data set, image size, widths and the soft-loss weight differ from the unknown
# originals, so even a fitted comparison stays exploratory ([spec §4](../../docs/specs/equivariance.md#s4) E6).
