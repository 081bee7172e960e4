# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Spike-HTR miniature, part 1: synthetic lines, the CTC machinery, and the shared training
#
# **Claim of the paper made concrete** (abstract [ABS]; [spec §2](../../docs/specs/spike_htr.md#s2) P4, D1, D2). A spiking
# transformer recognizer run at T = 2 time steps reads handwritten text lines, trained with CTC,
# with no language model and no lexicon.
#
# **What this notebook shows** ([spec §1.1](../../docs/specs/spike_htr.md#s1-1), [§1.2](../../docs/specs/spike_htr.md#s1-2), [§1.4](../../docs/specs/spike_htr.md#s1-4), [spec NB01](../../docs/specs/spike_htr.md#s3)).
# Text lines of random syllables (no language structure) rendered from 17 Debian handwriting
# faces, 14 for training and same-font testing, 3 held out; CTC's loss, the greedy collapse,
# the character error rate and the LIF neuron checked exactly against plain loops (with a negative
# control: the loss check rejects labels shifted by one class); then the one training stage the
# three notebooks share: the claims' models, trained with CTC alone as the spec's NB01 says (the
# non-spiking twin, ReLU and softmax attention; the spiking recognizer at T = 2, LIF and
# softmax-free attention, with a snapshot at 400 steps), and notebook 03's ANN with its auxiliary
# CTC head and the same run continued with top-r reduction in training, in two processes. Their
# checkpoints are this notebook's tables; notebooks 02 and 03 read them.
#
# **Decisions where the spec is open** ([spec §7](../../docs/specs/spike_htr.md#s7)). The budget (Q1): the ANNs 800 steps, the
# SNN 800 steps with its step-400 snapshot, so that `train.snn_learns` is checked at both of the
# spec's thresholds (0.90 at 400, 0.65 at 800); the SNN runs on one core while the ANN chain
# and the CTC-only ANN run on the other (about 300 CPU-seconds in all, two minutes of them the
# SNN's 800 steps on their core). The auxiliary head (λ_aux = 0.5) trains only with
# notebook 03's ANN: the spec's thresholds belong to runs without it (its prototype: ANN 0.254
# without, 0.335 with). The lines are rendered once at build time (the fonts are Debian packages,
# not pip ones: `tools/build_data_spike_htr.py`) at W = 128, M = 10, with the pixel noise drawn
# at load time from each split's seed; LIF with τ = 2, hard reset, the surrogate σ′(4u), shared
# with the other spiking papers (`lib/spiking/integrate.py`); the attention scale 1/(8√d) (Q4,
# `attn_div`). Each is a parameter. One training seed: the claims are resampled over the test
# lines, so their stability measures the test sample, not the seed.
#
# **What it cannot show ([spec §8](../../docs/specs/spike_htr.md#s8)).** The paper's CERs on IAM (5.4), LAM (2.5) and
# READ2016 (3.9): the data sets need registration and a GPU-sized model; they are quoted below,
# never compared. Font lines are easier in shape than handwriting, and random syllables carry no
# language prior; the held-out faces are the closest proxy for unseen writers.
#
# **Look for:** the CTC plateau (loss near 3) before the drop; the SNN behind the ANN at equal
# steps; the ANN with the auxiliary head behind the one without at equal steps; the held-out
# faces' higher CER; the long blank runs between characters in the alignments, which notebook 03
# removes.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
executor = "local"  # the training chains (ANN then its reduction arm, the SNN, the CTC-only ANN) as sweep runs on local subprocesses: minutes each, so a process start-up is cheap and the SNN runs beside the ANN chain (inline: one after the other)
workers = 2  # training chains at once (one torch thread each): the ANN chain and the SNN side by side on two cores; the weights do not depend on it
slurm_partition = ""  # SLURM partition ('' the cluster's default)
slurm_gpus = 0  # GPUs per SLURM job
slurm_time_min = 240  # a SLURM job's time limit in minutes (≤ 14 days, the runner's paper limit)
n_test = 300  # spec NB01: 300 same-font and 300 held-out-font test lines
chunk = 100  # test lines per forward pass in evaluation
train_fonts = ["BecauseWeBuild-Regular.otf", "BecauseWeConnect-Regular.otf", "BecauseWeCreate-Regular.otf", "BecauseWeLearn-Regular.otf", "BecauseWeMentor-Regular.otf", "BecauseWeOrganize-Regular.otf", "Breip.ttf", "breipfont.ttf", "femkeklaver.ttf", "dkg.ttf", "dkgBI.ttf", "dkgBd.ttf", "dkgIt.ttf", "Humor-Sans.ttf"]  # spec §1.1: the 14 training faces (the 3 held-out ones are test_heldout's only)
n_train = 4000  # spec NB01: 4 000 training lines (the file holds 6 000)
channels = [16, 32, 48]  # spec §1.2 default: c1, c2, c3
d = 64  # spec §1.2 default: d is 64
blocks = 2  # spec §1.2 default: N is 2 blocks
T = 2  # spec §1.2: T is 2 spiking time steps (the abstract's)
tau = 2.0  # spec §1.2: LIF tau is 2
v_th = 1.0  # spec §1.2: v_th is 1
alpha = 4.0  # spec §1.2: the surrogate is the derivative of sigma(4u)
attn_div = 8.0  # spec §1.2 / Q4: spike-driven attention LIF((Q K^T) V / (8 sqrt d)); the 8 is the spec's own choice
stream = "static"  # spec NB01: the SNN trains on the static stream
ann_steps = 800  # spec §6: the ANN with its aux head, 800 steps
snn_steps = 800  # spec NB01: the SNN 800 steps (train.snn_learns's second threshold, 0.65) ...
snn_check_at = 400  # ... and its step-400 snapshot for the first (0.90, spec §6's budget)
batch = 32  # spec NB01: batch 32
lr = 0.001  # spec NB01: Adam 1e-3
aux_weight = 0.5  # spec §1.5: lambda_aux is 0.5 for the reducer's ANN (notebook 03) and its reduction arm
plain_aux_weight = 0.0  # spec NB01: the claims' ANN and SNN train with CTC alone (the spec prototype's 0.254 / 0.782 / 0.471 are runs without the aux head)
reduce_from = 400  # spec NB03: the train-with-reduction arm, r is 0.5 from step 400 on ...
reduce_r = 0.5  # ... (continuing the ANN's run from its step-400 snapshot)
eval_every = 100  # same-font CER during training every 100 steps (spec F1.2) ...
n_eval = 100  # ... on 100 lines (at most n_test)
n_cases = 20  # spec NB01: 20 random CTC cases (L ≤ 12, U ≤ 5) checked against the recursion

# %%
import dataclasses

import numpy as np
import pandas as pd
import torch

from lib.companion import notebook, plotting
from lib.spike_htr import alphabet, coder, ctc, data, decisions, naive, train
from lib.spike_htr.model import Arch
from lib.spiking import integrate, memory
from lib.spiking import naive as spiking_naive

memory.reuse_freed_memory()          # fewer page faults: lib/spiking/memory.py
nb = notebook.start("spike_htr/01_synthetic_lines_ctc", globals())
cfg, ledger, rng, tables = nb.cfg, nb.ledger, nb.rng, nb.tables
train_lines = data.load("train", cfg.n_train, fonts=tuple(cfg.train_fonts))
tests = {split: data.load(split, cfg.n_test) for split in ("test_same", "test_heldout")}
width = train_lines.images.shape[-1]
print(f"{len(train_lines)} training lines from {len(cfg.train_fonts)} faces, width {width}; "
      f"held-out faces: {', '.join(data.held_out_faces())}")

# %% [markdown]
# ## The lines: one per face

# %%
held = tests["test_heldout"]
faces = [(train_lines, i) for i in sorted(set(train_lines.font.tolist()))]
faces += [(held, i) for i in sorted(set(held.font.tolist()))]
fig, axes = plotting.figure(nrows=len(faces), width=5.0, height=0.42 * len(faces), squeeze=False)
for ax, (lines, face) in zip(axes[:, 0], faces):
    row = int(np.flatnonzero(lines.font == face)[0])
    ax.imshow(lines.images[row, 0], cmap="gray", vmin=0, vmax=1, aspect="auto")
    tag = " (held out)" if lines is held else ""
    ax.set_title(f"{lines.font_names[face]}{tag}: '{lines.texts[row]}'", fontsize=6, loc="left",
                 pad=2)
    ax.set_axis_off()
nb.save_figure(fig, "samples")

# %% [markdown]
# ## CTC's loss against its forward recursion, and the shortest feasible input (D1, D2)
#
# Random float64 log-probabilities (L ≤ 12 positions, 28 classes) and label sequences
# (U ≤ 5, half of them from a 3-letter alphabet so that adjacent repeats occur), the empty label
# among them. Feasible cases (L ≥ U + r(y)) compare torch's loss with `naive.ctc_nll_naive`;
# infeasible ones (L < U + r(y)) must give +∞ on both sides.

# %%
def random_case(feasible: bool) -> tuple[np.ndarray, list[int]]:
    """One CTC case: log-probabilities (L, 28) and labels, with L on the asked side of U + r."""
    while True:
        U = int(rng.integers(0, 6))
        top = 4 if rng.random() < 0.5 else alphabet.CLASSES
        labels = rng.integers(1, top, U).tolist()
        need = ctc.min_length(labels)
        lo, hi = (max(1, need), 12) if feasible else (1, need - 1)
        if lo <= hi:
            L = int(rng.integers(lo, hi + 1))
            logits = torch.from_numpy(2.0 * rng.standard_normal((L, alphabet.CLASSES)))
            return logits.log_softmax(-1).numpy(), labels


def torch_nll(lp: np.ndarray, labels: list[int], zero_infinity: bool = False) -> float:
    return float(ctc.loss(torch.from_numpy(lp)[:, None], torch.tensor(labels, dtype=torch.long),
                          torch.tensor([len(labels)]), reduction="sum",
                          zero_infinity=zero_infinity))


feasible = [random_case(True) for _ in range(cfg.n_cases)]
feasible[0] = (feasible[0][0], [])                       # the empty label: -sum log p(blank)
rows = [{"L": len(lp), "U": len(y), "repeats": ctc.repeats(y), "torch": torch_nll(lp, y),
         "naive": naive.ctc_nll_naive(lp, y)} for lp, y in feasible]
cases = pd.DataFrame(rows)
cases["abs_diff"] = (cases.torch - cases.naive).abs()
empty_lp = feasible[0][0]
ledger.close("ctc.loss_matches_naive", f"torch's CTC loss equals the forward recursion in "
             f"float64 log space on {cfg.n_cases} random feasible cases (L <= 12, U <= 5, "
             f"{int((cases.repeats > 0).sum())} with adjacent repeats, the empty label among "
             "them): largest |difference|", source="spec §1.4 (D1)", provenance="derived",
             expected=0.0, measured=float(cases.abs_diff.max()), atol=decisions.CTC_ATOL,
             why="float64, two summation orders")
infeasible = [random_case(False) for _ in range(cfg.n_cases)]
both_inf = sum(np.isinf(torch_nll(lp, y)) and np.isinf(naive.ctc_nll_naive(lp, y))
               and torch_nll(lp, y, zero_infinity=True) == 0.0 for lp, y in infeasible)
ledger.exact("ctc.infeasible_is_inf", f"on {cfg.n_cases} random cases with L < U + r(y) torch's "
             "loss (zero_infinity = False) and the recursion are both +inf, and zero_infinity "
             "= True gives 0", source="spec §1.4 (D2)", provenance="derived",
             expected=cfg.n_cases, measured=int(both_inf))
shifted = max(abs(torch_nll(lp, y) - naive.ctc_nll_naive(lp, [c % (alphabet.CLASSES - 1) + 1
                                                            for c in y]))
              for lp, y in feasible if y)
ledger.exact("control.ctc_wrong_labels", "negative control: the loss comparison rejects a "
             "recursion run on labels shifted by one class (the check can fail)",
             source="issue 42 (a negative control per mechanism)", provenance="derived",
             expected=False, measured=bool(shifted <= decisions.CTC_ATOL))
cases.to_csv(tables / "ctc_cases.csv", index=False)
print(f"empty label: torch {torch_nll(empty_lp, []):.12f}, "
      f"-sum log p(blank) {-empty_lp[:, alphabet.BLANK].sum():.12f}")
cases.head()

# %% [markdown]
# ## The LIF neuron against its scalar loop
#
# The network's neuron (`lib/spiking/integrate.lif_hard_reset`) on random float64 currents,
# spike for spike against `lif_hard_reset_naive` (one neuron, one step at a time).

# %%
lif_total, lif_equal = 0, 0
for T in sorted({cfg.T, 8}):
    current = torch.from_numpy(1.5 * rng.standard_normal((T, 4096)) + 0.8)
    fast = integrate.lif_hard_reset(current, cfg.tau, cfg.v_th, cfg.alpha).numpy()
    slow = spiking_naive.lif_hard_reset_naive(current.numpy(), cfg.tau, cfg.v_th)
    lif_total += fast.size
    lif_equal += int((fast == slow).sum())
ledger.exact("lif.matches_naive", f"hard-reset LIF spikes (tau = {cfg.tau:g}, v_th = "
             f"{cfg.v_th:g}) equal the scalar loop's, bit for bit, at T = {cfg.T} and 8 on "
             "4 096 random neurons each", source="spec §1.2", provenance="derived",
             expected=lif_total, measured=lif_equal)

# %% [markdown]
# ## The shared training: ANN (+ aux head), the same continued with reduction, and the SNN
#
# Three chains, each one run of the sweep engine (`executor`, `workers` at once, one torch thread
# each): the ANN, whose step-`reduce_from` snapshot the reduction arm continues from, the SNN, and
# the CTC-only ANN. The weights do not depend on the executor or on `workers`.

# %%
def arch(spiking: bool) -> Arch:
    return Arch(channels=tuple(cfg.channels), d=cfg.d, blocks=cfg.blocks, width=width,
                spiking=spiking, T=cfg.T, tau=cfg.tau, v_th=cfg.v_th, alpha=cfg.alpha,
                attn_div=cfg.attn_div)


common = dict(batch=cfg.batch, lr=cfg.lr, seed=cfg.seed, n_train=cfg.n_train,
              eval_every=cfg.eval_every, n_eval=cfg.n_eval, fonts=tuple(cfg.train_fonts))
jobs = {"ann": train.Job("ann", arch(False), steps=cfg.ann_steps, snapshot_at=cfg.reduce_from,
                         aux_weight=cfg.aux_weight, **common),
        "ann_reduce": train.Job("ann_reduce", arch(False), steps=cfg.ann_steps,
                                resume=("ann", cfg.reduce_from), reduce_r=cfg.reduce_r,
                                aux_weight=cfg.aux_weight, **common),
        "snn": train.Job("snn", arch(True), stream=cfg.stream, steps=cfg.snn_steps,
                         snapshot_at=cfg.snn_check_at, aux_weight=cfg.plain_aux_weight,
                         **common),
        "ann_ctc": train.Job("ann_ctc", arch(False), steps=cfg.ann_steps,
                             aux_weight=cfg.plain_aux_weight, **common)}
# two at once: the ANN chain beside the SNN, then the CTC-only ANN on the first core free
results = train.run_all([[jobs["ann"], jobs["ann_reduce"]], [jobs["snn"]], [jobs["ann_ctc"]]],
                        cfg, nb.id)
for name, result in results.items():
    train.save(tables / "checkpoints" / f"{name}.pt", jobs[name], result.state)
snn_early = dataclasses.replace(jobs["snn"], name="snn_early", steps=cfg.snn_check_at,
                                snapshot_at=None)
train.save(tables / "checkpoints" / "snn_early.pt", snn_early,
           results["snn"].snapshot["model"])
history = pd.DataFrame([row for r in results.values() for row in r.history])
history.to_csv(tables / "history.csv", index=False)
history.dropna().pivot(index="step", columns="job", values="cer").round(3)

# %% [markdown]
# ## CER on the test lines, same faces and held-out faces
#
# The claims' models (trained with CTC alone, as the spec's NB01 says): the ANN control and the
# SNN at its two budgets; beside them the ANN with the auxiliary head that notebook 03 reduces.

# %%
models = {"ann_ctc": "ann_ctc", "snn_early": "snn_early", "snn": "snn", "ann": "ann"}
nets = {name: train.load(tables / "checkpoints" / f"{name}.pt") for name in models}
outputs, cer_rows, edits = {}, [], {}
with torch.no_grad():
    for name, (net, job) in nets.items():
        for split, lines in tests.items():
            main = torch.cat([net(coder.input_stream(lines.images[i:i + cfg.chunk],
                                                           net.steps(), job.stream))[0]
                              for i in range(0, len(lines), cfg.chunk)], dim=1)
            outputs[name, split] = main
            truth = [alphabet.encode(t) for t in lines.texts]
            edits[name, split] = ctc.line_edits(ctc.greedy_decode(main), truth)    # (B, 2)
            cer_rows.append({"model": name, "split": split, "lines": len(lines),
                             "steps": job.steps, "aux_weight": job.aux_weight,
                             "cer": ctc.cer(ctc.greedy_decode(main), truth)})
cer = pd.DataFrame(cer_rows)
cer.to_csv(tables / "cer.csv", index=False)
cer.pivot(index="model", columns="split", values="cer").round(3)

# %% [markdown]
# ## Greedy decoding and CER against their plain loops, on every test line of both models

# %%
lines_checked, decode_equal, distance_equal = 0, 0, 0
for (name, split), main in outputs.items():
    fast = ctc.greedy_decode(main)
    truth = [alphabet.encode(t) for t in tests[split].texts]
    for b, (path, y) in enumerate(zip(fast, truth)):
        lines_checked += 1
        decode_equal += path == naive.greedy_naive(main[:, b].numpy())
        distance_equal += ctc.edit_distance(path, y) == naive.levenshtein_naive(path, y)
ledger.exact("decode.greedy_matches_naive", "greedy decoding (argmax, merge repeats, drop "
             "blanks, vectorised) gives the per-position loop's label sequence on every test "
             "line of every model", source="spec §1.4", provenance="derived",
             expected=lines_checked, measured=int(decode_equal))
ledger.exact("cer.matches_naive", "the vectorised edit distance of every decoded test line to "
             "its label equals the textbook Levenshtein table in Python ints",
             source="spec §1.4", provenance="derived", expected=lines_checked,
             measured=int(distance_equal))

# %% [markdown]
# ## Claims of the training (thresholds fixed in lib/spike_htr/decisions.py before the run)

# %%
same = cer[cer.split == "test_same"].set_index("model").cer
rows_of = {name: edits[name, "test_same"] for name in models}          # (lines, 2) each
ledger.statistical("train.ann_learns", "the non-spiking twin, trained with CTC alone, learns "
                   f"the synthetic lines: same-font CER <= {decisions.ANN_CER} after the default "
                   "budget", source="spec NB01 (P4, the ANN control)", provenance="reconstructed",
                   expected=f"CER <= {decisions.ANN_CER} [spec prototype 0.254]",
                   measured=float(same["ann_ctc"]), samples=rows_of["ann_ctc"],
                   decide=lambda r: decisions.learns(decisions.pooled_cer(r[:, 0], r[:, 1]),
                                                     decisions.ANN_CER),
                   tolerance=f"one seed; replicates: the {cfg.n_test} same-font lines",
                   requires=(cfg.ann_steps >= 800, "the default budget, ann_steps >= 800"))
early_limit = decisions.snn_threshold(cfg.snn_check_at)
late_limit = decisions.snn_threshold(cfg.snn_steps)
snn_rows = np.column_stack([rows_of["snn_early"][:, 0], rows_of["snn"]])   # early, late, length


def snn_learns(r):
    """Both budgets' thresholds on the pooled CER of the lines drawn."""
    return (early_limit is not None and late_limit is not None
            and decisions.learns(decisions.pooled_cer(r[:, 0], r[:, 2]), early_limit)
            and decisions.learns(decisions.pooled_cer(r[:, 1], r[:, 2]), late_limit))


ledger.statistical("train.snn_learns", "the spiking recognizer at T = 2, trained with CTC alone, "
                   "learns: same-font CER <= 0.90 after 400 steps and <= 0.65 after 800, both "
                   "below the empty prediction's 1.0",
                   source="abstract P4 via spec NB01 (thresholds the spec's)",
                   provenance="reconstructed",
                   expected=f"CER <= {early_limit} at {cfg.snn_check_at} steps and <= "
                            f"{late_limit} at {cfg.snn_steps} [spec prototype 0.782 at 400, "
                            "0.482 at 800]",
                   measured=f"{same['snn_early']:.3f} at {cfg.snn_check_at}, {same['snn']:.3f} "
                            f"at {cfg.snn_steps}",
                   samples=snn_rows, decide=snn_learns,
                   tolerance=f"one seed; replicates: the {cfg.n_test} same-font lines",
                   requires=(cfg.snn_check_at == 400 and cfg.snn_steps >= 800,
                             "the spec's two budgets: a snapshot at 400 steps and >= 800 steps"))
gap_rows = np.column_stack([rows_of["snn"][:, 0], rows_of["ann_ctc"]])    # SNN, ANN, length
ledger.qualitative("train.snn_vs_ann_gap", "per training step the spiking twin learns slower "
                   "than the ANN (both with CTC alone): at equal steps its same-font test CER is "
                   "higher", source="spec NB01", provenance="reconstructed",
                   expected="CER(SNN) > CER(ANN) at equal steps",
                   measured=f"SNN {same['snn']:.3f} at {cfg.snn_steps} steps, ANN "
                            f"{same['ann_ctc']:.3f} at {cfg.ann_steps}",
                   samples=gap_rows,
                   decide=lambda r: decisions.pooled_cer(r[:, 0], r[:, 2])
                   > decisions.pooled_cer(r[:, 1], r[:, 2]),
                   requires=(cfg.snn_steps == cfg.ann_steps and cfg.ann_steps >= 200,
                             "equal steps, both past the CTC plateau (>= 200 steps)"))
ledger.skip("paper.cer_iam_lam_read", "test CER 5.4 (IAM), 2.5 (LAM), 3.9 (READ2016) at T = 2, "
            "without LM or lexicon", source="abstract P1", provenance="paper",
            kind="statistical", expected=", ".join(f"{k} {v}" for k, v in
                                                  decisions.PAPER_CER.items()),
            reason="IAM, LAM and READ2016 need registration and are not offline; a model of the "
                   "paper's size needs GPU training (spec §8)")

# %% [markdown]
# ## Figures

# %%
colours = dict(zip(["ann_ctc", "snn", "ann", "ann_reduce"], plotting.palette(4)))
colours["snn_early"] = colours["snn"]
labels = {"ann_ctc": "ANN (CTC alone)", "ann": "ANN + aux head (notebook 03)",
          "ann_reduce": f"ANN + aux, top-r {cfg.reduce_r:g} in training",
          "snn": f"SNN, T = {cfg.T} (CTC alone)", "snn_early": f"SNN, T = {cfg.T}, snapshot"}
fig, axes = plotting.figure(ncols=2, width=10.0, squeeze=False)
for name, h in history.groupby("job"):
    smooth = h.loss.rolling(20, min_periods=1).mean()
    axes[0, 0].plot(h.step, smooth, color=colours[name], label=labels[name])
    e = h.dropna(subset=["cer"])
    axes[0, 1].plot(e.step, e.cer, "o-", ms=3, color=colours[name], label=labels[name])
axes[0, 0].set(xlabel="step", ylabel="CTC loss (+ λ aux where trained), 20-step mean",
               yscale="log",
               title="training loss")
axes[0, 1].axhline(1.0, color="k", ls=":", lw=1, label="empty prediction")
axes[0, 1].set(xlabel="step", ylabel=f"CER, {cfg.n_eval} same-font lines", ylim=(0, 1.05),
               title="CER during training")
axes[0, 1].legend(fontsize=7)
nb.save_figure(fig, "training")

# %%
fig, axes = plotting.figure(ncols=2, width=9.0, squeeze=False,
                            gridspec_kw={"width_ratios": [2, 1]})
pos = np.arange(len(nets))
for k, (split, hatch) in enumerate([("test_same", ""), ("test_heldout", "//")]):
    values = [float(cer[(cer.model == m) & (cer.split == split)].cer.iloc[0]) for m in nets]
    bars = axes[0, 0].bar(pos + (k - 0.5) * 0.38, values, 0.38, hatch=hatch,
                          color=[colours[m] for m in nets],
                          label="same faces" if k == 0 else "held-out faces")
    axes[0, 0].bar_label(bars, fmt="%.3f", fontsize=7)
axes[0, 0].set_xticks(pos, [f"{labels[m]}\n{nets[m][1].steps} steps" for m in nets], fontsize=6)
axes[0, 0].set(ylabel=f"CER ({cfg.n_test} test lines)", ylim=(0, 1.1),
               title="this miniature: synthetic lines")
axes[0, 0].legend(fontsize=7)
names = list(decisions.PAPER_CER)
bars = axes[0, 1].bar(names, [decisions.PAPER_CER[k] / 100 for k in names], color="0.7")
axes[0, 1].bar_label(bars, fmt="%.3f", fontsize=7)
axes[0, 1].set(ylim=(0, 1.1), title="the paper (quoted; not comparable)")
nb.save_figure(fig, "cer")

# %%
name, split = "ann_ctc", "test_same"
main = outputs[name, split]
rows_shown = [0, 1, 2]
fig, axes = plotting.figure(nrows=len(rows_shown), width=7.0, height=1.3 * len(rows_shown),
                            squeeze=False)
for ax, b in zip(axes[:, 0], rows_shown):
    image = tests[split].images[b, 0]
    ax.imshow(image, cmap="gray", vmin=0, vmax=1, aspect="auto")
    path = main[:, b].argmax(-1).tolist()
    step = image.shape[1] / len(path)
    for pos_, c in enumerate(path):
        blank = c == alphabet.BLANK
        ax.text((pos_ + 0.5) * step, -2, "·" if blank else alphabet.SYMBOLS[c - 1],
                ha="center", va="bottom", fontsize=7, color="0.6" if blank else "C3")
    decoded = alphabet.decode(ctc.greedy_decode(main[:, b:b + 1])[0])
    ax.set_title(f"label '{tests[split].texts[b]}'   greedy '{decoded}'   "
                 f"({sum(c == alphabet.BLANK for c in path)} of {len(path)} positions blank)",
                 fontsize=7, loc="left", pad=12)
    ax.set_axis_off()
nb.save_figure(fig, "alignments")

# %%
nb.finish()

# %% [markdown]
# **What we saw** (default profile, seed 0; `tables/01_synthetic_lines_ctc/cer.csv` and the
# claims table above hold the numbers; our miniature's numbers on synthetic lines, not the
# paper's).
#
# - *The machinery is exact*: torch's float64 CTC loss equals the forward recursion on every
#   random case (the empty label's −Σ log p(∅) included), every infeasible case is +∞ on both
#   sides, the LIF spikes match the scalar loop, and greedy decoding and the edit distance match
#   their loops on every test line of every model; the negative control shows the loss check
#   rejects shifted labels.
# - *The headline P4* (a spiking recognizer at T = 2 learns line-level text) is
#   `train.snn_learns`: the SNN trained with CTC alone, as the spec says, read at 400 and 800
#   steps against the spec's two thresholds, resampled over the test lines. Its status is what this
#   miniature shows about P4 on synthetic lines; the budget cut that could decide it is the
#   single seed and the 800 steps (the paper trains far longer on real handwriting).
# - *The ANN control* (`train.ann_learns`) is the CTC-only twin the 0.40 threshold was set on;
#   the ANN with the auxiliary head, trained for notebook 03, is shown beside it, and its CER at
#   equal steps is the cost of the joint auxiliary objective at a fixed budget.
# - An earlier version trained the SNN with the auxiliary head (λ_aux = 0.5) and stayed on the
#   CTC plateau at 400 steps (CER 0.97), and blamed the LIF neuron's charge-up. The audit of
#   issue 42 ran the same code without the head (CER 0.786 at 400 steps, 0.484 at 800, the spec's
#   prototype 0.782 / 0.471): the plateau was the auxiliary term at a fixed budget, not the neuron.
# - Timing: `results/timings/` holds the run's wall time.
