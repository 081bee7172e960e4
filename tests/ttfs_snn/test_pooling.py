"""lib/ttfs_snn/pooling.py and census.py against the window-by-window loop (spec §5 test 5)."""
import numpy as np
import pytest
import torch

from lib.ttfs_snn import census, models, naive, pooling


def window(steps, T=8):
    """One 2 x 2 window (T, 1, 1, 2, 2) whose four neurons fire at `steps` (None: never)."""
    S = torch.zeros(T, 1, 1, 2, 2)
    for u, t in enumerate(steps):
        if t is not None:
            S[t, 0, 0, u // 2, u % 2] = 1.0
    return S


def test_hand_built_window():
    S = window([0, 2, 2, 5])
    assert pooling.pool_spikes(S, "max").sum().item() == 3             # steps 0, 2, 5
    assert pooling.pool_spikes(S, "avg").sum().item() == 1.0           # four quarters
    first = pooling.pool_spikes(S, "first")
    assert first.flatten().tolist() == [1, 0, 0, 0, 0, 0, 0, 0]
    times = pooling.window_first_times(S)
    assert pooling.distinct_steps(times, 8).item() == 3
    assert pooling.fired_count(times, 8).item() == 4


def test_four_different_steps_give_four_max_spikes():
    S = window([1, 3, 4, 6])
    assert pooling.pool_spikes(S, "max").sum().item() == 4
    assert pooling.active_steps(pooling.pool_spikes(S, "avg")).item() == 4


def test_held_transmission_keeps_one_onset():
    S = window([1, 3, 4, 6])
    held = pooling.pool_spikes(torch.cumsum(S, 0), "max", transmission="held")
    assert pooling.spike_train(held, "held").sum().item() == 1


def random_spikes(T, B, C, H, W, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.randint(0, T + 3, (B, C, H, W), generator=g)          # >= T: never fires
    steps = torch.arange(T).view(T, 1, 1, 1, 1)
    return (steps == t.unsqueeze(0)).float()


@pytest.mark.parametrize("kind", ["avg", "max", "first"])
@pytest.mark.parametrize("H, W, k", [(7, 5, 2), (9, 9, 3), (4, 6, 2)])
def test_fast_pooling_equals_the_window_loop(kind, H, W, k):
    S = random_spikes(6, 2, 3, H, W, seed=H * W + k)
    ref = naive.pool_counts_naive(S.numpy(), k, kind)
    P = pooling.pool_spikes(S, kind, k).double().numpy()
    assert np.allclose(P, ref["P"], rtol=0, atol=1e-7)        # avg: float32 multiples of 1/k^2
    assert np.array_equal(pooling.active_steps(torch.from_numpy(P)).numpy(), ref["active"])
    times = pooling.window_first_times(S, k)
    assert np.array_equal(pooling.distinct_steps(times, 6).numpy(), ref["distinct"])
    assert np.array_equal(pooling.fired_count(times, 6).numpy(), ref["fired"])
    mass = P.sum(axis=0)
    if kind == "avg":
        assert mass.max() <= 1 + 1e-6
    else:
        assert set(np.unique(P)) <= {0.0, 1.0}
    if kind == "first":
        assert mass.max() <= 1


def test_unknown_kind_refused():
    with pytest.raises(ValueError, match="median"):
        pooling.pool_spikes(torch.zeros(2, 1, 1, 2, 2), "median")


@pytest.mark.parametrize("kind", ["avg", "max", "first"])
def test_census_routes_agree_on_a_random_cnn(kind):
    torch.manual_seed(0)
    net = models.cnn(kind, channels=(4, 4), hidden=8)
    for layer in net.layers:
        torch.nn.init.normal_(layer.weight, 0.12, 0.3)
    x = random_spikes(6, 3, 1, 28, 28, seed=1)
    out = census.census(net, x, chunk=2)
    assert max(out["multi"]) == 0
    for site in out["sites"].values():
        assert site["mismatch_units"] == site["mismatch_active"] == site["mismatch_first"] == 0
        assert site["measured_units"] == site["expected_units"]
        assert site["off_grid"] == 0
        assert site["above_one"] == 0 or kind == "max"


@pytest.mark.parametrize("kind", ["avg", "max", "first"])
def test_census_under_held_transmission(kind):
    torch.manual_seed(1)
    net = models.cnn(kind, channels=(4, 4), hidden=8, transmission="held")
    for layer in net.layers:
        torch.nn.init.normal_(layer.weight, 0.08, 0.2)
    x = random_spikes(6, 2, 1, 28, 28, seed=2)
    out = census.census(net, x, chunk=2)
    assert out["fired"][0] > 0 and out["fired"][1] > 0             # something to pool
    for site in out["sites"].values():
        assert site["mismatch_units"] == site["mismatch_active"] == site["mismatch_first"] == 0
        if kind != "avg":                                   # one onset per unit, max included
            assert max(site["measured_units"]) <= 1
