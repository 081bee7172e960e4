# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Spike-HTR miniature, part 2: InkCoder's coarse-to-fine input stream against a static one
#
# **Claim of the paper made concrete** (abstract [ABS]; [spec §2](../../docs/specs/spike_htr.md#s2) P2). InkCoder turns a
# static line image into a coarse-to-fine input stream over the T = 2 time steps; the design
# implies this helps compared with repeating the static image.
#
# **What this notebook shows** ([spec §1.3](../../docs/specs/spike_htr.md#s1-3), [spec NB02](../../docs/specs/spike_htr.md#s3)). The stream exactly as defined
# (step T − 1 is the image, step 0 its 2×2-pooled, nearest-upsampled copy), bit for bit against
# a numpy reference; the firing rate of every layer and time step of notebook 01's spiking
# recognizer fed each stream; and, in the `paper` profile, the comparison itself: one SNN per
# stream and seed trained from scratch for `steps` steps, CER on same-font and held-out lines.
#
# **Decisions where the spec is open** ([spec §7](../../docs/specs/spike_htr.md#s7) Q1, Q2). InkCoder is only named in the
# abstract: ours is a fixed resolution pyramid (`residual`, the signed-detail variant, is a
# parameter value). The comparison (2 streams × 2 seeds × 1 500 steps at about 0.15 CPU-seconds
# each, about 8 minutes on two cores) does not fit the default budget, and at the budget that fits both streams are still on
# the CTC plateau: the default records `inkcoder.helps` as *skipped* and draws the training
# panel from notebook 01's static run (`compare` switches it on; then the claim is decided on the
# per-seed differences). A lower rate at the coarse step than at step 1 would hold for any input
# (a LIF neuron starting at v = 0 fires less at step 0), so it is shown in the rates table, not
# claimed; `inkcoder.rate_vs_static` compares the coarse step with the static stream's step 0,
# where the membrane history is the same, resampled over the test lines.
#
# **What it cannot show ([spec §8](../../docs/specs/spike_htr.md#s8)).** Whether the paper's InkCoder (possibly learned) helps on
# IAM, LAM or READ2016; nothing here is the paper's number. Notebook 01's SNN was trained on the
# static stream, so its rates under the coarse-to-fine stream are off its training distribution.
#
# **Look for:** the blurred first step; the encoder's first layer firing less on it than on the
# sharp image; in the paper profile, whether the two streams' CER curves separate beyond the
# seeds' spread (the spec's prototype: they did not).

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
executor = "inline"  # where the grid's runs go: inline in the kernel (one after the other), debug (in the kernel, through submitit), local subprocesses, or slurm jobs
workers = 1  # runs at once (local) or the SLURM array's parallelism; runs are single-threaded, so the results are the same for any count
slurm_partition = ""  # SLURM partition ('' the cluster's default)
slurm_gpus = 0  # GPUs per SLURM job
slurm_time_min = 240  # a SLURM job's time limit in minutes (≤ 14 days, the runner's paper limit)
n_test = 300  # spec NB01: 300 same-font and 300 held-out-font test lines
chunk = 100  # test lines per forward pass in evaluation
streams = ["static", "coarse2fine"]  # spec NB02: the two streams
compare = False  # spec §6 / Q1: the stream comparison (2 streams x 2 seeds x 1 500 steps, about 8 min on two cores) runs in the paper profile; the default reads NB01's SNN
seeds = 2  # spec NB02 paper: seeds {0, 1}
steps = 1500  # spec NB02 paper: 1 500 steps
n_train = 4000  # as NB01's training lines
n_rate = 100  # test lines whose firing rates per layer and step F2.3 shows

# %%
import numpy as np
import pandas as pd
import torch

from lib.companion import notebook, paths, plotting, rules
from lib.spike_htr import alphabet, coder, ctc, data, decisions, train

nb = notebook.start("spike_htr/02_inkcoder_stream", globals())
cfg, ledger, rng, tables = nb.cfg, nb.ledger, nb.rng, nb.tables
source = paths.tables_dir("spike_htr/01_synthetic_lines_ctc")
snn, snn_job = train.load(source / "checkpoints" / "snn.pt")
T = snn_job.arch.T
tests = {split: data.load(split, cfg.n_test) for split in ("test_same", "test_heldout")}
print(f"notebook 01's SNN: T = {T}, {snn_job.steps} steps on the {snn_job.stream} stream")

# %% [markdown]
# ## The stream, bit for bit (test lines on the grid 2⁻⁸, where every mean of four is exact)

# %%
x = torch.round(tests["test_same"].images * 256) / 256
x_np = x.numpy()
B, C, H, W = x_np.shape
pooled = x_np.reshape(B, C, H // 2, 2, W // 2, 2).mean(axis=(3, 5))
coarse_np = pooled.repeat(2, axis=2).repeat(2, axis=3)
stream2 = coder.input_stream(x, 2, "coarse2fine").numpy()
equal = int((stream2[1] == x_np).sum() + (stream2[0] == coarse_np).sum())
ledger.exact("inkcoder.stream_shape", "the coarse-to-fine stream at T = 2: step 1 is the image "
             "and step 0 its 2 x 2 average-pooled, nearest-upsampled copy, equal element for "
             f"element to a numpy reference on {B} test lines", source="spec §1.3",
             provenance="reconstructed", expected=2 * x_np.size, measured=equal)
wrong = x_np.reshape(B, C, H // 4, 4, W // 4, 4).mean(axis=(3, 5)).repeat(4, 2).repeat(4, 3)
ledger.exact("control.stream_wrong_pool", "negative control: the same element count rejects a "
             "coarse step pooled 4 x 4 instead of 2 x 2 (the check can fail)",
             source="issue 42 (a negative control per mechanism)", provenance="derived",
             expected=False,
             measured=int((stream2[1] == x_np).sum() + (stream2[0] == wrong).sum())
             == 2 * x_np.size)

# %% [markdown]
# ## Firing rate per layer and step of notebook 01's SNN, fed each stream

# %%
n = cfg.n_rate
rate_rows, line_rates = [], {}
with torch.no_grad():
    for stream in cfg.streams:
        snn(coder.input_stream(tests["test_same"].images[:n], T, stream))
        for layer, fire in snn.fires().items():
            for t, r in enumerate(fire.rate.tolist()):
                rate_rows.append({"stream": stream, "layer": layer, "step": t, "rate": r})
        line_rates[stream] = snn.fires()["encoder.fires.0"].line_rate.numpy()   # (T, n)
rates = pd.DataFrame(rate_rows)
rates.to_csv(tables / "rates.csv", index=False)
first = rates[rates.layer == "encoder.fires.0"].set_index(["stream", "step"]).rate
rates.pivot_table(index="layer", columns=["stream", "step"], values="rate").round(3)

# %%
# The coarse step 0 firing less than the sharp step 1 is no claim: a LIF neuron starting from
# v = 0 fires less at step 0 for any input (its charge-up), so that comparison cannot fail; the
# rates table shows it. The claim compares the two streams at the same step 0, same history.
if "coarse2fine" in cfg.streams and "static" in cfg.streams and T >= 2:
    pairs = np.column_stack([line_rates["coarse2fine"][0], line_rates["static"][0]])   # (n, 2)
    ledger.statistical("inkcoder.rate_vs_static", "at the same membrane history (step 0, from "
                       "v = 0) the coarse image makes the first layer fire less than the sharp "
                       "image: the blur's own effect, without the neuron's charge-up",
                       source="spec NB02 (design; our control)", provenance="reconstructed",
                       expected="rate(coarse, step 0) < rate(static, step 0)",
                       measured=f"{first['coarse2fine', 0]:.4f} vs {first['static', 0]:.4f}",
                       samples=pairs, decide=lambda p: p[:, 0].mean() < p[:, 1].mean(),
                       tolerance=f"replicates: {n} test lines (mean over each line's "
                                 "first-layer neurons)")
else:
    ledger.skip("inkcoder.rate_vs_static", "the coarse step fires less than the static step 0",
                source="spec NB02 (design; our control)", provenance="reconstructed",
                kind="statistical", expected="rate(coarse, step 0) < rate(static, step 0)",
                reason="needs static and coarse2fine in streams and T >= 2")

# %% [markdown]
# ## The comparison: one SNN per stream and seed, trained from scratch (`compare`)

# %%
if cfg.compare:
    jobs = {(s, k): train.Job(f"{s}_seed{k}", snn_job.arch, stream=s, steps=cfg.steps,
                              batch=snn_job.batch, lr=snn_job.lr, aux_weight=snn_job.aux_weight,
                              seed=cfg.seed + k, n_train=cfg.n_train,
                              eval_every=snn_job.eval_every, n_eval=snn_job.n_eval,
                              fonts=snn_job.fonts)
            for s in cfg.streams for k in range(cfg.seeds)}
    results = train.run_all([[job] for job in jobs.values()], cfg, nb.id)
    history = pd.DataFrame([dict(row, stream=s, seed=k) for (s, k), job in jobs.items()
                            for row in results[job.name].history])
    final_rows = []
    with torch.no_grad():
        for (s, k), job in jobs.items():
            net = train.build(job)
            net.load_state_dict(results[job.name].state)
            net.eval()
            for split, lines in tests.items():
                main = torch.cat([net(coder.input_stream(lines.images[i:i + cfg.chunk], T, s))[0]
                                  for i in range(0, len(lines), cfg.chunk)], dim=1)
                truth = [alphabet.encode(t) for t in lines.texts]
                final_rows.append({"stream": s, "seed": k, "split": split,
                                   "cer": ctc.cer(ctc.greedy_decode(main), truth)})
    final = pd.DataFrame(final_rows)
else:
    history = pd.read_csv(source / "history.csv")
    history = history[history.job == "snn"].assign(stream=snn_job.stream, seed=snn_job.seed)
    final = pd.DataFrame(columns=["stream", "seed", "split", "cer"])
history.to_csv(tables / "history.csv", index=False)
final.to_csv(tables / "final_cer.csv", index=False)
final.pivot_table(index=["stream", "seed"], columns="split", values="cer") if len(final) else final

# %%
compared = cfg.compare and {"static", "coarse2fine"} <= set(cfg.streams)
helps_statement = ("the coarse-to-fine stream beats a repeated static image at T = 2: mean over "
                   "seeds of CER(static) - CER(coarse-to-fine) > 0 (same-font lines)")
if compared and cfg.seeds >= 2:
    same = final[final.split == "test_same"]
    per = {s: same[same.stream == s].sort_values("seed").cer.to_numpy()
           for s in ("static", "coarse2fine")}
    diffs = per["static"] - per["coarse2fine"]              # per seed; > 0: the paper's side
    ledger.compare("inkcoder.helps", helps_statement, source="abstract P2 (implied by the "
                   "design) via spec NB02", provenance="reconstructed",
                   expected="> 0 [spec prototype: -0.034 on one seed at 800 steps]",
                   measured=(f"mean CER static {per['static'].mean():.3f}, coarse-to-fine "
                             f"{per['coarse2fine'].mean():.3f}: difference {diffs.mean():+.3f}"),
                   samples=diffs, decide=lambda d: decisions.coarse_helps(d, [0.0] * len(d)),
                   opposite=rules.opposite_beyond,
                   power="paired differences beyond 2 s.e. the other way over >= 3 seeds",
                   tolerance=f"{cfg.seeds} seeds x {cfg.steps} steps, {cfg.n_test} lines",
                   requires=(cfg.steps >= 800, ">= 800 steps (below, both streams sit on the "
                             "CTC plateau)"))
else:
    ledger.skip("inkcoder.helps", helps_statement, source="abstract P2 (implied by the design) "
                "via spec NB02", provenance="reconstructed", kind="statistical",
                expected="> 0 [spec prototype: -0.034 on one seed at 800 steps]",
                reason="the comparison (2 streams x 2 seeds x 1 500 steps) runs in the paper "
                       "profile only (compare = true, seeds >= 2)")

# %% [markdown]
# ## Figures

# %%
line = 0
streams = {s: coder.input_stream(tests["test_same"].images[line:line + 1], T, s)
           for s in cfg.streams}
fig, axes = plotting.figure(nrows=len(streams), ncols=T, width=3.2 * T,
                            height=1.1 * len(streams), squeeze=False)
for i, (s, st) in enumerate(streams.items()):
    for t in range(T):
        ax = axes[i, t]
        ax.imshow(st[t, 0, 0], cmap="gray", vmin=-1 if s == "residual" else 0, vmax=1,
                  aspect="auto")
        ax.set_title(f"{s}, step {t}", fontsize=7, loc="left", pad=2)
        ax.set_axis_off()
nb.save_figure(fig, "inputs")

# %%
layers = list(snn.fires())
fig, ax = plotting.figure(width=8.0)
width = 0.8 / (len(cfg.streams) * T)
colours = plotting.palette(len(cfg.streams) * T)
k = 0
for s in cfg.streams:
    for t in range(T):
        r = rates[(rates.stream == s) & (rates.step == t)].set_index("layer").rate[layers]
        ax.bar(np.arange(len(layers)) + (k - (len(cfg.streams) * T - 1) / 2) * width, r,
               width, color=colours[k], label=f"{s}, step {t}")
        k += 1
ax.set_xticks(np.arange(len(layers)), [name.replace(".fires", "").replace("blocks.", "b")
                                       for name in layers], rotation=30, fontsize=7)
ax.set(ylabel="spikes per neuron and step", title=f"notebook 01's SNN on {n} test lines")
ax.legend(fontsize=7)
nb.save_figure(fig, "rates")

# %%
fig, ax = plotting.figure(width=5.0)
style = dict(zip(cfg.streams, plotting.palette(len(cfg.streams))))
for (s, k), h in history.dropna(subset=["cer"]).groupby(["stream", "seed"]):
    ax.plot(h.step, h.cer, "o-", ms=3, color=style.get(s, "k"), alpha=0.8,
            label=f"{s}, seed {k}")
ax.axhline(1.0, color="k", ls=":", lw=1, label="empty prediction")
ax.set(xlabel="step", ylabel="CER, same-font evaluation lines", ylim=(0, 1.05),
       title="per stream" if cfg.compare else "notebook 01's static run (compare = false)")
ax.legend(fontsize=7)
nb.save_figure(fig, "training")

# %%
nb.finish()

# %% [markdown]
# **What we saw** (default profile, seed 0; `tables/02_inkcoder_stream/`, the rates table and
# the claims above; our miniature's numbers, not the paper's).
#
# - *The stream is as defined*: every element of the two steps equals the numpy reference on
#   the test lines, and the same check rejects a coarse step pooled 4 x 4 (the negative control).
# - *Rates* (notebook 01's SNN, trained on the static stream with CTC alone): the first layer's
#   rate at the coarse step against the static stream's step 0 is `inkcoder.rate_vs_static`;
#   the rates table shows every layer and step, including how much the deeper layers fire only
#   at step 1. Step 0 firing less than step 1 is the LIF neuron's charge-up from v = 0 as much as
#   the blur, which is why it is not a claim.
# - *P2 is not decided here*: `inkcoder.helps` is skipped in the default profile (no comparison
#   run; the spec's prototype saw coarse-to-fine 0.034 worse on one seed). The paper profile
#   trains both streams on two seeds; with fewer than three the claim cannot show the opposite.
