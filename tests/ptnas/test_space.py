"""lib/ptnas/space.py: the 155-net space, parameter counts, mutation in range."""
import numpy as np
import pytest

from lib.ptnas import space


def test_space_size_and_order():
    archs = space.enumerate_space([8, 16, 32, 64, 128], 1, 3)
    assert len(archs) == 5 + 25 + 125
    assert archs[0] == (8,) and archs[-1] == (128, 128, 128)


def test_empty_space_refused():
    with pytest.raises(ValueError, match="empty search space"):
        space.enumerate_space([], 1, 3)


def test_n_params():
    assert space.n_params((3,), 2, 1) == (2 + 1) * 3 + (3 + 1) * 1


def test_mutate_stays_in_space():
    rng = np.random.default_rng(0)
    pool = set(space.enumerate_space([8, 16], 1, 3))
    arch = (8,)
    for _ in range(200):
        arch = space.mutate(arch, rng, [8, 16], 1, 3)
        assert arch in pool
