# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # E1: in an identifiable equivariant MLP, the latent actions are recovered exactly and every layer is equivariant
#
# **Claim (Thm 4.1 and Remark 4.2 of the paper; construction of the proof made explicit in spec
# §1.7).** If $\theta$ is identifiable and $f(\cdot;\theta)$ is $G$-equivariant, then
# $g.\theta=k(g).\theta$ for a unique latent symmetry $k(g)$, $k$ is an *anti*-homomorphism, and
# $\rho_i(g)=k_i(g)^{-1}$ is a homomorphism $G\to K_i$ for which every layer is equivariant.
#
# **Reconstructed ([spec §4](../../docs/specs/equivariance.md#s4) E1).** Planted exactly equivariant MLPs (regular-representation hidden
# layers, plus sign-twisted "negated" filters for tanh), hidden units scrambled by a random element
# of $K$ (signed permutations for tanh, positive monomials for ReLU), groups $D_4$ on a $k\times k$
# grid (non-abelian), $C_n$ on $\mathbb R^n$ and the left–right mirror $Z_2$ on the grid.
#
# **Decisions.** Expected values are independent of the recovery: the construction predicts
# $\rho_i'(g)=s_i\,\rho_i^{planted}(g)\,s_i^{-1}$ for the scrambling $s$, the characters are the
# closed form ($|G|C$ at $e$, 0 elsewhere, plus the twisted signs), and the number of pairs on
# which the naive choice $\rho=k$ fails is the number of non-commuting pairs read off the group
# table. Layerwise equivariance is checked on Gaussian inputs of each layer's input space.
#
# **Look for:** every residual at float64 rounding; the naive table failing on exactly the
# non-commuting pairs of $D_4$ and nowhere for the abelian groups.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
grid = 4  # D_4 and Z_2 act on 4x4 images (spec §3.3 prototype)
cyclic_n = 8  # C_8 on R^8
channels = [2, 1]  # regular channels per hidden layer: widths 16, 8 for D_4
n_samples = 2000  # inputs for end-to-end checks
tol = 1e-10  # float64 tolerance for residuals and layerwise errors (spec §4 E1)

# %%
import numpy as np

from lib.companion import notebook, plotting
from lib.equivariance import experiments, groups, latent

nb = notebook.start("equivariance/01_planted_recovery", globals())
cfg, ledger, rng, tables = nb.cfg, nb.ledger, nb.rng, nb.tables
GROUPS = [groups.d4_grid(cfg.grid), groups.cyclic_shift(cfg.cyclic_n), groups.mirror_grid(cfg.grid)]
for g in GROUPS:
    g.check()

# %%
cases = experiments.recovery_suite(GROUPS, ["tanh", "relu"], cfg.channels, rng, cfg.n_samples)
table = experiments.suite_table(cases)
table.to_csv(tables / "recovery_suite.csv", index=False)
table

# %% [markdown]
# ## Claims, one block per (group, activation)

# %%
src = "Thm 4.1 + Rem 4.2 (proof construction, spec §1.7)"
ID = dict(zip([g.name for g in GROUPS], ["D4", GROUPS[1].name, "Z2lr"]))  # no grid size: same ids per profile
for c in cases:
    tag, key = f"{c.group.name}.{c.act}", f"{ID[c.group.name]}.{c.act}"
    fl = "float64 rounding"
    ledger.close(f"e1.{key}.end_to_end", f"{tag}: planted net is end-to-end equivariant", source="spec §4 E1",
                 provenance="reconstructed", expected=0.0, measured=c.equivariance, atol=cfg.tol, why=fl)
    ledger.close(f"e1.{key}.scramble", f"{tag}: scrambling by a random k in K keeps the function", source="spec §1.2",
                 provenance="paper", expected=0.0, measured=c.scramble_fn, atol=cfg.tol, why=fl)
    ledger.close(f"e1.{key}.match", f"{tag}: g.theta = k(g).theta is solved layer by layer with zero residual",
                 source=src, provenance="paper", expected=0.0, measured=c.residual, atol=cfg.tol, why=fl)
    ledger.close(f"e1.{key}.recovered_is_planted", f"{tag}: recovered rho = s rho_planted s^-1 (construction)",
                 source="spec §4 E1", provenance="derived", expected=0.0, measured=c.expected_gap,
                 atol=cfg.tol, why="ReLU scales are norm ratios; tanh entries exact")
    ledger.exact(f"e1.{key}.homomorphism", f"{tag}: rho = k^-1 is a homomorphism (failing pairs)",
                 source="spec §1.7 step 3 (rho = k^-1: the spec's derivation from Rem 4.2)",
                 provenance="derived", expected=0, measured=c.failing_inverse)
    ledger.exact(f"e1.{key}.naive_fails", f"{tag}: rho = k fails exactly on the non-commuting pairs",
                 source="spec §1.7 step 3, §5.7", provenance="derived", expected=c.noncommuting,
                 measured=c.failing_naive)
    ledger.close(f"e1.{key}.layerwise", f"{tag}: every layer is equivariant under the recovered actions",
                 source=src, provenance="paper", expected=0.0, measured=float(c.layerwise.max()),
                 atol=cfg.tol, why=fl)
    ledger.exact(f"e1.{key}.characters", f"{tag}: characters equal the planted closed form", source="spec §1.8",
                 provenance="derived", expected=tuple(tuple(x.tolist()) for x in c.expected_characters),
                 measured=tuple(tuple(np.rint(x).astype(int).tolist()) for x in c.characters))

# %% [markdown]
# ## ReLU: positive monomial actions are conjugate to permutation representations ([spec §1.8](../../docs/specs/equivariance.md#s1-8))

# %%
relu = [c for c in cases if c.act == "relu"]
perm_err = max(float(np.abs(np.rint(conj) - conj).max())
               for c in relu for r in c.rho
               for conj in [latent.conjugate(r, latent.positive_normalizer(r))])
ledger.close("e1.relu.conjugate_to_permutation",
             "a positive diagonal conjugates every recovered ReLU action to a permutation representation",
             source="spec §1.8", provenance="derived", expected=0.0, measured=perm_err, atol=cfg.tol,
             why="products of norm ratios")

# %% [markdown]
# ## Pictures: D_4, tanh

# %%
d4 = cases[0]
W1 = d4.scrambled[0][0]                                        # (d_1, k*k)
orbit = np.full(len(W1), -1)
for j in range(len(W1)):                                       # neurons reached from j by rho_1(G)
    if orbit[j] < 0:
        orbit[np.nonzero(np.abs(d4.rho[0][:, :, j]).sum(axis=0) > 0)[0]] = j
members = np.argsort(orbit, kind="stable")
fig, axes = plotting.figure(3, 8, width=7.0, height=3.0)
for ax, j in zip(axes.ravel(), list(members) + [None] * 24):
    ax.axis("off")
    if j is not None:
        ax.imshow(W1[j].reshape(cfg.grid, cfg.grid), cmap="RdBu_r", vmin=-np.abs(W1).max(), vmax=np.abs(W1).max())
        ax.set_title(f"n{j} o{orbit[j]}", fontsize=5)
fig.suptitle("D4 tanh: scrambled layer-1 filters grouped by recovered orbit (o = orbit id)", fontsize=7)
nb.save_figure(fig, "filters")

fig, axes = plotting.figure(1, 4, width=7.0, height=2.0)
gens = [d4.group.words.index("r"), d4.group.words.index("m")]
for ax, g in zip(axes[:2], gens):
    ax.imshow(d4.rho[0][g], cmap="RdBu_r", vmin=-1, vmax=1)
    ax.set(title=rf"$\rho_1({d4.group.words[g]})$", xticks=[], yticks=[])
for ax, (r, name) in zip(axes[2:], [(d4.rho[0], r"$\rho=k^{-1}$"), (d4.rho_naive[0], r"$\rho=k$ (naive)")]):
    im = ax.imshow(latent.homomorphism_defects(r, d4.group), cmap="magma", vmin=0, vmax=1)
    ax.set(title=f"hom. defect, {name}", xticks=range(8), yticks=range(8),
           xticklabels=d4.group.words, yticklabels=d4.group.words)
    ax.tick_params(labelsize=5)
fig.colorbar(im, ax=axes[3])
nb.save_figure(fig, "actions")

# %% [markdown]
# ## Negative control
# The layerwise check must be able to fail: fed the naive action $\rho=k$ instead of $k^{-1}$
# (on $D_4$, $k(g)=\rho(g^{-1})$, which differs from $\rho(g)$ at the rotations by $\pm 90°$),
# it must report layer 1 as not equivariant. Its own generator, so the draws above are untouched.

# %%
naive_lw = latent.layerwise_errors(d4.scrambled, d4.act, d4.rho_naive, d4.group, d4.group,
                                   np.random.default_rng([cfg.seed, 1]))
ledger.exact("e1.control.naive_layerwise", "control: the layerwise check rejects rho = k on D4 (tanh)",
             source="spec §1.7 step 3, §5.7 (negative control: inverse removed)", provenance="derived",
             expected=False, measured=bool(float(naive_lw.max()) <= cfg.tol))

# %%
nb.finish()

# %% [markdown]
# **What we saw.** For every group and both activations the matching residuals, the end-to-end and
# the layerwise errors sit at float64 rounding, and the recovered action equals the one the
# construction predicts after scrambling (`e1.*.recovered_is_planted`). The naive choice
# $\rho=k$ fails on exactly the 24 non-commuting ordered pairs of $D_4$ and on none for $C_8$ and
# $Z_2$ (`e1.*.naive_fails`): abelian groups hide the anti-homomorphism. Characters match the
# closed form, including the $-1$ entries contributed by the negated (sign-twisted) tanh filters.
# ReLU actions become permutation representations after a positive diagonal conjugation. The
# layerwise check rejects the naive action $\rho=k$ (`e1.control.naive_layerwise`). No deviations.
