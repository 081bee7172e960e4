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
# parameter value). The comparison (2 streams × 2 seeds × 1 500 steps, about 20 minutes on two
# cores) does not fit the default budget, and at the budget that fits both streams are still on
# the CTC plateau: the default records `inkcoder.helps` as *inconclusive* and draws the training
# panel from notebook 01's static run (`compare` switches it on). The rate at the coarse step is
# confounded by the neuron's charge-up (a LIF neuron starting at v = 0 fires less at step 0 for
# any input), so `inkcoder.rate_vs_static` also compares the coarse step with the static
# stream's step 0, where the membrane history is the same.
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
n_test = 300  # spec NB01: 300 same-font and 300 held-out-font test lines
chunk = 100  # test lines per forward pass in evaluation
streams = ["static", "coarse2fine"]  # spec NB02: the two streams
compare = False  # spec §6 / Q1: the stream comparison (2 streams x 2 seeds x 1 500 steps, about 20 min on two cores) runs in the paper profile; the default reads NB01's SNN
seeds = 2  # spec NB02 paper: seeds {0, 1}
steps = 1500  # spec NB02 paper: 1 500 steps
n_train = 4000  # as NB01's training lines
n_rate = 100  # test lines whose firing rates per layer and step F2.3 shows
workers = 2  # training processes when compare is on (as NB01's)

# %%
import numpy as np
import pandas as pd
import torch

from lib.companion import notebook, paths, plotting
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

# %% [markdown]
# ## Firing rate per layer and step of notebook 01's SNN, fed each stream

# %%
n = cfg.n_rate
rate_rows = []
with torch.no_grad():
    for stream in cfg.streams:
        snn(coder.input_stream(tests["test_same"].images[:n], T, stream))
        for layer, fire in snn.fires().items():
            for t, r in enumerate(fire.rate.tolist()):
                rate_rows.append({"stream": stream, "layer": layer, "step": t, "rate": r})
rates = pd.DataFrame(rate_rows)
rates.to_csv(tables / "rates.csv", index=False)
first = rates[rates.layer == "encoder.fires.0"].set_index(["stream", "step"]).rate
rates.pivot_table(index="layer", columns=["stream", "step"], values="rate").round(3)

# %%
has_coarse = "coarse2fine" in cfg.streams
if has_coarse and T >= 2:
    ledger.statistical("inkcoder.rate", "the encoder's first layer fires less at the coarse step "
                       "0 than at the full-resolution step 1 (notebook 01's SNN, coarse-to-fine "
                       f"stream, {n} test lines)", source="spec NB02 (design)",
                       provenance="reconstructed", expected="rate(step 0) < rate(step 1)",
                       measured=f"{first['coarse2fine', 0]:.4f} vs {first['coarse2fine', 1]:.4f}",
                       holds=bool(first["coarse2fine", 0] < first["coarse2fine", 1]),
                       tolerance=f"mean over {n} lines x all first-layer neurons")
else:
    ledger.skip("inkcoder.rate", "the first layer fires less at the coarse step 0 than at step 1",
                source="spec NB02 (design)", provenance="reconstructed", kind="statistical",
                expected="rate(step 0) < rate(step 1)",
                reason="needs coarse2fine in streams and T >= 2")
if has_coarse and "static" in cfg.streams and T >= 2:
    ledger.statistical("inkcoder.rate_vs_static", "at the same membrane history (step 0, from "
                       "v = 0) the coarse image makes the first layer fire less than the sharp "
                       "image: the blur's own effect, without the neuron's charge-up",
                       source="spec NB02 (design; our control)", provenance="reconstructed",
                       expected="rate(coarse, step 0) < rate(static, step 0)",
                       measured=f"{first['coarse2fine', 0]:.4f} vs {first['static', 0]:.4f}",
                       holds=bool(first["coarse2fine", 0] < first["static", 0]),
                       tolerance=f"mean over {n} lines x all first-layer neurons")
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
    results = train.run_all([[job] for job in jobs.values()], cfg.workers)
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
if compared:
    same = final[final.split == "test_same"]
    per = {s: same[same.stream == s].sort_values("seed").cer.tolist()
           for s in ("static", "coarse2fine")}
    diff = np.mean(per["static"]) - np.mean(per["coarse2fine"])
    measured = (f"mean CER static {np.mean(per['static']):.3f}, coarse-to-fine "
                f"{np.mean(per['coarse2fine']):.3f}: difference {diff:+.3f}")
    helps = decisions.coarse_helps(per["static"], per["coarse2fine"])
else:
    measured, helps = "not run in this profile (compare = false)", False
ledger.statistical("inkcoder.helps", "the coarse-to-fine stream beats a repeated static image at "
                   "T = 2: mean over seeds of CER(static) - CER(coarse-to-fine) > 0 (same-font "
                   "lines)", source="abstract P2 via spec NB02", provenance="paper",
                   expected="> 0 [spec prototype: -0.034 on one seed at 800 steps]",
                   measured=measured, holds=helps,
                   tolerance=f"{cfg.seeds} seeds x {cfg.steps} steps, {cfg.n_test} lines",
                   requires=(compared and cfg.steps >= 800,
                             "the paper profile's comparison: compare = true with both streams "
                             "and >= 800 steps (below, both sit on the CTC plateau)"))

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
# **What we saw** (default profile, seed 0; `tables/02_inkcoder_stream/`; our miniature's
# numbers, not the paper's).
#
# - *The stream is as defined*: all 2 457 600 elements of the two steps equal the numpy
#   reference on the 300 test lines.
# - *Rates* (notebook 01's SNN, 100 test lines, first layer): the coarse step fires 0.033
#   spikes per neuron, the sharp step 1 fires 0.057 (`inkcoder.rate` passes); with the same
#   membrane history, the static stream's step 0 fires 0.039, so about a quarter of the drop is the
#   blur and the rest is the neuron's charge-up (`inkcoder.rate_vs_static` passes). Deeper, the
#   third encoder layer fires almost only at step 1 (0.006 and 0.34 for the static stream), and the
#   first block's spike-driven attention never fires at all, for either stream.
# - *P2 is not decided here*: `inkcoder.helps` is inconclusive in the default profile (no
#   comparison run; the spec's prototype saw coarse-to-fine 0.034 worse on one seed). The paper
#   profile trains both streams on two seeds.
