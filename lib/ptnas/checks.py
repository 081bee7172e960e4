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
                       pad_widths: Sequence[int], separate_seed: int | None = None
                       ) -> tuple[float, bool]:
    """(max |logit difference| / max(1, max |logit|), identical test argmax) after one epoch,
    masked vs separate. The difference is taken relative to the logits' size because float32
    rounding is relative to what it rounds. `separate_seed` (a negative control) trains the
    separate nets from another seed."""
    masked = train_masked(archs, split, seed, (1,), batch, lr, pad_widths).test_logits
    alone = torch.stack(naive.train_separate(
        archs, split, seed if separate_seed is None else separate_seed, 1, batch, lr))
    scale = max(1.0, float(alone.abs().max()))
    return (float((masked - alone).abs().max()) / scale,
            bool((masked.argmax(-1) == alone.argmax(-1)).all()))


def sh_mismatches(n_instances: int, rng: np.random.Generator, epochs: Sequence[int],
                  eta: int, ref_eta: int | None = None) -> int:
    """Random score tables (with ties) on which fast and plain SH differ in winner or cost,
    or the planned cost differs from the run's. `ref_eta` (a negative control) runs the plain
    SH with another reduction factor."""
    bad = 0
    for _ in range(n_instances):
        n = int(rng.integers(1, 60))
        val = rng.integers(0, 5, size=(n, len(epochs))).astype(float)   # coarse: many ties
        cands = list(rng.permutation(n)[:int(rng.integers(1, n + 1))])
        fast = search.successive_halving(cands, val, epochs, eta)
        ref = naive.successive_halving(cands, val, epochs, eta if ref_eta is None else ref_eta)
        bad += fast != ref or fast[1] != search.sh_cost(len(cands), epochs, eta)
    return bad


def batch_scores(archs: Sequence[Arch], d_in: int, d_out: int, seed: int,
                 batch_sizes: Sequence[int], eps: float, dtype: torch.dtype,
                 repeated: bool) -> np.ndarray:
    """pTProxy scores (batch sizes, archs) of each net at each batch size. `repeated`: one δ row
    drawn per net and repeated over the batch (then τ_l scales by √B for every layer, w_l is
    unchanged and ΣV_l scales by B: score(B) = (B/B') score(B') exactly); otherwise every row is
    drawn afresh, as the release does, and the identity holds only up to the draw of δ."""
    scores = np.zeros((len(batch_sizes), len(archs)))          # (batch sizes, archs)
    for j, arch in enumerate(archs):
        net = proxies.build_mlp(init_weights(arch, d_in, d_out, seed), dtype)
        for i, b in enumerate(batch_sizes):
            g = torch.Generator().manual_seed(seed * 1000 + j)
            delta = (proxies.draw_delta(1, d_in, eps, g, dtype).repeat(b, 1) if repeated
                     else proxies.draw_delta(b, d_in, eps, g, dtype))   # (b, d_in)
            scores[i, j] = proxies.aggregate(proxies.ptproxy_terms(net, delta, eps))
    return scores


def scaling_gap(scores: np.ndarray, batch_sizes: Sequence[int], ref: int) -> np.ndarray:
    """|score(B)/score(ref) ÷ (B/ref) − 1| per batch size and net (batch sizes, archs)."""
    scale = np.asarray(batch_sizes, dtype=float)[:, None] / ref
    return np.abs(scores / scores[list(batch_sizes).index(ref)] / scale - 1)
