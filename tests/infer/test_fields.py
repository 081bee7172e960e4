"""The batched field: a replica does not depend on what is batched beside it, the time field is
causal, the frequency field's phasor is unit, and a short sweep of every arm trains."""
import numpy as np
import torch

from lib.companion import paths
from lib.infer import fields, scene, train
from lib.infer.schema import Fields
from tests.conftest import assert_close

DIMS = dict(features=4, sigma=6.0, width=8, depth=2)


def test_replica_is_independent_of_its_batch():
    g = [torch.Generator().manual_seed(s) for s in (3, 7)]
    both = fields.BatchedField(g, d_out=5, **DIMS)
    alone = fields.BatchedField([torch.Generator().manual_seed(7)], d_out=5, **DIMS)
    p = torch.rand(6, 2, generator=torch.Generator().manual_seed(0))
    # float32 baddbmm on a batch of 2 and of 1: the same sums, maybe blocked differently
    assert_close("replica 7", alone(p)[0].detach(), both(p)[1].detach(), rtol=0, atol=1e-6)


def test_grouped_head_is_the_same_function():
    """Grouping the output columns (the band's bins apart, spec §1.4's loss band) keeps the
    drawn values: every output equals the ungrouped field's, and the band group holds the band
    bins of ln |H|, cos and sin."""
    k, band = 17, slice(3, 11)
    plain = fields.BatchedField([torch.Generator().manual_seed(5)], d_out=3 * k, **DIMS)
    grouped = fields.BatchedField([torch.Generator().manual_seed(5)], d_out=3 * k,
                                  groups=fields.band_groups(k, band), **DIMS)
    p = torch.rand(9, 2, generator=torch.Generator().manual_seed(2))
    full = plain(p).detach()
    # the same dot products, perhaps blocked differently by the GEMM: float32 rounding
    assert_close("grouped outputs", full, grouped(p).detach(), rtol=0, atol=1e-6)
    ff = fields.FreqField(grouped, torch.zeros(k), band)
    ref = fields.FreqField(plain, torch.zeros(k), slice(0, k)).parts(p)       # one group
    x = grouped.hidden(p)
    for name, one, whole, part in zip(("ln|H|", "cos", "sin"), ref, ff.parts_from(x),
                                      ff.band_parts(x)):
        assert_close(name, one.detach(), whole.detach(), rtol=0, atol=1e-6)
        assert_close(name + " in band", whole[..., band].detach(), part.detach(), rtol=0,
                     atol=1e-6)


def test_time_field_is_causal_and_freq_phasor_unit():
    g = [torch.Generator().manual_seed(0)]
    tf = fields.TimeField(fields.BatchedField(g, d_out=16, **DIMS), 32, 1.0)
    p = torch.rand(3, 2, generator=torch.Generator().manual_seed(1))
    h = torch.fft.irfft(tf.spectrum(p).detach().to(torch.complex128), n=32)
    assert float(h[..., 17:].abs().max()) <= 1e-6           # float32 FFT rounding
    ff = fields.FreqField(fields.BatchedField(g, d_out=3 * 17, **DIMS), torch.zeros(17),
                          slice(0, 17))
    _, c, s = ff.parts(p)
    assert_close("unit phasor", np.ones((1, 3, 17)), (c ** 2 + s ** 2).detach(), rtol=0,
                 atol=1e-5)


def test_every_arm_trains_and_predicts(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    cfg = Fields(**{**{k: v for k, (v, _) in Fields.SMOKE.items()},
                    "steps": 30, "width": 16, "features": 4})
    cab = scene.build(cfg)
    tr, _ = scene.split(cfg.grid ** 2, cfg.n_train, np.random.default_rng(0))
    run = train.train(cfg, cab, tr, [0, 1], "infer/02_field_comparison")
    assert [a.name for a in run.arms] == ["T", "F", "F+KK λ=1", "F+KK+W"]
    assert run.spectra.shape == (4, 2, cfg.grid ** 2, cfg.n_fft // 2 + 1)
    assert np.all(run.loss[..., -1] < run.loss[..., 0])      # every arm's and seed's loss fell
    # T's per-replica tensors fill whole SIMD vectors (12 x 16, 16 x 512, ...), so seed 1's
    # replica beside seed 0 is bit for bit seed 1 trained alone (batched products are per
    # replica); F's head biases (1116 and 423 columns) end mid-vector, so fused Adam updates a
    # replica's entries in its vector loop or its scalar tail, whose last bits differ (with the
    # per-op Adam every arm matched bit for bit, at ~1.2x the training time): compared after 3
    # steps, before Adam's near-zero second moments amplify them (at ~step 9 here), to 1e-6 of
    # the largest value (float32 rounding, relative to the spectrum's scale)
    d = train.data(cab, tr, cfg.n_fft)
    assert run.spectra[0, 1].tobytes() == train.fit(cfg, d, run.arms[0], [1]).spectra.tobytes()
    short = cfg.model_copy(update={"steps": 3})
    for arm in run.arms[1:]:
        both, alone = train.fit(short, d, arm, [0, 1]), train.fit(short, d, arm, [1])
        ref = alone.spectra[0].view(np.float64)                  # (M, 2K): real, imag pairs
        assert_close(f"{arm.name} seed 1", ref, both.spectra[1].view(np.float64), rtol=0,
                     atol=1e-6 * np.abs(ref).max())
