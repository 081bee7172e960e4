# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # TTFS miniature, part 3: the temporal decoder, latency, and the headline accuracy
#
# **Claims of the paper made concrete** (abstract [READ]; spec P2, P4). The temporal output
# decoder "aggregates temporal spikes to encourage earlier firing", which reduces latency (v1:
# "temporal weighting decoding ... aggregates temporal outputs through a weighted sum, supporting
# BPTT"). The framework reaches 92.90 % on Fashion-MNIST.
#
# **What this notebook shows (reconstructed decoders, [spec §1.4](../../docs/specs/ttfs_snn.md#s1-4)).** An MLP 784 → 256 → 10 of
# TTFS neurons, T = 16, ETTFS-init + normalisation, Adam 10⁻³, one epoch on 10 000 images, three
# seeds, trained once per decoder (same init and batch order per seed):
# - **weighted spikes** $z_k = \lambda \sum_t w_t O_k[t]$, $w_t = (T - t)/T$, λ = 10 (the
#   paper's decoder as we reconstruct it: the earliest class gets the largest logit);
# - **count** $w_t = 1$ (for TTFS, fired or not); **final potential** $z = V[T-1]$;
#   **weighted potential** $\sum_t w_t V[t] / \sum_t w_t$.
#
# Prediction is argmax $z + \varepsilon V[T-1]$ (ε = 10⁻³ breaks ties between classes that fired
# at the same step; without it ties go to the lowest index: both are reported). Latency: the
# first step with any output spike (T if none), the mean first-spike step of the hidden neurons
# that fired, and the anytime accuracy $A(t)$ from steps ≤ t only, with $t_{95}$ the first t at
# which $A(t) \ge 0.95\,A(T-1)$.
#
# **Decisions where the spec is open** (each a parameter): linear weights, λ = 10 ([spec §7](../../docs/specs/ttfs_snn.md#s7) Q5,
# `lam`); the tie-break (`eps`, Q6); the headline is the best decoder of this MLP (the spec's CNN
# headline costs about 6 minutes: not within the 3-minute budget of the paper's notebooks).
#
# **What it cannot show ([spec §8](../../docs/specs/ttfs_snn.md#s8)).** The paper's 92.90 % needs its (unread) architecture trained
# for many epochs on all 60 000 images (GPU hours); it is **quoted** here beside our number,
# never reproduced or claimed.
# The MNIST, CIFAR and DVS results need data that are not offline; they are not run.
#
# **Look for:** the weighted decoders deciding earlier (lower output latency, earlier $t_{95}$)
# than count and final potential, and what that costs in accuracy.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
executor = "inline"  # where the grid's runs go: inline in the kernel (one after the other), debug (in the kernel, through submitit), local subprocesses, or slurm jobs
workers = 1  # runs at once (local) or the SLURM array's parallelism; runs are single-threaded, so the results are the same for any count
slurm_partition = ""  # SLURM partition ('' the cluster's default)
slurm_gpus = 0  # GPUs per SLURM job
slurm_time_min = 240  # a SLURM job's time limit in minutes (≤ 14 days, the runner's paper limit)
theta = 1.0  # spec §1.2: threshold 1
alpha = 4.0  # spec §1.2: surrogate sharpness 4
rho = 0.5  # spec §1.5: ETTFS-init spread, sd V[T-1] is rho theta (normalised: rho theta sqrt(1 - m1^2/m2))
encoding = "latency"  # decision (spec §7 Q2): latency coding; direct: the analog image as a constant current
transmission = "pulse"  # decision (spec §7 Q1): the next layer sees pulses s[t]; held: F[t]
init_stat = "moments"  # decision (spec §7 Q3): ETTFS-init matches the input's mean and mean square (the spec's formula for binary inputs); fired: the fraction that fired
T = 16  # spec NB03: T is 16
hidden = [256]  # spec NB03: MLP 784 -> 256 -> 10
decoders = ["weighted_spikes", "count", "final_potential", "weighted_potential"]  # spec §1.4: the paper's decoder and three baselines
n_init = 256  # images ETTFS-init measures on
n_train = 10000  # spec NB03: one epoch on 10 000 images
n_test = 2000  # spec NB03: test on 2 000
seeds = 3  # spec NB03 default: seeds 0, 1, 2
batch = 128  # spec §1.8: batch 128
epochs = 1  # spec NB03: one epoch
lr = 0.001  # spec NB03: Adam 1e-3
lam = 10.0  # spec §1.4: lambda 10
eps = 0.001  # decision (spec §7 Q6): ties broken by 1e-3 V[T-1]

# %%
import numpy as np
import pandas as pd

from lib.companion import notebook, plotting, rules
from lib.ttfs_snn import decisions, decode, experiment

nb = notebook.start("ttfs_snn/03_decoder_latency", globals())
cfg, ledger, rng, tables = nb.cfg, nb.ledger, nb.rng, nb.tables
PAPER_FMNIST = 92.90                 # abstract [READ]: the paper's Fashion-MNIST accuracy, in %

# %% [markdown]
# ## Training: one run per decoder and seed
# Through the sweep engine (`executor`); each run builds its init + norm MLP from its seed,
# trains it through its decoder and tests it.

# %%
grid = experiment.decoder_grid(cfg)
runs, latency_hist = [], {}
for (seed, dec), run in zip(grid, experiment.decoder_runs(cfg, nb.id, grid)):
    ev, losses = run.ev, run.losses
    latency_hist[(dec, seed)] = ev["latency_hist"]
    runs.append({"decoder": dec, "seed": seed, "steps": len(losses), "acc": ev["acc"],
                 "acc_no_tiebreak": ev["acc_no_tiebreak"], "latency": ev["latency"],
                 "hidden_step": ev["hidden_step"],
                 "t95": decode.t95(ev["anytime"], decisions.T95_FRAC),
                 "final_loss": float(np.mean(losses[-max(1, len(losses) // 4):])),
                 **{f"A{t}": a for t, a in enumerate(ev["anytime"])}})
runs = pd.DataFrame(runs)
runs.to_csv(tables / "runs.csv", index=False)
pd.DataFrame([{"decoder": d, "seed": s, "step": t, "images": n}
              for (d, s), h in latency_hist.items() for t, n in enumerate(h)]
             ).to_csv(tables / "output_latency_histogram.csv", index=False)
summary = runs.groupby("decoder", sort=False)[["acc", "acc_no_tiebreak", "latency",
                                                "hidden_step", "t95"]].mean()
summary

# %% [markdown]
# ## Claims (thresholds fixed in lib/ttfs_snn/decisions.py before the run)

# %%
steps = int(runs.steps.iloc[0])


def per_seed(dec, col):
    """One column of one decoder's runs, as an array in seed order."""
    return runs[runs.decoder == dec].sort_values("seed")[col].to_numpy()


def decoder_claim(cid, statement, needs, expected, measured, decide, kind="statistical",
                  full_epoch=True):
    """Record a decoder comparison decided on the seeds (`decide` takes seed indices; the ledger
    resamples them), or skip it when a decoder is missing or (for the spec's thresholds, set for
    one epoch of 79 steps) the run is shorter. The decoders are reconstructed ([spec §1.4]) and
    the thresholds ours: provenance reconstructed."""
    source = "abstract P2 via spec NB03 (decoders and thresholds reconstructed)"
    missing = [d for d in needs if d not in cfg.decoders]
    reason = (f"decoders {missing} not in this profile" if missing else
              f"{steps} steps in this profile; the thresholds are for >= "
              f"{decisions.FULL_EPOCH_STEPS}" if full_epoch and not decisions.full_epoch(steps)
              else "")
    if reason:
        ledger.skip(cid, statement, source=source, provenance="reconstructed", kind=kind,
                    expected=expected, reason=reason)
        return
    record = ledger.statistical if kind == "statistical" else ledger.qualitative
    extra = {"tolerance": f"{cfg.seeds} seeds"} if kind == "statistical" else {}
    record(cid, statement, source=source, provenance="reconstructed", expected=expected,
           measured=measured(), **rules.evidence_by_index(cfg.seeds, decide), **extra)


W, C = "weighted_spikes", "count"
decoder_claim("decoder.earlier_output", "the weighted-spike decoder's first output spike comes "
              f"at least {decisions.LATENCY_MARGIN} steps before count's (mean over seeds)",
              (W, C), f"latency(count) - latency(weighted) >= {decisions.LATENCY_MARGIN}",
              lambda: f"weighted {np.mean(per_seed(W, 'latency')):.3f}, count "
                      f"{np.mean(per_seed(C, 'latency')):.3f} steps",
              lambda i: decisions.earlier_by_margin(per_seed(W, "latency")[i],
                                                    per_seed(C, "latency")[i]))
decoder_claim("decoder.earlier_hidden", "hidden neurons trained through the weighted-spike "
              "decoder fire earlier than through count (mean first-spike step), on every seed",
              (W, C), "hidden step(weighted) < hidden step(count), every seed",
              lambda: f"weighted {[round(v, 3) for v in per_seed(W, 'hidden_step')]}, count "
                      f"{[round(v, 3) for v in per_seed(C, 'hidden_step')]}",
              lambda i: decisions.earlier_every_seed(per_seed(W, "hidden_step")[i],
                                                     per_seed(C, "hidden_step")[i]))
decoder_claim("decoder.earlier_output_potential", "the weighted-potential readout's first output "
              "spike comes before the final-potential readout's (mean over seeds)",
              ("weighted_potential", "final_potential"),
              "latency(weighted potential) < latency(final potential)",
              lambda: f"weighted potential {np.mean(per_seed('weighted_potential', 'latency')):.3f}"
                      f", final potential {np.mean(per_seed('final_potential', 'latency')):.3f}",
              lambda i: decisions.earlier_on_mean(per_seed("weighted_potential", "latency")[i],
                                                  per_seed("final_potential", "latency")[i]))
decoder_claim("decoder.anytime_t95", "the weighted-spike decoder reaches 95 % of its final "
              "accuracy no later than count (mean t95 over seeds)", (W, C),
              "t95(weighted) <= t95(count)",
              lambda: f"weighted {per_seed(W, 't95').tolist()}, count {per_seed(C, 't95').tolist()}",
              lambda i: decisions.not_later(per_seed(W, "t95")[i], per_seed(C, "t95")[i]))
decoder_claim("decoder.accuracy_cost", "the weighted-spike decoder is at least as accurate as "
              "count (mean over seeds; the paper states no cost, recorded either way)", (W, C),
              "acc(weighted) >= acc(count)",
              lambda: f"weighted {np.mean(per_seed(W, 'acc')):.4f}, count "
                      f"{np.mean(per_seed(C, 'acc')):.4f}",
              lambda i: decisions.no_accuracy_cost(per_seed(W, "acc")[i], per_seed(C, "acc")[i]),
              kind="qualitative")
spiking = runs[runs.decoder.isin([W, C])]
decoder_claim("decoder.tie_break", "breaking ties between classes that fired at the same step by "
              "1e-3 V[T-1] never lowers a spike decoder's accuracy (every run of either)", (W, C),
              "acc >= acc without the tie-break, every run",
              lambda: ", ".join(f"{d}/{s}: {a:.4f} vs {b:.4f}" for d, s, a, b in
                                zip(spiking.decoder, spiking.seed, spiking.acc,
                                    spiking.acc_no_tiebreak)),
              lambda i: all(decisions.tie_break_helps(per_seed(d, "acc")[i],
                                                      per_seed(d, "acc_no_tiebreak")[i])
                            for d in (W, C)),
              kind="qualitative", full_epoch=False)

best = summary.acc.idxmax()
best_acc = float(summary.acc[best])
headline = pd.DataFrame([
    {"source": "paper (quoted, not reproduced)",
     "model": "the paper's network (not read), all 60 000 training images",
     "fashion_mnist_acc_percent": PAPER_FMNIST},
    *[{"source": "this miniature", "model": f"MLP 784-{'-'.join(map(str, cfg.hidden))}-10, {d}",
       "fashion_mnist_acc_percent": round(100 * float(a), 2)} for d, a in summary.acc.items()]])
headline.to_csv(tables / "paper_vs_ours.csv", index=False)
if decisions.full_epoch(steps):
    ledger.statistical("acc.fmnist", f"the miniature's best decoder ({best}) reaches the "
                       "accuracy the spec expects at this budget (seed mean; the paper's 92.90 % "
                       "is quoted beside it, not compared)", source="spec NB03 (P4 at miniature "
                       "scale)", provenance="reconstructed",
                       expected=f">= {decisions.MINIATURE_ACC_MIN}", measured=best_acc,
                       **rules.evidence_by_index(cfg.seeds, lambda i: decisions.miniature_accuracy(
                           float(per_seed(best, "acc")[i].mean()))),
                       tolerance=f"{cfg.seeds} seeds, {steps} steps")
else:
    ledger.skip("acc.fmnist", "the miniature's best decoder reaches 0.70", source="spec NB03",
                provenance="reconstructed", kind="statistical",
                expected=f">= {decisions.MINIATURE_ACC_MIN}",
                reason=f"{steps} steps in this profile (the expectation is for >= "
                       f"{decisions.FULL_EPOCH_STEPS})")
paper_scale = cfg.n_train >= 20000 and cfg.epochs >= 20
if paper_scale:
    ledger.statistical("acc.fmnist_paper_scale", "at the paper profile's scale the best decoder "
                       "comes within 0.5 points of the paper's 92.90 %", source="abstract P4",
                       provenance="paper", expected=f">= {decisions.PAPER_ACC_NEAR}",
                       measured=best_acc, **rules.evidence_by_index(
                           cfg.seeds, lambda i: decisions.near_paper(
                               float(per_seed(best, "acc")[i].mean()))))
else:
    ledger.skip("acc.fmnist_paper_scale", "within 0.5 points of the paper's 92.90 % on "
                "Fashion-MNIST", source="abstract P4", provenance="paper", kind="statistical",
                expected=f">= {decisions.PAPER_ACC_NEAR}",
                reason="needs the paper's scale (its network, 60 000 images, many epochs; spec "
                       "§8): the paper profile trains on all 20 000 subset images for 30 epochs")
headline

# %% [markdown]
# ## Figures

# %%
colours = dict(zip(cfg.decoders, plotting.palette(len(cfg.decoders))))
fig, ax = plotting.figure(width=5.0)
for dec in cfg.decoders:
    r = runs[runs.decoder == dec]
    curve = r[[f"A{t}" for t in range(cfg.T)]].mean().to_numpy()
    ax.plot(range(cfg.T), curve, "o-", ms=3, color=colours[dec],
            label=f"{dec} (acc {r.acc.mean():.3f}, no tie-break {r.acc_no_tiebreak.mean():.3f})")
    t95 = float(r.t95.mean())
    ax.axvline(t95, color=colours[dec], ls=":", lw=1)
ax.set(xlabel="step t (decision from steps <= t)", ylabel="anytime accuracy A(t)", ylim=(0, 1),
       title=f"T = {cfg.T}, {cfg.seeds} seed(s); dotted: mean t95")
ax.legend(fontsize=6)
nb.save_figure(fig, "anytime")

# %%
fig, axes = plotting.figure(ncols=len(cfg.decoders), width=2.4 * len(cfg.decoders), squeeze=False)
for ax, dec in zip(axes[0], cfg.decoders):
    h = np.sum([latency_hist[(dec, cfg.seed + s)] for s in range(cfg.seeds)], axis=0)
    ax.bar(range(cfg.T + 1), h, color=colours[dec])
    ax.set(xlabel=f"first output step ({cfg.T}: none)", ylabel="test images",
           title=f"{dec}\nmean {runs[runs.decoder == dec].latency.mean():.2f}")
nb.save_figure(fig, "latency")

# %%
fig, ax = plotting.figure()
for dec in cfg.decoders:
    r = runs[runs.decoder == dec]
    ax.plot(r.latency, r.acc, "o", color=colours[dec], label=dec)
ax.set(xlabel="mean output latency (steps)", ylabel="test accuracy", title="accuracy vs latency")
ax.legend(fontsize=7)
nb.save_figure(fig, "tradeoff")

# %%
fig, ax = plotting.figure(width=5.0)
ax.bar(range(len(summary)), 100 * summary.acc,
       yerr=100 * runs.groupby("decoder", sort=False).acc.std(ddof=0).to_numpy(),
       color=[colours[d] for d in summary.index])
ax.axhline(PAPER_FMNIST, color="k", ls="--", lw=1,
           label=f"paper: {PAPER_FMNIST:.2f} % (quoted, not reproduced; full data)")
ax.set_xticks(range(len(summary)), summary.index, rotation=20, fontsize=6)
ax.set(ylabel="Fashion-MNIST test accuracy (%)", ylim=(0, 100),
       title=f"this miniature: one epoch on {cfg.n_train} images")
ax.legend(fontsize=7, loc="lower right")
nb.save_figure(fig, "headline")

# %%
nb.finish()

# %% [markdown]
# **What we saw** (seed means per decoder in the summary table above and in
# `tables/03_decoder_latency/`; our miniature's numbers; each claim's status is in the ledger).
#
# - *The temporal decoder decides earlier* (P2; `decoder.earlier_*` give the status, each
#   decided on the seeds and resampled over them): compare the output latency, the hidden
#   spike step and t95 of weighted spikes and count in the summary table. Weighting potentials
#   shortens latency too (`decoder.earlier_output_potential`). The spec's prototype (seed 0):
#   5.50 against 7.09 steps, and 3.73 against 4.52.
# - *A cost in accuracy at this budget?* (`decoder.accuracy_cost`): the prototype had weighted
#   spikes below count (0.723 against 0.763). The paper states no such cost; its decoder
#   weights, loss and schedule are unknown to us.
# - *The tie-break matters* for the spike decoders: compare the accuracy with and without it in
#   the summary table (`decoder.tie_break`).
# - *Headline*: the best decoder's accuracy after one epoch of an MLP is `acc.fmnist` (the
#   spec expects 0.70-0.80+ at this budget); the paper's 92.90 % (quoted) is for its own
#   network trained on all 60 000 images and is not reproduced here.
