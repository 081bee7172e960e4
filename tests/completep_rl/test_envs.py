import math

import torch

from lib.completep_rl import envs, naive


def test_vectorised_step_equals_the_plain_python_step():
    """1000 random (state, action) pairs, float64 (spec §5; gymnasium is not installed, so the
    reference is naive.cartpole_step, gymnasium's equations written out in Python floats)."""
    gen = torch.Generator().manual_seed(0)
    scale = torch.tensor([2.4, 2.0, 0.21, 2.5], dtype=torch.float64)
    state = (2 * torch.rand(1000, 4, generator=gen, dtype=torch.float64) - 1) * scale
    action = torch.rand(1000, generator=gen) < 0.5
    nxt, done = envs.step(state, action)
    for i in range(1000):
        ref, ref_done = naive.cartpole_step(tuple(state[i].tolist()), int(action[i]))
        assert max(abs(a - b) for a, b in zip(nxt[i].tolist(), ref)) <= 1e-12   # float64 rounding
        assert bool(done[i]) == ref_done


def test_termination_limits():
    x_out = torch.tensor([[2.39, 1.0, 0.0, 0.0]], dtype=torch.float64)   # x crosses 2.4
    assert bool(envs.step(x_out, torch.tensor([True]))[1][0])
    upright = torch.zeros(1, 4, dtype=torch.float64)
    assert not bool(envs.step(upright, torch.tensor([False]))[1][0])
    assert envs.THETA_LIMIT == 12 * 2 * math.pi / 360


def test_truncation_and_reset():
    """An upright cart pushed alternately survives; it is truncated at max_steps and reset."""
    gen = torch.Generator().manual_seed(1)
    carts = envs.CartPoles(torch.tensor([0, 0]), 1, 3, 5, gen, torch.float64)
    assert carts.state.abs().max() <= envs.RESET_HALF_WIDTH
    assert torch.equal(carts.state[0], carts.state[1])          # one draw per seed slot
    for t in range(5):
        done, length = carts.step(torch.full((2, 3), t % 2 == 0))
    assert done.all() and (length == 5).all() and (carts.t == 0).all()
