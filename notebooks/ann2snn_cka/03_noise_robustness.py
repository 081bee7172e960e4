# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # ANN→SNN miniature, part 3: robustness to input noise
#
# **Claim of the paper made concrete** (abstract [READ]; [spec §2](../../docs/specs/ann2snn_cka.md#s2) P5). Fine-tuning acts as a
# regulariser: the fine-tuned SNN's robustness to input noise matches or exceeds the source
# ANN's.
#
# **What this notebook shows** ([spec §1.4](../../docs/specs/ann2snn_cka.md#s1-4), [spec NB03](../../docs/specs/ann2snn_cka.md#s3)). Gaussian noise of std σ ∈ {0, 0.1, 0.2,
# 0.3} on the raw pixels (clipped to [0, 1], one draw per σ shared by every model) of the first
# 1 000 t10k images; the ANN of notebook 01, the open-loop SNNs (v₀ = 0 and ½) and the
# fine-tuned SNNs of notebook 02 (first seed, read from its checkpoints), each evaluated at its
# T_ft and at T = 16 in one cumulative run. Absolute accuracy and the relative degradation
# acc(σ)/acc(0), which separates robustness from the low-T accuracy loss.
#
# **Decisions where the spec is open**: the noise protocol is ours ([spec §7](../../docs/specs/ann2snn_cka.md#s7) Q7: pixel space,
# these σ, no other corruption); the relative claim compares the KL + CKA SNN at its T_ft.
#
# **What it cannot show ([spec §8](../../docs/specs/ann2snn_cka.md#s8)).** The paper's noise protocol and CIFAR-10 numbers are
# unknown or not run; this is the mechanism on Fashion-MNIST.
#
# **Look for:** the open-loop SNN at T = 16 against the ANN as σ grows (rate averaging
# smooths the noise), and whether fine-tuned SNNs keep the ANN's relative robustness.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
alpha = 4.0  # spec §1.1: sigmoid surrogate, alpha 4 (SpikingJelly's)
n_test = 1000  # spec §3: the first 1 000 t10k images
chunk = 25  # test images per forward pass: small tensors stay in the heap (bench: 25 is about twice as fast as 100)
block = 1  # time steps folded into one synapse call; 1 is the fastest on one CPU thread (bench/ann2snn_cka_forward.py), T the all-steps-at-once form
sigmas = [0.0, 0.1, 0.2, 0.3]  # spec NB03: sigma in {0, 0.1, 0.2, 0.3}
T_high = 16  # spec NB03: evaluated at T_ft and at T is 16
v0_list = [0.0, 0.5]  # spec NB03: the converted SNN with v0 is 0 and 1/2
noise_seed = 1000  # the noise draw's seed, offset from `seed` (one draw per sigma for all models)

# %%
import numpy as np
import pandas as pd

from lib.ann2snn_cka import ann, convert, data, decisions, noise
from lib.companion import notebook, paths, plotting
from lib.spiking import memory

memory.reuse_freed_memory()          # fewer page faults: lib/spiking/memory.py
nb = notebook.start("ann2snn_cka/03_noise_robustness", globals())
cfg, ledger, rng, tables = nb.cfg, nb.ledger, nb.rng, nb.tables
x_test, y_test = data.test_images(cfg.n_test)
gap_dir = paths.tables_dir("ann2snn_cka/01_conversion_gap")
ft_dir = paths.tables_dir("ann2snn_cka/02_closed_loop_finetune")
model = ann.load(gap_dir / "ann.npz")
lam = list(pd.read_csv(gap_dir / "scales.csv").lam)
index = pd.read_csv(ft_dir / "checkpoints.csv")
T_ft = int(index.T_ft.min())                  # the lowest fine-tuning T (4 in default)
index = index[index.T_ft == T_ft]
T_top = max(cfg.T_high, T_ft)
snns = {f"open loop, v0 = {v0:g}": convert.SpikingNet(model, lam, v0, cfg.alpha)
        for v0 in cfg.v0_list}
for arm, file, v0 in zip(index.arm, index.file, index.v0):
    snns[arm] = convert.SpikingNet(ann.load(ft_dir / file), lam, float(v0), cfg.alpha)
list(snns)

# %% [markdown]
# ## Accuracy under noise: every model on the same noisy images

# %%
rows, hits = [], {}                   # hits[(model, T, sigma)]: (images,) booleans, the replicates
for i, sigma in enumerate(cfg.sigmas):
    x = noise.gaussian_pixels(x_test, sigma, cfg.seed + cfg.noise_seed + i)
    hits[("ANN", 0, sigma)] = ann.hits(model, x, y_test)
    for name, snn in snns.items():
        h = convert.anytime_hits(snn, x, y_test, T_top, cfg.chunk)     # (images, T)
        hits.update({(name, t, sigma): h[:, t - 1] for t in sorted({T_ft, cfg.T_high})})
rows = [{"model": m, "sigma": sg, "T": t, "acc": float(h.mean())} for (m, t, sg), h in hits.items()]
results = pd.DataFrame(rows)
clean = results[results.sigma == 0].set_index(["model", "T"]).acc
results["relative"] = [a / clean[(m, t)] for m, t, a in zip(results.model, results["T"], results.acc)]
results.to_csv(tables / "noise.csv", index=False)
results.pivot_table(index=["model", "T"], columns="sigma", values="acc").round(3)

# %% [markdown]
# ## Claims (thresholds fixed in lib/ann2snn_cka/decisions.py before the run)

# %%
def acc_of(model_name, T, sigma, col="acc"):
    r = results[(results.model == model_name) & (results["T"] == T) & (results.sigma == sigma)]
    return float(r[col].iloc[0])


top = max(cfg.sigmas)
open0 = f"open loop, v0 = {cfg.v0_list[0]:g}"
source = "abstract P5 via spec NB03"
per_image = f"{cfg.n_test} images (each with its noise draw), resampled"


def columns(*keys):
    """The per-image outcomes of (model, T, sigma) keys as the columns of one array: the images
    are the replicates, every model paired on the same noisy image."""
    return np.stack([hits[k] for k in keys], axis=1).astype(float)    # (images, keys)


if cfg.T_high == 16 and top == 0.3 and cfg.v0_list[0] == 0.0:
    a_snn, a_ann = acc_of(open0, 16, top), acc_of("ANN", 0, top)
    ledger.statistical("noise.converted_high_T", "at T = 16 the open-loop SNN (v0 = 0) is at least "
                       f"as robust as the ANN at σ = 0.3, within {decisions.NOISE_MARGIN}",
                       source=source, provenance="reconstructed",
                       expected=f"acc_SNN >= acc_ANN - {decisions.NOISE_MARGIN}",
                       measured=f"SNN {a_snn:.3f}, ANN {a_ann:.3f}",
                       samples=columns((open0, 16, top), ("ANN", 0, top)),
                       decide=lambda r: r[:, 0].mean() >= r[:, 1].mean() - decisions.NOISE_MARGIN,
                       tolerance=per_image)
else:
    ledger.skip("noise.converted_high_T", "the open-loop SNN at T = 16 is as robust as the ANN at "
                "σ = 0.3", source=source, provenance="reconstructed", kind="statistical",
                expected=f"acc_SNN >= acc_ANN - {decisions.NOISE_MARGIN}",
                reason="needs T_high 16, sigma 0.3 and v0 = 0 first in v0_list")
if "kl_cka" in snns and top == 0.3 and 0.0 in cfg.sigmas:
    rel_ft, rel_ann = acc_of("kl_cka", T_ft, top, "relative"), acc_of("ANN", 0, top, "relative")

    def relative_kept(r):
        """[SNN clean, SNN noisy, ANN clean, ANN noisy] -> the SNN's relative degradation within
        the margin of the ANN's."""
        m = r.mean(axis=0)
        return decisions.relative_degradation(m[1], m[0]) >= (
            decisions.relative_degradation(m[3], m[2]) - decisions.RELATIVE_MARGIN)

    ledger.statistical("noise.finetuned_relative", "the KL + CKA SNN at its T_ft keeps its "
                       "clean accuracy under σ = 0.3 at least as well as the ANN does, within "
                       f"{decisions.RELATIVE_MARGIN} (relative degradation acc(σ)/acc(0))",
                       source=source, provenance="reconstructed",
                       expected=f">= ANN's - {decisions.RELATIVE_MARGIN}",
                       measured=f"KL + CKA {rel_ft:.3f}, ANN {rel_ann:.3f}",
                       samples=columns(("kl_cka", T_ft, 0.0), ("kl_cka", T_ft, top),
                                       ("ANN", 0, 0.0), ("ANN", 0, top)),
                       decide=relative_kept, tolerance=per_image)
    ft_curve = [acc_of("kl_cka", T_ft, s) for s in cfg.sigmas]
    ann_curve = [acc_of("ANN", 0, s) for s in cfg.sigmas]
    k = len(cfg.sigmas)
    ledger.statistical("noise.finetuned_absolute", "the KL + CKA SNN at its T_ft is at least as "
                       "accurate as the ANN at every σ (P5 read literally; the spec expects a "
                       "fail: at T = 4 the SNN starts below the ANN before any noise)",
                       source=source, provenance="paper", expected="acc_SNN(σ) >= acc_ANN(σ), all σ",
                       measured={s: f"{a:.3f} vs {b:.3f}" for s, a, b in
                                 zip(cfg.sigmas, ft_curve, ann_curve)},
                       samples=columns(*[("kl_cka", T_ft, s) for s in cfg.sigmas],
                                       *[("ANN", 0, s) for s in cfg.sigmas]),
                       decide=lambda r: decisions.at_least_everywhere(
                           r[:, :k].mean(axis=0), r[:, k:].mean(axis=0)),
                       tolerance=per_image)
else:
    for cid in ("noise.finetuned_relative", "noise.finetuned_absolute"):
        ledger.skip(cid, "the fine-tuned SNN is as robust as the ANN", source=source,
                    provenance="reconstructed" if cid.endswith("relative") else "paper",
                    kind="statistical", expected="see spec NB03",
                    reason="needs arm kl_cka in notebook 02 and sigma 0 and 0.3")

# %% [markdown]
# ## Figures

# %%
names = ["ANN", *snns]
colours = dict(zip(names, plotting.palette(len(names))))
for col, panel, label in (("acc", "accuracy", "test accuracy"),
                          ("relative", "relative", "acc(σ) / acc(0)")):
    Tshow = sorted({T_ft, cfg.T_high})
    fig, axes = plotting.figure(ncols=len(Tshow), width=4.8 * len(Tshow), squeeze=False)
    for ax, T in zip(axes[0], Tshow):
        for name in names:
            r = results[(results.model == name) & (results["T"] == (0 if name == "ANN" else T))]
            ax.plot(r.sigma, r[col], "o-", ms=3, color=colours[name],
                    ls="--" if name == "ANN" else "-", label=name)
        ax.set(xlabel="pixel noise σ", ylabel=label, title=f"SNNs at T = {T} (T_ft = {T_ft})")
        ax.legend(fontsize=6)
    nb.save_figure(fig, panel)

# %% [markdown]
# ## What the run shows, in its own numbers

# %%
print(results.pivot_table(index=["model", "T"], columns="sigma", values="acc").round(3).to_string())
print(results.pivot_table(index=["model", "T"], columns="sigma", values="relative").round(3)
      .to_string())

# %%
nb.finish()

# %% [markdown]
# **What we saw** (the numbers are those printed above and in `tables/03_noise_robustness/`; our
# miniature's). Every claim is decided on the test images as replicates, each model scored on
# the same noisy image.
#
# - *Rate averaging is robust*: the open-loop SNN at T = 16 is compared with the ANN at σ = 0.3
#   (`noise.converted_high_T`); the open-loop SNN with v₀ = ½ at T = 4 is shown beside it.
# - *The fine-tuned SNNs* at T_ft: `noise.finetuned_relative` compares their relative degradation
#   at σ = 0.3 with the ANN's (the 0.03 margin is the spec's, not the paper's), and
#   `noise.finetuned_absolute` reads P5 literally, in absolute accuracy at every σ, which the spec
#   expected to fail because at T = 4 the SNN starts below the ANN before any noise. Our 100-step
#   fine-tune at T = 4 is far from the paper's budget, which could decide both; the intermediate σ
#   are in the table above.
