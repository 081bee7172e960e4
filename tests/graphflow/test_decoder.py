"""The decoder's past interface: a split forward equals the full one, and the layer-0 KV
formula holds."""
import numpy as np
import torch

from lib.graphflow import naive
from lib.graphflow.decoder import Decoder, Sizes

torch.set_num_threads(1)


def test_split_forward_equals_full_forward():
    model = Decoder(Sizes(30, 40, 2, 12, 3), torch.Generator().manual_seed(4))
    tok, pos = torch.randint(0, 30, (17,)), torch.arange(17) * 2
    logits, kv = model(tok, pos)
    head = model.kv_of(tok[:9], pos[:9])
    tail_logits, tail = model(tok[9:], pos[9:], head)
    assert kv.shape == (2, 2, 3, 17, 4)
    # a prefix never sees its future; equal up to rounding only, as the matmuls' shapes differ
    # (which is why the bit-for-bit claim compares caches built segment by segment alike)
    assert (kv[:, :, :, :9] - head).abs().max() <= 1e-13
    assert (kv[:, :, :, 9:] - tail).abs().max() <= 1e-13       # float64, other summation order
    assert (logits[9:] - tail_logits).abs().max() <= 1e-12


def test_layer0_kv_formula():
    model = Decoder(Sizes(30, 40, 1, 12, 3), torch.Generator().manual_seed(5))
    tok, pos = np.array([3, 7, 7, 1]), np.array([0, 5, 6, 9])
    kv = model.kv_of(torch.from_numpy(tok), torch.from_numpy(pos))
    assert np.abs(kv[0].numpy() - naive.layer0_kv(model, tok, pos)).max() <= 1e-14
