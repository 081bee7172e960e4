# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Trained models on the paper's tasks: who fits, and who generalises to longer inputs?
#
# **Claim (Merrill et al., §6, Figure 2; [spec §6](../../docs/specs/linear_rnns.md#s6), §7.3, §10).** Every model fits the
# in-distribution data; on sorted graph connectivity only the nonlinear RNN stays near-perfect as
# inputs grow (Figure 2a); on iterated matrix products over ℤ_m and ℤ RWKV-7, the nonlinear RNN and
# DeltaNet generalise while the Transformer and Mamba do not (Figure 2b-c).
#
# **Source.** The authors' released code (GitHub `hongjianjiang/LinearRNN`, read as the reference,
# our code our own) is the ground truth for the tasks where it and the spec disagree: the `paper`
# variants `dgc_paper`, `imm_mod` (ℤ₂₉, a 29-way label at every step) and `imm_z_paper` (label
# [(P_T)[0,0] = 0], balanced per length) follow its generators, with the DGC bucket bug repaired;
# the table `sidebyside.csv` below sets them beside the released ones, each difference with its
# reason. Figure 2a's values as printed (`data/linear_rnns/figure2a_dgc_accuracy.csv`, provenance
# `paper`). Our own variants stay where they ask what the paper's do not: `imm_f2` (GL(3, F₂), a
# non-solvable group), `imm_z_pos` (the PNC¹ positivity label), `parity`; `dgc` (fixed-width ids),
# `imm_z_zero` and `s5` remain selectable (`tasks`), outside the default for the CPU budget.
#
# **Claims.** Per task, "every family fits the in-distribution bin" (ID test accuracy >= 0.95 for
# every family and seed, reconstructed from the paper's "fits"; recorded whatever comes out), the
# Figure 2 orderings on the paper variants and the [spec §7.3](../../docs/specs/linear_rnns.md#s7-3) hypotheses on ours, as `statistical`
# claims: "the expected winner beats the expected loser by >= `margin` on the first OOD bin in >= 2
# of 3 seeds", with the precondition that the winner learned its training bin (else
# `inconclusive`) and, for a "≥" ordering, that one of the two is `margin` above the OOD majority.
# Each verdict is decided on the per-seed values and resampled over the seeds: one that fewer than
# 90 % of the bootstrap resamples repeat is `inconclusive` (its `stability`).
#
# **Decisions.** (1) *Sweep engine: submitit.* The authors launched SLURM jobs; submitit's
# AutoExecutor submits the same function to SLURM and its LocalExecutor runs it here
# (`sweep_executor`: local | slurm | debug); one job = one (task, family) with its seeds, logs under
# results/linear_rnns/sweeps/, and the checkpoints (results/linear_rnns/checkpoints/) make an
# interrupted sweep resume. (2) *Batched seeds.* The seeds of one (task, family) train as one
# model: parameters stacked on a seed axis through `torch.func.vmap`, per-seed AdamW, clipping
# norm and early stop (`seeds.py`); every family is plain tensor code, so none falls back to one
# run per seed; bench/linear_rnns_batched_seeds.py shows the losses equal those of one run per seed
# (to 1e-6, float64). (3) *Models and readouts from the released code:* the nonlinear RNN is the
# clamped ReLU RNN (clip 6, recurrent weight orthogonal × 0.3), a GRU beside it (the IMM
# launchers' RNN); sequence labels of the paper variants are read from a masked mean pool, the
# Transformer's from its last token; accuracy is the last position's (the released `finalAcc`).
# Two-class cross-entropy as in the released DGC scripts; the best in-distribution validation
# weights are evaluated (`select`), as the released scripts keep them. (4) *Profiles:* `paper`
# carries the launchers' per-family settings (`run_settings`; data/linear_rnns/hyperparameters.csv);
# `default` is one CPU-sized setting for all families (32 wide, 1 layer, 3K steps, lengths scaled
# down with the released bin shapes), each change's reason in params.yaml. Our `diag_pos` stands in
# for Mamba, `rwkv7` is RWKV-7-lite (its state update only), `deltanet` keeps β ∈ (0, 2) (the
# released DGC launcher leaves negative eigenvalues off). The paper's bins (1-100, 101-200,
# 201-300) are matched to ours by position (ID, OOD 1, OOD 2).
#
# **Look for:** accuracy per bin against the majority baseline (dashed), Figure 2a beside our
# `dgc_paper`, which families fit their training bin, and which orderings held.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
tasks = ["dgc_paper", "imm_mod", "imm_z_paper", "parity"]  # the paper's three tasks as released, and parity (the abelian sanity check); ours that ask what they do not (imm_f2: GL(3, F2), imm_z_pos: positivity) and dgc, imm_z_zero, s5 stay selectable, outside the default for the CPU budget (a group of 3 seeds takes 1-4 min)
families = ["rnn", "gru", "diag_pos", "diag_neg", "pd", "deltanet", "rwkv7", "transformer"]  # spec §7.3 families plus the released IMM launchers' GRU
n_seeds = 3  # spec §7.3 FULL: 3 seeds (the claims read "in ≥ 2 of 3 seeds")
d = 32  # launchers 256 (RNN hidden, DeltaNet, Mamba); 32 for 2 CPU cores (spec §7.3: 32-64)
layers = 1  # DGC launchers 1 layer (RNN, Transformer, DeltaNet); IMM ones 2: 1 for the CPU budget
steps = 1000  # launchers 30K (DGC) / 60K (IMM) steps; 1K with the early-stop rule on 2 CPU cores (3K took ~4 min per group of 3 seeds, over an hour for the grid)
batch = 32  # launchers 64-256; 32 for the CPU budget
lr = 0.001  # launchers 3e-4 (RWKV-7 3e-5) at d is 256; 1e-3 for 32-wide models (spec §7.3)
run_settings = {}  # per task / family / "task/family" overrides of d, layers, steps, batch, lr, weight_decay, clip (clip 0 is none); none on CPU: one setting for every family, as the launchers' per-family ones are tuned for 30K-60K GPU steps
eval_every = 100  # validation every 100 steps (ours: spec §6.4's early-stop rule names no interval)
val_n = 128  # in-distribution validation examples (released: 20K-30K)
test_n = 256  # test examples per length bin (frozen in data/linear_rnns/testsets; released: 10K-30K)
test_seed = 1  # seed of the frozen test sets
dgc_id_bits = 5  # decision: fixed 5-bit node ids for our dgc (spec's 6 bits for N ≤ 36)
p_bucket = 0.5  # decision: Bernoulli(1/2) buckets for our dgc (the released default p)
bins = {"dgc": [[2, 6], [7, 12], [13, 18]], "imm_f2": [[1, 32], [33, 64], [65, 96]], "imm_z_zero": [[1, 10], [11, 20], [21, 30]], "imm_z_pos": [[1, 10], [11, 20], [21, 30]], "s5": [[1, 16], [17, 32], [33, 64]], "parity": [[3, 20], [21, 40], [41, 80]], "dgc_paper": [[2, 6], [7, 12], [13, 18]], "imm_mod": [[1, 16], [17, 32], [33, 48]], "imm_z_paper": [[1, 10], [11, 20], [21, 30]]}  # first bin trains (in-distribution), the others are OOD; the paper variants keep the released shapes at CPU size: dgc_paper [2, n], [n+1, 2n], [2n+1, 3n] with n is 6 (released n is 100); imm_mod and imm_z_paper [1, T], [T+1, T+g], [T+g+1, T+2g] with T is g is 16 and T is g is 10 (launchers: T is g is 100)
margin = 0.15  # spec §7.3: winner beats loser by ≥ 0.15 on the first OOD bin
device = "cpu"  # cpu | cuda | auto
max_train_seconds = 0.0  # wall-clock cap per run in seconds (0 means none; GPU check only)
select = "best"  # the released scripts keep the best in-distribution validation weights
sweep_executor = "local"  # submitit executor: local subprocesses here, slurm on a cluster, debug in-process
workers = 2  # jobs at once (local) or SLURM array parallelism; runs are single-threaded: same results for any count

# %%
import time

import numpy as np
import pandas as pd
from IPython.display import HTML

from lib.companion import notebook, paths, plotting, rules
from lib.linear_rnns import curves, decisions, perm_s3, rates, released, sidebyside, sweep, train
from lib.linear_rnns import tasks as T

nb = notebook.start("linear_rnns/08_trained_models", globals())
cfg, ledger, tables = nb.cfg, nb.ledger, nb.tables
fig2a = pd.read_csv(paths.data_file("linear_rnns/figure2a_dgc_accuracy.csv"))
task_kw = {"dgc": {"id_bits": cfg.dgc_id_bits, "p": cfg.p_bucket}}
ckpt_dir = paths.RESULTS / "linear_rnns" / "checkpoints" / cfg.profile
COLOR = {f: f"C{i}" for i, f in enumerate(cfg.families)}           # one colour per family, every figure
sweep_dir = paths.RESULTS / "linear_rnns" / "sweeps" / cfg.profile

# %% [markdown]
# ## Our tasks beside the released code's
# The `note` column carries what a row's released value hides: the released IMM-over-ℤ labels
# come from int64 products that wrap, counted exactly by notebook 09's deviation
# `audit.released_imm_int64_wrap`.

# %%
side = sidebyside.table(cfg)
side.to_csv(tables / "sidebyside.csv", index=False)
HTML(side.style.set_uuid("side_by_side").hide(axis="index").to_html())   # fixed id, no address

# %% [markdown]
# ## Test sets (frozen under data/linear_rnns/testsets when the parameters match) and baselines

# %%
loaded = {t: T.test_sets(t, cfg.bins[t], cfg.test_n, cfg.test_seed, **task_kw.get(t, {})) for t in cfg.tasks}
test = {t: v[0] for t, v in loaded.items()}
baselines = pd.DataFrame([dict(task=t, bin=f"{lo}-{hi}", frozen=loaded[t][1], majority=train.majority(s),
                               shortcut=train.shortcut(s), max_len=int(s.length.max()))
                          for t in cfg.tasks for s, (lo, hi) in zip(test[t], cfg.bins[t])])
baselines.to_csv(tables / "baselines.csv", index=False)
dgc_task = next((t for t in ("dgc_paper", "dgc") if t in cfg.tasks), None)
shortcut_cap = 0.55 + 3 / np.sqrt(cfg.test_n)
SHORTCUT = dict(statement="on the repaired generator the endpoint shortcut is near chance on the OOD "
                "bins (max over them)", source="spec §6.1a (S1: 50.0-54.8% on N 1-300)", provenance="reconstructed")
if dgc_task:
    ood_short = baselines[(baselines.task == dgc_task) & (baselines.bin != baselines[baselines.task == dgc_task].bin.iloc[0])]
    ledger.bound("t1.shortcut_repaired", **SHORTCUT, measured=float(ood_short.shortcut.max()), upper=shortcut_cap,
                 why=f"{dgc_task}: S1's largest value 0.55 + 3/sqrt(test_n), i.e. 6 binomial s.d. at p = 1/2; "
                 "small N (ID bin) lets the shortcut beat chance")
else:
    ledger.skip("t1.shortcut_repaired", **SHORTCUT, kind="bound", expected=f"<= {shortcut_cap:.4g}",
                reason="no DGC task in this run's tasks")
# Negative control: the same bound on OOD sets of the released, unrepaired generator must fail.
CONTROL = dict(statement="negative control: the shortcut bound rejects test sets of the released generator "
               "with its bucket bug (same bins, same size)", provenance="derived",
               source="spec §6.1a (the released bug); released code dgc/generate_data.py")
if dgc_task and shortcut_cap < 1:
    bug_rng = np.random.default_rng([cfg.test_seed, 8])
    bug_short = max(float(np.mean([released.shortcut(e, N) == lab
                                   for N, e, lab in released.dataset(cfg.test_n, lo, hi, bug_rng, True, cfg.p_bucket)]))
                    for lo, hi in cfg.bins[dgc_task][1:])
    ledger.exact("control.shortcut_bound_rejects_bug", **CONTROL, expected=False,
                 measured=bool(bug_short <= shortcut_cap))
else:
    ledger.skip("control.shortcut_bound_rejects_bug", **CONTROL, kind="exact", expected=False,
                reason="no DGC task in this run's tasks" if not dgc_task else
                f"at test_n = {cfg.test_n} the bound {shortcut_cap:.3g} is above 1 and rejects nothing")
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
# ## Training: every (task, family) one submitit job, its seeds batched; resumable from checkpoints

# %%
runs = train.plan(cfg.tasks, cfg.families, cfg.n_seeds, cfg.bins, task_kw, base_seed=1000 * cfg.seed,
                  settings=cfg.run_settings, d=cfg.d, layers=cfg.layers, steps=cfg.steps, batch=cfg.batch,
                  lr=cfg.lr, eval_every=cfg.eval_every, val_n=cfg.val_n,
                  max_seconds=cfg.max_train_seconds or None, select=cfg.select)
t0 = time.perf_counter()
acc = sweep.run_grid(runs, test, cfg.bins, ckpt_dir, sweep_dir, cfg.device, cfg.sweep_executor, cfg.workers)
wall = time.perf_counter() - t0
# Seconds differ on every run: they go to results/timings/ (the report's performance page), never
# into this stage's hashed tables or its executed copy.
nb.save_timing(acc.drop_duplicates(["task", "family", "seed"])[["task", "family", "seed", "train_seconds", "batched_seeds"]]
               .assign(profile=cfg.profile, device=str(train.resolve_device(cfg.device)),
                       executor=cfg.sweep_executor, grid_wall_seconds=round(wall, 1)), "training")
acc = acc.drop(columns="train_seconds")
n_test = {(t, i): len(s.length) for t in cfg.tasks for i, s in enumerate(test[t])}
acc["n"] = [n_test[t, i] for t, i in zip(acc.task, acc.bin_index)]
acc["correct"] = (acc.accuracy * acc.n).round().astype(int)         # accuracy = hits / n exactly
acc = rates.with_wilson(acc, "correct", "n", "accuracy")            # 95% Wilson per seed and bin
acc.to_csv(tables / "accuracy.csv", index=False)
summary = acc.groupby(["task", "family", "bin_index", "bin"], as_index=False).agg(
    accuracy=("accuracy", "mean"), lo=("accuracy_wilson_lo", "min"), hi=("accuracy_wilson_hi", "max"))
summary.pivot(index=["task", "family"], columns="bin_index", values="accuracy").to_csv(tables / "accuracy_wide.csv")
summary.pivot(index=["task", "family"], columns="bin_index", values="accuracy").round(3)

# %% [markdown]
# ## Accuracy per length bin, per family
# Points are the seed mean; bars run from the lowest seed's 95% Wilson lower bound to the highest
# seed's upper bound (`accuracy.csv` has each seed's interval).

# %%
def draw(ax, task):
    part = summary[summary.task == task]
    for j, (fam, g) in enumerate(part.groupby("family", sort=False)):
        ax.errorbar(g.bin_index + 0.03 * (j - 3.5), g.accuracy, yerr=[g.accuracy - g.lo, g.hi - g.accuracy],
                    fmt="o-", ms=3, lw=0.8, elinewidth=0.6, capsize=1.5, color=COLOR[fam], label=fam)
    base = baselines[baselines.task == task]
    ax.plot(range(len(base)), base.majority, "k--", lw=1, label="majority")
    ax.set_xticks(range(len(base)), base.bin, fontsize=6)
    ax.set(title=task, ylim=(0, 1.05), xlabel="length bin (first = ID)")


fig, axes = plotting.figure(ncols=len(cfg.tasks), width=2.0 * len(cfg.tasks), height=2.4)
axes = np.atleast_1d(axes)
for ax, task in zip(axes, cfg.tasks):
    draw(ax, task)
axes[0].set_ylabel("accuracy (last position)")
axes[-1].legend(fontsize=5, loc="lower left")
nb.save_figure(fig, "accuracy_per_bin")

# %% [markdown]
# ## Accuracy per test length and per step inside a sequence (the authors' `eval_by_T` / `eval_by_t`)
# The bins pooled and every example bucketed by its size (T, or N for DGC) and scored at its last
# position (`imm_unbound/eval_by_T.py`); for tasks labelled at every step, every supervised
# (example, t) pair bucketed by its position t (`imm_mod/eval_by_t.py`): a bin's accuracy blends
# easy short prefixes with hard long ones, and these curves show where a model stops. The trained
# seeds are reloaded from their checkpoints; lines are the seed mean, bands the envelope of the
# seeds' 95% Wilson intervals, dotted verticals the ends of the training bin.

# %%
by_len, by_step = curves.evaluate(runs, test, ckpt_dir, cfg.device)
by_len.to_csv(tables / "per_length.csv", index=False)
by_step.to_csv(tables / "per_step.csv", index=False)
binned = curves.per_bin(by_len, cfg.bins).merge(acc[["task", "family", "seed", "bin_index", "correct", "n"]],
                                                on=["task", "family", "seed", "bin_index"], suffixes=("", "_sweep"))
ledger.exact("curves.bins_agree", "the per-length counts of the reloaded models, summed over each test bin, "
             "equal the sweep's bin accuracy counts (every task, family, seed and bin)",
             source="derived (issue 44: the authors' eval_by_T / eval_by_t on our trained models)",
             provenance="derived", expected=len(acc),
             measured=int(((binned.correct == binned.correct_sweep) & (binned.n == binned.n_sweep)).sum()))


def draw_curve(ax, df, key, task, edge):
    for fam, g in curves.band(df[df.task == task], key).groupby("family", sort=False):
        ax.plot(g[key], g.accuracy, lw=0.9, color=COLOR.get(fam, "C0"), label=fam)
        ax.fill_between(g[key], g.lo, g.hi, color=COLOR.get(fam, "C0"), alpha=0.12, lw=0)
    ax.axvline(edge + 0.5, color="k", ls=":", lw=0.8)
    ax.set(title=task, ylim=(0, 1.05))


fig, axes = plotting.figure(ncols=len(cfg.tasks), width=2.0 * len(cfg.tasks), height=2.4)
for ax, task in zip(np.atleast_1d(axes), cfg.tasks):
    draw_curve(ax, by_len, "size", task, cfg.bins[task][0][1])
    ax.set_xlabel("N (target node)" if task.startswith("dgc") else "length T")
np.atleast_1d(axes)[0].set_ylabel("accuracy (last position)")
np.atleast_1d(axes)[0].legend(fontsize=5, loc="lower left")
nb.save_figure(fig, "per_length")

# %% [markdown]
# ## The S₃ permutation variant of IMM (the authors' `imm_mod/gen_perm.py`)
# Each step a uniform element of S₃ as a 3×3 permutation matrix; the label at step t is which of
# the six permutations $P_t = M_1 \cdots M_t$ is (released enumeration order). It sits on the
# NC¹ side of the paper's line: a one-layer permutation-diagonal LRNN (the regular representation,
# `perm_s3.pd_lrnn_labels`) tracks it exactly at every length, while a diagonal LRNN (commuting
# transitions) cannot tell $ab$ from $ba$. The generator (exact integer matrix products) is checked
# against the group's 6-state automaton (`perm_s3.automaton_labels`, from permutation tuples) on
# test streams with imm_mod's bins. *No model is trained on it:* the training registry is
# `tasks.py`, whose code names every cached checkpoint, so a new task there would retrain the whole
# grid (far over the ~30 s a variant may cost); the exact references stand in.

# %%
s3 = [perm_s3.sample(cfg.test_n, lo, hi, np.random.default_rng([cfg.test_seed, 30, i]))
      for i, (lo, hi) in enumerate(cfg.bins["imm_mod"])]
s3_valid = [np.arange(g.shape[1])[None] < n[:, None] for g, _, n in s3]     # (n, T) real positions
s3_auto = sum(int((perm_s3.automaton_labels(g) == y)[v].sum()) for (g, y, _), v in zip(s3, s3_valid))
s3_pd = [(perm_s3.pd_lrnn_labels(g) == y) for g, y, _ in s3]
s3_total = sum(int(v.sum()) for v in s3_valid)
S3 = dict(source="released code imm_mod/gen_perm.py; paper Thm (PD LRNNs are NC¹-complete); issue 44",
          provenance="derived")
ledger.exact("s3.generator_equals_automaton", "S3 variant: the generator's labels (integer permutation-matrix "
             "products) equal the S3 automaton's at every step of every test stream", **S3,
             expected=s3_total, measured=s3_auto)
ledger.exact("s3.pd_lrnn_exact", "S3 variant: a one-layer PD LRNN (the regular representation of S3, a "
             "permutation-diagonal transition per token) labels every step of every test stream, in and "
             "out of the training lengths", **S3, expected=s3_total,
             measured=sum(int(h[v].sum()) for h, v in zip(s3_pd, s3_valid)))
ledger.exact("s3.noncommuting_pairs", "S3 variant: 18 of the 36 ordered pairs (a, b) have ab != ba (enumerated "
             "against |G|^2 - |G| k(G)), so a diagonal LRNN, which reads ab and ba alike, mislabels at least "
             "9 of the 36 streams of length 2", **S3, expected=perm_s3.noncommuting_pairs()[1],
             measured=perm_s3.noncommuting_pairs()[0])
s3_split = [T.Split(x=g + 1, y=y, mask=v, length=n) for (g, y, n), v in zip(s3, s3_valid)]
s3_steps = curves.stack([curves.by_step(s3_pd, s3_split).assign(task="s3_perm", family="pd_lrnn", seed=0)], "t")
s3_steps = s3_steps.merge(curves.step_majority(s3_split), on="t")
s3_steps.to_csv(tables / "s3_per_step.csv", index=False)
s3_steps.head()

# %%
step_tasks = [t for t in cfg.tasks if curves.per_step_task(t)]
fig, axes = plotting.figure(ncols=len(step_tasks) + 1, width=2.0 * (len(step_tasks) + 1), height=2.4)
axes = np.atleast_1d(axes)
for ax, task in zip(axes, step_tasks):
    draw_curve(ax, by_step, "t", task, cfg.bins[task][0][1])
    base = curves.step_majority(test[task])
    ax.plot(base.t, base.majority, "k--", lw=0.8, label="majority")
    ax.set_xlabel("step t")
draw_curve(axes[-1], s3_steps, "t", "s3_perm", cfg.bins["imm_mod"][0][1])
axes[-1].plot(s3_steps.t, s3_steps.majority, "k--", lw=0.8, label="majority")
axes[-1].set(title="s3_perm (exact PD LRNN)", xlabel="step t")
axes[0].set_ylabel("accuracy at step t")
axes[0].legend(fontsize=5, loc="upper right")
nb.save_figure(fig, "per_step")

# %% [markdown]
# ## Figure 2a beside our DGC (bins matched by position: ID, OOD 1, OOD 2)

# %%
PAPER_NAME = {"rnn": "Nonlinear RNN", "rwkv7": "RWKV-7", "deltanet": "DeltaNet", "diag_pos": "Mamba",
              "transformer": "Transformer"}
ours2a = summary[(summary.task == dgc_task) & summary.family.isin(list(PAPER_NAME))] if dgc_task else summary[:0]
fig, (ax_p, ax_o) = plotting.figure(ncols=2, width=6.0, height=2.4)
for i, (fam, name) in enumerate(PAPER_NAME.items()):
    vals = fig2a[fig2a.model == name].accuracy_percent.to_numpy() / 100
    ax_p.bar(np.arange(len(vals)) + 0.16 * (i - 2), vals, 0.16, label=name)
    mine = ours2a[ours2a.family == fam]
    ax_o.bar(mine.bin_index + 0.16 * (i - 2), mine.accuracy, 0.16, label=f"{fam} ({name})")
ax_p.set(title="paper Figure 2a (N 1-100 / 101-200 / 201-300)", ylim=(0, 1.05), ylabel="accuracy")
ax_p.set_xticks(range(3), ["ID", "OOD 1", "OOD 2"])
ax_o.set(title=f"ours: {dgc_task} {cfg.bins.get(dgc_task, '')}", ylim=(0, 1.05))
ax_o.set_xticks(range(3), ["ID", "OOD 1", "OOD 2"])
ax_o.legend(fontsize=5, loc="lower left")
nb.save_figure(fig, "figure2a")

# %% [markdown]
# ## Does every family fit the in-distribution bin? (per family and seed)

# %%
id_acc = acc[acc.bin_index == 0]
fits = id_acc[["task", "family", "seed", "accuracy", "majority"]].assign(
    fits=id_acc.accuracy >= decisions.FITS_IN_DISTRIBUTION)
fits.to_csv(tables / "fits.csv", index=False)
FITS = dict(source="paper §6 (\"all models fit the in-distribution data\"); spec §6.5", provenance="reconstructed")
for task in T.TASKS:
    statement = (f"{task}: every family fits the in-distribution bin (ID accuracy >= "
                 f"{decisions.FITS_IN_DISTRIBUTION} in every seed)")
    part = fits[fits.task == task]
    if part.empty:
        ledger.skip(f"{task}.every_family_fits_id", statement, **FITS, kind="statistical",
                    expected="no (family, seed) below the floor", reason=f"task {task} is not in this run")
        continue
    bad = decisions.misfits({(r.family, r.seed): r.accuracy for r in part.itertuples()})
    per_seed = part.pivot(index="seed", columns="family", values="accuracy").to_numpy()   # (seeds, families)
    ledger.statistical(f"{task}.every_family_fits_id", statement, **FITS,
                       expected="no (family, seed) below the floor",
                       measured=f"below: {bad or 'none'}; ID accuracy min {part.accuracy.min():.3f}, "
                       f"majority {part.majority.iloc[0]:.3f}",
                       **rules.evidence(per_seed, lambda a: not (a < decisions.FITS_IN_DISTRIBUTION).any(),
                                                 f"one seed ({part.seed.iloc[0]})"))
fits.pivot_table(index=["task", "family"], columns="seed", values="accuracy").round(3)

# %% [markdown]
# ## Expected orderings (Figure 2 on the paper variants, [spec §7.3](../../docs/specs/linear_rnns.md#s7-3) on ours) as statistical claims

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
done = {(r.task, r.winner, r.loser): r for r in checks.itertuples()}
for task, w, lo, strict, source in train.expected_pairs():
    m = cfg.margin if strict else 0.0
    statement = f"{task}: {w} beats {lo} by >= {m} on the first OOD bin"
    r = done.get((task, w, lo))
    if r is None:
        ledger.skip(f"{task}.{w}_beats_{lo}", statement, source=source, provenance="reconstructed",
                    kind="statistical", expected=f">= {m} in >= 2 of 3 seeds",
                    reason=f"task {task} or family {w} / {lo} is not in this run")
        continue
    ledger.statistical(f"{task}.{w}_beats_{lo}", statement, source=source, provenance="reconstructed",
                       expected=f">= {r.margin} in >= {rules.seeds_needed(len(r.gaps), decisions.SEED_FRACTION)} of {len(r.gaps)} seeds",
                       measured=f"gaps {r.gaps}; winner ID gap {r.winner_id_gap}, OOD gaps over "
                       f"majority {r.pair_ood_gaps}",
                       requires=(r.precondition, PRECONDITION[r.strict]),
                       **rules.evidence(np.array(r.gaps), lambda g, m=r.margin: decisions.ordering_holds(list(g), m),
                                                 "one seed"))
high = f">= {decisions.RNN_HIGH} in >= {rules.seeds_needed(cfg.n_seeds, decisions.SEED_FRACTION)} of {cfg.n_seeds} seeds"
HIGH = dict(statement=f"DGC: the nonlinear RNN is >= {decisions.RNN_HIGH} accurate on every bin",
            source="spec §7.3; Figure 2a (RNN 96.5-100%)", provenance="reconstructed")
if dgc_task and "rnn" in cfg.families:
    rnn = acc[(acc.task == dgc_task) & (acc.family == "rnn")].groupby("seed").accuracy.min()
    ledger.statistical("dgc.rnn_high_all_bins", **HIGH, expected=high,
                       measured=f"{dgc_task}: min over bins per seed {rnn.round(3).tolist()}",
                       **rules.evidence(rnn.to_numpy(), lambda a: decisions.high_in_enough_seeds(list(a)),
                                                 f"one seed ({rnn.index[0]})"))
else:
    ledger.skip("dgc.rnn_high_all_bins", **HIGH, kind="statistical", expected=high,
                reason="no DGC task or no family rnn in this run")
learned = train.learned_checks(acc, decisions.LEARNED_MARGIN)
learned.to_csv(tables / "learned.csv", index=False)
id_rows = acc[acc.bin_index == 0].assign(gap=lambda f: f.accuracy - f.majority)
for r in learned.itertuples():
    id_gaps = id_rows[id_rows.task == r.task].pivot(index="seed", columns="family", values="gap").to_numpy()
    ledger.statistical(f"{r.task}.learned_in_distribution", f"{r.task}: the best family beats the majority "
                       f"baseline by >= {decisions.LEARNED_MARGIN} on the in-distribution bin (else the "
                       "orderings compare untrained models)",
                       source="spec §6.5 [I] (compare against per-bin majority baselines)", provenance="reconstructed",
                       expected=f">= {decisions.LEARNED_MARGIN}", measured=f"{r.best} {r.gap:.3f}",
                       **rules.evidence(id_gaps, lambda g: decisions.beats_majority(float(g.mean(axis=0).max())),
                                                 "one seed"))
checks

# %%
nb.finish()

# %% [markdown]
# **What we saw** (default profile: seeds batched per family, a step cap, narrow one-layer
# models; the numbers are in `fits.csv` and the claims table, the wall time in
# `results/timings/`). `models.scan_equals_sequential` says whether the scan equals the loop, and
# `t1.shortcut_repaired` whether the repaired generator leaves the DGC shortcut at chance on the
# OOD bins.
# **Does every family fit the in-distribution bin?** Each task's `*.every_family_fits_id` lists
# the families and seeds below 0.95, and `*.learned_in_distribution` says whether the best family
# left the majority baseline at all (on `imm_mod` a ℤ₂₉ product must be learned from the
# 29-way baseline). Where every family sits at the same accuracy a little above a balanced
# baseline, that is the mark of a shared shortcut rather than a product.
# **Orderings.** Whether the Figure 2 orderings appear is each `*_beats_*` claim's status, with
# the per-seed gaps beside it. On `dgc_paper` the OOD bins' node ids are wider than any seen in
# training (the released variable-width encoding implies it), so a family at chance there
# fails `dgc_paper.rnn_beats_*` and `dgc.rnn_high_all_bins` whatever it learned in
# distribution; an ordering whose winner did not learn the training bin is `inconclusive`.
# Every verdict here is decided on the seeds and resampled over them (its `stability`): a pass or
# fail that 2 of 3 seeds carry, and a resample of the seeds would undo, is recorded `inconclusive`.
# **Per length and per step** (`per_length.csv`, `per_step.csv`; `curves.bins_agree` says the
# reloaded models reproduce the sweep's bin counts exactly): where a bin's accuracy sits between
# the extremes, the curves show whether the model degrades gradually inside the bin or drops at a
# length; with a few examples per length the Wilson bands are wide, so read a curve's trend, not
# its single points. The S₃ variant is the released permutation task on the NC¹ side: the PD
# LRNN's exact run and the automaton agree with the generator at every step
# (`s3.generator_equals_automaton`, `s3.pd_lrnn_exact`), while a diagonal LRNN is bounded away from
# it by the non-commuting pairs (`s3.noncommuting_pairs`); no model was trained on it (see its
# section). The side-by-side table's `note` column points at notebook 09's count of the released
# IMM-over-ℤ labels that int64 wraps (`audit.released_imm_int64_wrap`).
# Failures mean "not reproduced at this scale", not "refuted": the released runs train 256-wide
# models for 30K-60K steps on N, T <= 100; the `paper` profile carries those settings
# (`run_settings`) for a GPU (`tools/gpu_paper_linear_rnns.sh`), and has not been run: no GPU was
# lent to the session that built it.
