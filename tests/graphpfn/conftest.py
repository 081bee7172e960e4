"""One torch thread for graphpfn's tests, as in the notebooks (two threads on a shared
two-core machine make the small per-graph trainings several times slower)."""
import pytest
import torch


@pytest.fixture(autouse=True)
def one_thread():
    torch.set_num_threads(1)
