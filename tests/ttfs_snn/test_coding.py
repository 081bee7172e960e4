"""lib/ttfs_snn/coding.py (spec §5 test 4)."""
import pytest
import torch

from lib.ttfs_snn import coding


def test_latency_times_at_the_ends():
    x = torch.tensor([1.0, 1e-6, 0.0, 0.5])
    assert coding.latency_times(x, 8).tolist() == [0, 7, 8, 4]      # round(0.5 * 7) = 4 (even)


def test_one_spike_per_active_pixel():
    x = torch.rand(5, 28, 28, generator=torch.Generator().manual_seed(0))
    x[x < 0.3] = 0.0
    s = coding.latency_encode(x, 16)
    assert s.shape == (16, 5, 28, 28)
    assert torch.equal(s.sum(dim=0), (x > 0).float())


def test_direct_coding_is_a_constant_current():
    x = torch.rand(2, 4)
    s = coding.direct_encode(x, 3)
    assert s.shape == (3, 2, 4) and all(torch.equal(s[t], x) for t in range(3))


@pytest.mark.parametrize("T", [0, -1, 2.5])
def test_bad_T_refused(T):
    with pytest.raises(ValueError, match="T = "):
        coding.latency_encode(torch.rand(2, 3), T)


def test_unknown_coding_refused():
    with pytest.raises(ValueError, match="allowed"):
        coding.encode(torch.rand(2, 3), 4, "rate")
