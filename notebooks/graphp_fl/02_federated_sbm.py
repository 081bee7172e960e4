# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # GraphP-FL miniature, part 2: federated SBM clients with topological noise
#
# **What this shows.** The abstract claims two mechanisms: client-side topology reconstruction
# that "suppresses topological noise propagation" (GP1) and Fisher-based alignment (FRPA) that
# "preserves critical local knowledge while aligning with the global model" (GP2). Here both run
# in their textbook form ([spec §1.1](../../docs/specs/graphp_fl.md#s1-1), §1.2) on K synthetic clients, each one stochastic-block-model
# graph with feature skew (a client rotation of the community means), concept skew (half the
# clients transpose two labels) and injected random edges at r_k ∈ {0, 0.5, 1, 2} × |E|
# ([spec §3](../../docs/specs/graphp_fl.md#s3) NB2). Five arms train a 2-layer GCN for 30 rounds × 5 local epochs: local-only, FedAvg,
# FedProx (μ = 0.01), FRPA (reading 1: the closed-form alignment of notebook 01 applied on arrival
# of the global model, with the client's empirical diagonal Fisher at its personalised model) and
# FRPA + topology rectification. We measure per-client personalised test accuracy, forgetting
# (the accuracy drop of a client's model on arrival of the global model) and the edge precision
# of the rectified graph Ã against the true SBM edges.
#
# **What it cannot show** ([spec §8](../../docs/specs/graphp_fl.md#s8)). GP3 (up to +8.6 % on seven benchmarks: molecules, social
# networks, encrypted traffic) needs data we do not have and an algorithm the abstract does not
# specify; it is recorded as skipped with the paper's number quoted, never as reproduced. The
# pFGL baselines of the paper are not run.
#
# **Provenance.** Claims [READ] from the abstract; the whole experiment is reconstructed
# ([spec §3](../../docs/specs/graphp_fl.md#s3)); the thresholds are the spec's, fixed in `lib/graphp_fl/decisions.py` before the run (their words in `notebooks/graphp_fl/claims.yaml`).
# Every trained claim is decided on the seeds' values and resampled over the seeds (its
# bootstrap stability is recorded; below 0.9 the claim is inconclusive). FRPA falling below
# FedProx would be a deviation only if shown beyond seed noise (the per-seed difference more than
# 2 s.e. below zero over the seeds), not on the sign of a mean.
#
# **Decisions where the spec is open** ([spec §7](../../docs/specs/graphp_fl.md#s7)). Node classification (the spec's NB2). The
# Fisher is the client's own, at its personalised model, divided by its mean so that λ = 1 is
# "the average coordinate moves halfway" (`choices.fisher_scale`); `frpa_variant = "ewc"` runs
# reading 2 instead. The scorer is a linear encoder of the raw features trained by balanced BCE
# on observed edges against all non-edges plus a small smoothness term; Ã keeps an observed edge
# at s > `threshold` and adds the top `add_frac` |E| new edges, and is recomputed every
# `topo_every` rounds as the scorer trains on. Every arm is evaluated personalised: its client
# model after the last round's local training (so FedAvg and FedProx are "with fine-tuning";
# FedAvg's global model is shown dashed beside it). Adam restarts each round.
#
# **What to look for.** Rectified precision above the observed one on every noisy client; the
# gain from rectification rising with r_k; FRPA's forgetting below FedAvg's; FRPA's accuracy
# against FedProx's.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
executor = "inline"  # where the grid's runs go: inline in the kernel (one after the other), debug (in the kernel, through submitit), local subprocesses, or slurm jobs
workers = 1  # runs at once (local) or the SLURM array's parallelism; runs are single-threaded, so the results are the same for any count
slurm_partition = ""  # SLURM partition ('' the cluster's default)
slurm_gpus = 0  # GPUs per SLURM job
slurm_time_min = 240  # a SLURM job's time limit in minutes (≤ 14 days, the runner's paper limit)
n_seeds = 5  # spec NB2: 5 seeds
n_clients = 6  # spec NB2: K is 6 clients
n_nodes = 300  # spec NB2: 300 nodes per client
n_comm = 4  # spec NB2: 4 communities
p_in = 0.08  # spec NB2: p_in is 0.08
p_out = 0.01  # spec NB2: p_out is 0.01
dim = 16  # reconstructed: feature dimension (spec open); 16 keeps a dense GCN step cheap
feature_skew = 1.0  # reconstructed: client rotation is polar factor of I + 1.0 G / sqrt(d)
feature_noise = 1.0  # reconstructed: feature noise sd against unit-variance community means; at 2.0 a probe's linear scorer could not tell communities apart well enough to clean any edges at r is 0.5
swap_frac = 0.5  # reconstructed: half the clients transpose 2 labels
noise_levels = [0.0, 0.5, 1.0, 2.0]  # spec NB2: r_k in {0, 0.5, 1, 2} x |E|, client k gets level k mod 4
train_frac = 0.5  # reconstructed: half the nodes of a client train, half test
hidden = 16  # reconstructed: GCN width 16 (Kipf & Welling's)
rounds = 30  # spec NB2: 30 rounds
local_epochs = 5  # spec NB2: 5 local epochs (full batch, one step each)
lr = 0.02  # reconstructed: Adam 0.02
prox_mu = 0.01  # spec NB2: FedProx mu
frpa_variant = "interpolate"  # spec §1.2: reading 1 (closed-form alignment on arrival); 'ewc': reading 2 (local training against the global Fisher)
frpa_lambda = 1.0  # reconstructed: lambda_g against the mean-normalised Fisher (choices.fisher_scale)
embed = 8  # reconstructed: scorer embedding size
tau = 1.0  # spec §1.1: temperature tau
topo_lr = 0.05  # reconstructed: scorer Adam
topo_steps = 50  # reconstructed: scorer steps per topology update
topo_every = 10  # spec §1.1: A~ recomputed every R rounds; R is 10 gives 3 updates in 30 rounds
smooth = 0.01  # reconstructed: weight of the feature-smoothness term
threshold = 0.5  # reconstructed: theta, keep an observed edge when s > 0.5 (the balanced BCE's even odds)
add_frac = 0.1  # reconstructed: top-r new edges, r is 0.1 |E|

# %%
import numpy as np
import pandas as pd
import torch

from lib.companion import notebook, plotting, sweep
from lib.graphp_fl import fed, sbm, topology

nb = notebook.start("graphp_fl/02_federated_sbm", globals())
cfg, ledger, rng, tables = nb.cfg, nb.ledger, nb.rng, nb.tables

# %% [markdown]
# ## The rectification identity: θ = 0 and no additions return A

# %%
probe = sbm.make_clients(rng, n_clients=cfg.n_clients, n_nodes=cfg.n_nodes, n_comm=cfg.n_comm,
                         p_in=cfg.p_in, p_out=cfg.p_out, dim=cfg.dim,
                         feature_skew=cfg.feature_skew, feature_noise=cfg.feature_noise,
                         swap_frac=cfg.swap_frac, noise_levels=cfg.noise_levels,
                         train_frac=cfg.train_frac)
scorer = topology.make_scorer(torch.Generator().manual_seed(cfg.seed), cfg.n_clients, cfg.dim,
                              cfg.embed, cfg.tau, cfg.topo_lr)
with torch.no_grad():
    same = topology.rectify(topology.logits(scorer, torch.as_tensor(probe.x)),
                            torch.as_tensor(probe.adj), 0.0, 0.0)
ledger.exact("topology.identity", expected=0, measured=int((same.numpy() != probe.adj).sum()))
with torch.no_grad():
    added = topology.rectify(topology.logits(scorer, torch.as_tensor(probe.x)),
                             torch.as_tensor(probe.adj), 0.0, 0.5)
ledger.exact("control.identity_rejects_additions", expected=False,
             measured=int((added.numpy() != probe.adj).sum()) == 0)

# %% [markdown]
# ## The federated runs (the heavy cell): one run per seed, through the sweep engine (`executor`)

# %%
runs = sweep.run_params(fed.run_seed, [(cfg, s) for s in range(cfg.n_seeds)], cfg, nb.id,
                        labels=[f"seed {s}" for s in range(cfg.n_seeds)])
rows = [{"seed": s, "arm": arm, "client": k, "noise": r.noise[k], "swapped": bool(r.swapped[k]),
         "acc": float(r.acc[a, k]), "forgetting": float(r.forgetting[a, k])}
        for s, r in enumerate(runs) for a, arm in enumerate(fed.ARMS) for k in range(cfg.n_clients)]
per = pd.DataFrame(rows)
per.to_csv(tables / "per_client.csv", index=False)
topo = pd.DataFrame([{"seed": s, "client": k, "noise": r.noise[k], "prec_obs": r.prec_obs[k],
                      "prec_rect": r.prec_rect[k]}
                     for s, r in enumerate(runs) for k in range(cfg.n_clients)])
topo.to_csv(tables / "precision.csv", index=False)
seed_means = per.groupby(["arm", "seed"])[["acc", "forgetting"]].mean()
print(seed_means.groupby("arm").mean().loc[list(fed.ARMS)].round(3))

# %% [markdown]
# ## The claims

# %%
noisy = topo[topo.noise > 0].pivot_table(index="seed", columns="noise",
                                         values=["prec_obs", "prec_rect"])   # (seeds, levels)
wide = per.pivot_table(index=["seed", "client", "noise"], columns="arm", values="acc").reset_index()
wide["gain"] = wide["frpa_topo"] - wide["frpa"]
by_seed = wide.pivot_table(index="seed", columns="client", values=["noise", "gain"])
arm = {a: seed_means.loc[a] for a in fed.ARMS}                          # (seeds,) per arm
slope = np.polyfit(wide.noise, wide.gain, 1)[0] if wide.noise.nunique() >= 2 else float("nan")
ledger.record("topology.denoise", measured={f"r={r:g}": f"{noisy.prec_rect[r].mean():.3f} vs "
                                            f"{noisy.prec_obs[r].mean():.3f}" for r in noisy.prec_obs},
              evidence={"prec_rect": noisy.prec_rect, "prec_obs": noisy.prec_obs})
ledger.record("topology.acc", measured=f"slope {slope:.4f} over {len(wide)} (seed, client) "
              "points; mean gain by r: " + ", ".join(
                  f"{r:g}: {g:+.4f}" for r, g in wide.groupby("noise").gain.mean().items()),
              evidence={"noise": by_seed.noise, "gain": by_seed.gain})
ledger.record("frpa.forgetting", measured=f"FRPA {arm['frpa'].forgetting.mean():.3f} vs FedAvg "
              f"{arm['fedavg'].forgetting.mean():.3f}",
              evidence={"frpa": arm["frpa"].forgetting, "fedavg": arm["fedavg"].forgetting,
                        "local": arm["local"].acc}, context={"n_comm": cfg.n_comm})
ledger.record("frpa.acc", measured=f"FRPA {arm['frpa'].acc.mean():.3f} vs FedProx "
              f"{arm['fedprox'].acc.mean():.3f} over {cfg.n_seeds} seed(s)",
              evidence={"frpa": arm["frpa"].acc, "fedprox": arm["fedprox"].acc,
                        "local": arm["local"].acc}, context={"n_comm": cfg.n_comm})
ledger.skip("paper.benchmarks", reason="the data download at run time or are private and the "
            "algorithm is not specified beyond the abstract (spec §8)")

# %% [markdown]
# ## Figures

# %%
colors = dict(zip(fed.ARMS, plotting.palette(len(fed.ARMS))))
fig, (ax1, ax2) = plotting.figure(ncols=2)
for a, arm in enumerate(fed.ARMS):
    vals = seed_means.loc[arm].acc.to_numpy()
    ax1.bar(a, vals.mean(), color=colors[arm], alpha=0.7)
    ax1.plot(np.full(len(vals), a), vals, "k.", ms=4)
    ax2.plot(np.arange(1, cfg.rounds + 1), np.mean([r.curve[:, a] for r in runs], 0),
             color=colors[arm], label=arm)
ax1.plot(fed.ARMS.index("fedavg"), np.mean([r.global_acc.mean() for r in runs]), "k_", ms=18,
         label="FedAvg global model")
ax1.set_xticks(range(len(fed.ARMS)), fed.ARMS, rotation=30, fontsize=7)
ax1.set(ylabel="personalised test accuracy", title="per arm (dots: seeds)",
        ylim=(1 / cfg.n_comm - 0.05, 1.02))
ax1.legend(fontsize=7)
ax2.axhline(np.mean([r.global_acc.mean() for r in runs]), color=colors["fedavg"], ls="--")
ax2.set(xlabel="round", ylabel="mean test accuracy", title="after each round's local training")
ax2.legend(fontsize=7)
nb.save_figure(fig, "accuracy")

# %%
fig, ax = plotting.figure()
fed_arms = [a for a in fed.ARMS if a != "local"]
width = 0.8 / len(fed_arms)
client_mean = per.groupby(["arm", "client"]).forgetting.mean()
for i, arm in enumerate(fed_arms):
    ax.bar(np.arange(cfg.n_clients) + i * width, client_mean.loc[arm].to_numpy(), width,
           color=colors[arm], label=arm)
ax.set_xticks(np.arange(cfg.n_clients) + 0.4 - width / 2,
              [f"k={k}\nr={cfg.noise_levels[k % len(cfg.noise_levels)]:g}"
               for k in range(cfg.n_clients)], fontsize=7)
ax.set(ylabel="accuracy drop on arrival", title="forgetting per client (mean over rounds, seeds)")
ax.legend(fontsize=7)
nb.save_figure(fig, "forgetting")

# %%
fig, (ax1, ax2) = plotting.figure(ncols=2)
by_r = topo.groupby("noise")[["prec_obs", "prec_rect"]].mean()
ax1.plot(by_r.index, by_r.prec_obs, "o-", label="observed A")
ax1.plot(by_r.index, by_r.prec_rect, "s-", label="rectified A~")
ax1.set(xlabel="injected edges r_k (× |E|)", ylabel="edge precision", title="edge precision")
ax1.legend(fontsize=7)
ax2.axhline(0, color="k", lw=0.5)
ax2.plot(wide.noise + rng.uniform(-0.03, 0.03, len(wide)), wide.gain, ".", alpha=0.6)
ax2.plot(wide.groupby("noise").gain.mean(), "k-o", label="mean")
ax2.set(xlabel="injected edges r_k (× |E|)", ylabel="acc(FRPA + rect.) − acc(FRPA)",
        title="gain from rectification")
ax2.legend(fontsize=7)
nb.save_figure(fig, "topology")

# %%
nb.finish()

# %% [markdown]
# **What we saw.** See the claims table above and the three figures: whether rectification
# raised precision at each noise level, whether its accuracy gain grew with r_k, and how FRPA's
# forgetting and accuracy compare with FedAvg's and FedProx's. The clients with transposed labels
# are where the global model hurts most (the forgetting figure), which is where an alignment that
# keeps high-Fisher coordinates local should help. None of these are the paper's numbers.
#
# **What this shows about the paper's headline.** Whether the two mechanisms the abstract names
# do what it says on synthetic clients at the spec's own sizes (5 seeds, 30 rounds; no budget cut):
# rectification raising edge precision and its gain growing with the noise (GP1), FRPA
# forgetting less than FedAvg and matching or beating FedProx (GP2), each read off its claim and
# stability above. The paper's benchmark gains (GP3) are not tested here.
