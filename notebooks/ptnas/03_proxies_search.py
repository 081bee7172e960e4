# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Does pTProxy rank MLPs, and does filter-and-refine find the best one sooner?
#
# **Claims (Xing et al., abstract; [spec §3](../../docs/specs/ptnas.md#s3) NB2, NB3).** P2: pTProxy correlates with trained
# performance better than existing zero-cost proxies (Table 1). P8: the default recalibration beats
# width-only and depth-only variants (Table 10). P4: pTNAS is anytime, finding a viable architecture
# fast and improving with budget (Figure 3). P3: it "reduces the time to reach the globally best
# architecture by up to 82.75×".
#
# **What is reconstructed and why ([spec §3](../../docs/specs/ptnas.md#s3), [RECON]).** NAS-Bench-Tabular is out of reach ([spec §8](../../docs/specs/ptnas.md#s8));
# the ground truth is the mini NAS-bench of 02_minibench (155 MLPs, digits and a synthetic task),
# read from its tables (`reads: [02_minibench]`: this stage runs after it and trains nothing). On
# it: the proxies of the release that fit (pTProxy and its modes, SynFlow, GradNorm, SNIP, NASWOT,
# #params, a random score), scored on the bench's own initial weights (the same seed and split,
# checked against the bench's `setup.csv`), and a search simulator on the cached table (RS,
# regularised evolution, SH alone, pTNAS = proxy filter + SH with the budget coordinator, and pTNAS
# with #params as the filter).
#
# **Decisions where the spec is open (each a parameter or a named constant).**
# (Q1) pTProxy as in the release (all-ones input, `traj_width`), no second mode: the paper text was
# not read. (Q2) One ground truth for every proxy: validation at the bench's ground-truth epoch
# (27), epoch `gt_epoch_short` = 9 alongside (the release scores pTProxy at epoch 13 and baselines
# at 19 on Frappe). (Q3) No sign flipping: higher is better for every proxy. (Q4) "Global best" is
# the exact argmax of the validation metric at epoch 27; "within `near_points`" is shown beside it;
# S4 records the exact one. (Q5) Cost: 1 unit per training epoch of any net, `t_proxy` = 0.005
# units per proxy evaluation; SH reuses checkpoints; the coordinator takes the largest K whose
# exact SH workload plus M·t_proxy fits, M = min(30 K, |space|): the NAS-Bench ratio M/K = 30 of
# [spec §1.5](../../docs/specs/ptnas.md#s1-5), in one round (the RelBench planner's generation loop
# with r = 60 is not used). A
# searcher with no answer yet is charged the regret of the worst net. pTNAS's phase 1 samples M
# random candidates rather than running the release's evolution.
#
# **What it cannot show ([spec §8](../../docs/specs/ptnas.md#s8)).** Table 1's values, RelBench (P5), TabPFN/TabICL (P6) and the
# 82.75× itself: a 155-net space caps any speed-up over random search far below it.
#
# **Look for:** digits where the proxies (all size-like) rank well; the synthetic task where the
# best nets are small and every size-like proxy, pTProxy included, turns negative at epoch 27;
# SH-based search winning at small budgets on digits only.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
gt_epoch_short = 9  # secondary ground truth, a recorded epoch of the bench (spec NB2 proposal)
proxy_batch = 32  # pTProxy batch and the real batch of NASWOT, SNIP, GradNorm
eps = 1e-05  # pTProxy's ε (release)
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

from lib.companion import notebook, paths, plotting, rules
from lib.ptnas import bench, checks, data, decisions, proxies, search, space, stats

nb = notebook.start("ptnas/03_proxies_search", globals())
cfg, ledger, tables = nb.cfg, nb.ledger, nb.tables
bench_dir = paths.tables_dir("ptnas/02_minibench")
setup = pd.read_csv(bench_dir / "setup.csv")
for key in ("profile", "seed"):
    if set(setup[key]) != {getattr(cfg, key)}:
        raise ValueError(f"the bench in {bench_dir} was trained with {key} = "
                         f"{sorted(set(setup[key]))}, this run has {key} = {getattr(cfg, key)!r}: "
                         f"rerun 02_minibench with {key} = {getattr(cfg, key)!r} first")
res = {row.dataset: bench.read_bench(bench_dir / f"bench_{row.dataset}.csv")
       for row in setup.itertuples()}
splits = {row.dataset: data.load_split(row.dataset, cfg.seed, int(row.n_rows) or None)
          for row in setup.itertuples()}
archs = res[setup.dataset[0]].archs
widths = sorted({w for a in archs for w in a})
depth_min, depth_max = min(map(len, archs)), max(map(len, archs))
if any(r.archs != archs for r in res.values()) or archs != space.enumerate_space(
        widths, depth_min, depth_max):
    raise ValueError(f"the bench tables in {bench_dir} do not hold one whole space in "
                     "enumerate_space order: rerun 02_minibench")
E = list(res[setup.dataset[0]].epochs)
gt_epoch = int(setup.gt_epoch[0])
if gt_epoch != E[-1] or cfg.gt_epoch_short not in E:
    raise ValueError(f"gt_epoch_short = {cfg.gt_epoch_short} must be one of the bench's recorded "
                     f"epochs {E} (ground truth: the last, {gt_epoch})")
g_last, g_short = E.index(gt_epoch), E.index(cfg.gt_epoch_short)
n_par = {n: r.n_params for n, r in res.items()}

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
# a τ over the bench is decided on the whole space and resampled over its nets (rows: the index
# of a net, drawn with replacement); the search claims below are resampled over search seeds
nets = np.arange(len(archs))[:, None]
val_gt = {n: res[n].val[:, g_last] for n in tau_gt}


def tau_on(i, n, p):
    """Kendall τ of proxy p with validation at epoch 27 on the nets i of data set n."""
    return stats.kendall_tau(scores[n][p][i[:, 0]], val_gt[n][i[:, 0]])


ledger.statistical("proxy.ptproxy_correlates", "pTProxy's Kendall τ with validation at epoch 27 "
                   "reaches the spec's threshold on every data set (epoch-9 τ alongside)",
                   source="abstract (P1/P2); spec X4 (thresholds ours)",
                   provenance="reconstructed",
                   expected={n: f"≥ {decisions.PTPROXY_TAU_MIN[n]}" for n in tau_gt},
                   measured={n: f"@27 {tau_gt[n]['ptproxy']:.3f}, @9 "
                             f"{tau[n]['ptproxy'][g_short]:.3f}" for n in tau_gt},
                   samples=nets, decide=lambda i: all(tau_on(i, n, "ptproxy")
                                                      >= decisions.PTPROXY_TAU_MIN[n]
                                                      for n in tau_gt),
                   tolerance="spec X4 thresholds, fixed in advance")
baselines = ["ptproxy", "synflow", "n_params", "grad_norm", "snip", "naswot", "random"]
gaps = {n: round(decisions.ranks_first({p: tau_gt[n][p] for p in baselines}, "ptproxy")[1], 3)
        for n in tau_gt}


_leads = {}                      # the rule and its opposite see the same resamples: computed once


def leads(i):
    """pTProxy's τ minus the best other proxy's, per data set, on the nets i."""
    key = i.tobytes()
    if key not in _leads:
        _leads[key] = [decisions.ranks_first({p: tau_on(i, n, p) for p in baselines},
                                             "ptproxy")[1] for n in tau_gt]
    return _leads[key]


ledger.compare("proxy.ptproxy_best", "pTProxy has the highest τ among the proxies on every "
               "data set (gap to the best other proxy; negative: beaten)",
               source="abstract (P2), Table 1; spec X5", provenance="paper",
               expected="first on every data set", measured=gaps, samples=nets,
               decide=lambda i: all(g > 0 for g in leads(i)),
               opposite=lambda i: any(g < 0 for g in leads(i)),
               power="another proxy's τ above pTProxy's on some data set in the whole space and "
               "in ≥ 90 % of 400 bootstrap resamples of its nets")
ledger.statistical("proxy.recalibration", "the default recalibration traj_width beats traj and "
                   "width by ≥ 0.03 in τ on every data set", source="spec X6 (P8, Table 10; the "
                   "margin ours)", provenance="reconstructed", expected="margin ≥ 0.03",
                   measured={n: round(tau_gt[n]["ptproxy"] - max(tau_gt[n]["traj"],
                                                                 tau_gt[n]["width"]), 3)
                             for n in tau_gt}, samples=nets,
                   decide=lambda i: all(tau_on(i, n, "ptproxy") - max(tau_on(i, n, "traj"),
                                                                       tau_on(i, n, "width"))
                                        >= decisions.ABLATION_MARGIN for n in tau_gt))
partial = {n: stats.partial_kendall(scores[n]["ptproxy"], val_gt[n], np.log(n_par[n]))
           for n in tau_gt}
ledger.statistical("proxy.beyond_size", "pTProxy adds rank information beyond size: partial τ "
                   "given log #params > 0.05 on every data set", source="spec X7 [RECON]",
                   provenance="reconstructed", expected="> 0.05 (≤ 0.05: a size measure, §1.3)",
                   measured={n: round(float(p), 3) for n, p in partial.items()}, samples=nets,
                   decide=lambda i: all(stats.partial_kendall(
                       scores[n]["ptproxy"][i[:, 0]], val_gt[n][i[:, 0]],
                       np.log(n_par[n][i[:, 0]])) > decisions.SIZE_PARTIAL_MAX for n in tau_gt))

# %%
shown = baselines + ["traj", "width", "saliency"]
fig, ax = plotting.figure(width=3.4 + 1.2 * len(tau_gt))
mat = np.array([[tau_gt[n][p] for n in tau_gt] for p in shown])
im = ax.imshow(mat, cmap="RdBu_r", vmin=-1, vmax=1, aspect="auto")
ax.set(xticks=range(len(tau_gt)), xticklabels=list(tau_gt), yticks=range(len(shown)),
       yticklabels=shown, title=f"Kendall τ vs val @{gt_epoch}")
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
       ylabel=f"τ vs val @{gt_epoch}")
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
ledger.exact("control.wrong_eta", "the SH check rejects a plain SH run with η + 1 (it finds "
             "tables where winner or cost differ)", source="negative control of "
             "search.sh_matches_naive", provenance="derived", expected=True,
             measured=checks.sh_mismatches(cfg.sh_instances, np.random.default_rng([cfg.seed, 3]),
                                           E, cfg.eta, ref_eta=cfg.eta + 1) > 0)

# %%
SEARCHERS = ("RS", "RE", "SH only", "pTNAS", "pTNAS #params")
full = gt_epoch
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
                  "RE": search.evolution_trace(archs, final, srng, widths, depth_min,
                                               depth_max, full, max(cfg.budgets))}
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
# rows: search seeds; R[seed, data set, searcher, budget] and T[seed, data set, searcher]
names = list(regret)
R = np.stack([[regret[n][s] for s in SEARCHERS] for n in names]).transpose(2, 0, 1, 3)
T = np.stack([[t_best[n][s] for s in SEARCHERS] for n in names]).transpose(2, 0, 1)
RS, RE, SH, PT, PTN = (SEARCHERS.index(s) for s in SEARCHERS)   # the order of SEARCHERS
ledger.statistical("search.anytime", "pTNAS is anytime: mean regret never rises with the budget "
                   "and reaches 0 at the largest budget, on every data set", source="abstract "
                   "(P4), Figure 3; spec S2 (the rule ours)", provenance="reconstructed",
                   expected="non-increasing, 0 at the end (synthetic: expected to miss 0 [PROTO])",
                   measured={n: [round(float(x), 4) for x in v] for n, v in pt.items()},
                   samples=R, decide=lambda r: all(
                       decisions.non_increasing(m) and m[-1] == 0 for m in r.mean(0)[:, PT]),
                   tolerance=f"budgets {cfg.budgets}")
small = [cfg.budgets.index(b) for b in decisions.SMALL_BUDGETS if b in cfg.budgets]
ledger.statistical("search.small_budget", "at budgets 5 and 30 pTNAS's mean regret is below RS's, "
                   "RE's and SH alone's, on every data set", source="abstract (P4); spec S3 "
                   "(budgets ours)", provenance="reconstructed",
                   expected="lower than every baseline at 5 and 30 units",
                   measured={n: {s: [round(float(mean_regret[n][s][i]), 4) for i in small]
                                 for s in ("pTNAS", "RS", "RE", "SH only")} for n in pt},
                   samples=R, decide=lambda r: bool(small) and all(
                       decisions.beats_all(m[PT, i], {s: m[s, i] for s in (RS, RE, SH)})
                       for m in r.mean(0) for i in small),
                   tolerance="synthetic expected to fail [PROTO]")
med = {n: {s: float(np.median(t_best[n][s])) for s in SEARCHERS} for n in t_best}


def best_speedups(t):
    """The best speed-up over data sets of pTNAS's median time to the best, vs RS and vs RE."""
    m = np.median(t, axis=0)                                    # (data set, searcher)
    return [max(decisions.speedup(m[d, s], m[d, PT]) for d in range(len(names))) for s in (RS, RE)]


ledger.statistical("search.time_to_best", "pTNAS reaches the exact global best faster than RS "
                   "and RE: the best speed-up over data sets (median times) is ≥ 2 against each",
                   source="abstract (P3: 'up to 82.75×' on NAS-Bench-Tabular; not expected in "
                   "a 155-net space); spec S4 (the threshold ours)", provenance="reconstructed",
                   expected="≥ 2 vs RS and vs RE",
                   measured={f"vs {s}": {n: round(decisions.speedup(med[n][s], med[n]["pTNAS"]), 2)
                                         for n in med} for s in ("RS", "RE", "SH only")},
                   samples=T, decide=lambda t: min(best_speedups(t)) >= decisions.SPEEDUP_MIN)
low = [i for i, b in enumerate(cfg.budgets) if b <= 100]
# per seed and data set: #params-filter regret minus pTProxy-filter regret, mean over budgets ≤ 100
filter_diff = (R[:, :, PTN][..., low] - R[:, :, PT][..., low]).mean(-1)    # (seed, data set)
ledger.compare("search.filter_beyond_size", "the pTProxy filter does more than a size filter: "
               "mean regret over budgets ≤ 100 is lower by ≥ 0.001 than with #params as the "
               "filter, on every data set", source="P1's implication; spec S5 [RECON]",
               provenance="reconstructed", expected="gap ≥ 0.001",
               measured={n: round(float(filter_diff[:, d].mean()), 4)
                         for d, n in enumerate(names)}, samples=filter_diff,
               decide=lambda f: bool((f.mean(0) >= decisions.FILTER_MARGIN).all()),
               opposite=lambda f: any(rules.opposite_beyond(f[:, d]) for d in range(f.shape[1])),
               power=f"on some data set the size filter's regret lower, paired over the "
               f"{cfg.search_seeds} search seeds, by more than 2 s.e.")

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
# **Reading.** The paper's headline here is P2 (pTProxy ranks architectures better than the
# existing zero-cost proxies) and P3/P4 (filter-and-refine finds the best net sooner). The cell
# below prints how the run decided each. `proxy.ptproxy_best` is a deviation only when another
# proxy's τ is above pTProxy's on some data set in the whole space *and* in at least 90 % of
# bootstrap resamples of its nets; otherwise it passes, fails or is inconclusive. What can decide
# these claims is the space, not the run's length: 155 MLPs in which size ranks almost as well as
# any proxy (`proxy.beyond_size`), against the paper's NAS-Bench-Tabular, which is out of reach.
# The paper's 82.75× is quoted, not reproduced: in a space of 155 nets the speed-up over random
# search is capped at a few times. Where pTProxy ranks like #params, the size filter matches it
# (`search.filter_beyond_size`).

# %%
headline = ("proxy.ptproxy_correlates", "proxy.ptproxy_best", "proxy.beyond_size",
            "search.small_budget", "search.time_to_best", "search.filter_beyond_size")
pd.DataFrame([{"claim": c.id, "status": c.status, "measured": c.measured}
              for c in ledger.claims if c.id.split(".", 1)[1] in headline])

# %%
nb.finish()
