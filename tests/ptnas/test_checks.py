"""lib/ptnas/checks.py: each comparison reports a mismatch when there is one."""
import numpy as np

from lib.ptnas import checks, decisions, search


def test_sh_mismatches_catches_a_broken_sh(monkeypatch):
    real = search.successive_halving
    monkeypatch.setattr(search, "successive_halving",
                        lambda c, v, e, eta: (real(c, v, e, eta)[0], -1))
    assert checks.sh_mismatches(20, np.random.default_rng(0), (1, 3), 3) > 0


def test_batch_scaling_exact_with_a_repeated_row_only():
    import torch
    archs = [(8,), (16, 8), (32, 8, 16)]          # odd depths and widths
    sizes = [1, 3, 32]
    rep = checks.batch_scores(archs, 7, 3, 0, sizes, 1e-5, torch.float64, repeated=True)
    # derived identity: exact up to float64 cancellation in the finite difference (the bound of
    # lib/ptnas/decisions.py, SCALING_F64_MAX, whose comment derives it)
    assert checks.scaling_gap(rep, sizes, 32).max() < decisions.SCALING_F64_MAX
    fresh = checks.batch_scores(archs, 7, 3, 0, sizes, 1e-5, torch.float64, repeated=False)
    # a fresh row per batch row changes w_l: far above the bound
    assert checks.scaling_gap(fresh, sizes, 32).max() > 100 * decisions.SCALING_F64_MAX


def test_sh_mismatches_control_with_another_eta():
    assert checks.sh_mismatches(30, np.random.default_rng(1), (1, 3, 9, 27), 3) == 0
    assert checks.sh_mismatches(30, np.random.default_rng(1), (1, 3, 9, 27), 3, ref_eta=4) > 0
