"""Shared fixtures of the linear_rnns tests."""
import pytest

from lib.linear_rnns import tasks


@pytest.fixture
def interrupt_sampling(monkeypatch):
    """interrupt_sampling(n) makes the n-th call of tasks.sample raise KeyboardInterrupt (a run
    killed mid-training); interrupt_sampling(None) puts the real sampler back."""
    real = tasks.sample

    def arm(n):
        if n is None:
            monkeypatch.setattr(tasks, "sample", real)
            return
        calls = {"n": 0}

        def flaky(*a, **k):
            calls["n"] += 1
            if calls["n"] == n:
                raise KeyboardInterrupt
            return real(*a, **k)

        monkeypatch.setattr(tasks, "sample", flaky)
    return arm
