# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Where each RNN class sits between TC⁰ and P, and what that means for parallel depth
#
# **Claim (Merrill et al., abstract and §1; [spec §1.1](../../docs/specs/linear_rnns.md#s1-1)).** Linear RNNs are log-depth arithmetic
# circuits: PD LRNNs are NC¹-complete, DPLR LRNNs (RWKV-7, DeltaNet) PNC¹-complete, so their
# Boolean depth is $O(\log n\,\log^* n)$; nonlinear ReLU RNNs reach L-complete (log precision) and
# P-complete (poly precision) problems, so under standard conjectures they need $\Omega(\log^2 n)$
# or more than polylog depth.
#
# **Source.** The landscape table of [spec §1.1](../../docs/specs/linear_rnns.md#s1-1) (theorem numbers as indexed there) and the
# inclusion chain of [spec §1.1](../../docs/specs/linear_rnns.md#s1-1); nothing here is computed from a construction: the later
# notebooks (01–07) check each placement.
#
# **Decisions where the spec is open.** Only the known inclusions are drawn; which are strict is
# open. Theorem 4's log-precision class is unverified ([spec §2.5](../../docs/specs/linear_rnns.md#s2-5)) and is left out.
#
# **Look for:** each model class as an interval from the class it is complete for (lower) to the
# class it is contained in (upper); the gap between $\log n$ and $\log^2 n$ at long context.

# %% tags=["parameters"]
profile = "default"  # smoke | default | paper
seed = 0  # every random draw derives from this
context_log2 = [10, 12, 14, 16, 18, 20]  # context lengths 2^10..2^20 (spec §1.1 names 64K..1M)

# %%
import numpy as np
import pandas as pd

from lib.companion import notebook, plotting
from lib.linear_rnns import decisions, landscape

nb = notebook.start("linear_rnns/00_landscape", globals())
cfg, tables = nb.cfg, nb.tables

# %%
table = pd.DataFrame(landscape.MODELS, columns=["model", "complete_for", "contained_in",
                                                "automaton", "source"])
table["boolean_depth_of_upper_bound"] = table.contained_in.map(landscape.DEPTH)
table.to_csv(tables / "landscape.csv", index=False)
table

# %%
pos = {c: i for i, c in enumerate(landscape.CHAIN)}
fig, ax = plotting.figure(width=7.0, height=3.2)
for y, (model, lo, up, _auto, _src) in enumerate(landscape.MODELS):
    x0 = pos[lo] if lo else pos["TC0"] - 0.35
    ax.plot([x0, pos[up]], [y, y], "-", lw=6, alpha=0.35 if lo is None else 0.8,
            solid_capstyle="round")
    ax.plot(pos[up], y, "k|", ms=12)
    if lo:
        ax.plot(pos[lo], y, "o", ms=8, c=plotting.palette(8)[y], label=None)
    ax.text(-0.6, y, model, ha="right", va="center", fontsize=7)
ax.set_xticks(range(len(landscape.CHAIN)), [c.replace("0", "⁰").replace("1", "¹").replace("2", "²")
                                            for c in landscape.CHAIN])
for i in range(len(landscape.CHAIN) - 1):
    ax.annotate("⊆", ((i + i + 1) / 2, len(landscape.MODELS) - 0.3), ha="center", fontsize=9)
ax.set(yticks=[], xlim=(-0.7, len(landscape.CHAIN) - 0.5), ylim=(-0.7, len(landscape.MODELS)),
       title="dot: complete for; tick: contained in; faded bar: no lower bound")
ax.invert_yaxis()
nb.save_figure(fig, "classes")

# %%
n = 2.0 ** np.array(cfg.context_log2)
logn = np.log2(n)
fig, ax = plotting.figure()
ax.plot(n, logn, "o-", ms=3, label="log n (transformer, PD LRNN)")
ax.plot(n, logn ** 2, "s-", ms=3, label="log² n (ReLU RNN, log precision)")
ax.set(xscale="log", yscale="log", xlabel="context length n", ylabel="depth (up to constants)",
       title="circuit depth vs context length")
ax.legend()
nb.save_figure(fig, "depth")
pd.DataFrame({"log2_n": cfg.context_log2, "log_n": logn, "log2_n_squared": logn ** 2}).to_csv(
    tables / "depth_vs_context.csv", index=False)

# %% [markdown]
# ## Where the classes separate: a table, not a claim
# The placements above are transcribed from the paper ([spec §1.1](../../docs/specs/linear_rnns.md#s1-1)), and the log-depth arithmetic is
# an identity, so nothing in this notebook could fail: the separation of the linear classes from
# the nonlinear ones is read off the transcription into a table, and the later notebooks
# (01–07) check each placement by construction.

# %%
lrnn_upper = [m[2] for m in landscape.MODELS if "LRNN" in m[0]]
rnn_lower = [m[1] for m in landscape.MODELS if "ReLU" in m[0]]
separation = pd.DataFrame([dict(
    chain=" ⊆ ".join(landscape.CHAIN), highest_lrnn_upper=max(lrnn_upper, key=pos.get),
    lowest_relu_rnn_lower=min(rnn_lower, key=pos.get),
    separated=decisions.classes_separated(lrnn_upper, rnn_lower, landscape.CHAIN))])
separation.to_csv(tables / "separation.csv", index=False)
separation

# %%
nb.finish()

# %% [markdown]
# **What we saw.** The linear classes all sit at or below PNC¹ (log depth up to $\log^*$), the
# nonlinear ones at L and P (`tables/00_landscape/separation.csv`); at $n = 2^{16}$–$2^{20}$ the
# difference is 16–20 vs 256–400 levels (`depth_vs_context.csv`). Which inclusions are strict is
# open, so the separations are conditional. This notebook records no claims: its content is the
# paper's landscape as transcribed; notebooks 01–07 check each placement by construction.
