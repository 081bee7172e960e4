"""Batched seeds (issue 15): the seeds of one (task, family) trained as one vmapped model give
the same losses and parameters as one run per seed; early stop and resume per seed."""
import numpy as np
import pytest
import torch

from lib.linear_rnns import models, seeds, tasks, train


def _group(family, n=3, **kw):
    base = dict(task="parity", family=family, d=8, steps=8, eval_every=4, batch=4, train_bin=(2, 7),
                val_n=8, lr=3e-3, dtype="float64")
    return [train.RunConfig(seed=s, **(base | kw)) for s in range(n)]


@pytest.mark.parametrize("family", ["rnn", "gru", "pd", "deltanet", "transformer"])
def test_batched_seeds_equal_one_run_per_seed(family):
    rcs = _group(family)
    batched, sts = seeds.train_seeds(rcs, None, progress=False)
    for rc, m, st in zip(rcs, batched, sts):
        ref, st_ref = train.train_run(rc, None, progress=False)
        # float64; batched and single runs add the same terms in another order: ~1e-15 observed
        assert [h[0] for h in st["history"]] == [h[0] for h in st_ref["history"]]
        assert max(abs(a[1] - b[1]) for a, b in zip(st["history"], st_ref["history"])) < 1e-6
        assert all(torch.allclose(a, b, atol=1e-6, rtol=0)
                   for a, b in zip(m.state_dict().values(), ref.state_dict().values()))


@pytest.mark.parametrize("task", ["dgc_paper", "imm_mod", "imm_z_paper", "parity"])
def test_every_parameter_receives_a_gradient(task):
    # the batched update steps every parameter of the flat buffer; torch's AdamW would skip one
    # without a gradient, so the two agree only while every parameter gets one
    for family in models.FAMILIES:
        rc = train.RunConfig(task=task, family=family, d=8, train_bin=(2, 6))
        model = train.build_model(rc)
        batch = tasks.sample(task, 8, 2, 6, np.random.default_rng(0))
        train.loss_fn(model, batch, "cpu").backward()
        assert [k for k, p in model.named_parameters() if p.grad is None] == [], family


def test_per_seed_clipping_and_no_clipping():
    # clip 0.05 binds on every step (clipping each seed by its own norm), clip 0 switches it off
    for clip in (0.05, 0.0):
        rcs = _group("diag_neg", clip=clip, steps=4, eval_every=2)
        batched, _ = seeds.train_seeds(rcs, None, progress=False)
        for rc, m in zip(rcs, batched):
            ref, _ = train.train_run(rc, None, progress=False)
            assert all(torch.allclose(a, b, atol=1e-9, rtol=0)
                       for a, b in zip(m.state_dict().values(), ref.state_dict().values()))


def test_a_stopped_seed_is_frozen_while_the_others_train():
    # a 1-2 length parity bin is learned fast; seeds stop at different steps and each one's
    # record (steps, history) equals its own single run
    rcs = _group("rnn", d=16, steps=300, eval_every=10, train_bin=(1, 2), val_n=32, lr=1e-2)
    _, sts = seeds.train_seeds(rcs, None, progress=False)
    refs = [train.train_run(rc, None, progress=False)[1] for rc in rcs]
    assert [s["step"] for s in sts] == [r["step"] for r in refs]
    assert all(s["streak"] == 3 for s in sts) and len({s["step"] for s in sts}) > 1


def test_resume_after_interruption_and_group_checks(tmp_path, interrupt_sampling):
    rcs = _group("diag_pos", n=2, steps=12)
    ref, st_ref = seeds.train_seeds(rcs, None, progress=False)
    interrupt_sampling(14)                                    # dies during step 6
    with pytest.raises(KeyboardInterrupt):
        seeds.train_seeds(rcs, tmp_path, progress=False)
    interrupt_sampling(None)
    got, st = seeds.train_seeds(rcs, tmp_path, progress=False)     # resumes from step 4
    assert [s["history"] for s in st] == [s["history"] for s in st_ref]
    assert all(torch.equal(a, b) for m, r in zip(got, ref)
               for a, b in zip(m.state_dict().values(), r.state_dict().values()))
    with pytest.raises(ValueError, match="differ beyond the seed"):
        seeds.train_seeds([rcs[0], train.RunConfig(**{**rcs[1].__dict__, "lr": 0.5})], None)
    rows = seeds.train_and_evaluate_seeds(rcs, [tasks.parity(8, 2, 7, np.random.default_rng(0))],
                                          [[2, 7]], tmp_path)
    assert [r["seed"] for r in rows] == [0, 1] and all(r["batched_seeds"] == 2 for r in rows)
