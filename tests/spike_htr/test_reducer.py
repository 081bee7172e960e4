"""The length reducer: selection rules, merging, decoding rules and cost counting."""
from fractions import Fraction

import numpy as np
import pytest
import torch
from torch.utils.flop_counter import FlopCounterMode

from lib.spike_htr import ctc, naive, reducer
from lib.spike_htr.alphabet import BLANK
from lib.spike_htr.model import Arch, Recognizer


def test_topr_keeps_ceil_rL_in_order_and_equals_naive():
    rng = np.random.default_rng(0)
    blank = torch.from_numpy(np.round(rng.random((8, 32)) * 16) / 16)
    for r in (1.0, 0.75, 0.5, 0.3, 0.2):
        keep = reducer.select_topr(blank, r)
        assert keep.shape == (8, reducer.kept_length(32, r))
        assert (keep.diff(dim=1) > 0).all()
        assert keep.tolist() == [naive.topr_naive(row, r) for row in blank.tolist()]


@pytest.mark.parametrize("r", [0.0, 1.2, -0.5])
def test_bad_keep_ratio_is_refused_by_name(r):
    with pytest.raises(ValueError, match="keep ratio"):
        reducer.check_ratio(r)


def test_threshold_one_keeps_every_position_below_one():
    blank = torch.tensor([[0.2, 0.99, 1.0]])
    assert reducer.select_threshold(blank, 1.0).tolist() == [[True, True, False]]


def test_merge_averages_blank_runs():
    z = torch.arange(5.0).reshape(1, 5, 1)
    blank = torch.tensor([[0.1, 0.95, 0.97, 0.2, 0.99]])
    merged, valid = reducer.merge_blank_runs(z, blank, 0.9)
    assert valid.tolist() == [[True, True, True, True]]
    assert merged[0, :, 0].tolist() == [0.0, 1.5, 3.0, 4.0]
    ref, ref_valid = naive.merge_blank_runs_naive(z, blank, 0.9)
    assert torch.equal(merged, ref) and torch.equal(valid, ref_valid)


def test_essential_positions_keep_the_decode():
    rng = np.random.default_rng(3)
    for _ in range(300):
        path = rng.choice([BLANK, BLANK, BLANK, 1, 2], size=12).tolist()
        keep = reducer.essential(path)
        kept = [c for c, k in zip(path, keep) if k]
        assert ctc.collapse(np.array(kept, dtype=np.int64)) == ctc.collapse(np.array(path))


def test_mixer_macs_three_ways():
    arch = Arch(channels=(4, 4, 4), d=16, blocks=2, spiking=False)
    net = Recognizer(arch).eval()
    for L in (4, 9, 32):
        shapes = [(L, 16, 48), (L, 16, 16), (L, 16, 32), (L, 32, 16), (L, 16, L), (L, L, 16)] * 2
        with FlopCounterMode(display=False) as counter, torch.no_grad():
            net.mix(torch.zeros(1, L, 16))
        assert reducer.mixer_macs(L, 16, 2) == naive.mixer_macs_naive(shapes)
        assert counter.get_total_flops() // 2 == reducer.mixer_macs(L, 16, 2)
        a = Fraction(2 * 32 * 32 * 16, 8 * 32 * 256 + 2 * 32 * 32 * 16)
        exact = Fraction(L, 32) ** 2 * a + Fraction(L, 32) * (1 - a)
        assert exact == Fraction(reducer.mixer_macs(L, 16, 1), reducer.mixer_macs(32, 16, 1))
        assert reducer.relative_cost(32, L, 16) == pytest.approx(float(exact), rel=1e-12)


@pytest.mark.parametrize("spiking", [False, True])
def test_masked_keys_equal_the_gathered_sequence(spiking):
    torch.manual_seed(0)
    arch = Arch(channels=(4, 4, 4), d=16, blocks=1, spiking=spiking)
    net = Recognizer(arch).eval()
    T = net.steps()
    z = 3 * torch.randn(T * 2, 10, 16)
    keep = torch.tensor([[0, 2, 3, 7], [1, 4, 5, 9]])
    mask = torch.zeros(2, 10, dtype=torch.bool).scatter_(1, keep, True)
    with torch.no_grad():
        kept = reducer.run_kept(net, z, keep)
        masked = reducer.run_masked(net, z, mask)
    picked = masked.gather(0, keep.T[..., None].expand(-1, -1, masked.shape[-1]))
    assert torch.allclose(kept, picked, atol=1e-5)
    dropped = ~mask.T
    assert (masked[dropped].argmax(-1) == BLANK).all()


def test_spiking_mixer_equals_its_loop():
    torch.manual_seed(1)
    net = Recognizer(Arch(channels=(4, 4, 4), d=16, blocks=2, spiking=True)).eval()
    z = 3 * torch.randn(2 * 3, 8, 16)
    with torch.no_grad():
        assert torch.allclose(net.mix(z), naive.mix_naive(net, z), atol=1e-5)
