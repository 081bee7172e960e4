"""lib/spiking/counting.py against per-neuron loops."""
import numpy as np
import torch

from lib.spiking import counting, naive


def test_first_spike_time():
    S = torch.tensor([[0, 0, 1.0], [1.0, 0, 0], [0, 0, 0]])        # (T=3, 3 neurons)
    assert counting.first_spike_time(S).tolist() == [1, 3, 0]
    assert counting.first_spike_time(S).tolist() == \
        naive.first_spike_time_naive(S.numpy()).tolist()


def test_spike_counts_and_running_mean():
    g = torch.Generator().manual_seed(0)
    S = (torch.rand(9, 4, 5, generator=g) < 0.4).double()
    assert np.array_equal(counting.spike_counts(S).numpy(), S.numpy().sum(axis=0).astype(int))
    r = counting.running_mean(S)
    for t in range(9):
        assert torch.allclose(r[t], S[:t + 1].mean(dim=0), rtol=0, atol=1e-15)
