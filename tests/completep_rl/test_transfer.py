import numpy as np
import pandas as pd
import torch

from lib.completep_rl import ppo, transfer


def test_score_skips_iterations_without_ended_episodes():
    curve = np.array([[10.0, np.nan, 30.0], [np.nan, np.nan, np.nan]])
    assert transfer.score(curve).tolist() == [20.0, 0.0]


def scores_table(peaks: dict[tuple[str, int], float]) -> pd.DataFrame:
    """Scores peaking at the given log10 eta per (arm, N), two seeds with a small offset."""
    rows = []
    for (arm, n), peak in peaks.items():
        for x in (-3.0, -2.5, -2.0, -1.5, -1.0):
            for s in (0, 1):
                rows.append({"arm": arm, "N": n, "L": 2, "lr_exp": x, "seed": s,
                             "score": 100 - 10 * abs(x - peak) + s})
    return pd.DataFrame(rows)


def test_best_exponent_and_spread():
    table = scores_table({("completep", 8): -1.5, ("completep", 32): -1.5,
                          ("ntk", 8): -1.5, ("ntk", 32): -2.5})
    best = transfer.best_exponents(table, 50, 0.9, np.random.default_rng(0))
    assert best.best_exp.tolist() == [-1.5, -1.5, -1.5, -2.5]
    assert (best.boot_lo == best.best_exp).all() and (best.boot_hi == best.best_exp).all()
    assert transfer.spread(best, "completep", "N", ("L", 2)) == 0.0
    assert transfer.spread(best, "ntk", "N", ("L", 2)) == 1.0


def test_members_order_and_agents_pick_by_lr_and_seed():
    sweep = transfer.Sweep([(8, 1)], [-2.0, -1.0], 2, ppo.Protocol(), 0, "adam_fixed_lr",
                           torch.float64)
    group = transfer.members(sweep)
    assert [(m.arm, m.seed) for m in group[:4]] == [("completep", 0), ("completep", 1)] * 2
    actor = ppo.build(group, 8, 1, 0, 0, "adam_fixed_lr", torch.float64)
    picked = transfer.agents(ppo.Trained(np.zeros((8, 1)), actor), group, "ntk", -1.0)
    assert torch.equal(picked.weights["w_hid"], actor.weights["w_hid"].detach()[[6, 7]])


def test_identical_agents_are_perfectly_consistent():
    actor = ppo.build([ppo.Member("ntk", 1e-2, 0)], 8, 2, 0, 0, "adam_fixed_lr", torch.float64)
    kl, cka = transfer.pair_consistency(actor, actor, torch.randn(50, 4, dtype=torch.float64))
    assert kl[0] == 0.0 and abs(cka[0] - 1.0) <= 1e-12


def test_score_cube_spreads_agree_with_best_exponents():
    # the resampled transfer rule must be the notebook's: argmax of the seed-mean score per
    # (arm, size), spread across sizes; here with a third size and unequal seeds
    rng = np.random.default_rng(3)
    table = scores_table({("completep", 8): -1.5, ("completep", 32): -1.5,
                          ("completep", 128): -2.0, ("ntk", 8): -1.5, ("ntk", 32): -2.5,
                          ("ntk", 128): -3.0})
    table["score"] += rng.normal(0, 3, len(table))
    best = transfer.best_exponents(table, 10, 0.9, np.random.default_rng(0))
    exps = [-3.0, -2.5, -2.0, -1.5, -1.0]
    cube = transfer.score_cube(table, "N", [8, 32, 128], ("L", 2))
    assert cube.shape == (2, 2, 3, 5)                       # (seeds, arms, sizes, LRs)
    assert transfer.cube_spreads(cube, exps).tolist() == [
        transfer.spread(best, arm, "N", ("L", 2)) for arm in ("completep", "ntk")]
    per_seed = transfer.seed_spreads(cube, exps)
    assert per_seed.shape == (2, 2)
    assert per_seed[0].tolist() == transfer.cube_spreads(cube[:1], exps).tolist()
