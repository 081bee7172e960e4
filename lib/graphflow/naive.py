"""Plain-loop references (spec §4): byte counts by loops over token lists, the trie as a Python
set of tuple prefixes, and the decoder recomputed token by token with no cache, in numpy float64.
Tests, bench/ and the exact claims read these; the kernels they check live elsewhere."""
from __future__ import annotations

import math

import numpy as np

from lib.graphflow.decoder import Decoder

EPS = 1e-5                     # torch.nn.LayerNorm's default


def independent_tokens(pairs: list[np.ndarray]) -> int:
    """A: count every token of every workflow."""
    total = 0
    for p in pairs:
        for _ in p:
            total += 1
    return total


def prefix_tokens(pairs: list[np.ndarray]) -> int:
    """B: the set of all (token, position) tuple prefixes."""
    seen = set()
    for p in pairs:
        items = [tuple(int(v) for v in row) for row in p]
        for i in range(1, len(items) + 1):
            seen.add(tuple(items[:i]))
    return len(seen)


def differential_bytes(seg_lists, b: int, entries_per_token: int, rho: float,
                       element_bytes: int, index_bytes: int) -> int:
    """M_C at tau = 0 by loops: S, each op used and each output block exactly; floor(rho n)
    value + index pairs for each distinct (segment prefix, op)."""
    exact, ops, occurrences = len(seg_lists[0][0].tokens), {}, set()
    for segs in seg_lists:
        codes = [s.code for s in segs]
        for i, s in enumerate(segs[1:], start=1):
            if s.code >= 0:
                ops[s.code] = len(s.tokens)
                occurrences.add((tuple(codes[:i + 1]), len(s.tokens)))
            else:
                exact += len(s.tokens)
    exact += sum(ops.values())
    entries = sum(math.floor(rho * entries_per_token * n) for _, n in occurrences)
    return b * exact + entries * (element_bytes + index_bytes)


def _params(model: Decoder) -> dict[str, np.ndarray]:
    return {k: v.detach().numpy() for k, v in model.state_dict().items()}


def _layer_norm(x: np.ndarray, g: np.ndarray, b: np.ndarray) -> np.ndarray:
    mean = sum(x) / len(x)
    var = sum((xi - mean) ** 2 for xi in x) / len(x)
    return (x - mean) / math.sqrt(var + EPS) * g + b


def _gelu(x: np.ndarray) -> np.ndarray:
    return np.array([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in x])


def layer0_kv(model: Decoder, tokens: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Layer-0 K and V (2, H, n, dh) from the formula W_kv LN(E[token] + P[position]): they
    depend on nothing but the token and its position."""
    p, s = _params(model), model.sizes
    out = np.zeros((2, s.heads, len(tokens), s.d_head))
    for i, (t, pos) in enumerate(zip(tokens, positions)):
        h = _layer_norm(p["tok.weight"][t] + p["pos.weight"][pos], p["blocks.0.ln1.weight"],
                        p["blocks.0.ln1.bias"])
        qkv = p["blocks.0.qkv.weight"] @ h + p["blocks.0.qkv.bias"]
        for j in range(2):
            for hd in range(s.heads):
                start = (j + 1) * s.d + hd * s.d_head
                out[j, hd, i] = qkv[start:start + s.d_head]
    return out


def final_logits(model: Decoder, tokens: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Logits of the last token, the whole sequence recomputed token by token, no cache: per
    layer, each token's q, k, v, then for each token and head a softmax over tokens <= it."""
    p, s = _params(model), model.sizes
    n, dh = len(tokens), s.d_head
    x = [p["tok.weight"][t] + p["pos.weight"][q] for t, q in zip(tokens, positions)]
    for li in range(s.layers):
        w = {k.split(".", 2)[2]: v for k, v in p.items() if k.startswith(f"blocks.{li}.")}
        qkv = [w["qkv.weight"] @ _layer_norm(xi, w["ln1.weight"], w["ln1.bias"]) + w["qkv.bias"]
               for xi in x]
        new = []
        for i in range(n):
            heads = []
            for hd in range(s.heads):
                sl = slice(hd * dh, (hd + 1) * dh)
                q = qkv[i][: s.d][sl]
                scores = [float(q @ qkv[j][s.d: 2 * s.d][sl]) / math.sqrt(dh)
                          for j in range(i + 1)]
                top = max(scores)
                e = [math.exp(v - top) for v in scores]
                total = sum(e)
                heads.append(sum(e[j] / total * qkv[j][2 * s.d:][sl] for j in range(i + 1)))
            h = x[i] + w["out.weight"] @ np.concatenate(heads) + w["out.bias"]
            up = w["up.weight"] @ _layer_norm(h, w["ln2.weight"], w["ln2.bias"]) + w["up.bias"]
            new.append(h + w["down.weight"] @ _gelu(up) + w["down.bias"])
        x = new
    return p["head.weight"] @ _layer_norm(x[-1], p["ln_f.weight"], p["ln_f.bias"]) + p["head.bias"]


def segment_trie_tokens(seg_lists) -> int:
    """The tokens of the distinct segment prefixes: what a cache shared per segment stores
    (the token trie's count too when no two sibling segments open alike)."""
    seen = {}
    for segs in seg_lists:
        codes = tuple(s.code for s in segs)
        for i, s in enumerate(segs):
            seen[codes[:i + 1]] = len(s.tokens)
    return sum(seen.values())
