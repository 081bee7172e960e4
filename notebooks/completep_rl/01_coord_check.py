# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # CompleteP for RL miniature: the coordinate check
#
# **Claim of the paper made concrete.** CompleteP for RL (Kumar, Lee, Bordelon and Pehlevan,
# ICML 2026) scales deep-RL agents in width and depth under CompleteP (µP for Adam with residual
# branches × 1/L) rather than the NTK parameterisation, and reports that the optimal learning
# rate then transfers across model size and that features stay consistent. The mechanism under
# that claim is how large one optimiser step's effect on the features and outputs is as the
# network grows. This notebook measures it on the residual MLP of
# [spec §1.1](../../docs/specs/completep_rl.md#s1-1): one Adam step (η = 1e-3) on a fixed
# regression batch, the RMS change of the output Δf and the relative change of the last hidden
# layer Δh/h, across widths and depths, for both parameterisations of
# [spec §1.2](../../docs/specs/completep_rl.md#s1-2). The slopes predicted in
# [spec §1.3](../../docs/specs/completep_rl.md#s1-3) are 0 for CompleteP, ½ (Δh/h) and ½–1 (Δf)
# in width for NTK with a fixed η, and ½ in depth for NTK.
#
# **What it cannot show** ([spec §8](../../docs/specs/completep_rl.md#s8)). The paper's 16
# continuous-control tasks, its compute/reward Pareto fronts and any of its returns. The PPO
# learning-rate transfer is notebook 2's
# (`02_lr_transfer_ppo`, [spec §3](../../docs/specs/completep_rl.md#s3)
# NB2); the continuous-control claim is recorded below as skipped, never as measured.
#
# **Provenance.** Only the paper's abstract could be read. The parameterisation table follows the
# CompleteP paper and its public implementations (hidden and output LR × 1/m_N, residual × 1/L,
# Adam ε × (1/m_N)·(1/m_L)); the NTK arm under Adam is our reconstruction; the slopes are derived.
#
# **Decisions where the spec is open.** `ntk_variant` ([spec §1.2](../../docs/specs/completep_rl.md#s1-2)'s open point): `adam_fixed_lr`,
# η the same at every width; `adam_lazy` divides the NTK LRs by √m_N and
# `decisions.ntk_width_bounds` shifts the expected slopes by −½. One matrix per residual block, no
# normalisation, base shape N₀ = 16, L₀ = 1 ([spec §7](../../docs/specs/completep_rl.md#s7) Q4, Q5). `members` independent
# initialisations are stepped together and their changes averaged. The NTK width slopes are
# recorded as statistical claims with the spec's thresholds (a finite-width Θ(1) input-layer term
# pulls the fitted Δh/h slope below its asymptotic ½, so a miss is a finding, not a bug), fitted
# on the mean over the `members` initialisations and bootstrapped over them for their stability
# (six by default: with two, one initialisation's accident could decide a slope's window); the
# CompleteP slopes are bounds. Each
# exact check has a negative control, a broken input it must reject. A sweep of fewer than `decisions.MIN_SWEEP` sizes (the smoke
# profile's two) records its slope claims as skipped: two points fit no asymptotic slope.
#
# **What to look for.** Flat CompleteP lines; NTK lines rising with slope near ½ (Δh/h) and
# between ½ and 1 (Δf) in width, and near ½ in depth.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
widths = [32, 128, 512, 2048]  # spec §3 NB1: N in {32, ..., 2048} at L is 2
width_depth = 2  # spec §3 NB1: the width sweep's depth L is 2
depths = [1, 2, 4, 8, 16]  # spec §3 NB1: L in {1, ..., 16} at N is 128
depth_width = 128  # spec §3 NB1: the depth sweep's width N is 128
lr = 0.001  # spec §3 NB1: one step of 1e-3
eps = 1e-08  # Adam epsilon at the base shape, scaled by the CompleteP rule (spec §1.2)
n_points = 256  # spec §3 NB1: a fixed regression batch of 256 points
d_in = 4  # spec §3 NB1: 4 inputs
members = 6  # decision: 6 independent initialisations, averaged; the slope claims are resampled over them (issue 41/42: with 2 the bootstrap stability could not decide); the notebook then peaks at ~3.6 GB (N is 2048) and ~25 CPU-s
ntk_variant = "adam_fixed_lr"  # spec §1.2 open point: the NTK arm keeps eta fixed across width
check_width = 24  # the naive-loop check's width (small: the loop is per point)
check_points = 32  # points of the naive-loop check (its cost is linear in them)

# %%
from fractions import Fraction

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from lib.companion import notebook, plotting, rules
from lib.completep_rl import coord, decisions, naive, param

nb = notebook.start("completep_rl/01_coord_check", globals())
cfg, ledger, tables = nb.cfg, nb.ledger, nb.tables

# %% [markdown]
# ## The parameterisation table at the base shape
#
# At N = N₀ and L = L₀ both arms must be the same network: equal effective init variances per
# tensor, LR multipliers 1, residual factor 1 and ε multiplier 1
# ([spec §1.2](../../docs/specs/completep_rl.md#s1-2)). Compared as exact fractions.

# %%
def base_summary(kind: str) -> tuple:
    """Effective variances, LR multipliers squared, beta^2 and eps multiplier at the base."""
    tab = param.table(kind, param.N0, param.L0, cfg.d_in, cfg.ntk_variant)
    return (tuple(tab.rules[k].effective_var for k in param.TENSORS),
            tuple(tab.rules[k].lr_sq for k in param.TENSORS), tab.beta_sq, tab.eps_mult)


ledger.exact("init.equal_at_base", "at N = N0 = 16 and L = L0 = 1 CompleteP and NTK have equal "
             "effective init variances, LR multipliers, residual factor and epsilon multiplier "
             "(exact fractions)", source="spec §1.2", provenance="derived",
             expected=base_summary("completep"), measured=base_summary("ntk"))
ledger.exact("init.out_differs_off_base", "at N = 8 N0 the effective output-layer variance of "
             "CompleteP is N0/N^2 = 1/1024 and NTK's is 1/N = 1/128 (the arms part off base)",
             source="spec §1.2", provenance="derived",
             expected=(Fraction(1, 128 * 8), Fraction(1, 128)),
             measured=tuple(param.table(k, 128, 1, cfg.d_in, cfg.ntk_variant)
                            .rules["w_out"].effective_var for k in ("completep", "ntk")))

# %% [markdown]
# ## The batched one-step kernel against a plain loop with torch.optim.Adam

# %%
x, y = coord.batch(cfg.n_points, cfg.d_in, cfg.seed)
xs, ys = x[:cfg.check_points], y[:cfg.check_points]
gap = 0.0
for kind in param.PARAMS:
    fast = coord.one_step(kind, cfg.check_width, 2, xs, ys, cfg.lr, cfg.eps, cfg.members,
                          cfg.seed, cfg.ntk_variant)
    slow = naive.one_step_loop(kind, cfg.check_width, 2, xs, ys, cfg.lr, cfg.eps, cfg.members,
                               cfg.seed, cfg.ntk_variant)
    gap = max(gap, *(float(np.abs(fast[k] / slow[k] - 1).max()) for k in ("df", "dh")))
ADAM_ATOL = 1e-9                   # float64; the two paths sum in different orders
ledger.close("adam.matches_torch", "one step of the batched ensemble (bmm forward, hand-rolled "
             "Adam with per-tensor LR and scaled epsilon) gives the same Delta f and Delta h/h "
             "as a per-member Python loop stepped by torch.optim.Adam (largest relative gap)",
             source="spec §4, §5", provenance="derived", expected=0.0, measured=gap,
             atol=ADAM_ATOL, why="float64; the two sum in different orders")

# %% [markdown]
# ### Negative controls: the two checks above reject a broken input
#
# The base-shape comparison must tell the arms apart once one of them is off its base shape,
# and the Adam comparison must see a learning rate off by 0.1 % in the reference loop.

# %%
off_base = param.table("ntk", 2 * param.N0, param.L0, cfg.d_in, cfg.ntk_variant)
ledger.exact("control.base_check_rejects_off_base", "the base-shape equality check rejects an "
             "NTK table built at N = 2 N0 (the comparison can fail)", source="spec §1.2",
             provenance="derived", expected=False,
             measured=base_summary("completep") == (
                 tuple(off_base.rules[k].effective_var for k in param.TENSORS),
                 tuple(off_base.rules[k].lr_sq for k in param.TENSORS), off_base.beta_sq,
                 off_base.eps_mult))
fast = coord.one_step("completep", cfg.check_width, 2, xs, ys, cfg.lr, cfg.eps, cfg.members,
                      cfg.seed, cfg.ntk_variant)
wrong = naive.one_step_loop("completep", cfg.check_width, 2, xs, ys, cfg.lr * 1.001, cfg.eps,
                            cfg.members, cfg.seed, cfg.ntk_variant)
wrong_gap = max(float(np.abs(fast[k] / wrong[k] - 1).max()) for k in ("df", "dh"))
ledger.exact("control.adam_check_rejects_wrong_lr", "the Adam comparison rejects a reference "
             "loop whose learning rate is 0.1 % off (its gap exceeds the check's tolerance)",
             source="spec §4, §5", provenance="derived", expected=False,
             measured=wrong_gap <= ADAM_ATOL)

# %% [markdown]
# ## Width and depth sweeps

# %%
rows, per_member = [], {}
grid = [("width", n, cfg.width_depth) for n in cfg.widths] + \
       [("depth", cfg.depth_width, d) for d in cfg.depths]
for kind in param.PARAMS:
    for sweep, n, depth in tqdm(grid, desc=kind):
        out = coord.one_step(kind, n, depth, x, y, cfg.lr, cfg.eps, cfg.members, cfg.seed,
                             cfg.ntk_variant)
        per_member[kind, sweep, n, depth] = out
        rows.append({"param": kind, "sweep": sweep, "N": n, "L": depth,
                     "df": float(out["df"].mean()), "dh": float(out["dh"].mean())})
sweep = pd.DataFrame(rows)


def members_by_size(kind: str, axis: str, what: str) -> np.ndarray:
    """(members, sizes): each initialisation's change across one sweep, the replicates a slope
    claim is resampled over (the fitted slope is that of their mean, as in `fitted`)."""
    keys = [(kind, "width", n, cfg.width_depth) for n in cfg.widths] if axis == "N" else \
        [(kind, "depth", cfg.depth_width, d) for d in cfg.depths]
    return np.stack([per_member[k][what] for k in keys], axis=1)
sweep.to_csv(tables / "coord_check.csv", index=False)


def fitted(kind: str, axis: str, what: str) -> float:
    """Slope of log mean change on log size for one arm and sweep."""
    part = sweep[(sweep.param == kind) & (sweep.sweep == ("width" if axis == "N" else "depth"))]
    return coord.slope(list(part[axis]), list(part[what]))


slopes = {(k, a, w): fitted(k, a, w) for k in param.PARAMS for a in ("N", "L")
          for w in ("df", "dh")}
pd.DataFrame([{"param": k, "axis": a, "quantity": w, "slope": s}
              for (k, a, w), s in slopes.items()]).to_csv(tables / "slopes.csv", index=False)

# %% [markdown]
# ## The slope claims ([spec §3](../../docs/specs/completep_rl.md#s3))

# %%
def record_width() -> None:
    """The width-slope claims (spec §3 NB1)."""
    cp_width = max(abs(slopes["completep", "N", "df"]), abs(slopes["completep", "N", "dh"]))
    ledger.bound("coord.width_cp", "CompleteP: the larger of |slope_N(Delta f)| and "
                 "|slope_N(Delta h/h)| over the width sweep", source="spec §1.3, §3 NB1",
                 provenance="derived", measured=cp_width, upper=decisions.CP_SLOPE_MAX,
                 why="spec §3: both width slopes within 0.15 of the predicted 0")
    bounds = decisions.ntk_width_bounds(cfg.ntk_variant)
    for what, name in (("dh", "h"), ("df", "f")):
        value = slopes["ntk", "N", what]
        ledger.statistical(f"coord.width_ntk_{name}", f"NTK ({cfg.ntk_variant}): slope_N of "
                           f"{'Delta h/h' if what == 'dh' else 'Delta f'} over the width sweep "
                           "(of the mean over initialisations)",
                           source="spec §1.3, §3 NB1", provenance="reconstructed",
                           expected=f"in [{bounds[what][0]:g}, {bounds[what][1]:g}]",
                           measured=round(value, 4),
                           samples=members_by_size("ntk", "N", what),
                           decide=lambda s, w=what: rules.within(
                               coord.slope(cfg.widths, list(s.mean(0))), *bounds[w]),
                           tolerance="spec §3 thresholds around the predicted slope; "
                           f"replicates: the {cfg.members} initialisations")


def record_depth() -> None:
    """The depth-slope claims (spec §3 NB1)."""
    ledger.bound("coord.depth_cp", "CompleteP: |slope_L(Delta f)| over the depth sweep",
                 source="spec §1.3, §3 NB1", provenance="derived",
                 measured=abs(slopes["completep", "L", "df"]), upper=decisions.CP_SLOPE_MAX,
                 why="spec §3: within 0.15 of the predicted 0 (residual x 1/L)")
    ledger.qualitative("coord.depth_ntk", "NTK: Delta f grows with depth (residual x 1/sqrt(L))",
                       source="spec §1.3, §3 NB1", provenance="reconstructed",
                       expected=f"slope_L(Delta f) > {decisions.NTK_DEPTH_SLOPE_MIN}",
                       measured=round(slopes["ntk", "L", "df"], 4),
                       samples=members_by_size("ntk", "L", "df"),
                       decide=lambda s: coord.slope(cfg.depths, list(s.mean(0)))
                       > decisions.NTK_DEPTH_SLOPE_MIN)


def skip_slopes(kinds: dict[str, str], sizes: list[int]) -> None:
    """Slope claims (id: kind) of a sweep too short to fit (the smoke profile): skipped."""
    for cid, kind in kinds.items():
        ledger.skip(cid, f"{cid}: fitted slope over the sweep", source="spec §3 NB1",
                    provenance="derived", kind=kind, expected="spec §3 thresholds",
                    reason=f"{len(sizes)} sizes < {decisions.MIN_SWEEP}: code path only")


if decisions.slope_checkable(cfg.widths):
    record_width()
else:
    skip_slopes({"coord.width_cp": "bound", "coord.width_ntk_h": "statistical",
                 "coord.width_ntk_f": "statistical"}, cfg.widths)
if decisions.slope_checkable(cfg.depths):
    record_depth()
else:
    skip_slopes({"coord.depth_cp": "bound", "coord.depth_ntk": "qualitative"}, cfg.depths)

# %% [markdown]
# ## The paper's continuous-control claim: not checked here
#
# R3 needs the paper's simulators ([spec §8](../../docs/specs/completep_rl.md#s8)); the RL
# claims that CartPole can stand in for are notebook 2's.

# %%
ledger.skip("efficiency.continuous_control", "CompleteP improves compute and reward efficiency "
            "over NTK on 16 continuous-control tasks", source="spec §2 R3", provenance="paper",
            kind="statistical", expected="Pareto fronts dominate NTK's",
            reason="needs MuJoCo/Brax-scale PPO at widths up to 2048 (spec §8)")

# %% [markdown]
# ## Figures

# %%
colors = dict(zip(param.PARAMS, plotting.palette(2)))


def guides(ax, sizes, anchor, powers):
    """Dotted reference slopes through the first point."""
    s = np.array(sizes, float)
    for p in powers:
        ax.plot(s, anchor * (s / s[0]) ** p, ":", color="grey", lw=1)
        ax.annotate(f"{p:g}", (s[-1], anchor * (s[-1] / s[0]) ** p), fontsize=7)


fig, axes = plotting.figure(ncols=2)
for ax, what, label in zip(axes, ("df", "dh"), ("RMS Δf", "RMS Δh_L / RMS h_L")):
    part = sweep[sweep.sweep == "width"]
    for kind in param.PARAMS:
        p = part[part.param == kind]
        ax.loglog(p.N, p[what], "o-", color=colors[kind],
                  label=f"{kind} (slope {slopes[kind, 'N', what]:.2f})")
    guides(ax, cfg.widths, float(part[what].min()), (0, 0.5, 1))
    ax.set(xlabel="width N", ylabel=label, title=f"one Adam step, L = {cfg.width_depth}")
    ax.legend(fontsize=7)
nb.save_figure(fig, "width")

# %%
fig, ax = plotting.figure()
part = sweep[sweep.sweep == "depth"]
for kind in param.PARAMS:
    p = part[part.param == kind]
    ax.loglog(p.L, p.df, "o-", color=colors[kind],
              label=f"{kind} (slope {slopes[kind, 'L', 'df']:.2f})")
guides(ax, cfg.depths, float(part.df.min()), (0, 0.5))
ax.set(xlabel="depth L", ylabel="RMS Δf", title=f"one Adam step, N = {cfg.depth_width}")
ax.legend(fontsize=7)
nb.save_figure(fig, "depth")

# %%
nb.finish()

# %% [markdown]
# **What we saw.** The claims table above and the two figures carry the numbers. Whether
# CompleteP's one-step changes stay flat in width and depth within the spec's bounds, and NTK's
# grow with width and with depth, is each claim's status there. Whether NTK's fitted width slopes reach the spec's windows is recorded in
# `coord.width_ntk_h` and `coord.width_ntk_f`: over 32 → 2048 the Θ(1) input-layer part of Δh
# still weighs at the small widths, so the fitted Δh/h slope can sit below the asymptotic ½.
# The paper's RL claims are notebook 2's.
#
# **What this shows about the paper's headline.** The mechanism under it, not the headline:
# whether one Adam step's effect stays flat in width and depth under CompleteP (the bounds) and
# grows under NTK (the statistical claims, fitted on the mean over the initialisations and resampled over
# them, their stability beside them). No size here is cut from the spec's NB1. The negative
# controls (`control.*`) show that the exact checks reject a broken input. Whether the best
# learning rate transfers is notebook 2's question.
