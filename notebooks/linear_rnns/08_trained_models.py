# %% [markdown]
# # Trained models on the paper's tasks: who generalises to longer inputs?
#
# **Claim (Merrill et al., §6, Figure 2; spec §6, §7.3).** On sorted graph connectivity (T1) only
# the nonlinear RNN stays near-perfect as inputs grow; on iterated matrix products (T2, T3)
# state-tracking LRNNs (RWKV-7, DeltaNet) and the RNN generalise while the Transformer and Mamba
# do not. The companion adds the state-tracking controls S5 (T4) and parity (T5), and two model
# families the paper did not train (diagonal with negative eigenvalues, PD).
#
# **Source.** Figure 2a values as printed (`data/linear_rnns/figure2a_dgc_accuracy.csv`,
# provenance `paper`); everything else is **reconstructed: spec §7.3** (scaled-down plan). The
# expected orderings are the spec author's hypotheses, recorded as `statistical` claims whatever
# the outcome: "the expected winner beats the expected loser by >= `margin` on the first OOD bin
# in >= 2 of 3 seeds" (with one seed: in that seed; "≥" orderings of T3 use margin 0). Each has a
# precondition, else it is `inconclusive`: the expected winner learned its training bin (mean ID
# accuracy >= 0.05 above the majority baseline), and for a "≥" ordering one of the two families
# is >= `margin` above the first-OOD-bin majority baseline (two families at the baseline, or at a
# shared shortcut just above it, tie, and a tie satisfies "≥" whatever the models can do).
#
# **Decisions where the spec is open.** Two-class cross-entropy instead of BCE (same model class);
# every position after the first carries a loss on T2-T5 (per-step prefix labels), T1 only at the
# last token; accuracy = the last position's prediction. The paper does not say which weights it
# tested: we evaluate those of the best in-distribution validation accuracy (`select = "best"`;
# the early-stopped model is its own best; `"last"` swaps in the final weights), because ReLU RNNs
# that fit the training bin can diverge later in the run. Each run trains single-threaded, so
# results do not depend on the core count; `workers` runs train side by side. T1 uses the
# *repaired* generator with fixed-width binary ids; in the default profile N is smaller than the
# spec's ([2,6] train, OOD up to 18, 5-bit ids) to fit two CPU cores. Models: pre-norm blocks
# (mixer + ReLU MLP); `diag_pos` stands in for Mamba, `deltanet` for DeltaNet (β ∈ (0,2)) and
# `rwkv7` for RWKV-7 (RWKV-7-lite: its diagonal-decay-plus-rank-1 state update with RWKV-7's
# ranges, without token shift or the bonus term). The paper's bins (1-100, 101-200, 201-300) are
# matched to ours by position (ID, OOD 1, OOD 2). Orderings involving `rwkv7` come from the
# paper's Figure 2 (T1: the RNN beats RWKV-7 OOD; T2 and T3's "= 0" label: RWKV-7 is among the
# models that generalise); the spec's table has no RWKV-7 row.
#
# **Look for:** accuracy per length bin against the majority baseline (dashed), the DGC shortcut
# baseline near chance (the generator is repaired), and which orderings held.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
tasks = ["dgc", "imm_f2", "imm_z_zero", "imm_z_pos", "s5", "parity"]  # spec §7.3: T1-T5 (T3 with both labels)
families = ["rnn", "diag_pos", "diag_neg", "pd", "deltanet", "rwkv7", "transformer"]  # spec §7.3: model families (RWKV-7-lite included)
n_seeds = 3  # spec §7.3 FULL: 3 seeds (the claims read "in ≥ 2 of 3 seeds")
d = 32  # spec §7.3: d_model 32-64
layers = 1  # spec §7.3: 1-2 layers
steps = 3000  # spec §7.3: 1.5K-3K steps with the early-stop rule (DGC needs ~2K)
batch = 32  # spec §7.3 says 64; halved for the CPU budget
lr = 0.001  # spec §7.3: lr 1e-3 for tiny models
eval_every = 100  # validation every 100 steps (early-stop rule, spec §6.4)
val_n = 128  # in-distribution validation examples
test_n = 256  # test examples per length bin (frozen in data/linear_rnns/testsets)
test_seed = 1  # seed of the frozen test sets
dgc_id_bits = 5  # decision: fixed 5-bit node ids (spec's 6 bits for N ≤ 36)
p_bucket = 0.5  # decision: Bernoulli(1/2) buckets (p not stated)
bins = {"dgc": [[2, 6], [7, 12], [13, 18]], "imm_f2": [[1, 32], [33, 64], [65, 96]], "imm_z_zero": [[1, 10], [11, 20], [21, 30]], "imm_z_pos": [[1, 10], [11, 20], [21, 30]], "s5": [[1, 16], [17, 32], [33, 64]], "parity": [[3, 20], [21, 40], [41, 80]]}  # first bin trains (in-distribution), the others are OOD
margin = 0.15  # spec §7.3: winner beats loser by ≥ 0.15 on the first OOD bin
device = "cpu"  # cpu | cuda | auto
max_train_seconds = 0.0  # wall-clock cap per run in seconds (0 means none; GPU check only)
select = "best"  # decision: evaluate the weights of the best ID validation (paper: unstated)
workers = 2  # CPU processes (runs are single-threaded: same results for any count)

# %%
import time

import numpy as np
import pandas as pd
import torch

from lib.companion import notebook, paths, plotting
from lib.linear_rnns import decisions, train
from lib.linear_rnns import tasks as T

nb = notebook.start("linear_rnns/08_trained_models", globals())
cfg, ledger, tables = nb.cfg, nb.ledger, nb.tables
fig2a = pd.read_csv(paths.data_file("linear_rnns/figure2a_dgc_accuracy.csv"))
task_kw = {"dgc": {"id_bits": cfg.dgc_id_bits, "p": cfg.p_bucket}}
ckpt_dir = paths.RESULTS / "linear_rnns" / "checkpoints" / cfg.profile
torch.set_num_threads(min(2, torch.get_num_threads()))

# %% [markdown]
# ## Test sets (frozen under data/linear_rnns/testsets when the parameters match) and baselines

# %%
loaded = {t: T.test_sets(t, cfg.bins[t], cfg.test_n, cfg.test_seed, **task_kw.get(t, {})) for t in cfg.tasks}
test = {t: v[0] for t, v in loaded.items()}
baselines = pd.DataFrame([dict(task=t, bin=f"{lo}-{hi}", frozen=loaded[t][1], majority=train.majority(s),
                               shortcut=train.shortcut(s), max_len=int(s.length.max()))
                          for t in cfg.tasks for s, (lo, hi) in zip(test[t], cfg.bins[t])])
baselines.to_csv(tables / "baselines.csv", index=False)
ood_short = baselines[(baselines.task == "dgc") & (baselines.bin != baselines.bin.iloc[0])].shortcut
shortcut_cap = 0.55 + 3 / np.sqrt(cfg.test_n)
if "dgc" in cfg.tasks:
    ledger.bound("t1.shortcut_repaired", "on the repaired generator the endpoint shortcut is near "
                 "chance on the OOD bins (max over them)", source="spec §6.1a (S1: 50.0-54.8% on N 1-300)",
                 provenance="reconstructed", measured=float(ood_short.max()), upper=shortcut_cap,
                 why="S1's largest value 0.55 + 3/sqrt(test_n), i.e. 6 binomial s.d. at p = 1/2; small N "
                 "(ID bin) lets the shortcut beat chance")
else:
    ledger.skip("t1.shortcut_repaired", "on the repaired generator the endpoint shortcut is near "
                "chance on the OOD bins (max over them)", source="spec §6.1a (S1: 50.0-54.8% on N 1-300)",
                provenance="reconstructed", kind="bound", expected=f"<= {shortcut_cap:.4g}",
                reason="task dgc is not in this run's tasks")
baselines

# %% [markdown]
# ## The scanned forward pass equals the sequential one (every family, one test batch)

# %%
def scan_gap(task, family):
    model = train.build_model(train.RunConfig(task=task, family=family, d=cfg.d, layers=cfg.layers))
    return train.scan_gap(model, test[task][-1], cfg.device)


gaps = {f: scan_gap(cfg.tasks[0], f) for f in cfg.families}
ledger.close("models.scan_equals_sequential", f"Hillis-Steele scan and sequential loop give the same "
             f"logits on the longest {cfg.tasks[0]} bin (max over families)", source="spec §5 (unrolled form)",
             provenance="derived", expected=0.0, measured=max(gaps.values()), atol=1e-3,
             why="float32 reassociation over log2 T rounds")
gaps

# %% [markdown]
# ## Training: every (task, family, seed), resumable from results/linear_rnns/checkpoints

# %%
runs = train.plan(cfg.tasks, cfg.families, cfg.n_seeds, cfg.bins, task_kw, base_seed=1000 * cfg.seed,
                  d=cfg.d, layers=cfg.layers, steps=cfg.steps, batch=cfg.batch, lr=cfg.lr,
                  eval_every=cfg.eval_every, val_n=cfg.val_n, max_seconds=cfg.max_train_seconds or None,
                  select=cfg.select)
t0 = time.perf_counter()
acc = train.run_grid(runs, test, cfg.bins, ckpt_dir, cfg.device, workers=cfg.workers)
wall = time.perf_counter() - t0
# Seconds differ on every run: they go to results/timings/ (the report's performance page), never
# into this stage's hashed tables or its executed copy.
nb.save_timing(acc.drop_duplicates(["task", "family", "seed"])[["task", "family", "seed", "train_seconds"]]
               .assign(profile=cfg.profile, device=str(train.resolve_device(cfg.device)),
                       grid_wall_seconds=round(wall, 1)), "training")
acc = acc.drop(columns="train_seconds")
acc.to_csv(tables / "accuracy.csv", index=False)
summary = acc.groupby(["task", "family", "bin_index", "bin"], as_index=False).accuracy.mean()
summary.pivot(index=["task", "family"], columns="bin_index", values="accuracy").to_csv(tables / "accuracy_wide.csv")
summary.pivot(index=["task", "family"], columns="bin_index", values="accuracy").round(3)

# %% [markdown]
# ## Accuracy per length bin, per family; Figure 2a beside T1

# %%
PAPER_NAME = {"rnn": "Nonlinear RNN", "diag_pos": "Mamba", "deltanet": "DeltaNet", "rwkv7": "RWKV-7",
              "transformer": "Transformer"}


def draw(ax, task):
    part = summary[summary.task == task]
    for fam, g in part.groupby("family", sort=False):
        ax.plot(g.bin_index, g.accuracy, "o-", label=fam)
    base = baselines[baselines.task == task]
    ax.plot(range(len(base)), base.majority, "k--", lw=1, label="majority")
    ax.set_xticks(range(len(base)), base.bin, fontsize=6)
    ax.set(title=task, ylim=(0, 1.05), xlabel="length bin (first = ID)")


def draw_paper(ax):
    for name in PAPER_NAME.values():
        vals = fig2a[fig2a.model == name].accuracy_percent.to_numpy() / 100
        ax.plot(range(len(vals)), vals, "x:", ms=5, c="0.5")
    ax.legend(handles=ax.plot([], [], "x:", c="0.5", label="paper Fig. 2a (N 1-300)"), fontsize=5)


fig, axes = plotting.figure(ncols=len(cfg.tasks), width=2.0 * len(cfg.tasks), height=2.4)
axes = np.atleast_1d(axes)
for ax, task in zip(axes, cfg.tasks):
    draw(ax, task)
    if task == "dgc":
        draw_paper(ax)
axes[0].set_ylabel("accuracy (last position)")
axes[-1].legend(fontsize=5, loc="lower left")
nb.save_figure(fig, "accuracy_per_bin")

# %% [markdown]
# ## Expected orderings (spec §7.3) as statistical claims

# %%
checks = train.ordering_checks(acc, cfg.margin)
id_gap = decisions.mean_majority_gaps(acc, 0)        # mean accuracy - majority, ID bin
ood_gap = decisions.mean_majority_gaps(acc, 1)       # the same on the first OOD bin
checks["strict"] = [train.EXPECTED[t][2] for t in checks.task]
checks["winner_id_gap"] = [round(id_gap[t, w], 4) for t, w in zip(checks.task, checks.winner)]
checks["pair_ood_gaps"] = [[round(ood_gap[t, w], 4), round(ood_gap[t, lo], 4)]
                           for t, w, lo in zip(checks.task, checks.winner, checks.loser)]
checks["precondition"] = [decisions.ordering_precondition(g, p, st, ood_margin=cfg.margin) for g, p, st
                          in zip(checks.winner_id_gap, checks.pair_ood_gaps, checks.strict)]
checks.to_csv(tables / "orderings.csv", index=False)
PRECONDITION = {
    True: f"the expected winner learned in distribution (mean ID accuracy - majority >= "
          f"{decisions.LEARNED_MARGIN}, reconstructed from spec §6.5 [I])",
    False: f"the expected winner learned in distribution (as above) and one of the pair is >= "
           f"{cfg.margin} (spec §7.3's margin) above the first-OOD-bin majority, else the two tie at "
           "the baseline or at a shared shortcut"}
for r in checks.itertuples():
    ledger.statistical(f"{r.task}.{r.winner}_beats_{r.loser}", f"{r.task}: {r.winner} beats {r.loser} "
                       f"by >= {r.margin} on the first OOD bin", source=r.source,
                       provenance="reconstructed", expected=f">= {r.margin} in >= "
                       f"{decisions.seeds_needed(len(r.gaps))} of {len(r.gaps)} seeds",
                       measured=f"gaps {r.gaps}; winner ID gap {r.winner_id_gap}, OOD gaps over "
                       f"majority {r.pair_ood_gaps}", holds=decisions.ordering_holds(r.gaps, r.margin),
                       requires=(r.precondition, PRECONDITION[r.strict]))
high = f">= {decisions.RNN_HIGH} in >= {decisions.seeds_needed(cfg.n_seeds)} of {cfg.n_seeds} seeds"
if "dgc" in cfg.tasks and "rnn" in cfg.families:
    rnn = acc[(acc.task == "dgc") & (acc.family == "rnn")].groupby("seed").accuracy.min()
    ledger.statistical("dgc.rnn_high_all_bins", f"T1: the nonlinear RNN is >= {decisions.RNN_HIGH} "
                       "accurate on every bin", source="spec §7.3; Figure 2a (RNN 96.5-100%)",
                       provenance="reconstructed", expected=high,
                       measured=f"min over bins per seed {rnn.round(3).tolist()}",
                       holds=decisions.high_in_enough_seeds(rnn.tolist()))
else:
    ledger.skip("dgc.rnn_high_all_bins", f"T1: the nonlinear RNN is >= {decisions.RNN_HIGH} accurate "
                "on every bin", source="spec §7.3; Figure 2a (RNN 96.5-100%)", provenance="reconstructed",
                kind="statistical", expected=high, reason="task dgc or family rnn is not in this run")
learned = train.learned_checks(acc, decisions.LEARNED_MARGIN)
learned.to_csv(tables / "learned.csv", index=False)
for r in learned.itertuples():
    ledger.statistical(f"{r.task}.learned_in_distribution", f"{r.task}: the best family beats the majority "
                       f"baseline by >= {decisions.LEARNED_MARGIN} on the in-distribution bin (else the "
                       "orderings compare untrained models)",
                       source="spec §6.5 [I] (compare against per-bin majority baselines)", provenance="reconstructed",
                       expected=f">= {decisions.LEARNED_MARGIN}", measured=f"{r.best} {r.gap:.3f}",
                       holds=decisions.beats_majority(r.gap))
checks

# %%
nb.finish()

# %% [markdown]
# **What we saw** (default profile: 3 seeds, 3000-step cap, 32-wide one-layer models; 126 runs in
# about 19 minutes on 2 CPU cores). The scan and the sequential loop agree
# (`models.scan_equals_sequential`); on the OOD bins the repaired generator leaves the DGC shortcut
# near chance (`t1.shortcut_repaired`), while on the small-N in-distribution bin it is still
# informative (about 0.7, `baselines.csv`).
# **Parity** behaves as expected in all three seeds: the RNN, the negative-eigenvalue diagonal
# LRNN, PD and DeltaNet generalise to the first OOD bin (≥ 0.97) and the positive diagonal LRNN
# and the Transformer stay near chance (`parity.*_beats_diag_pos` pass). RWKV-7-lite also stays
# near chance OOD: with w > 0.545 and a < 1 its transitions' eigenvalues stay above about -0.46,
# so, like `diag_pos`, it cannot flip a sign at unit magnitude. No ordering was set for it in
# advance, so this is an observation, not a claim.
# On **DGC** the nonlinear RNN is the only family that fits the training bin in every seed
# (0.99-1.0 on the in-distribution test bin; the others reach 0.89-0.97 in at most one seed, means
# 0.56-0.77, near Figure 2a's 75-78% for Mamba and DeltaNet), but on N = 7-18 every family, the
# RNN included, is at chance:
# `dgc.rnn_high_all_bins` and the `dgc.rnn_beats_*` orderings fail. The paper trains on N ≤ 100
# with d = 256 and up to 60K steps; a training bin of N ≤ 6 may be too small for a rule that holds
# at every length to be learned. On **T2** (GL(3,F₂) products) and **S5** no family leaves the
# majority baseline (`*.learned_in_distribution` fail), so their ordering claims would compare
# untrained models: they are `inconclusive`. On **T3** the best families beat the
# in-distribution majority by 0.08-0.10, but on the first OOD bin every family is within about
# 0.08 of the majority baseline, all at nearly the same accuracy (a shared shortcut, reached also
# by the diagonal LRNNs), so no "≥" ordering has a family that generalises: all are
# `inconclusive` (`orderings.csv`, columns `pair_ood_gaps` and `precondition`). Failures mean
# "not reproduced at this scale", not "refuted". Deliberate deviations (spec §7.3): smaller models and budgets,
# shorter DGC graphs with 5-bit ids, two-class CE, T2 drawn from GL(3, F₂) (uniform draws over all
# 512 matrices collapse long products to the zero matrix, making every OOD label 0), PD and
# diagonal-negative families added, RWKV-7 reduced to its state update, Mamba represented by
# `diag_pos`.
#
# **GPU.** The `paper` profile (2 layers, d = 256, the paper's lengths, 60K-step cap) is meant for a
# GPU; `tools/gpu_check_linear_rnns.sh` runs one task of it with a per-run training cap. One H200
# run of T2 through the library CLI (the notebook stack was not installed there) took about 50 s
# per family (45 s of training, capped, plus evaluation on 3 × 2000 sequences up to N = 300); it
# used the earlier uniform-F₂ generator, so its accuracies only show the majority baseline, and it
# exposed a diverging ReLU RNN (NaN loss; non-finite steps are now skipped and counted) and a slow
# DeltaNet loop (now the scan on GPU). Neither the notebook itself nor the current code
# (RWKV-7-lite, best-weight selection) has been run in the paper profile on a GPU: no GPU was lent
# to the session that added them.
