"""lib/ttfs_snn/decode.py (spec §5 test 8)."""
import numpy as np
import pytest
import torch

from lib.ttfs_snn import decode, naive
from tests.conftest import assert_close


def two_classes():
    """Class 1 fires at step 2, class 3 at step 5; class 3 has the higher final potential."""
    T, K = 8, 4
    O = torch.zeros(T, 1, K)
    O[2, 0, 1] = 1.0
    O[5, 0, 3] = 1.0
    V = torch.zeros(T, 1, K)
    V[:, 0, 1], V[:, 0, 3] = 1.2, 1.5
    return O, V


def test_weighted_decoder_ranks_the_earlier_class_first():
    O, V = two_classes()
    z = decode.logits(O, V, "weighted_spikes")
    assert z[0, 1] > z[0, 3] > 0 and z[0, 0] == 0
    assert decode.predict(O, V, "weighted_spikes").item() == 1


def test_count_ties_and_the_tie_break_uses_the_final_potential():
    O, V = two_classes()
    z = decode.logits(O, V, "count")
    assert z[0, 1] == z[0, 3]
    assert decode.predict(O, V, "count", tie_break=False).item() == 1      # lowest index
    assert decode.predict(O, V, "count").item() == 3                      # higher V[T-1]


@pytest.mark.parametrize("kind", decode.DECODERS)
def test_decode_equals_the_naive_sums(kind):
    g = torch.Generator().manual_seed(2)
    O = (torch.rand(16, 5, 10, generator=g) < 0.05).float()
    V = torch.randn(16, 5, 10, generator=g)
    ref = naive.decode_naive(O.numpy(), V.numpy(), kind)
    # float32 sums of <= 16 terms of size <= 10
    assert_close(kind, ref, decode.logits(O, V, kind).numpy(), rtol=1e-6, atol=1e-5)


@pytest.mark.parametrize("kind", decode.DECODERS)
def test_anytime_at_the_last_step_is_the_full_decision(kind):
    g = torch.Generator().manual_seed(3)
    O = (torch.rand(8, 6, 10, generator=g) < 0.1).float()
    V = torch.randn(8, 6, 10, generator=g)
    full = decode.logits(O, V, kind) + (1e-3 * V[-1] if kind in decode.SPIKE_DECODERS else 0)
    assert_close(kind, full.numpy(), decode.anytime_logits(O, V, kind)[-1].numpy(),
                 rtol=1e-6, atol=1e-6)


def test_latency_and_t95():
    O, _ = two_classes()
    assert decode.output_latency(O).tolist() == [2.0]
    assert decode.output_latency(torch.zeros(8, 2, 3)).tolist() == [8.0, 8.0]
    assert decode.t95([0.1, 0.5, 0.76, 0.8]) == 2                       # 0.76 >= 0.95 * 0.8
    s, n = decode.hidden_spike_steps(O)
    assert (s, n) == (7.0, 2)


def test_unknown_decoder_refused():
    with pytest.raises(ValueError, match="allowed"):
        decode.logits(torch.zeros(2, 1, 3), torch.zeros(2, 1, 3), "rate")
    assert np.isfinite(decode.time_weights(4, "count").numpy()).all()
