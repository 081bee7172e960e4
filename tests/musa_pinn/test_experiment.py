"""NB2's (form, seed) runs rebuild what one batched pass over every seed gives, bit for bit: the
nets' weights, the members' order and the history rows (so moving the grid onto the sweep engine
changes no number). Sizes as the profiles': points x width a multiple of 16 per member."""
import numpy as np
import pytest
import torch

from lib.musa_pinn import experiment, geometry, train

SEEDS = [4, 9, 2]


def setup() -> train.Setup:
    return train.Setup(re=20.0, width=16, depth=2, steps=4, lr=1e-3, milestones=(0.5,),
                       gamma=0.3, bc_weight=10.0, n_boundary=16, n_colloc=16, quad=8,
                       counts={"large": 2, "meso": 3, "small": 3}, eval_every=2)


@pytest.mark.parametrize("form", ["strong", "weak"])
def test_runs_per_seed_equal_one_pass_over_all_seeds(form):
    dom = geometry.Domain()
    pts = geometry.sample_interior(dom, 17, np.random.default_rng(0))
    arms = [train.Arm("s", "strong")] if form == "strong" else \
        [train.Arm("w", "weak"), train.Arm("w2", "weak", True, ("large", "meso"))]
    net, members, hist = train.fit(arms, setup(), dom, SEEDS, pts)
    runs = [experiment.run_seed(arms, setup(), dom, s, pts) for s in SEEDS]
    rebuilt = experiment.stacked(runs, setup(), dom.box)
    assert members == [(a.name, s) for a in arms for s in SEEDS]
    for a, b in zip(net.parameters(), rebuilt.parameters()):
        assert torch.equal(a, b)
    assert experiment.history(runs).equals(hist)
