# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # BSNP miniature, part 3: sparse contexts and context noise (Table-2 style)
#
# **Claims of the paper made concrete** ([spec §2](../../docs/specs/bsnp.md#s2)): BSNP's accuracy in sparse-data regimes (P3,
# abstract) and MNSE that degrades gracefully as the context noise grows through 0, 5, 10, 15
# and 30% (P5, the release's Table 2 protocol; the paper's values were not readable). The
# data-only NP and BSNP are evaluated on the same fixed test tasks at N_c ∈ {3, 5, 10, 20, 50}
# and at each noise level, beside a prior-only prediction (empty context: density channel zero)
# that shows how much the context adds beyond λ.
#
# **Reconstructed, and why.** The sweep is the spec's (§3 NB3); the numbers are our miniature's
# and never the paper's (no table value was readable).
#
# **Decisions where the spec is open.** This notebook trains its own pair (data-only, BSNP; one
# seed): the project passes no model between notebooks. It trains on N_c ∈ [3, 50] (`nc_low`,
# spec N2's variant) so that N_c = 3 is in distribution; `nc_low = 10` gives exactly
# 02_ablation's seed-0 pair (the same seed, data stream and code). N3 is recorded as a flag
# (statistical), not a stop-the-stage bound.
#
# **What to look for.** MNSE falling with N_c and rising with noise; whether BSNP's ratio to the
# data-only NP is lowest at the smallest context; coverage at N_c = 3.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
executor = "inline"  # where the grid's runs go: inline in the kernel (one after the other), debug (in the kernel, through submitit), local subprocesses, or slurm jobs
workers = 1  # runs at once (local) or the SLURM array's parallelism; runs are single-threaded, so the results are the same for any count
slurm_partition = ""  # SLURM partition ('' the cluster's default)
slurm_gpus = 0  # GPUs per SLURM job
slurm_time_min = 240  # a SLURM job's time limit in minutes (≤ 14 days, the runner's paper limit)
n_train = 4000  # spec §3 default: 4,000 train tasks
n_test = 128  # budget (≤ 3 min per paper on 2 cores): 128 test tasks (spec §3 default 400) cut every evaluation threefold; A2's standard error is over seeds, not tasks
steps = 600  # spec §3 default: 600 steps (issue 58: the cut to 300 is undone; the ≥ 1,000-step tests are the paper profile's)
batch = 16  # spec §3 default: 16 tasks per step (issue 58: the cut to 8 is undone)
grid = 32  # encoder grid M is 32 (spec §1.4)
channels = [32, 32, 32]  # spec §3 default CNN
latent = 16  # spec §3 default latent size
hidden = 32  # spec §3 default decoder head width
rho0 = 0.15  # initial RBF length-scale (release, spec §1.4)
lr = 0.001  # spec §3 default: Adam 1e-3
n_r = 32  # collocation points per task (spec §3 default)
beta = 0.3  # physics weight (release, spec §1.5)
beta0 = 0.05  # boundary weight (release, spec §1.5)
noise = 0.05  # training and test context noise, fraction of max|u|
nc_low = 3  # decision (spec N2): train on N_c in [3, 50] so N_c is 3 is in distribution; 10 gives 02_ablation's seed-0 pair
nc_high = 50  # context size range high (release)
z_samples = 20  # latent samples per prediction (spec §3 default)
fresh_splits = True  # decision (spec §3): fresh context/target split per draw; paper: the release's per-task split
nc_list = [3, 5, 10, 20, 50]  # spec NB3: fixed context sizes
noise_list = [0.0, 0.05, 0.1, 0.15, 0.3]  # spec NB3 / Table 2: noise levels

# %%
import numpy as np
import pandas as pd

from lib.bsnp import evaluate, poisson, train
from lib.companion import notebook, plotting

nb = notebook.start("bsnp/03_sparsity_noise", globals())
cfg, ledger, rng, tables = nb.cfg, nb.ledger, nb.rng, nb.tables
tasks = poisson.make_tasks(cfg.n_train, 42)
test = poisson.make_tasks(cfg.n_test, 2000)
sizes, sched = train.sizes_of(cfg), train.schedule_of(cfg)
runs = {"data": train.Run(train.Arm("data", 0.0, 0.0, cfg.n_r), sizes, sched, cfg.seed),
        "bsnp": train.Run(train.Arm("bsnp", cfg.beta, cfg.beta0, cfg.n_r), sizes, sched,
                          cfg.seed)}
# one sweep run per arm, on the notebook's `executor`
models, histories = train.fit_runs(tasks, runs, cfg, nb.id)

# %% [markdown]
# ## The sweep

# %%
sweep = [("nc", nc, evaluate.Setting(nc, nc, cfg.noise)) for nc in cfg.nc_list]
sweep += [("noise", nz, evaluate.Setting(cfg.nc_low, cfg.nc_high, nz)) for nz in cfg.noise_list]
sweep += [("prior", 0, evaluate.Setting(0, 0, cfg.noise))]
res = pd.DataFrame([{"sweep": kind, "value": v, "model": name,
                     **evaluate.evaluate(m, evaluate.test_batch(test, s, cfg.seed),
                                         cfg.z_samples, cfg.seed)}
                    for kind, v, s in sweep for name, m in models.items()])
res.to_csv(tables / "sweep.csv", index=False)
# the test tasks as replicates of the claims (one trained seed; columns: evaluate.PER_TASK)
per = {(kind, v, name): evaluate.per_task(m, evaluate.test_batch(test, s, cfg.seed),
                                          cfg.z_samples, cfg.seed)
       for kind, v, s in sweep for name, m in models.items()}
table2 = res[res.sweep == "noise"].pivot(index="value", columns="model", values="mnse")
table2.to_csv(tables / "table2_mnse_vs_noise.csv")
nc_tab = res[res.sweep == "nc"].pivot(index="value", columns="model", values=["mnse", "ecp90"])
print(table2.round(4), nc_tab.round(4), sep="\n")

# %% [markdown]
# ## Does the network read the context values?
#
# λ alone determines u, and the encoder is given λ: a network can predict well while ignoring
# the context values. Each task's context values are permuted among its own context points
# (positions, mask and λ kept): a network that reads the values loses accuracy, one that does
# not scores the same. A noise sweep means something only for the former.

# %%
base_batch = evaluate.test_batch(test, evaluate.Setting(cfg.nc_low, cfg.nc_high, cfg.noise),
                                 cfg.seed)
shuffled = evaluate.shuffle_values(base_batch, cfg.seed)
ctx_use = pd.DataFrame([{"model": name,
                         "real": evaluate.evaluate(m, base_batch, cfg.z_samples, cfg.seed)["mnse"],
                         "shuffled": evaluate.evaluate(m, shuffled, cfg.z_samples,
                                                       cfg.seed)["mnse"]}
                        for name, m in models.items()]).set_index("model")
ctx_use["ratio"] = ctx_use.shuffled / ctx_use.real
per_shuffled = evaluate.per_task(models["bsnp"], shuffled, cfg.z_samples, cfg.seed)
per_real = evaluate.per_task(models["bsnp"], base_batch, cfg.z_samples, cfg.seed)
ctx_use.to_csv(tables / "context_use.csv")
print(ctx_use.round(5))

# %% [markdown]
# ## Claims
#
# Their words are in `notebooks/bsnp/claims.yaml`; the claims stage decides them with the rules of
# `lib/bsnp/decisions.py`, on the test tasks of the one trained seed as replicates (MNSE pooled
# over the tasks drawn).

# %%
mn = nc_tab["mnse"]
small, large = cfg.nc_list[0], cfg.nc_list[-1]
learned = {"run_mnse": mn.loc[large].tolist()}          # both models at the largest context
# columns [real values, shuffled values] of BSNP's per-task squared errors and targets
err_ctx, ref_ctx = (np.stack([per_real[:, i], per_shuffled[:, i]], axis=1) for i in (0, 1))
ledger.record("context.values_used", measured=f"BSNP {ctx_use.real['bsnp']:.4g} real, "
              f"{ctx_use.shuffled['bsnp']:.4g} shuffled; data-only ratio "
              f"{ctx_use.ratio['data']:.3g}", evidence={"err_ctx": err_ctx, "ref_ctx": ref_ctx},
              context=learned)
by_noise = evaluate.columns(per, [("noise", nz, "bsnp") for nz in cfg.noise_list])
ledger.record("noise.graceful", measured=[round(table2.bsnp[nz], 5) for nz in cfg.noise_list],
              evidence={"err": by_noise["err"], "ref": by_noise["ref"], "err_ctx": err_ctx,
                        "ref_ctx": ref_ctx}, context={**learned, "noise": list(cfg.noise_list)})
sparse = evaluate.columns(per, [("nc", small, "bsnp"), ("nc", small, "data"),
                                ("nc", large, "bsnp"), ("nc", large, "data")])
ledger.record("sparse.advantage_small_nc", measured=f"{mn.bsnp[small] / mn.data[small]:.3f} at "
              f"N_c = {small}, {mn.bsnp[large] / mn.data[large]:.3f} at N_c = {large}",
              evidence={"err": sparse["err"], "ref": sparse["ref"], "err_ctx": err_ctx,
                        "ref_ctx": ref_ctx}, context=learned)
inside = per[("nc", small, "bsnp")][:, evaluate.PER_TASK.index("inside")]
ledger.record("sparse.coverage_nc3", measured=float(inside.mean()), evidence={"inside": inside},
              context=learned)
prior = res[res.sweep == "prior"].set_index("model").mnse
gain = evaluate.columns(per, [("nc", large, "bsnp"), ("prior", 0, "bsnp")])
ledger.record("context.adds_beyond_lambda", measured=f"{mn.bsnp[large]:.4g} at N_c = {large} vs "
              f"prior-only {prior['bsnp']:.4g}", context=learned,
              evidence={"err": gain["err"], "ref": gain["ref"]})

# %% [markdown]
# ## Figures

# %%
fig, (ax1, ax2) = plotting.figure(ncols=2, width=8.0)
for name, colour in (("data", "C1"), ("bsnp", "C0")):
    ax1.loglog(mn.index, mn[name], "o-", color=colour, label=name)
    ax1.axhline(prior[name], color=colour, ls=":", label=f"{name}, prior only")
    ax2.semilogx(mn.index, nc_tab["ecp90"][name], "o-", color=colour, label=name)
ax2.axhline(0.9, color="k", ls="--")
ax1.set(xlabel="N_c", ylabel="MNSE", title="accuracy against context size")
ax2.set(xlabel="N_c", ylabel="ECP₉₀", title="coverage against context size")
ax1.legend(fontsize=7)
ax2.legend(fontsize=7)
nb.save_figure(fig, "context")

# %%
fig, ax = plotting.figure()
for name, colour in (("data", "C1"), ("bsnp", "C0")):
    ax.plot(100 * table2.index, table2[name], "o-", color=colour, label=name)
    ax.axhline(ctx_use.shuffled[name], color=colour, ls=":",
               label=f"{name}, values shuffled ({100 * cfg.noise:g}% noise)")
ax.set(xlabel="context noise (% of max|u|)", ylabel="MNSE", title="MNSE against noise (Table 2)")
ax.legend(fontsize=7)
nb.save_figure(fig, "noise")

# %% [markdown]
# ## What the run shows, in its own numbers

# %%
print(table2.round(5).to_string(), nc_tab.round(4).to_string(), ctx_use.round(5).to_string(),
      sep="\n")

# %%
nb.finish()

# %% [markdown]
# **What the runs showed, against the abstract** (the default profile: the spec's 600 steps of
# batch 16, one seed, 128 test tasks; the numbers are those printed above; our miniature's, never
# the paper's).
# Every claim is decided on the test tasks of the one trained seed as replicates, so none can
# show the paper's opposite: a failure is a fail.
#
# - *Accuracy in sparse-data regimes* (P3, `sparse.advantage_small_nc`): the MNSE ratio BSNP /
#   data-only at N_c = 3 against N_c = 50; the spec's prototype saw the data-only NP better at
#   N_c = 3 and expected this to fail. Like the noise test it asks what the context does, so it
#   is decided only where BSNP reads its context values (`context.values_used`), else
#   inconclusive. `sparse.coverage_nc3` flags BSNP's coverage at N_c = 3.
# - *Graceful degradation in noise* (P5, `noise.graceful`) is tested only where the network reads
#   the context values (`context.values_used`: permuting each task's values among its own context
#   points must cost >= 1.5x MNSE). λ alone determines u and the encoder is given λ, so a network
#   can predict from λ and the positions and ignore the values; then the noise sweep checks
#   nothing and the claim is inconclusive.
# - `context.adds_beyond_lambda` compares the N_c = 50 prediction with the empty-context one.
# - Budget: the spec's default 600 steps of batch 16 (an earlier cut to 300 x 8, a quarter of
#   it, is undone: it cost about 23 CPU-s against about 32 at the spec's size). At both sizes the
#   trained BSNP ignores its context values ([spec §1.2](../../docs/specs/bsnp.md#s1-2): λ
#   determines u, so the values are redundant in principle), so the noise and sparse-context
#   headlines stay undecided here; the paper profile's 20k steps (`make plan PROFILE=paper`) or
#   a model not given λ could decide them.
