"""The in-notebook comparisons of a fast kernel with its plain reference (naive.py), each
returning the number a claim records."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch

from lib.ptnas import naive, proxies, search
from lib.ptnas.bench import init_weights, train_masked
from lib.ptnas.data import Split
from lib.ptnas.space import Arch


def closed_form_gap(archs: Sequence[Arch], d_in: int, d_out: int, seed: int, batch: int,
                    eps: float, dtype: torch.dtype) -> np.ndarray:
    """Relative difference |pTProxy − closed form| / closed form per architecture (same δ)."""
    gen = torch.Generator().manual_seed(seed)
    gaps = []
    for arch in archs:
        w = init_weights(arch, d_in, d_out, seed)
        delta = proxies.draw_delta(batch, d_in, eps, gen, dtype)
        fast = proxies.aggregate(proxies.ptproxy_terms(proxies.build_mlp(w, dtype), delta, eps))
        ref = naive.ptproxy_closed_form([(a.numpy(), b.numpy()) for a, b in w],
                                        delta.double().numpy(), eps)
        gaps.append(abs(fast - ref) / ref)
    return np.array(gaps)


def masked_vs_separate(archs: Sequence[Arch], split: Split, seed: int, batch: int, lr: float,
                       pad_widths: Sequence[int]) -> tuple[float, bool]:
    """(max |logit difference|, identical test argmax) after one epoch, masked vs separate."""
    masked = train_masked(archs, split, seed, (1,), batch, lr, pad_widths).test_logits
    alone = torch.stack(naive.train_separate(archs, split, seed, 1, batch, lr))
    return float((masked - alone).abs().max()), bool((masked.argmax(-1) == alone.argmax(-1))
                                                     .all())


def sh_mismatches(n_instances: int, rng: np.random.Generator, epochs: Sequence[int],
                  eta: int) -> int:
    """Random score tables (with ties) on which fast and plain SH differ in winner or cost,
    or the planned cost differs from the run's."""
    bad = 0
    for _ in range(n_instances):
        n = int(rng.integers(1, 60))
        val = rng.integers(0, 5, size=(n, len(epochs))).astype(float)   # coarse: many ties
        cands = list(rng.permutation(n)[:int(rng.integers(1, n + 1))])
        fast = search.successive_halving(cands, val, epochs, eta)
        ref = naive.successive_halving(cands, val, epochs, eta)
        bad += fast != ref or fast[1] != search.sh_cost(len(cands), epochs, eta)
    return bad
