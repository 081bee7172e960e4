# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # INFER miniature, part 2: a time-domain field against frequency fields, with and without KK
#
# **Claims of the paper made concrete** ([spec §2](../../docs/specs/infer.md#s2) I1–I4). INFER
# learns complex frequency responses directly and reports lower magnitude and phase errors than
# time-domain and hybrid fields; its KK term regularises attenuation and phase causally; its
# perceptual and hardware-aware weights favour critical bands. This notebook trains, on one
# simulated cabin ([spec §1.3](../../docs/specs/infer.md#s1-3)) with 64 training and 192
# held-out microphones, the four arms of [spec §1.4](../../docs/specs/infer.md#s1-4): T (a
# time-domain field, causal by construction), F (log-magnitude and phase per bin), F+KK (F plus
# λ·r(Ĥ), the non-causal energy fraction of notebook 01, at random unlabelled positions; a λ
# sweep) and F+KK+W (plus ERB-density weights and a 0.2 notch on a declared 250–400 Hz
# crossover). It reports held-out magnitude error (dB), wrapped phase error (rad), r, band-wise
# errors and the train/held-out gap, over several seeds.
#
# **Provenance.** The fields, losses, weights and data are [RECON] ([spec §1.4](../../docs/specs/infer.md#s1-4)): the paper's
# two-branch renderer is known only from a summary. The claims' thresholds are the spec's, fixed
# before the run; the spec's prototype numbers are expectations, not expected values. The
# paper's 39 % / 51 % are quoted beside ours as a `skipped` claim: different data and models.
#
# **What it cannot show ([spec §8](../../docs/specs/infer.md#s8)).** I4 on MeshRIR, RAF and the
# authors' car cabins; the ray-marching renderer with orientation-dependent retransmission;
# listening tests and loudspeaker effects. With plain MSE losses T and a complex-output F would
# be the same function class up to a fixed unitary map (Parseval): any difference seen here comes
# from the loss geometry (log-magnitude, phase, weights) and the KK term, not from the output
# domain itself.
#
# **Decisions where the spec is open** ([spec §7](../../docs/specs/infer.md#s7)). Q1: the KK term
# penalises r of the total Ĥ (the real/imaginary form, valid for any causal H; notebook 01 shows
# why the log form cannot go on a room's H, and there is no δ branch here). Q2: the perceptual
# weight is `decisions.perceptual_density` (ERB-rate density). Q4: the phase error is the
# wrapped absolute difference (`decisions.phase_error`). One random split for all arms and
# seeds (`seed`); seeds change the initialisation and Fourier features, shared by every arm of a
# seed, so arms differ by their loss alone. Sizes: the spec's width 256 and 1,500 full-batch
# Adam steps. An earlier default cut both 4x (width 64, 400 steps) and the headline then failed
# on every seed, where the spec's prototype at full size had F 30 % better: a cut that could
# decide the headline by itself. The paper profile carries the spec's larger grid and longer
# schedule.
#
# **How the claims are decided.** Per-seed paired differences, the spec's rule (> 0 in at least
# 2 of 3 seeds), with the stability of that decision under resampling the seeds recorded
# beside it; a decision fewer than 90 % of resamples repeat is inconclusive. A phase
# comparison becomes a `deviation` only if the arm the paper favours is *worse* beyond 2
# standard errors over >= 3 seeds (`rules.opposite_beyond`); otherwise it passes or fails.
#
# **Look for:** whether F beats T on held-out magnitude and phase; r falling by orders of
# magnitude with λ (T at rounding level); what KK does to held-out phase; the weighted arm lower
# in the low, emphasised bands and higher in the notched crossover band; F's training error far
# below its held-out error (it memorises the training microphones).

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
executor = "inline"  # where the grid's runs go: inline in the kernel (one after the other), debug (in the kernel, through submitit), local subprocesses, or slurm jobs
workers = 1  # runs at once (local) or the SLURM array's parallelism; runs are single-threaded, so the results are the same for any count
slurm_partition = ""  # SLURM partition ('' the cluster's default)
slurm_gpus = 0  # GPUs per SLURM job
slurm_time_min = 240  # a SLURM job's time limit in minutes (≤ 14 days, the runner's paper limit)
room = [3.0, 1.6, 1.2]  # spec §1.3: cabin-sized shoebox, metres
source = [0.5, 0.4, 0.9]  # spec §1.3: point source, metres
beta = 0.55  # spec §1.3: frequency-independent wall reflection coefficient
order = 10  # spec §1.3: images of order |n_x| + |n_y| + |n_z| up to 10
fs = 4000.0  # spec §1.3: 4 kHz
c = 343.0  # speed of sound, m/s
n_fft = 1024  # spec §1.3: 1024-point DFT, so a causal window of 512 samples (128 ms)
taps = 41  # spec §1.3: 41-tap Hann-windowed sinc fractional delay
bulk = 20  # spec §1.3: 20-sample bulk delay, so the first tap sits at t ≥ 0
grid = 16  # spec §1.3: a 16 x 16 microphone grid (about 6.5 cm spacing)
plane_size = [1.0, 0.9]  # spec §1.3: 1.0 x 0.9 m microphone plane
plane_origin = [1.2, 0.35]  # decision (spec §1.3 leaves it open): the plane's corner, 0.7 m from the source in x, centred in y
plane_height = 0.9  # spec §1.3: the plane at height 0.9 m
n_train = 64  # spec §1.3: 64 training microphones
features = 32  # spec §1.4: 32 Gaussian Fourier features
sigma = 6.0  # spec §1.4: Fourier feature scale 6 on [0, 1]^2 plane coordinates
width = 256  # spec §1.4: 2 x 256 (the headline is decided at the spec's size, not under a 4x cut; this notebook takes ~4 CPU-min of the 5 a miniature may)
depth = 2  # spec §1.4: 2 hidden layers
steps = 1500  # spec NB2 prototype: 1500 full-batch Adam steps
lr = 0.001  # decision (the spec gives none): Adam 1e-3 at width 256 over 1500 steps
n_seeds = 3  # spec NB2: 3 seeds
kk_lambda = 1.0  # spec NB2: the F+KK and F+KK+W arms at lambda_KK 1
kk_lambdas = [1.0]  # the r-against-lambda sweep at the spec prototype's lambda 0 and 1 (10 was stopped for time there; 0.1 would add a fifth of the training cost; the paper profile sweeps 0.1, 1, 10)
kk_points = 64  # spec §3 cost note: KK on 64 random query positions ...
kk_every = 2  # ... every 2nd step
band = [50.0, 1500.0]  # spec §1.3: evaluation band 50-1500 Hz
crossover = [250.0, 400.0]  # spec §1.4: declared crossover band 250-400 Hz
notch_weight = 0.2  # spec §1.4: weight 0.2 inside the crossover band
n_bands = 8  # decision: 8 equal-ERB-rate bands for the band-wise errors
n_show = 3  # spec NB2: spectra at three held-out microphones

# %%
import numpy as np
import torch

from lib.companion import notebook, plotting, rules
from lib.infer import decisions, evaluate, kk, losses, scene, train

nb = notebook.start("infer/02_field_comparison", globals())
cfg, ledger, rng, tables = nb.cfg, nb.ledger, nb.rng, nb.tables
generator = torch.manual_seed(cfg.seed)   # bound: its repr (an address) is not a result

# %% [markdown]
# ## The cabin, the split, and one sweep run per (arm, seed) (`executor`)

# %%
cab = scene.build(cfg)
train_idx, test_idx = scene.split(cfg.grid ** 2, cfg.n_train, rng)
seeds = [cfg.seed + i for i in range(cfg.n_seeds)]
run = train.train(cfg, cab, train_idx, seeds, nb.id)
names = [a.name for a in run.arms]

# %%
band = losses.band_mask(cab.freqs, tuple(cfg.band))
mag, phase = evaluate.errors(run, cab, band)
r = evaluate.residuals(run, cfg.n_fft)
summ = evaluate.summary(run, mag, phase, r, train_idx, test_idx, seeds)
summ.to_csv(tables / "summary.csv", index=False, float_format="%.6g")
per_arm = summ.groupby("arm", sort=False).mean(numeric_only=True).drop(columns="seed")
per_arm


# %%
def col(arm: str, key: str) -> np.ndarray:
    """A column of the summary for one arm, in seed order."""
    return summ[summ.arm == arm][key].to_numpy()


def per_seed(arms: list[str], key: str) -> str:
    """Each arm's values of one column, in seed order, named: the measured side of a paired claim."""
    return "; ".join(f"{a}: " + ", ".join(f"{v:.4g}" for v in col(a, key)) for a in arms)


main_kk = f"F+KK λ={cfg.kk_lambda:g}"
need = f">= {rules.seeds_needed(cfg.n_seeds, decisions.SEED_FRACTION)} of {cfg.n_seeds} seeds"
ledger.close("field.time_causal", "largest non-causal energy fraction r of T's predicted "
             "spectra (float64 DFT of its n/2 output samples) over all microphones and seeds",
             source="spec §1.4 (T is causal by construction)", provenance="derived",
             expected=0.0, measured=float(r[0].max()), atol=1e-20,
             why="T writes only t < n/2; squared float64 rounding is ~1e-32")
# negative control: T's spectra delayed by n/2 samples (half of each response wraps into the
# negative-time half: the causal window removed) must fail the same check
shift = np.exp(-1j * np.pi * np.arange(run.spectra.shape[-1]))              # e^{-i w n/2}
r_shifted = kk.kk_residual(torch.as_tensor(run.spectra[0] * shift), cfg.n_fft).numpy()
ledger.exact("control.noncausal_time_field", "the causality check of field.time_causal rejects "
             "T's spectra delayed by n/2 samples (non-causal energy put in on purpose)",
             source="negative control of field.time_causal", provenance="derived",
             expected=False, measured=bool(float(r_shifted.max()) <= 1e-20))
mag_diff = col("T", "test_mag_db") - col("F", "test_mag_db")           # (seeds,) > 0: F better
ledger.statistical("field.freq_vs_time_mag", "held-out magnitude error (dB): F below T, paired "
                   f"by seed ({need}); T per seed, F per seed",
                   source="abstract (I1); spec NB2", provenance="reconstructed",
                   expected=f"F < T in {need} (spec prototype, seed 0: T 4.24, F 2.96 dB)",
                   measured=per_seed(["T", "F"], "test_mag_db"), samples=mag_diff,
                   decide=decisions.positive_in_most)
phase_diff = col("T", "test_phase_rad") - col("F", "test_phase_rad")
ledger.compare("field.freq_vs_time_phase", "held-out phase error (rad): F below T, paired by "
               f"seed ({need}); T per seed, F per seed", source="abstract (I1); spec NB2",
               provenance="reconstructed",
               expected=f"F < T in {need} (spec prototype: 0.679 vs 0.688, a tie)",
               measured=per_seed(["T", "F"], "test_phase_rad"), samples=phase_diff,
               decide=decisions.positive_in_most, opposite=rules.opposite_beyond,
               power="paired difference T - F beyond 2 s.e. below zero over >= 3 seeds")

# %% [markdown]
# ## KK: causality of the predicted spectra, and what it does to held-out phase

# %%
sweep = ["F"] + [f"F+KK λ={lam:g}" for lam in cfg.kk_lambdas]
r_sweep = np.stack([col(a, "test_r") for a in sweep], axis=1)           # (seeds, lambdas)
ledger.statistical("field.kk_causality", "held-out KK residual r of the frequency field falls "
                   f"strictly along lambda = 0, {', '.join(f'{x:g}' for x in cfg.kk_lambdas)} "
                   f"({need}); means over seeds per lambda",
                   source="abstract (I2); spec NB2", provenance="reconstructed",
                   expected=f"decreasing in {need} (spec prototype: 0.18 at 0, 5.1e-5 at 1)",
                   measured=list(r_sweep.mean(0)), samples=r_sweep,
                   decide=decisions.decreasing_in_most)
kk_diff = col("F", "test_phase_rad") - col(main_kk, "test_phase_rad")
ledger.compare("field.kk_phase", f"held-out phase error (rad): {main_kk} below F, paired "
               f"by seed ({need}); F per seed, F+KK per seed",
               source="abstract (I2); spec NB2", provenance="reconstructed",
               expected=f"F+KK < F in {need} (spec prototype: 0.667 vs 0.679)",
               measured=per_seed(["F", main_kk], "test_phase_rad"), samples=kk_diff,
               decide=decisions.positive_in_most, opposite=rules.opposite_beyond,
               power="paired difference F - F+KK beyond 2 s.e. below zero over >= 3 seeds")
gap_rows = np.column_stack([col("F", "train_mag_db"), col("F", "test_mag_db")])
ledger.qualitative("field.f_memorises", "F's training-microphone magnitude error over its "
                   "held-out one (means over seeds)", source="spec NB2 (risk: F memorises)",
                   provenance="reconstructed", expected="< 0.5 (a large train/held-out gap)",
                   measured=float(gap_rows[:, 0].mean() / gap_rows[:, 1].mean()),
                   samples=gap_rows, decide=lambda g: g[:, 0].mean() / g[:, 1].mean() < 0.5)

# %% [markdown]
# ## Weighting: the emphasised bands against the notched crossover band

# %%
fb = cab.freqs[band]
emph, notch = evaluate.weighted_bins(fb, tuple(cfg.crossover), cfg.notch_weight)
a_w, a_kk = names.index("F+KK+W"), names.index(main_kk)
held = mag[:, :, test_idx]                                                # (A, S, M', Kb)
keys = ("emph_w", "emph_flat", "notch_w", "notch_flat")
per_seed_trade = np.stack([held[a][..., sel].mean(axis=(-2, -1)) for a, sel in
                           [(a_w, emph), (a_kk, emph), (a_w, notch), (a_kk, notch)]],
                          axis=1)                                          # (seeds, 4)
trade = dict(zip(keys, per_seed_trade.mean(0)))
ledger.statistical("field.weighting", f"held-out magnitude error (dB) of F+KK+W against {main_kk}"
                   f" in the emphasised bins (weight above flat, {fb[emph].min():.0f}-"
                   f"{fb[emph].max():.0f} Hz) and in the notched {cfg.crossover[0]:g}-"
                   f"{cfg.crossover[1]:g} Hz band (means over seeds and held-out microphones)",
                   source="abstract (I3); spec NB2", provenance="reconstructed",
                   expected="W lower where emphasised and higher in the notch",
                   measured="; ".join(f"{k} {v:.4g}" for k, v in trade.items()),
                   samples=per_seed_trade,
                   decide=lambda t: decisions.weighting_tradeoff(*t.mean(0)))
band_table = evaluate.bands(run, mag, phase, fb, test_idx, cfg.n_bands)
band_table.to_csv(tables / "bands.csv", index=False, float_format="%.6g")
gain = {k: 1 - col("F", k).mean() / col("T", k).mean() for k in ("test_mag_db", "test_phase_rad")}
ledger.skip("field.gap_vs_paper", "the paper's 39 % / 51 % lower magnitude / phase error than "
            "time- and hybrid-domain fields", source="abstract (I4)", provenance="paper",
            kind="statistical", expected="39 % and 51 % lower (MeshRIR, RAF, car cabins)",
            reason="not comparable: different data and models. On this synthetic cabin F's "
                   f"held-out error relative to T's is {-gain['test_mag_db']:+.0%} (magnitude) "
                   f"and {-gain['test_phase_rad']:+.0%} (phase), means over seeds (negative: "
                   "lower)")

# %% [markdown]
# ## Figures

# %%
colors = dict(zip(names, plotting.palette(len(names))))
fig, axes = plotting.figure(ncols=2)
for ax, key, unit in [(axes[0], "mag_db", "magnitude error (dB)"),
                      (axes[1], "phase_rad", "phase error (rad)")]:
    for i, arm in enumerate(names):
        test, tr = col(arm, f"test_{key}"), col(arm, f"train_{key}")
        ax.bar(i, test.mean(), yerr=test.std() if len(test) > 1 else None, color=colors[arm],
               capsize=2, label="held out" if i == 0 else None)
        ax.plot([i] * len(tr), tr, "k_", ms=8, label="training mics" if i == 0 else None)
    ax.set_xticks(range(len(names)), names, rotation=35, ha="right")
    ax.set(ylabel=unit, title=f"{unit.split()[0]}, mean ± sd over {cfg.n_seeds} seed(s)")
    ax.legend(fontsize=6)
nb.save_figure(fig, "errors")

# %%
show = [names.index(a) for a in ("T", "F", main_kk, "F+KK+W")]
fig, axes = plotting.figure(ncols=len(show), width=9.0, height=2.6)
maps = mag[:, 0].mean(-1).reshape(len(names), cfg.grid, cfg.grid)        # seed 0, (A, g, g)
vmax = float(maps[show].max())
extent = [cfg.plane_origin[0], cfg.plane_origin[0] + cfg.plane_size[0],
          cfg.plane_origin[1], cfg.plane_origin[1] + cfg.plane_size[1]]
for ax, a in zip(axes, show):
    im = ax.imshow(maps[a], origin="lower", extent=extent, vmin=0, vmax=vmax, cmap="magma")
    ax.plot(cab.mics[train_idx, 0], cab.mics[train_idx, 1], "c.", ms=3)
    ax.set(title=names[a], xlabel="x (m)", ylabel="y (m)" if a == show[0] else None)
    ax.grid(False)
fig.colorbar(im, ax=axes, label="magnitude error (dB), seed 0", shrink=0.8)
nb.save_figure(fig, "maps")

# %%
pick = test_idx[np.linspace(0, len(test_idx) - 1, cfg.n_show).astype(int)]
fig, axes = plotting.figure(nrows=cfg.n_show, ncols=2, height=2.0 * cfg.n_show, squeeze=False)
for row, mic in enumerate(pick):
    ax_m, ax_p = axes[row]
    ax_m.plot(fb, 20 * np.log10(np.abs(cab.spectra[mic, band])), "k-", lw=1.2, label="truth")
    for a in ("T", main_kk):
        pred = run.spectra[names.index(a), 0, mic, band]
        ax_m.plot(fb, 20 * np.log10(np.abs(pred)), lw=0.8, color=colors[a], label=a)
        ax_p.plot(fb, decisions.phase_error(pred, cab.spectra[mic, band]), lw=0.6,
                  color=colors[a], label=a)
    ax_m.set(ylabel="|H| (dB)", title=f"held-out mic {mic}: magnitude")
    ax_p.set(ylabel="|phase error| (rad)", title=f"held-out mic {mic}: phase error", ylim=(0, np.pi))
    if row == 0:
        ax_m.legend(fontsize=6)
        ax_p.legend(fontsize=6)
axes[-1, 0].set_xlabel("frequency (Hz)")
axes[-1, 1].set_xlabel("frequency (Hz)")
nb.save_figure(fig, "spectra")

# %%
bt = band_table.groupby(["arm", "band"], sort=False).mean(numeric_only=True).reset_index()
fig, ax = plotting.figure(width=5.0)
width_bar = 0.38
for j, a in enumerate((main_kk, "F+KK+W")):
    sel = bt[bt.arm == a]
    ax.bar(sel.band + (j - 0.5) * width_bar, sel.mag_db, width_bar, color=colors[a], label=a)
edges = bt[bt.arm == main_kk]
ax.set_xticks(edges.band, [f"{lo:.0f}–{hi:.0f}" for lo, hi in zip(edges.f_lo, edges.f_hi)],
              rotation=35, ha="right")
in_notch = edges.band[(edges.f_hi >= cfg.crossover[0]) & (edges.f_lo <= cfg.crossover[1])]
for b in in_notch:
    ax.axvspan(b - 0.5, b + 0.5, color="0.85", zorder=0)
ax.set(xlabel="ERB band (Hz); grey: overlaps the notched crossover", ylabel="held-out |dB error|",
       title="band-wise magnitude error, flat vs weighted loss")
ax.legend(fontsize=7)
nb.save_figure(fig, "bands")

# %%
lams = np.array([0.0, *cfg.kk_lambdas])
xpos = np.where(lams > 0, lams, lams[lams > 0].min() / 10)               # lambda = 0 drawn left
fig, (ax1, ax2) = plotting.figure(ncols=2)
for s in range(cfg.n_seeds):
    ax1.loglog(xpos, r_sweep[s], "o-", ms=3, color="C0", alpha=0.6,
               label="F / F+KK, per seed" if s == 0 else None)
ax1.axhline(max(col("T", "test_r").max(), 1e-40), color=colors["T"], ls=":", label="T")
ax1.set_xticks(xpos, ["0"] + [f"{x:g}" for x in cfg.kk_lambdas])
ax1.set(xlabel="λ_KK", ylabel="held-out r(Ĥ)", title="non-causal energy against λ")
ax1.legend(fontsize=6)
ph = np.stack([col(a, "test_phase_rad") for a in sweep], axis=1)
ax2.semilogx(xpos, ph.T, "o-", ms=3, color="C2", alpha=0.6)
ax2.axhline(col("T", "test_phase_rad").mean(), color=colors["T"], ls=":", label="T (mean)")
ax2.set_xticks(xpos, ["0"] + [f"{x:g}" for x in cfg.kk_lambdas])
ax2.set(xlabel="λ_KK", ylabel="held-out phase error (rad)", title="phase error against λ")
ax2.legend(fontsize=6)
nb.save_figure(fig, "kk")

# %%
status = {c.id.removeprefix("infer."): c.status for c in ledger.claims}
means = {a: (col(a, "test_mag_db").mean(), col(a, "test_phase_rad").mean()) for a in ("T", "F")}
print(f"Headline I1 at width {cfg.width}, {cfg.steps} steps, {cfg.n_seeds} seeds: held-out "
      f"magnitude F < T is `{status['field.freq_vs_time_mag']}`, phase F < T is "
      f"`{status['field.freq_vs_time_phase']}`. Seed means: T {means['T'][0]:.3g} dB / "
      f"{means['T'][1]:.3g} rad, F {means['F'][0]:.3g} dB / {means['F'][1]:.3g} rad: the "
      f"{'frequency' if means['F'][0] < means['T'][0] else 'time'} field has the lower held-out "
      "magnitude error on this cabin.")
nb.finish()

# %%
from IPython.display import Markdown

better_t = {k: int((col("T", k) < col("F", k)).sum()) for k in ("test_mag_db", "test_phase_rad")}
Markdown(f"**Plainly:** at width {cfg.width} and {cfg.steps} steps, on this simulated cabin, the "
         f"time field has the lower held-out magnitude error on {better_t['test_mag_db']} of "
         f"{cfg.n_seeds} seeds and the lower phase error on {better_t['test_phase_rad']}; "
         f"`field.freq_vs_time_mag` is `{status['field.freq_vs_time_mag']}` and "
         f"`field.freq_vs_time_phase` is `{status['field.freq_vs_time_phase']}`.")

# %% [markdown]
# **What we saw.** The line printed above and the cell above say what this run shows about the
# headline; the claims table holds the numbers and the figures show them. A deviation would
# mean that the opposite of the paper's direction is shown beyond two standard errors.
# (The spec's single-seed prototype had F ahead on magnitude against a weaker T.) This is one cabin, one
# split and our reconstructed fields, not the paper's renderer or data. The paper's
# headline I1 is `field.freq_vs_time_mag` with `field.freq_vs_time_phase`: their status says
# whether, at the spec's sizes, the frequency field beats the time field at held-out
# microphones on magnitude and on phase, seed by seed (the spec's prototype expected a clear
# magnitude gain and a phase tie). `field.gap_vs_paper` sets our relative change beside the
# paper's 39 % / 51 %, which are on other data and not comparable. For I2,
# `field.kk_causality` shows whether the KK term makes the predicted spectra causal, and
# `field.kk_phase` whether that moves held-out phase (a deviation only if KK makes phase worse
# beyond the seeds' spread). `field.weighting` and the band figure are I3, and
# `field.f_memorises` is the train/held-out gap that bounds every held-out comparison here:
# F fits its training microphones far better than it interpolates between them. Three seeds
# decide each claim; a decision that does not survive resampling them is inconclusive, not a
# verdict on the paper.
