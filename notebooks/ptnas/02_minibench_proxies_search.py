# %% [markdown]
# # A mini NAS-bench: does pTProxy rank MLPs, and does filter-and-refine find the best one sooner?
#
# **Claims (Xing et al., abstract; spec §2).** P2: pTProxy correlates with trained performance
# better than existing zero-cost proxies (Table 1). P4: pTNAS is anytime, finding a viable
# architecture fast and improving with budget (Figure 3). P3: it "reduces the time to reach the
# globally best architecture by up to 82.75×". P8: the default recalibration beats width-only and
# depth-only variants (Table 10).
#
# **What is reconstructed and why (spec §3, [RECON]).** NAS-Bench-Tabular (Frappe, UCI Diabetes,
# Criteo) is on external storage and far beyond two CPU cores (spec §8). In its place: every MLP of
# depth 1-3 with widths in {8, 16, 32, 64, 128} (155 nets) trained once on scikit-learn's bundled
# digits (accuracy) and a `make_classification` task (AUC), all nets of a padded shape as one masked
# batched network, metric recorded after epochs 1, 3, 9, 27 (an η = 3 ladder). Then the proxies
# of the release that fit (pTProxy and its modes, SynFlow, GradNorm, SNIP, NASWOT, #params, a random
# score) on the same initial weights, and a search simulator on the cached table (RS, regularised
# evolution, SH alone, pTNAS = proxy filter + SH with the budget coordinator, and pTNAS with
# #params as the filter).
#
# **Why one notebook.** The bench was meant to be its own stage read by later ones, but a stage's
# dependencies are derived from the declaration's `data:` (paths under data/ only): no notebook can
# declare another's table, so the bench lives in the notebook that reads it.
#
# **Decisions where the spec is open (each a parameter or a named constant).**
# (Q1) pTProxy as in the release (all-ones input, `traj_width`), no second mode: the paper text was
# not read. (Q2) One ground truth for every proxy: validation at epoch `gt_epoch` = 27, epoch
# `gt_epoch_short` = 9 alongside (the release scores pTProxy at epoch 13 and baselines at 19 on
# Frappe). (Q3) No sign flipping: higher is better for every proxy. (Q4) "Global best" is the exact
# argmax of the validation metric at epoch 27; "within `near_points`" is shown beside it; S4 records
# the exact one. (Q5) Cost: 1 unit per training epoch of any net, `t_proxy` = 0.005 units per proxy
# evaluation; SH reuses checkpoints; the coordinator takes the largest K whose exact SH workload
# plus M·t_proxy fits (the RelBench planner's rule, M = min(30 K, |space|)). A searcher with no answer
# yet is charged the regret of the worst net. (Q6) 155 nets by default; the larger space is the
# `paper` profile. (Q7) Breast cancer only in the `paper` profile, scored by log-loss.
# pTNAS's phase 1 samples M random candidates rather than running the release's evolution.
#
# **What it cannot show (spec §8).** Table 1's values, RelBench (P5), TabPFN/TabICL (P6) and the
# 82.75× itself: a 155-net space caps any speed-up over random search far below it.
#
# **Look for:** digits where bigger trains better and the proxies (all size-like) rank well; the
# synthetic task where the best nets are small and every size-like proxy, pTProxy included, turns
# negative at epoch 27; SH-based search winning at small budgets on digits only.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
datasets = ["digits", "synthetic"]  # spec §3 default profile
n_rows = 0  # rows kept per data set (0: all)
widths = [8, 16, 32, 64, 128]  # hidden widths (spec §3 space)
depth_min = 1  # shallowest MLP (spec §3)
depth_max = 3  # deepest MLP (spec §3): 155 archs
epochs = [1, 3, 9, 27]  # recorded epochs: the η is 3 SH ladder (spec §3)
batch = 64  # training batch (spec §3)
lr = 0.001  # Adam learning rate (spec §3)
pad_widths = [16, 32, 64, 128]  # padding bins of the masked groups: fastest measured (48 s vs 59 s with one bin)
n_check_archs = 3  # architectures trained alone against the stack (spec B1)
proxy_batch = 32  # pTProxy batch and the real batch of NASWOT, SNIP, GradNorm
eps = 1e-05  # pTProxy's ε (release)
gt_epoch = 27  # primary ground truth: val at this epoch (spec §7 Q2)
gt_epoch_short = 9  # secondary ground truth (spec NB2 proposal)
search_seeds = 30  # search repetitions (spec §3 default)
t_proxy = 0.005  # cost of one proxy evaluation in epoch units (spec §7 Q5)
eta = 3  # SH reduction factor (release)
ratio = 30  # M/K of the coordinator (release default)
k_grid = [1, 2, 3, 5, 9, 15, 27, 45, 81, 155]  # pTNAS's K (spec NB3)
sh_k_grid = [3, 9, 27, 81, 155]  # SH-only K (spec NB3)
budgets = [5.0, 10.0, 30.0, 100.0, 300.0, 1000.0, 3000.0]  # budgets in epoch units (spec NB3 table)
near_points = 0.005  # 'within 0.5 points' of the best (spec §7 Q4 variant)
sh_instances = 1000  # random tables of the SH check (spec S1)

# %%
import numpy as np
import pandas as pd
import torch

from lib.companion import notebook, plotting
from lib.ptnas import bench, checks, data, decisions, proxies, search, space, stats

torch.set_num_threads(1)
nb = notebook.start("ptnas/02_minibench_proxies_search", globals())
cfg, ledger, rng, tables = nb.cfg, nb.ledger, nb.rng, nb.tables
archs = space.enumerate_space(cfg.widths, cfg.depth_min, cfg.depth_max)
splits = {name: data.load_split(name, cfg.seed, cfg.n_rows or None) for name in cfg.datasets}
E = list(cfg.epochs)
g_last, g_short = E.index(cfg.gt_epoch), E.index(cfg.gt_epoch_short)

# %% [markdown]
# ## The bench: masked batched training equals training each net alone (B1)

# %%
first = splits[cfg.datasets[0]]
by_size = sorted(archs, key=lambda a: space.n_params(a, first.d_in, first.n_classes))
check_archs = [by_size[int(i)] for i in np.linspace(0, len(by_size) - 1, cfg.n_check_archs)]
logit_gap, same_argmax = checks.masked_vs_separate(check_archs, first, cfg.seed, cfg.batch, cfg.lr,
                                                   cfg.pad_widths)
ledger.bound("bench.masked_equals_separate", f"{len(check_archs)} nets of the masked stack "
             f"({cfg.datasets[0]}) against the same nets trained alone: max |logit difference| "
             "after one epoch", source="spec §3, B1", provenance="derived", measured=logit_gap,
             upper=decisions.LOGIT_ATOL, why="spec B1: float32 summation order only")
ledger.exact("bench.same_predictions", "and the same test predictions (argmax)", source="spec B1",
             provenance="derived", expected=True, measured=same_argmax)

# %%
res, n_par = {}, {}
for name, split in splits.items():
    res[name] = bench.train_masked(archs, split, cfg.seed, E, cfg.batch, cfg.lr, cfg.pad_widths)
    n_par[name] = np.array([space.n_params(a, split.d_in, split.n_classes) for a in archs])
    table = pd.DataFrame({"arch": ["-".join(map(str, a)) for a in archs], "depth":
                          [len(a) for a in archs], "n_params": n_par[name]})
    for e, ep in enumerate(E):
        table[f"val_{ep}"], table[f"test_{ep}"] = res[name].val[:, e], res[name].test[:, e]
    table.to_csv(tables / f"bench_{name}.csv", index=False)

# %% [markdown]
# ## What the bench looks like (F1.1, F1.2) and how far its ground truth can rank (B2-B4)

# %%
fid = {n: [stats.kendall_tau(r.val[:, e], r.val[:, g_last]) for e in range(g_last)]
       for n, r in res.items()}
ceiling = {n: stats.kendall_tau(r.val[:, g_last], r.test[:, g_last]) for n, r in res.items()}
spread = {n: decisions.not_saturated(res[n].val[:, g_last], splits[n].metric) for n in res}
fid_ok = {n: decisions.increasing(v) and v[g_short] >= decisions.FIDELITY_TAU_MIN
          for n, v in fid.items()}
ledger.statistical("bench.low_fidelity_agrees", "low-fidelity ranks agree with the final ones "
                   "(SH's premise): τ(val@e, val@27) rises with e and τ(val@9, val@27) ≥ 0.5, "
                   "on every data set", source="spec B2 [RECON]", provenance="reconstructed",
                   expected="digits: 0.46, 0.56, 0.69 [PROTO]; synthetic: negative [PROTO]",
                   measured={n: [round(t, 3) for t in v] for n, v in fid.items()},
                   holds=all(fid_ok.values()), tolerance="spec B2 thresholds")
ledger.statistical("bench.noise_ceiling", "the ground truth carries rank information: "
                   "τ(val@27, test@27) > 0 on every data set (the ceiling of any proxy)",
                   source="spec B3 [RECON]", provenance="reconstructed",
                   expected="digits 0.69, synthetic 0.40 [PROTO]",
                   measured={n: round(t, 3) for n, t in ceiling.items()},
                   holds=all(t > 0 for t in ceiling.values()))
ledger.statistical("bench.not_saturated", "the space is not saturated: range of accuracy / AUC "
                   "≥ 0.05 (log-loss: CV ≥ 0.1) at epoch 27", source="spec B4",
                   provenance="reconstructed", expected="≥ 0.05 range",
                   measured={n: round(s[0], 4) for n, s in spread.items()},
                   holds=all(s[1] for s in spread.values()))

# %%
fig, ax = plotting.figure(2, len(res), squeeze=False)
for j, (name, r) in enumerate(res.items()):
    v = np.sort(r.val[:, g_last])
    ax[0, j].step(v, np.arange(1, len(v) + 1) / len(v), where="post")
    ax[0, j].set(title=f"{name}", xlabel=f"val {splits[name].metric} @{cfg.gt_epoch}", ylabel="ECDF")
    depth = np.array([len(a) for a in archs])
    for d in sorted(set(depth)):
        ax[1, j].scatter(n_par[name][depth == d], r.val[depth == d, g_last], s=6, label=f"depth {d}")
    ax[1, j].set(xscale="log", xlabel="#params", ylabel=f"val @{cfg.gt_epoch}")
    ax[1, j].legend()
nb.save_figure(fig, "bench")

fig, ax = plotting.figure()
for name in res:
    line = ax.plot(E[:g_last], fid[name], "o-", label=name)[0]
    ax.axhline(ceiling[name], ls="--", c=line.get_color())
ax.set(xscale="log", xlabel="epoch e", ylabel="τ(val@e, val@27); dashed: τ(val, test)")
ax.legend()
nb.save_figure(fig, "fidelity")

# %% [markdown]
# ## The proxies against the bench (Table 1 analogue, X4-X7)

# %%
scores = {}
for name, split in splits.items():
    w0 = [bench.init_weights(a, split.d_in, split.n_classes, cfg.seed) for a in archs]
    scores[name] = proxies.score_space(archs, w0, split.x_train[:cfg.proxy_batch],
                                       split.y_train[:cfg.proxy_batch], n_par[name],
                                       cfg.proxy_batch, cfg.eps, cfg.seed)
tau = {n: {p: [stats.kendall_tau(s, res[n].val[:, e]) for e in range(len(E))]
           for p, s in sc.items()} for n, sc in scores.items()}
tau_gt = {n: {p: t[g_last] for p, t in d.items()} for n, d in tau.items()}
rows = [{"dataset": n, "proxy": p, **{f"tau_{ep}": t[e] for e, ep in enumerate(E)},
         "spearman_gt": stats.spearman(scores[n][p], res[n].val[:, g_last])}
        for n, d in tau.items() for p, t in d.items()]
pd.DataFrame(rows).to_csv(tables / "proxy_tau.csv", index=False)

# %%
corr_ok = {n: tau_gt[n]["ptproxy"] >= decisions.PTPROXY_TAU_MIN[n] for n in tau_gt}
ledger.statistical("proxy.ptproxy_correlates", "pTProxy's Kendall τ with validation at epoch 27 "
                   "reaches the spec's threshold on every data set (epoch-9 τ alongside)",
                   source="abstract (P1/P2); spec X4", provenance="paper",
                   expected={n: f"≥ {decisions.PTPROXY_TAU_MIN[n]}" for n in tau_gt},
                   measured={n: f"@27 {tau_gt[n]['ptproxy']:.3f}, @9 "
                             f"{tau[n]['ptproxy'][g_short]:.3f}" for n in tau_gt},
                   holds=all(corr_ok.values()), tolerance="spec X4 thresholds, fixed in advance")
baselines = ["ptproxy", "synflow", "n_params", "grad_norm", "snip", "naswot", "random"]
first_ok = {n: decisions.ranks_first({p: tau_gt[n][p] for p in baselines}, "ptproxy")
            for n in tau_gt}
best_holds = all(ok for ok, _ in first_ok.values())
gaps = {n: round(g, 3) for n, (_, g) in first_ok.items()}
if best_holds:
    ledger.qualitative("proxy.ptproxy_best", "pTProxy has the highest τ among the proxies on every "
                       "data set", source="abstract (P2), Table 1; spec X5", provenance="paper",
                       expected="first on every data set", measured=gaps, holds=best_holds)
else:
    ledger.deviation("proxy.ptproxy_best", "pTProxy has the highest τ among the proxies on every "
                     "data set (gap to the best other proxy; negative: beaten)",
                     source="abstract (P2), Table 1; spec X5", kind="qualitative",
                     expected="first on every data set", measured=gaps,
                     evidence=f"τ@27 per proxy: {({n: {p: round(tau_gt[n][p], 3) for p in baselines} for n in tau_gt})}",
                     shown=not best_holds)
margin = {n: tau_gt[n]["ptproxy"] - max(tau_gt[n]["traj"], tau_gt[n]["width"]) for n in tau_gt}
ledger.statistical("proxy.recalibration", "the default recalibration traj_width beats traj and "
                   "width by ≥ 0.03 in τ on every data set", source="spec X6 (P8, Table 10)",
                   provenance="paper", expected="margin ≥ 0.03",
                   measured={n: round(m, 3) for n, m in margin.items()},
                   holds=all(m >= decisions.ABLATION_MARGIN for m in margin.values()))
partial = {n: stats.partial_kendall(scores[n]["ptproxy"], res[n].val[:, g_last],
                                    np.log(n_par[n])) for n in tau_gt}
ledger.statistical("proxy.beyond_size", "pTProxy adds rank information beyond size: partial τ "
                   "given log #params > 0.05 on every data set", source="spec X7 [RECON]",
                   provenance="reconstructed", expected="> 0.05 (≤ 0.05: a size measure, §1.3)",
                   measured={n: round(float(p), 3) for n, p in partial.items()},
                   holds=all(p > decisions.SIZE_PARTIAL_MAX for p in partial.values()))

# %%
shown = baselines + ["traj", "width", "saliency"]
fig, ax = plotting.figure(width=3.4 + 1.2 * len(tau_gt))
mat = np.array([[tau_gt[n][p] for n in tau_gt] for p in shown])
im = ax.imshow(mat, cmap="RdBu_r", vmin=-1, vmax=1, aspect="auto")
ax.set(xticks=range(len(tau_gt)), xticklabels=list(tau_gt), yticks=range(len(shown)),
       yticklabels=shown, title=f"Kendall τ vs val @{cfg.gt_epoch}")
for i in range(len(shown)):
    for j in range(len(tau_gt)):
        ax.text(j, i, f"{mat[i, j]:.2f}", ha="center", va="center", fontsize=7)
fig.colorbar(im)
nb.save_figure(fig, "proxies")

fig, ax = plotting.figure()
modes = ["ptproxy", "traj", "width", "saliency"]
for j, n in enumerate(tau_gt):
    ax.bar(np.arange(4) + 0.8 * j / len(tau_gt), [tau_gt[n][m] for m in modes],
           width=0.8 / len(tau_gt), label=n)
ax.set(xticks=np.arange(4) + 0.2, xticklabels=["traj_width", "traj", "width", "none"],
       ylabel=f"τ vs val @{cfg.gt_epoch}")
ax.legend()
nb.save_figure(fig, "ablation")

fig, ax = plotting.figure(1, len(tau), squeeze=False)
for j, n in enumerate(tau):
    for p in baselines:
        ax[0, j].plot(E, tau[n][p], "o-", label=p, lw=2 if p == "ptproxy" else 1)
    ax[0, j].set(xscale="log", title=n, xlabel="ground-truth epoch", ylabel="Kendall τ")
ax[0, 0].legend(fontsize=6)
nb.save_figure(fig, "gt_epoch")

# %% [markdown]
# ## Anytime search on the cached bench (Figure 3 analogue, S1-S5)

# %%
rng_sh = np.random.default_rng([cfg.seed, 1])
ledger.exact("search.sh_matches_naive", f"SH picks the same winner at the same cost as a plain "
             f"nested-list SH, and as planned, on {cfg.sh_instances} random tables with ties",
             source="spec S1", provenance="derived", expected=0,
             measured=checks.sh_mismatches(cfg.sh_instances, rng_sh, E, cfg.eta))

# %%
SEARCHERS = ("RS", "RE", "SH only", "pTNAS", "pTNAS #params")
full = cfg.gt_epoch
regret, t_best, t_near = {}, {}, {}
for name, r in res.items():
    final, n = r.val[:, g_last], len(archs)
    best, worst = final.max(), final.min()
    sh_plans = search.plans(cfg.sh_k_grid, n, 1, 0.0, E, cfg.eta)
    pt_plans = search.plans(cfg.k_grid, n, cfg.ratio, cfg.t_proxy, E, cfg.eta)
    regret[name] = {s: np.zeros((cfg.search_seeds, len(cfg.budgets))) for s in SEARCHERS}
    t_best[name] = {s: np.zeros(cfg.search_seeds) for s in SEARCHERS}
    t_near[name] = {s: np.zeros(cfg.search_seeds) for s in SEARCHERS}
    for k in range(cfg.search_seeds):
        srng = np.random.default_rng([cfg.seed, 2, k])
        order = srng.permutation(n)
        traces = {"RS": search.random_search_trace(order, final, full),
                  "RE": search.evolution_trace(archs, final, srng, cfg.widths, cfg.depth_min,
                                               cfg.depth_max, full, max(cfg.budgets))}
        for s, (costs, inc) in traces.items():
            regret[name][s][k] = best - search.incumbent_at(costs, inc, cfg.budgets, worst)
            t_best[name][s][k] = search.first_reach(costs, inc, best)
            t_near[name][s][k] = search.first_reach(costs, inc, best - cfg.near_points)
        for s, plan_list, score in (("SH only", sh_plans, None),
                                    ("pTNAS", pt_plans, scores[name]["ptproxy"]),
                                    ("pTNAS #params", pt_plans, scores[name]["n_params"])):
            won = {p.k: final[search.filter_refine(order, score, p, r.val, E, cfg.eta)]
                   for p in plan_list}
            for b, budget in enumerate(cfg.budgets):
                plan = search.coordinator(budget, plan_list)
                regret[name][s][k, b] = best - (won[plan.k] if plan else worst)
            hits = [p.cost for p in plan_list if won[p.k] >= best]
            near = [p.cost for p in plan_list if won[p.k] >= best - cfg.near_points]
            t_best[name][s][k] = min(hits, default=np.inf)
            t_near[name][s][k] = min(near, default=np.inf)
mean_regret = {n: {s: regret[n][s].mean(0) for s in SEARCHERS} for n in regret}
pd.DataFrame([{"dataset": n, "searcher": s, "budget": b, "mean_regret": mean_regret[n][s][i],
               "median_time_to_best": np.median(t_best[n][s])}
              for n in regret for s in SEARCHERS for i, b in enumerate(cfg.budgets)]
             ).to_csv(tables / "search_regret.csv", index=False)

# %%
pt = {n: mean_regret[n]["pTNAS"] for n in mean_regret}
anytime_ok = {n: decisions.non_increasing(v) and v[-1] == 0 for n, v in pt.items()}
ledger.statistical("search.anytime", "pTNAS is anytime: mean regret never rises with the budget "
                   "and reaches 0 at the largest budget, on every data set", source="abstract "
                   "(P4), Figure 3; spec S2", provenance="paper",
                   expected="non-increasing, 0 at the end (synthetic: expected to miss 0 [PROTO])",
                   measured={n: [round(float(x), 4) for x in v] for n, v in pt.items()},
                   holds=all(anytime_ok.values()), tolerance=f"budgets {cfg.budgets}")
small = [cfg.budgets.index(b) for b in decisions.SMALL_BUDGETS if b in cfg.budgets]
small_ok = {n: all(decisions.beats_all(pt[n][i], {s: mean_regret[n][s][i] for s in
                                                  ("RS", "RE", "SH only")}) for i in small)
            for n in pt}
ledger.statistical("search.small_budget", "at budgets 5 and 30 pTNAS's mean regret is below RS's, "
                   "RE's and SH alone's, on every data set", source="abstract (P4); spec S3",
                   provenance="paper", expected="lower than every baseline at 5 and 30 units",
                   measured={n: {s: [round(float(mean_regret[n][s][i]), 4) for i in small]
                                 for s in ("pTNAS", "RS", "RE", "SH only")} for n in pt},
                   holds=bool(small) and all(small_ok.values()),
                   tolerance="synthetic expected to fail [PROTO]")
med = {n: {s: float(np.median(t_best[n][s])) for s in SEARCHERS} for n in t_best}
sp_rs = {n: decisions.speedup(med[n]["RS"], med[n]["pTNAS"]) for n in med}
sp_re = {n: decisions.speedup(med[n]["RE"], med[n]["pTNAS"]) for n in med}
sp_sh = {n: decisions.speedup(med[n]["SH only"], med[n]["pTNAS"]) for n in med}
ledger.statistical("search.time_to_best", "pTNAS reaches the exact global best faster than RS "
                   "and RE: the best speed-up over data sets (median times) is ≥ 2 against each",
                   source="abstract (P3: 'up to 82.75×' on NAS-Bench-Tabular; not expected in "
                   "a 155-net space); spec S4", provenance="paper", expected="≥ 2 vs RS and vs RE",
                   measured={"vs RS": {n: round(v, 2) for n, v in sp_rs.items()},
                             "vs RE": {n: round(v, 2) for n, v in sp_re.items()},
                             "vs SH only": {n: round(v, 2) for n, v in sp_sh.items()}},
                   holds=max(sp_rs.values()) >= decisions.SPEEDUP_MIN
                   and max(sp_re.values()) >= decisions.SPEEDUP_MIN)
low = [i for i, b in enumerate(cfg.budgets) if b <= 100]
filter_gap = {n: float(np.mean(mean_regret[n]["pTNAS #params"][low] - pt[n][low])) for n in pt}
filter_ok = all(g >= decisions.FILTER_MARGIN for g in filter_gap.values())
statement = ("the pTProxy filter does more than a size filter: mean regret over budgets ≤ 100 "
             "is lower by ≥ 0.001 than with #params as the filter, on every data set")
if filter_ok:
    ledger.qualitative("search.filter_beyond_size", statement, source="spec S5 [RECON]",
                       provenance="reconstructed", expected="gap ≥ 0.001",
                       measured={n: round(g, 4) for n, g in filter_gap.items()}, holds=filter_ok)
else:
    ledger.deviation("search.filter_beyond_size", statement, source="P1's implication; spec S5",
                     kind="qualitative", expected="gap ≥ 0.001",
                     measured={n: round(g, 4) for n, g in filter_gap.items()},
                     evidence="mean regret gap (#params filter minus pTProxy filter) below the "
                     "margin: in this space pTProxy ranks like size (see proxy.beyond_size)",
                     shown=not filter_ok)

# %%
fig, ax = plotting.figure(1, len(regret), squeeze=False)
for j, n in enumerate(regret):
    for s in SEARCHERS:
        ax[0, j].plot(cfg.budgets, mean_regret[n][s], "o-", label=s, ms=3)
    q1, q3 = np.percentile(regret[n]["pTNAS"], [25, 75], axis=0)
    ax[0, j].fill_between(cfg.budgets, q1, q3, alpha=0.2, color="C3")
    ax[0, j].set(xscale="log", title=n, xlabel="budget (epoch units)", ylabel="mean simple regret")
ax[0, 0].legend(fontsize=6)
nb.save_figure(fig, "anytime")

fig, ax = plotting.figure(1, len(regret), squeeze=False)
for j, n in enumerate(regret):
    xs = np.arange(len(SEARCHERS))
    cap = 2 * max(cfg.budgets)
    ax[0, j].bar(xs - 0.2, [min(med[n][s], cap) for s in SEARCHERS], 0.4, label="exact best")
    ax[0, j].bar(xs + 0.2, [min(float(np.median(t_near[n][s])), cap) for s in SEARCHERS], 0.4,
                 label=f"within {cfg.near_points}")
    ax[0, j].set(xticks=xs, yscale="log", title=f"{n} (bars at {cap:g}: never)",
                 ylabel="median time (epoch units)")
    ax[0, j].set_xticklabels(SEARCHERS, rotation=30, fontsize=6)
ax[0, 0].legend(fontsize=6)
nb.save_figure(fig, "time_to_best")

# %% [markdown]
# **Reading.** The ledger below records each claim as the run came out. The paper's 82.75× is
# quoted, not reproduced: in a space of 155 nets the speed-up over random search is capped at
# a few times. Where pTProxy ranks like #params (partial τ near zero), the size filter matches it.

# %%
nb.finish()
