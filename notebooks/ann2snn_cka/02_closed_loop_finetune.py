# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # ANN→SNN miniature, part 2: closed-loop fine-tuning with KL and adaptive CKA
#
# **Claims of the paper made concrete** (abstract [READ]; [spec §2](../../docs/specs/ann2snn_cka.md#s2) P2, P3, P4, C1, D3).
# Fine-tuning the converted SNN in closed loop, with the source ANN left unchanged, closes the
# conversion gap (on CIFAR-10, ResNet-18 at T = 32: 96.38 % against the ANN's 96.39 %). The
# loss is $(1-\alpha)\,\mathrm{CE} + \alpha[\beta\,\mathrm{KL}_\tau + (1-\beta)\sum_l w_l (1 -
# \mathrm{CKA}_l)]$ with $w_l \propto 1 - \mathrm{CKA}_0(l)$; at low T (the paper's T = 8) the
# local CKA term is "essential", global gradients alone being unstable.
#
# **What this notebook shows** ([spec §1.3](../../docs/specs/ann2snn_cka.md#s1-3), [spec NB02](../../docs/specs/ann2snn_cka.md#s3)). The converted SNN of notebook 01
# (v₀ = 0) fine-tuned by BPTT at T_ft = 4 (the miniature's low-T regime) for 100 Adam steps of
# 64 images, lr 10⁻⁴, τ = 2, in three arms: KL-only (α = ½, β = 1), KL + CKA (α = β = ½) and
# CE-only, two seeds each; evaluated at every T ≤ 32 beside the open-loop references (v₀ = 0 and
# ½). The ANN is read from notebook 01's checkpoint and checked bit for bit afterwards. The
# fine-tuned SNNs of the first seed are saved for notebook 03.
#
# **Decisions where the spec is open** (each a parameter): the CKA gradient is the full one
# (`cka_grad`; the released code detaches the norms, which this notebook shows changes the
# gradient, a `deviation`; arm `kl_cka_detached` runs it); CKA sites are every IF layer's
# output (`cka_features`); layer weights from CKA₀ at T_ft on training images (`cka_weighting`,
# `uniform` the ablation); the budget is 100 steps at lr 10⁻⁴, far shorter than the released
# scripts' 20–100 epochs at 10⁻⁵ ([spec §7](../../docs/specs/ann2snn_cka.md#s7) Q6).
#
# **What it cannot show ([spec §8](../../docs/specs/ann2snn_cka.md#s8)).** The CIFAR-10 numbers: they are quoted below as the
# paper's and recorded as not run. T_ft = 8 … 32 and five seeds run in the `paper` profile
# only.
#
# **Look for:** how much of the T = 4 gap fine-tuning closes; whether KL + CKA beats KL-only at
# T_ft (the paper's P3), and what fine-tuning at T = 4 does to accuracy at T = 32.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
executor = "inline"  # where the grid's runs go: inline in the kernel (one after the other), debug (in the kernel, through submitit), local subprocesses, or slurm jobs
workers = 1  # runs at once (local) or the SLURM array's parallelism; runs are single-threaded, so the results are the same for any count
slurm_partition = ""  # SLURM partition ('' the cluster's default)
slurm_gpus = 0  # GPUs per SLURM job
slurm_time_min = 240  # a SLURM job's time limit in minutes (≤ 14 days, the runner's paper limit)
alpha = 4.0  # spec §1.1: sigmoid surrogate, alpha 4 (SpikingJelly's)
n_test = 1000  # spec §3: the first 1 000 t10k images
chunk = 25  # test images per forward pass: small tensors stay in the heap (bench: 25 is about twice as fast as 100)
block = 1  # time steps folded into one synapse call; 1 is the fastest on one CPU thread (bench/ann2snn_cka_forward.py), T the all-steps-at-once form
T_ft = [4]  # spec NB02 default: fine-tune at T is 4
T_eval = 32  # spec NB02: evaluate at every T ≤ 32 (cumulative)
arms = ["kl_only", "kl_cka", "ce_only"]  # spec NB02: the three arms
seeds = 2  # spec NB02 default: seeds 0, 1
steps = 100  # spec NB02: 100 steps
ft_batch = 64  # spec NB02: batch 64
ft_lr = 0.0001  # spec NB02: Adam 1e-4
tau = 2.0  # spec NB02: tau 2
kd_alpha = 0.5  # spec NB02: alpha 0.5 (distillation against CE)
cka_beta = 0.5  # spec NB02: beta 0.5 in KL + CKA (global against local)
cka_weighting = "adaptive"  # spec §1.3 eq. 9: w_l from the initial conversion loss 1 - CKA0; uniform: 1/L, the ablation
cka_grad = "full"  # decision (spec §7 Q4): the CKA's full gradient; detached_norm: the released code's (arm kl_cka_detached runs it beside)
cka_features = "post"  # decision (spec §7 Q3): the output of every IF layer; pre: its input current
cka0_gram = "per_step"  # decision (spec §7 Q5): CKA0's SNN Gram, the time average of per-step Grams
n_cka0 = 256  # spec §1.3: CKA0 on training images (the code: test batches)
n_train = 20000  # the training images mini-batches are drawn from (spec §3)
v0 = 0.0  # decision (spec §7 Q2): fine-tune the code's conversion, v0 is 0
ft_block = 4  # time steps folded into one synapse call in fine-tuning: all of T_ft is 4 at once is about twice as fast as one (the backward's copies of per-step pieces)
n_features = 256  # test images on which F2.2 measures each layer's CKA before and after
n_grad_check = 32  # training images on which the two CKA gradients are compared (float64)

# %%
import copy

import numpy as np
import pandas as pd
import torch

from lib.ann2snn_cka import ann, cka, convert, data, decisions, experiment, finetune, losses
from lib.ann2snn_cka.ann import SITES
from lib.companion import notebook, paths, plotting, rules
from lib.spiking import memory

memory.reuse_freed_memory()          # fewer page faults: lib/spiking/memory.py
nb = notebook.start("ann2snn_cka/02_closed_loop_finetune", globals())
cfg, ledger, rng, tables = nb.cfg, nb.ledger, nb.rng, nb.tables
split = data.fashion_mnist(cfg.n_train, cfg.n_test)
source = paths.tables_dir("ann2snn_cka/01_conversion_gap")
model = ann.load(source / "ann.npz")
lam = list(pd.read_csv(source / "scales.csv").lam)
acc_ann = ann.accuracy(model, split.x_test, split.y_test)
T_top = max(cfg.T_eval, max(cfg.T_ft))
Ts = np.arange(1, T_top + 1)
recipe_of = {T: finetune.Recipe(T=T, steps=cfg.steps, batch=cfg.ft_batch, lr=cfg.ft_lr,
                                tau=cfg.tau, kd_alpha=cfg.kd_alpha, cka_beta=cfg.cka_beta,
                                cka_grad=cfg.cka_grad, features=cfg.cka_features,
                                block=cfg.ft_block) for T in cfg.T_ft}

# %% [markdown]
# ## Open-loop references and the layer weights

# %%
reference = {v0: convert.anytime_accuracy(convert.SpikingNet(model, lam, v0, cfg.alpha),
                                          split.x_test, split.y_test, T_top, cfg.chunk)
             for v0 in sorted({cfg.v0, 0.0, 0.5})}
x_cka = split.x_test[:cfg.n_features]
targets = finetune.ann_targets(model, x_cka, cfg.cka_features)[1]


def layer_cka(snn, T):
    """Linear CKA per site between the SNN's features at T and the ANN's, on test images."""
    with torch.no_grad():
        feats = finetune.snn_features(snn.run(x_cka, T, cfg.block, record=True), cfg.cka_features)
    return [float(cka.linear_cka(f.double(), t.double())) for f, t in zip(feats, targets)]


weights = {}
for T in cfg.T_ft:
    cka0 = finetune.initial_cka(convert.SpikingNet(model, lam, cfg.v0, cfg.alpha), model,
                                split.x_train[:cfg.n_cka0], T, cfg.ft_batch, cfg.cka_features,
                                cfg.cka0_gram, cfg.block)
    weights[T] = finetune.layer_weights(cka0, cfg.cka_weighting)
pd.DataFrame([{"T_ft": T, "site": s, "w": w[i]} for T, w in weights.items()
              for i, s in enumerate(SITES)]).to_csv(tables / "weights.csv", index=False)

# %% [markdown]
# ## Fine-tuning: every arm, seed and T_ft (BPTT through T_ft steps), one run each through the
# sweep engine (`executor`)

# %%
shared = experiment.Source(ann.state_arrays(model), tuple(lam), cfg.v0, cfg.alpha, cfg.n_train,
                           cfg.n_test, T_top, cfg.chunk)
jobs = [experiment.Job(shared, arm, cfg.seed + k, weights[T], recipe_of[T])
        for T in cfg.T_ft for k in range(cfg.seeds) for arm in cfg.arms]
results = experiment.run_jobs(jobs, cfg, nb.id)
runs, curves, histories, after_cka = [], {}, [], []
for job, r in zip(jobs, results):
    T, arm, sd, acc, hist = job.recipe.T, job.arm, job.seed, r.accuracy, r.history
    curves[(T, arm, sd)] = acc
    runs.append({"T_ft": T, "arm": arm, "seed": sd, "acc_at_Tft": acc[T - 1],
                 **{f"acc_T{t}": acc[t - 1] for t in Ts}})
    histories += [{"T_ft": T, "arm": arm, "seed": sd, "step": i, "total": a, "ce": b, "kl": c,
                   "local": d, "kl_grad_norm": g}
                  for i, (a, b, c, d, g) in enumerate(zip(
                      hist.total, hist.ce, hist.kl, hist.local, hist.kl_grad_norm))]
# each T_ft's layer CKA before fine-tuning, then after, for the first seed's runs (saved)
checkpoints = tables / "checkpoints"
checkpoints.mkdir(exist_ok=True)
for T in cfg.T_ft:
    snns = {"converted": convert.SpikingNet(model, lam, cfg.v0, cfg.alpha)}
    for job, r in zip(jobs, results):
        if job.recipe.T == T and job.seed == cfg.seed:
            snns[job.arm] = experiment.finetuned(r, lam, cfg.v0, cfg.alpha)
            ann.save(snns[job.arm].net, checkpoints / f"{job.arm}_T{T}.npz")
    after_cka += [{"T_ft": T, "arm": arm, "site": s, "cka": c}
                  for arm, snn in snns.items() for s, c in zip(SITES, layer_cka(snn, T))]
runs = pd.DataFrame(runs)
runs.to_csv(tables / "runs.csv", index=False)
histories = pd.DataFrame(histories)
histories.to_csv(tables / "training.csv", index=False)
after_cka = pd.DataFrame(after_cka)
after_cka.to_csv(tables / "layer_cka.csv", index=False)
pd.DataFrame([{"arm": a, "T_ft": T, "seed": cfg.seed, "v0": cfg.v0,
               "file": f"checkpoints/{a}_T{T}.npz"} for T in cfg.T_ft for a in cfg.arms]
             ).to_csv(tables / "checkpoints.csv", index=False)
summary = runs.groupby(["T_ft", "arm"], sort=False)[
    ["acc_at_Tft", *[f"acc_T{t}" for t in (4, 8, 16, 32) if t <= T_top]]].mean()
summary

# %% [markdown]
# ## Exact checks: the loss as its formula and the released CKA gradient (the ANN untouched is
# true by construction, held by a unit test, not a finding)

# %%
ledger.skip("ft.ann_frozen", "fine-tuning leaves the source ANN's tensors bit-identical "
            "('without altering the source model')", source="abstract; spec NB02",
            provenance="paper", kind="exact", expected="every tensor bit-identical",
            reason="true by construction here, so no run can fail it: the SNN converts a deep "
            "copy of the ANN (lib/ann2snn_cka/convert.py); "
            "tests/ann2snn_cka/test_finetune.py holds it for every arm")

# the loss on one fixed batch in float64, against the formula written out in numpy
T0, arm0 = cfg.T_ft[0], ("kl_cka" if "kl_cka" in cfg.arms else cfg.arms[0])
alpha0, beta0, _ = finetune.arm_mix(arm0, recipe_of[T0])
snn64 = convert.SpikingNet(model, lam, cfg.v0, cfg.alpha).double()
xb, yb = split.x_train[:cfg.ft_batch].double(), split.y_train[:cfg.ft_batch]
with torch.no_grad():
    run = snn64.run(xb, T0, cfg.block, record=True)
    z_a, feats_a = finetune.ann_targets(copy.deepcopy(model).double(), xb, cfg.cka_features)
    feats_s = finetune.snn_features(run, cfg.cka_features)
    parts = losses.closed_loop_loss(run.logits, z_a, yb, feats_s, feats_a, weights[T0], alpha0,
                                    beta0, cfg.tau, cfg.cka_grad)


def log_softmax(z):
    z = z - z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))


def cka_numpy(X, Y):
    n = len(X)
    H = np.eye(n) - np.ones((n, n)) / n
    Kx, Ky = H @ (X @ X.T) @ H, H @ (Y @ Y.T) @ H
    return (Kx * Ky).sum() / np.sqrt((Kx * Kx).sum() * (Ky * Ky).sum())


zs, za = run.logits.numpy(), z_a.numpy()
ce = -log_softmax(zs)[np.arange(len(yb)), yb.numpy()].mean()
pa = np.exp(log_softmax(za / cfg.tau))
kl = cfg.tau ** 2 * (pa * (log_softmax(za / cfg.tau) - log_softmax(zs / cfg.tau))).sum(1).mean()
local = sum(w * (1 - cka_numpy(f.reshape(len(f), -1).numpy(), g.reshape(len(g), -1).numpy()))
            for w, f, g in zip(weights[T0], feats_s, feats_a))
expected = (1 - alpha0) * ce + alpha0 * (beta0 * kl + (1 - beta0) * local)
# negative control: the same formula without the τ² factor on the KL term must be rejected
kl_no_tau2 = kl / cfg.tau ** 2
broken = (1 - alpha0) * ce + alpha0 * (beta0 * kl_no_tau2 + (1 - beta0) * local)
ledger.exact("control.loss_without_tau2", "the decomposition check rejects the loss written "
             "without the τ² factor on KL_τ (a wrong constant: the check can fail)",
             source="negative control of loss.decomposition", provenance="derived",
             expected=False, measured=bool(abs(float(broken) - float(parts.total)) <= 1e-10
                                           and beta0 > 0 and alpha0 > 0))
ledger.close("loss.decomposition", f"the closed-loop loss of arm {arm0} on a fixed batch equals "
             "(1-α)CE + α[βKL_τ + (1-β)Σ w_l(1 - CKA_l)] written out in numpy (float64)",
             source="spec §1.3 eqs. 7-9 (C1)", provenance="paper", expected=float(expected),
             measured=float(parts.total), atol=1e-10, why="float64, two summation orders")

# the released code's CKA: norms under no_grad. Same value, but its gradient is not CKA's
X = feats_s[1][:cfg.n_grad_check].detach().clone().requires_grad_()
Y = feats_a[1][:cfg.n_grad_check]
grads, values = {}, {}
for g in cka.CKA_GRADS:
    value = cka.linear_cka(X, Y, g)
    (grads[g],) = torch.autograd.grad(value, X)
    values[g] = float(value)
cosine = {g: float((grads[g] * X).sum() / (grads[g].norm() * X.norm())) for g in grads}
same_value = abs(values["full"] - values["detached_norm"]) <= 1e-12
ledger.deviation("cka.detached_norm_gradient", "the released code's CKA loss (Frobenius norms "
                 "under no_grad) has CKA's value but not its gradient: CKA is scale-invariant, so "
                 "its gradient is orthogonal to the features X; the detached one is not (it also "
                 "rewards scaling the SNN features)", source="spec §1.3 (D3)", kind="exact",
                 expected="value equal; cos(∇_X, X) = 0 for the loss of eq. 8",
                 measured=f"values {values['full']:.15f} / {values['detached_norm']:.15f}; "
                          f"cos(∇, X): full {cosine['full']:.2e}, detached "
                          f"{cosine['detached_norm']:.3f}",
                 evidence=f"conv2 features of {cfg.n_grad_check} training images, float64; "
                          "full |cos| <= 1e-9, detached |cos| > 1e-3, values within 1e-12",
                 shown=same_value and abs(cosine["full"]) <= 1e-9
                 and abs(cosine["detached_norm"]) > 1e-3,
                 power="exact float64 autograd on one batch: the full gradient's cosine is zero to "
                       "1e-9 and the detached one's is three orders of magnitude above that")

# %% [markdown]
# ## Claims of the fine-tuning (thresholds fixed in lib/ann2snn_cka/decisions.py)

# %%
def accs(T_ft, arm, t):
    """Accuracy at evaluation step t of every seed of (T_ft, arm)."""
    r = runs[(runs.T_ft == T_ft) & (runs.arm == arm)].sort_values("seed")
    return np.asarray(r[f"acc_T{t}"], dtype=float)


budget = (cfg.steps >= 100, "the spec's budget of >= 100 fine-tuning steps")


def arms_converged(T_ft, *arms):
    """The precondition of a comparison between arms: each arm's training loss (seed mean per
    step) fell by < 5 % over the last quarter (rules.converged), and the budget holds."""
    ok = cfg.steps >= 100 and all(
        rules.converged(histories[(histories.T_ft == T_ft) & (histories.arm == a)]
                        .groupby("step").total.mean().to_numpy()) for a in arms)
    return ok, (f"the spec's budget of >= 100 steps, and the {' and '.join(arms)} arms "
                f"converged at T_ft = {T_ft} (loss fell by < 5 % over the last quarter)")

per_seed = f"{cfg.seeds} seeds, resampled" if cfg.seeds >= 2 else "one seed"
one_seed = f"one seed (seed {cfg.seed}), {cfg.steps} steps"
have = {"kl_cka", "kl_only"} <= set(cfg.arms)
if 4 in cfg.T_ft and "kl_cka" in cfg.arms:
    gains = accs(4, "kl_cka", 4) - reference[0.0][3]                 # (seeds,)
    ev = rules.evidence(
        gains, lambda g: decisions.gains_every_seed(g, 0.0, decisions.CLOSES_GAP), one_seed)
    ledger.statistical("ft.closes_gap", "KL + CKA fine-tuning at T_ft = 4 raises accuracy at T = 4 "
                       f"by >= {decisions.CLOSES_GAP} over the open-loop SNN (v0 = 0), every seed",
                       source="abstract P1/P2 via spec NB02", provenance="reconstructed",
                       expected=f"gain >= {decisions.CLOSES_GAP} every seed",
                       measured=f"open loop {reference[0.0][3]:.3f}; fine-tuned "
                                f"{[round(a, 3) for a in accs(4, 'kl_cka', 4)]}",
                       **ev,
                       tolerance=per_seed, requires=budget)
else:
    ledger.skip("ft.closes_gap", "KL + CKA at T_ft = 4 closes >= 0.30 of the gap",
                source="abstract P1/P2 via spec NB02", provenance="reconstructed",
                kind="statistical", expected=f"gain >= {decisions.CLOSES_GAP}",
                reason="needs T_ft 4 and arm kl_cka")
if "kl_cka" in cfg.arms:
    fid = np.stack([accs(T, "kl_cka", T) / acc_ann for T in cfg.T_ft], axis=1)  # (seeds, T_ft)
    floors = np.array([decisions.fidelity_threshold(T) for T in cfg.T_ft])
    ev = rules.evidence(fid, lambda f: bool((f.mean(axis=0) >= floors).all()), one_seed)
    ledger.statistical("ft.fidelity_at_Tft", "after KL + CKA fine-tuning the SNN keeps, at its "
                       "T_ft, >= 0.80 of the ANN's accuracy below T = 8 and >= 0.99 from T = 8 "
                       "(P2's '> 99 %' at the miniature's scale; seed mean)",
                       source="abstract P2 via spec NB02", provenance="reconstructed",
                       expected={T: decisions.fidelity_threshold(T) for T in cfg.T_ft},
                       measured={T: round(float(r), 4) for T, r in zip(cfg.T_ft, fid.mean(0))},
                       **ev,
                       tolerance=per_seed, requires=budget)
else:
    ledger.skip("ft.fidelity_at_Tft", "KL + CKA keeps >= 0.80 / 0.99 of the ANN's accuracy",
                source="abstract P2 via spec NB02", provenance="reconstructed",
                kind="statistical", expected=">= 0.80 (T < 8), >= 0.99", reason="needs arm kl_cka")
if have and 4 in cfg.T_ft:
    diffs = accs(4, "kl_cka", 4) - accs(4, "kl_only", 4)               # (seeds,), paired
    helps = dict(statement="at low T (T_ft = 4, the miniature's analogue of the paper's T = 8) "
                 "KL + CKA is more accurate at T_ft than KL-only (mean over seeds); recorded "
                 "whatever the outcome (the spec's prototype tied)",
                 source="abstract P3 via spec NB02", provenance="paper",
                 expected="mean acc(KL + CKA) - acc(KL-only) > 0",
                 measured=f"mean {diffs.mean():.4f}; per seed {np.round(diffs, 4).tolist()}",
                 tolerance=per_seed, requires=arms_converged(4, "kl_cka", "kl_only"))
    if len(diffs) >= 2:
        ledger.compare("ft.local_helps_low_T", **helps, samples=diffs,
                       decide=lambda d: float(np.mean(d)) > 0, opposite=rules.opposite_beyond,
                       power="the paired difference's mean beyond 2 s.e. below zero over >= 3 "
                             "seeds")
    else:
        ledger.statistical("ft.local_helps_low_T", **helps, holds=float(diffs.mean()) > 0,
                           rests_on=one_seed)
else:
    ledger.skip("ft.local_helps_low_T", "KL + CKA beats KL-only at T_ft = 4",
                source="abstract P3 via spec NB02", provenance="paper", kind="statistical",
                expected="difference > 0", reason="needs T_ft 4 and arms kl_cka, kl_only")
low_T = [T for T in cfg.T_ft if T < 32]
if have and T_top >= 32 and low_T:
    kept = np.stack([accs(T, "kl_cka", 32) - accs(T, "kl_only", 32) for T in low_T],
                    axis=1)                                            # (seeds, T_ft < 32)
    ev = rules.evidence(kept, lambda k: bool((k.mean(axis=0) >= 0).all()), one_seed)
    ledger.statistical("ft.local_retains_high_T", "fine-tuned below T = 32, KL + CKA keeps at least "
                       "KL-only's accuracy at evaluation T = 32 (mean over seeds): the local term "
                       "resists the drift of low-T fine-tuning", source="derived from P3/P4, spec NB02",
                       provenance="reconstructed", expected="difference >= 0 for every T_ft < 32",
                       measured={T: round(float(d), 4) for T, d in zip(low_T, kept.mean(0))},
                       **ev,
                       tolerance=per_seed,
                       requires=(all(arms_converged(T, "kl_cka", "kl_only")[0] for T in low_T),
                                 arms_converged(low_T[0], "kl_cka", "kl_only")[1]))
else:
    ledger.skip("ft.local_retains_high_T", "KL + CKA keeps KL-only's accuracy at T = 32",
                source="derived from P3/P4, spec NB02", provenance="reconstructed",
                kind="statistical", expected="difference >= 0",
                reason="needs arms kl_cka and kl_only and T_eval >= 32 and a T_ft below 32")
kl_arm = histories[histories.arm == ("kl_only" if "kl_only" in cfg.arms else cfg.arms[0])]
spread = {T: decisions.cv(kl_arm[kl_arm.T_ft == T].kl_grad_norm) for T in cfg.T_ft}
if len(cfg.T_ft) >= 2:
    low, high = min(cfg.T_ft), max(cfg.T_ft)
    # per seed, the KL gradient norms at the lowest and the highest T_ft (the replicates)
    norms = [{T: kl_arm[(kl_arm.T_ft == T) & (kl_arm.seed == sd)].kl_grad_norm.to_numpy()
              for T in (low, high)} for sd in sorted(kl_arm.seed.unique())]

    def pooled_cv_falls(rows):
        return decisions.cv(np.concatenate([r[low] for r in rows])) > decisions.cv(
            np.concatenate([r[high] for r in rows]))

    ev = rules.evidence(norms, pooled_cv_falls, one_seed)
    ledger.qualitative("ft.global_grad_unstable_low_T", "the KL term's gradient on the output "
                       "weights varies more from step to step at the lowest T_ft than at the "
                       "highest (coefficient of variation over steps and seeds, KL-only)",
                       source="abstract P3 via spec NB02 F2.3", provenance="paper",
                       expected=f"cv(T_ft = {low}) > cv(T_ft = {high})",
                       measured={T: round(v, 4) for T, v in spread.items()},
                       **ev, requires=budget)
else:
    ledger.skip("ft.global_grad_unstable_low_T", "global (KL) gradients are less stable at low "
                "T", source="abstract P3 via spec NB02 F2.3", provenance="paper",
                kind="qualitative", expected="cv falls with T_ft",
                reason="needs two or more T_ft (the paper profile runs 4, 8, 16, 32)")
ledger.skip("paper.cifar10_resnet18", "on CIFAR-10 the fine-tuned ResNet-18 SNN reaches 96.38 % "
            "at T = 32 against the ANN's 96.39 % (quoted from the abstract, not reproduced)",
            source="abstract P2", provenance="paper", kind="statistical",
            expected=decisions.PAPER_CIFAR,
            reason="not run: CIFAR-10 is not available offline and a ResNet-18 BPTT fine-tune "
                   "at T = 32 is GPU-days (spec §8)")

# %% [markdown]
# ## Figures

# %%
arm_colours = dict(zip(cfg.arms, plotting.palette(len(cfg.arms) + 2)))
ref_colours = dict(zip(reference, ["0.4", "0.7", "0.55"]))
fig, axes = plotting.figure(ncols=len(cfg.T_ft), width=5.0 * len(cfg.T_ft), squeeze=False)
for ax, T in zip(axes[0], cfg.T_ft):
    ax.axhline(acc_ann, color="k", ls="--", lw=1, label=f"ANN {acc_ann:.3f}")
    for v0, a in reference.items():
        ax.plot(Ts, a, ":", color=ref_colours[v0], label=f"open loop, v0 = {v0:g}")
    for arm in cfg.arms:
        mean = np.mean([curves[(T, arm, cfg.seed + k)] for k in range(cfg.seeds)], axis=0)
        ax.plot(Ts, mean, "-", color=arm_colours[arm],
                label=f"{arm} (T={T}: {mean[T - 1]:.3f}, T={T_top}: {mean[-1]:.3f})")
    ax.axvline(T, color="k", lw=0.8, alpha=0.5)
    ax.set(xscale="log", xlabel="evaluation T (cumulative readout)", ylabel="test accuracy",
           ylim=(0, 1), title=f"fine-tuned at T_ft = {T}, {cfg.seeds} seed(s)")
    ax.legend(fontsize=6)
nb.save_figure(fig, "accuracy")

# %%
fig, axes = plotting.figure(ncols=len(cfg.T_ft), width=4.5 * len(cfg.T_ft), squeeze=False)
order = ["converted", *cfg.arms]
for ax, T in zip(axes[0], cfg.T_ft):
    r = after_cka[after_cka.T_ft == T]
    for j, arm in enumerate(order):
        vals = [float(r[(r.arm == arm) & (r.site == s)].cka.iloc[0]) for s in SITES]
        ax.bar(np.arange(len(SITES)) + (j - len(order) / 2 + 0.5) * 0.8 / len(order), vals,
               0.8 / len(order), label=arm, color=arm_colours.get(arm, "0.6"))
    lo = float(r.cka.min())
    ax.set_xticks(range(len(SITES)), SITES)
    ax.set(ylim=(max(0.0, lo - 0.02), 1.0), ylabel=f"linear CKA at T = {T}",
           title=f"before / after fine-tuning at T_ft = {T} (seed {cfg.seed})")
    ax.legend(fontsize=6)
nb.save_figure(fig, "cka")

# %%
fig, axes = plotting.figure(ncols=2, width=10.0, squeeze=False)
for arm in cfg.arms:
    for T, ls in zip(cfg.T_ft, ["-", "--", ":", "-."]):
        h = histories[(histories.arm == arm) & (histories.T_ft == T)].groupby("step").mean(
            numeric_only=True)
        axes[0, 0].plot(h.index, h.total, ls, color=arm_colours[arm], label=f"{arm}, T_ft={T}")
        axes[0, 1].plot(h.index, h.kl_grad_norm, ls, color=arm_colours[arm],
                        label=f"{arm}, T_ft={T}: cv "
                              f"{decisions.cv(histories[(histories.arm == arm) & (histories.T_ft == T)].kl_grad_norm):.2f}")
axes[0, 0].set(xlabel="step", ylabel="training loss (seed mean)", title="closed-loop loss")
axes[0, 1].set(xlabel="step", ylabel="||∇_W KL|| on the output layer", yscale="log",
               title="the global term's gradient")
axes[0, 0].legend(fontsize=6)
axes[0, 1].legend(fontsize=6)
nb.save_figure(fig, "training")

# %% [markdown]
# ## What the run shows, in its own numbers

# %%
print(f"ANN {acc_ann:.3f}; open loop (v0 = 0) at T = 4 / 8 / 16 / 32: "
      + " / ".join(f"{reference[0.0][t - 1]:.3f}" for t in (4, 8, 16, 32) if t <= T_top))
print(summary.round(3).to_string())

# %%
nb.finish()

# %% [markdown]
# **What we saw** (the numbers are those printed above and in `tables/02_closed_loop_finetune/`;
# our miniature's). In the default profile: T_ft = 4, 100 steps, two seeds.
#
# - *Does closed-loop fine-tuning close the T = 4 gap?* (`ft.closes_gap`, `ft.fidelity_at_Tft`):
#   the open-loop and fine-tuned accuracy of each seed are printed above, beside the ANN's.
# - *The local term at low T* (P3, `ft.local_helps_low_T`): the mean paired difference between
#   KL + CKA and KL-only at T_ft is small against the spread between seeds (the spec's prototype
#   tied). With two seeds no opposite can be shown (that needs >= 3 paired differences beyond 2
#   s.e.), so the claim passes or fails on the sign of the mean, with its resampling stability;
#   two seeds are the budget cut that could decide it (the paper profile runs five). It is decided
#   only where both arms' training loss has stopped falling; after the spec's 100 steps it may not
#   have, and then the claim is inconclusive (so is `ft.local_retains_high_T`). Where the local
#   term may matter is away from T_ft: fine-tuning at T = 4 can over-specialise (compare the
#   accuracy at T = 32 with the open-loop SNN's in the table), and `ft.local_retains_high_T`
#   records whether KL + CKA keeps more of it than KL-only.
# - *The released CKA loss* (`deviation`): detaching the norms leaves the value but the gradient's
#   cosine with the features is far from 0: it is not CKA's gradient.
# - The CIFAR-10 numbers (96.38 % vs 96.39 %) are quoted, not run; the gradient-stability probe
#   across T_ft needs the paper profile.
