"""Models of the experiment plan (spec §2.3-2.4, §7.1): scans agree with the sequential loop,
transitions have the stated spectra/structure."""
import numpy as np
import pytest
import torch

from lib.linear_rnns import models, recurrences, scan


@pytest.mark.parametrize("T", [1, 2, 7, 13, 32])
@pytest.mark.parametrize("dense", [False, True])
def test_affine_scan_equals_sequential_float64(T, dense):
    g = torch.Generator().manual_seed(T)
    n, m = 3, 2
    A = torch.randn((2, T, n, n) if dense else (2, T, n), generator=g, dtype=torch.float64) * 0.7
    b = torch.randn(2, T, n, m, generator=g, dtype=torch.float64)
    ref = models.affine_sequential(A, b)
    # plain-loop reference too: h_t = A_t h_{t-1} + b_t
    h = torch.zeros(2, n, m, dtype=torch.float64)
    for t in range(T):
        h = (A[:, t] @ h if dense else A[:, t, :, None] * h) + b[:, t]
    got = models.affine_scan(A, b, parallel=True)
    # float64 reassociation of <= 5 rounds of 3x3 products: errors ~1e-15 relative
    assert torch.allclose(ref[:, -1], h, rtol=1e-12, atol=1e-12)
    assert torch.allclose(got, ref, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("family", models.FAMILIES)
@pytest.mark.parametrize("T", [1, 9])
def test_model_scanned_forward_equals_sequential(family, T):
    torch.manual_seed(0)
    m = models.SeqModel(family, vocab=7, in_features=None, n_classes=3, d=16, layers=2)
    x = torch.randint(1, 7, (3, T))
    out_par, out_seq = m(x, parallel=True), m(x, parallel=False)
    assert out_par.shape == (3, T, 3)
    # float32 reassociation through 2 layers: ~1e-6 observed, 1e-4 leaves margin
    assert torch.allclose(out_par, out_seq, atol=1e-4)


def test_causality():
    torch.manual_seed(1)
    for family in models.FAMILIES:
        m = models.SeqModel(family, vocab=5, in_features=None, n_classes=2, d=16)
        x = torch.randint(1, 5, (2, 10))
        y = x.clone()
        y[:, 6:] = 1 + (y[:, 6:] % 4)                               # change the future only
        assert torch.allclose(m(x)[:, :6], m(y)[:, :6], atol=1e-5), family


def test_transition_ranges_and_structure():
    torch.manual_seed(2)
    x = torch.randn(2, 5, 16) * 5
    pos, neg = models.DiagonalLRNN(16, False), models.DiagonalLRNN(16, True)
    assert ((pos.transition(x) > 0) & (pos.transition(x) < 1)).all()
    assert ((neg.transition(x) > -1) & (neg.transition(x) < 1)).all()
    assert (neg.transition(x) < 0).any()
    pd = models.PDLRNN(16, n_state=6)
    A = pd.transition(x).detach()
    assert ((A != 0).sum(-2) == 1).all()                          # column one-hot x diagonal
    assert (A.abs() < 1).all()
    dn = models.DeltaNet(16, heads=2)
    _, Ad, _ = dn.pairs(x)                                       # (B*H, T, dk, dk)
    eig = torch.linalg.eigvalsh(Ad.detach().double())             # symmetric: I - beta k k^T
    # spec §2.4: eigenvalues {1 (d-1 times), 1 - beta}, beta in (0, 2)
    assert torch.allclose(eig[..., 1:], torch.ones_like(eig[..., 1:]), atol=1e-5)
    assert ((eig[..., 0] > -1) & (eig[..., 0] < 1)).all()


def test_rwkv7_transition_is_decay_minus_rank1():
    torch.manual_seed(4)
    x = torch.randn(2, 5, 16) * 5
    rw = models.RWKV7Lite(16, heads=2)
    _, w, c, u, _, _ = rw.terms(x)
    _, A, _ = rw.pairs(x)
    # RWKV-7 ranges: decay in (exp(-e^{-1/2}), 1), in-context rate a = c / u in (0, 1)
    assert ((w > np.exp(-np.exp(-0.5))) & (w < 1)).all()
    assert torch.allclose(u.norm(dim=-1), torch.ones(u.shape[:-1]), atol=1e-5)
    a = c / u
    assert ((a > 0) & (a < 1)).all()
    low_rank = (A - torch.diag_embed(w)).detach()                 # float32: rtol well above eps
    # spec §2.4: diagonal + rank 1
    assert (torch.linalg.matrix_rank(low_rank, rtol=1e-5) <= 1).all()


def test_deltanet_is_dplr_with_unit_decay():
    torch.manual_seed(5)
    dn = models.DeltaNet(16, heads=2)
    x = torch.randn(2, 6, 16)
    q, w, c, u, e, v = dn.terms(x)
    assert w is None and torch.allclose(c, e)                   # removal and write share beta k
    # the delta rule as usually written: S += beta k (v - k^T S)
    S = torch.zeros(q.shape[0], 8, 8)
    for t in range(6):
        k, beta = u[:, t], (c[:, t] / u[:, t])[:, :1]
        S = S + (beta[:, :, None] * k[:, :, None]
                 * (v[:, t] - torch.einsum("zkv,zk->zv", S, k))[:, None])
    got = recurrences.DPLR.apply(q, w, c, u, e, v)[0][:, -1]
    assert torch.allclose(got, torch.einsum("zkv,zk->zv", S, q[:, -1]), atol=1e-5)


def test_pd_straight_through_has_gradient():
    torch.manual_seed(3)
    m = models.SeqModel("pd", vocab=4, in_features=None, n_classes=2, d=8)
    m(torch.randint(1, 4, (2, 6))).sum().backward()
    assert m.blocks[0].mix.dictionary.grad.abs().sum() > 0


def test_float_inputs():
    m = models.SeqModel("deltanet", vocab=None, in_features=9, n_classes=2, d=8)
    assert m(torch.randn(2, 4, 9)).shape == (2, 4, 2)


@pytest.mark.parametrize("dense", [False, True])
def test_affine_scan_gradients_equal_sequential(dense):
    # training backpropagates through the scan: its gradients must be the loop's
    g = torch.Generator().manual_seed(7)
    A = (torch.randn((2, 11, 3, 3) if dense else (2, 11, 3), generator=g,
                     dtype=torch.float64) * 0.6)
    b = torch.randn(2, 11, 3, 2, generator=g, dtype=torch.float64)
    grads = []
    for parallel in (True, False):
        a_, b_ = A.clone().requires_grad_(), b.clone().requires_grad_()
        (models.affine_scan(a_, b_, parallel=parallel) ** 2).sum().backward()
        grads.append((a_.grad, b_.grad))
    assert all(torch.allclose(x, y, rtol=1e-10, atol=1e-12) for x, y in zip(*grads))


@pytest.mark.parametrize("dense", [False, True])
def test_affine_scan_equals_part1_scan(dense):
    # the models' batch-first scan against part 1's kernel, one column of b at a time
    g = torch.Generator().manual_seed(8)
    A = torch.randn((3, 13, 4, 4) if dense else (3, 13, 4), generator=g, dtype=torch.float64) * 0.6
    b = torch.randn(3, 13, 4, 2, generator=g, dtype=torch.float64)
    got = models.affine_scan(A, b, parallel=True)
    for col in range(2):
        ref, counts = scan.scan_hillis_steele(scan.Pairs("dense" if dense else "diagonal",
                                                         A.movedim(1, 0),
                                                         b[..., col].movedim(1, 0)))
        assert counts.rounds == 4                                  # ceil(log2 13)
        assert torch.allclose(got[..., col], ref.b.movedim(0, 1), rtol=1e-12, atol=1e-12)
