"""A vectorised CartPole in torch (spec §1.4): gymnasium's CartPole-v1 dynamics (Euler, tau =
0.02), termination at |x| > 2.4 or |theta| > 12 degrees, truncation at a step limit, reward 1 a
step, automatic reset; one batch of environments per ensemble member, all stepped at once."""
from __future__ import annotations

import math

import torch

GRAVITY, CART_MASS, POLE_MASS, HALF_LENGTH, FORCE, TAU = 9.8, 1.0, 0.1, 0.5, 10.0, 0.02
TOTAL_MASS = CART_MASS + POLE_MASS
POLE_MOMENT = POLE_MASS * HALF_LENGTH
X_LIMIT, THETA_LIMIT = 2.4, 12 * 2 * math.pi / 360
RESET_HALF_WIDTH = 0.05


def step(state: torch.Tensor, action: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """One Euler step of every cart: state (..., 4) = (x, x_dot, theta, theta_dot), action (...)
    in {0, 1} (push left, right); returns the next state and whether it terminated."""
    x, x_dot, theta, theta_dot = state.unbind(-1)
    force = FORCE * (2 * action.to(state.dtype) - 1)
    cos, sin = torch.cos(theta), torch.sin(theta)
    temp = (force + POLE_MOMENT * theta_dot ** 2 * sin) / TOTAL_MASS
    theta_acc = (GRAVITY * sin - cos * temp) / (
        HALF_LENGTH * (4.0 / 3.0 - POLE_MASS * cos ** 2 / TOTAL_MASS))
    x_acc = temp - POLE_MOMENT * theta_acc * cos / TOTAL_MASS
    nxt = torch.stack([x + TAU * x_dot, x_dot + TAU * x_acc,
                       theta + TAU * theta_dot, theta_dot + TAU * theta_acc], -1)
    done = (nxt[..., 0].abs() > X_LIMIT) | (nxt[..., 2].abs() > THETA_LIMIT)
    return nxt, done


class CartPoles:
    """members x envs carts with auto-reset. Reset draws are made per seed slot and shared by
    the members of one seed (common random numbers across LRs and arms)."""

    def __init__(self, seed_of: torch.Tensor, n_seeds: int, n_envs: int, max_steps: int,
                 gen: torch.Generator, dtype: torch.dtype):
        self.seed_of, self.n_seeds, self.n_envs = seed_of, n_seeds, n_envs
        self.max_steps = max_steps
        self.gen, self.dtype = gen, dtype
        self.state = self._fresh()                                # (E, n_envs, 4)
        self.t = torch.zeros(len(seed_of), n_envs, dtype=torch.long)

    def _fresh(self) -> torch.Tensor:
        """Initial states U(-0.05, 0.05)^4, one draw per seed slot, (E, n_envs, 4)."""
        u = torch.rand(self.n_seeds, self.n_envs, 4, generator=self.gen, dtype=self.dtype)
        return ((2 * u - 1) * RESET_HALF_WIDTH)[self.seed_of]

    def step(self, action: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Step all carts; returns (episode ended here, its length where it ended) as (E, n_envs),
        and resets ended carts. Reward is 1 a step, so an episode's return is its length."""
        nxt, terminated = step(self.state, action)
        self.t += 1
        done = terminated | (self.t >= self.max_steps)
        length = torch.where(done, self.t, torch.zeros_like(self.t))
        self.state = torch.where(done[..., None], self._fresh(), nxt)
        self.t = torch.where(done, torch.zeros_like(self.t), self.t)
        return done, length
