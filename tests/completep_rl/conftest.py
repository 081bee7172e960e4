import pytest
import torch


@pytest.fixture(autouse=True)
def one_torch_thread():
    """One torch thread, as the notebooks run (the tiny ops here lose to a thread pool on
    shared cores); the previous setting is restored for other papers' tests."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)
