"""The LR-transfer sweep (spec §3 NB2): one lock-step ensemble run per network shape (both
arms x every LR x every seed), each member scored by its mean training return; the best LR per
shape with a bootstrap over seeds; and the consistency of best-LR agents at widths N and 4N."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from lib.companion import sweep as engine
from lib.completep_rl import consistency, param, ppo


@dataclass(frozen=True)
class Sweep:
    """What to train: shapes (N, L), log10 LRs, seeds, and how (spec §1.4)."""

    shapes: list[tuple[int, int]]
    lr_exponents: list[float]
    n_seeds: int
    proto: ppo.Protocol
    seed: int
    ntk_variant: str
    dtype: torch.dtype


def members(sweep: Sweep) -> list[ppo.Member]:
    """Both arms x every LR x every seed slot, in that order."""
    return [ppo.Member(arm, 10.0 ** x, s) for arm in param.PARAMS for x in sweep.lr_exponents
            for s in range(sweep.n_seeds)]


def score(curve: np.ndarray) -> np.ndarray:
    """Mean over iterations of the mean ended-episode return (area under the learning curve),
    skipping iterations in which no episode ended; (E, iterations) -> (E,)."""
    seen = ~np.isnan(curve)
    return np.where(seen, curve, 0.0).sum(1) / np.maximum(seen.sum(1), 1)


def train_shape(sweep: Sweep, n: int, depth: int) -> ppo.Trained:
    """One sweep run: every member at one network shape trained in lock-step, its randomness
    drawn from (sweep.seed, seed slot, stream) alone, so no run depends on another; the actors
    come back detached (no autograd state to pickle)."""
    out = ppo.train(members(sweep), n, depth, sweep.proto, sweep.seed, sweep.ntk_variant,
                    sweep.dtype, desc=f"N={n} L={depth}")
    return ppo.Trained(out.curve, ppo.select(out.actor, list(range(len(out.curve)))))


def run(sweep: Sweep, cfg: engine.SweepParams,
        notebook: str) -> tuple[pd.DataFrame, dict[tuple[int, int], ppo.Trained]]:
    """Train every shape, one sweep run each on the notebook's `executor` (`workers` at once);
    the long table of scores (arm, N, L, lr_exp, seed, score) and the trained ensembles by
    shape, in shape order whichever executor ran them."""
    group, rows, trained = members(sweep), [], {}
    exps = [x for _ in param.PARAMS for x in sweep.lr_exponents for _ in range(sweep.n_seeds)]
    outs = engine.run_params(train_shape, [(sweep, n, depth) for n, depth in sweep.shapes], cfg,
                             notebook, labels=[f"N={n} L={depth}" for n, depth in sweep.shapes])
    for (n, depth), out in zip(sweep.shapes, outs):
        trained[n, depth] = out
        rows += [{"arm": m.arm, "N": n, "L": depth, "lr_exp": x, "seed": m.seed,
                  "score": float(s)} for m, x, s in zip(group, exps, score(out.curve))]
    return pd.DataFrame(rows), trained


def curves(scores: pd.DataFrame) -> pd.DataFrame:
    """Seed-mean, min and max score per (arm, N, L, lr_exp)."""
    return scores.groupby(["arm", "N", "L", "lr_exp"], sort=True)["score"].agg(
        ["mean", "min", "max"]).reset_index()


def best_exponents(scores: pd.DataFrame, n_boot: int, level: float,
                   rng: np.random.Generator) -> pd.DataFrame:
    """Per (arm, N, L): the log10 LR of the best seed-mean score, and a percentile interval of
    it over `n_boot` resamplings of the seeds with replacement."""
    rows = []
    for (arm, n, depth), part in scores.groupby(["arm", "N", "L"], sort=True):
        table = part.pivot(index="seed", columns="lr_exp", values="score")     # (seeds, LRs)
        exps = np.array(table.columns, dtype=float)
        pick = rng.integers(0, len(table), size=(n_boot, len(table)))
        boot = exps[table.to_numpy()[pick].mean(1).argmax(1)]
        lo, hi = np.quantile(boot, [(1 - level) / 2, (1 + level) / 2])
        rows.append({"arm": arm, "N": n, "L": depth,
                     "best_exp": float(exps[table.to_numpy().mean(0).argmax()]),
                     "boot_lo": float(lo), "boot_hi": float(hi)})
    return pd.DataFrame(rows)


def spread(best: pd.DataFrame, arm: str, axis: str, fixed: tuple[str, int]) -> float:
    """Range (max - min) in decades of the best log10 LR across the sizes of one sweep."""
    part = best[(best.arm == arm) & (best[fixed[0]] == fixed[1])]
    return float(part.best_exp.max() - part.best_exp.min())


def agents(trained: ppo.Trained, group: list[ppo.Member], arm: str,
           lr_exp: float) -> ppo.Net:
    """The actors of one arm at one LR, one per seed slot in order."""
    idx = [i for i, m in enumerate(group) if m.arm == arm and np.isclose(m.lr, 10.0 ** lr_exp)]
    return ppo.select(trained.actor, sorted(idx, key=lambda i: group[i].seed))


@torch.no_grad()
def pair_consistency(small: ppo.Net, big: ppo.Net,
                     probe: torch.Tensor) -> tuple[np.ndarray, np.ndarray]:
    """Per seed: KL(pi_small || pi_big) averaged over the probe states, and the linear CKA of
    their last hidden features phi(h_L) on them."""
    x = probe.to(small.weights["w_in"].dtype).expand(small.beta.shape[0], -1, -1)
    f_s, h_s = ppo.forward(small, x)
    f_b, h_b = ppo.forward(big, x)
    kl = consistency.bernoulli_kl(f_s.double(), f_b.double())
    cka = consistency.linear_cka(torch.relu(h_s).double(), torch.relu(h_b).double())
    return kl.numpy(), cka.numpy()


def score_cube(scores: pd.DataFrame, axis: str, sizes: list[int],
               fixed: tuple[str, int]) -> np.ndarray:
    """(seeds, arms, sizes, LRs) scores of one sweep (arms in param.PARAMS order, LRs rising):
    the replicates the transfer claims are resampled over, seed by seed."""
    part = scores[(scores[fixed[0]] == fixed[1]) & scores[axis].isin(sizes)]
    table = part.pivot_table(index="seed", columns=["arm", axis, "lr_exp"], values="score")
    exps = sorted(part.lr_exp.unique())
    cols = [(arm, size, x) for arm in param.PARAMS for size in sizes for x in exps]
    return table[cols].to_numpy().reshape(len(table), len(param.PARAMS), len(sizes), len(exps))


def cube_spreads(cube: np.ndarray, exps: list[float]) -> np.ndarray:
    """(arms,) spread in decades of the best log10 LR (argmax of the seed-mean score) across the
    sizes of a (seeds, arms, sizes, LRs) cube: `spread` of `best_exponents`' best_exp."""
    best = np.asarray(exps, float)[cube.mean(0).argmax(-1)]          # (arms, sizes)
    return best.max(-1) - best.min(-1)


def seed_spreads(cube: np.ndarray, exps: list[float]) -> np.ndarray:
    """(seeds, arms): the spread each seed alone gives (its own argmax per size)."""
    return np.stack([cube_spreads(cube[s:s + 1], exps) for s in range(len(cube))])
