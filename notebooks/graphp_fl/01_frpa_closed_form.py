# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # GraphP-FL miniature, part 1: FRPA's Fisher-weighted alignment in closed form
#
# **What this shows.** GraphP-FL (ICML 2026 poster 66484) aligns a client's personalised model
# θ_k to the arriving global model θ_g by a Fisher-weighted, anisotropic elastic term (FRPA). Only
# the abstract could be read; in its textbook form ([spec §1.2](../../docs/specs/graphp_fl.md#s1-2), reading 1) the alignment solves
# min_θ λ‖θ − θ_g‖²/2 + Σ_i F_i (θ_i − θ_k,i)²/2, whose minimiser is the per-coordinate
# interpolation θ_i = (F_i θ_k,i + λ θ_g,i)/(F_i + λ) ([spec §1.3](../../docs/specs/graphp_fl.md#s1-3)). This notebook checks, exactly:
# the closed form against a numerical solver (L-BFGS on the autograd gradient) for K = 8 random
# diagonal quadratics; the isotropic limit F = c·1 and the limits F → 0, F → ∞ in exact rational
# arithmetic; and the formal version of "preserve critical local knowledge while aligning": with
# F equal to the local Hessian, at the *same distance* to θ_g, FRPA never raises the local loss
# more than isotropic interpolation (1 − w)θ_k + wθ_g, over random instances. The comparison at
# the same *mean weight* is false, and the spec's counterexample is checked in fractions.
#
# **What it cannot show** ([spec §8](../../docs/specs/graphp_fl.md#s8)). None of this is the paper's own algorithm (which Fisher,
# which anchor, with or without the local loss are unknown) and none of its numbers.
#
# **Provenance.** The FRPA idea is the paper's ([READ]); its form and every check here are derived
# ([spec §1.3](../../docs/specs/graphp_fl.md#s1-3)). **Decisions where the spec is open:** the instance distribution is the spec's
# (θ ~ N(0, I), H log-normal(0, 2), dimension 2–19, five weights w); the equal-distance λ is a
# root in log λ found by Brent's method, so a "violation" is a relative margin below −1e-9.
#
# **What to look for.** Differences at rounding level in the first figure; in the second, the
# FRPA curve below the isotropic line everywhere, and every margin ≥ 0.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
n_clients = 8  # spec NB1: K is 8 random diagonal quadratics
client_dim = 19  # parameters per client quadratic (the largest dimension of the Pareto draw)
lam = 1.0  # lambda_g of the closed-form check: H ~ logN(0, 2) puts F on both sides of it
n_instances = 1000  # spec §1.3 / NB1: 1000 random instances
weights = [0.1, 0.3, 0.5, 0.7, 0.9]  # spec §1.3: 5 isotropic weights w per instance
dim_low = 2  # spec §1.3: dimensions 2 ...
dim_high = 19  # spec §1.3: ... to 19
log_sd = 2.0  # spec §1.3: H log-normal(0, 2) (sd of log H)
iso_c = 3.0  # the constant c of the F is c 1 limit (any c > 0; 3 gives weight 3/4 with lam 1)

# %%
from fractions import Fraction

import numpy as np

from lib.companion import notebook, plotting
from lib.graphp_fl import frpa

nb = notebook.start("graphp_fl/01_frpa_closed_form", globals())
cfg, ledger, rng, tables = nb.cfg, nb.ledger, nb.rng, nb.tables

# %% [markdown]
# ## The closed form against L-BFGS, K clients

# %%
clients = [frpa.random_instance(rng, cfg.client_dim, cfg.client_dim, cfg.log_sd)
           for _ in range(cfg.n_clients)]
closed = [frpa.align(tk, tg, h, cfg.lam) for tk, tg, h in clients]
solved = [frpa.solve_numerically(tk, tg, h, cfg.lam) for tk, tg, h in clients]
diff = np.abs(np.array(closed) - np.array(solved))          # (K, dim)
ledger.close("frpa.closed_form", expected=0.0, measured=float(diff.max()), atol=1e-10)
wrong = np.array([frpa.align(tk, tg, h, 2 * cfg.lam) for tk, tg, h in clients])
ledger.exact("control.closed_form_rejects_wrong_lambda", expected=False,
             measured=float(np.abs(wrong - np.array(solved)).max()) <= 1e-10)

# %% [markdown]
# ## The limits, in exact arithmetic

# %%
tk, tg, _ = clients[0]
tk_q = np.array([Fraction(v) for v in tk], dtype=object)
tg_q = np.array([Fraction(v) for v in tg], dtype=object)
c, lam_q = Fraction(cfg.iso_c), Fraction(cfg.lam)
ones = np.array([Fraction(1)] * len(tk), dtype=object)
ledger.exact("frpa.fedprox_limit", expected=tuple(frpa.interpolate(tk_q, tg_q, lam_q / (c + lam_q))),
             measured=tuple(frpa.align(tk_q, tg_q, c * ones, lam_q)))
ledger.exact("frpa.adopt_limit", expected=tuple(tg_q),
             measured=tuple(frpa.align(tk_q, tg_q, 0 * ones, lam_q)))

# %% [markdown]
# ## Pareto at equal distance, and the naive comparison's counterexample

# %%
margins = np.array([frpa.pareto_margins(*frpa.random_instance(rng, cfg.dim_low, cfg.dim_high,
                                                              cfg.log_sd), cfg.weights)
                    for _ in range(cfg.n_instances)])            # (instances, weights)
ledger.exact("frpa.pareto", expected=0, measured=int((margins < -1e-9).sum()))
hess_q = np.array([Fraction(1), Fraction(100)], dtype=object)
gap_q = np.array([Fraction(1), Fraction(0)], dtype=object)
ledger.exact("frpa.naive_counterexample", expected=Fraction(1, 8) - Fraction(103, 404) ** 2 / 2,
             measured=frpa.same_mean_weight_gap(hess_q, gap_q, Fraction(1)))

# %% [markdown]
# ## Figures

# %%
fig, (ax1, ax2) = plotting.figure(ncols=2)
for k in range(cfg.n_clients):
    ax1.plot(np.arange(cfg.client_dim), np.log10(diff[k] + 1e-18), ".",
             label=f"client {k}" if k < 3 else None)
ax1.axhline(-10, color="k", ls=":", label="tolerance 1e-10")
ax1.set(xlabel="coordinate", ylabel="log10 |closed form − L-BFGS|",
        title="closed form vs solver (zeros at −18)")
ax1.legend(fontsize=7)
ratio = np.linspace(-4, 4, 200)
ax2.plot(ratio, 1 / (1 + 10 ** ratio), "k-", label="λ/(F + λ)")
for tk_, tg_, h in clients:
    w = (frpa.align(tk_, tg_, h, cfg.lam) - tk_) / (tg_ - tk_)
    ax2.plot(np.log10(h / cfg.lam), w, "o", ms=3, color="C1", alpha=0.6)
ax2.set(xlabel="log10 F / λ", ylabel="weight to θ_g", title="per-coordinate weight (dots: clients)")
ax2.legend(fontsize=7)
nb.save_figure(fig, "solution")

# %%
ws = np.linspace(0.02, 0.98, 49)
shown = np.random.default_rng(cfg.seed + 1)
fig, (ax1, ax2) = plotting.figure(ncols=2)
for dim in (2, 8, 19):
    ax1.plot(1 - ws, frpa.pareto_margins(*frpa.random_instance(shown, dim, dim, cfg.log_sd),
                                         list(ws)), "-", label=f"a {dim}-D instance")
ax1.axhline(0, color="k", ls=":")
ax1.set(xlabel="distance to θ_g / |θ_k − θ_g| (= 1 − w)",
        ylabel="(iso − FRPA) / iso", title="margin along the front")
ax1.legend(fontsize=7)
ax2.hist(np.clip(margins.ravel(), -0.05, None), bins=40)
ax2.axvline(0, color="k", ls=":")
ax2.set(xlabel="(iso − FRPA) / iso at equal distance", ylabel="count",
        title=f"{margins.size} instance-weights")
nb.save_figure(fig, "pareto")

# %%
nb.finish()

# %% [markdown]
# **What we saw.** The closed form and the solver agree at rounding level, the limits hold in
# exact rationals, and no instance violates the equal-distance Pareto inequality (the margin
# histogram sits entirely at or above zero; see the claims table above for the counts). The
# naive equal-mean-weight comparison fails on the spec's two-coordinate example, which is why the
# claim is stated at equal distance. The negative control (`control.closed_form_rejects_wrong_lambda`)
# shows the solver comparison can fail: the closed form at 2λ misses the solver by far more than
# the tolerance. These are mathematics about the textbook FRPA, not the paper's numbers.
