"""lib/ptnas/proxies.py against the closed form (naive.py), and its derived properties."""
import numpy as np
import torch

from lib.ptnas import bench, checks, naive, proxies

ARCHS = [(8,), (16, 128), (128, 8, 64), (32, 32, 32, 8), (1,)]   # width 1 and odd mixes


def test_float64_matches_closed_form():
    # float64: the finite difference a(x+δ) − a(x) loses ~1e-11 relative (spec X1: <= 1e-8)
    assert checks.closed_form_gap(ARCHS, 7, 3, 0, 5, 1e-5, torch.float64).max() <= 1e-8


def test_float32_matches_closed_form():
    # float32 cancellation in the finite difference (spec X1 threshold 5e-3)
    assert checks.closed_form_gap(ARCHS, 64, 10, 1, 32, 1e-5, torch.float32).max() <= 5e-3


def test_all_relus_active_and_params_restored():
    net = proxies.build_mlp(bench.init_weights((16, 8), 5, 2, 0))
    before = [p.detach().clone() for p in net.parameters()]
    gen = torch.Generator().manual_seed(0)
    terms = proxies.ptproxy_terms(net, proxies.draw_delta(4, 5, 1e-5, gen), 1e-5)
    assert terms.zero_activations == 0
    assert all(torch.equal(a, b) for a, b in zip(before, net.parameters()))


def test_modes_and_width_mode_formula():
    t = proxies.PtTerms(np.array([1.0, 3.0]), np.array([2.0, 5.0]), np.array([4, 6]), 0)
    w = np.array([1 / (1 + 1e-6), 1 / (3 + 1e-6)])
    w /= w.sum()
    assert np.isclose(proxies.aggregate(t, "traj_width"), (w * [8.0, 30.0]).sum(), rtol=1e-15)
    assert proxies.aggregate(t, "width") == (8.0 + 30.0) / 10.0
    assert proxies.aggregate(t, "none") == 7.0


def test_non_finite_score_is_clipped():
    t = proxies.PtTerms(np.array([1.0]), np.array([np.inf]), np.array([4]), 0)
    assert proxies.aggregate(t, "traj_width") == proxies.NON_FINITE


def test_closed_form_modes_agree_with_fast():
    w = bench.init_weights((16, 32), 6, 2, 3)
    delta = proxies.draw_delta(3, 6, 1e-5, torch.Generator().manual_seed(0), torch.float64)
    terms = proxies.ptproxy_terms(proxies.build_mlp(w, torch.float64), delta, 1e-5)
    for mode in proxies.MODES:
        ref = naive.ptproxy_closed_form([(a.numpy(), b.numpy()) for a, b in w],
                                        delta.numpy(), 1e-5, mode)
        assert np.isclose(proxies.aggregate(terms, mode), ref, rtol=1e-9), mode
