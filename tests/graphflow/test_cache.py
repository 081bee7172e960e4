"""Shared caches against unshared ones and a token-by-token recompute; the differential cache's
layer-0 residual, its exactness at rho = 1 and its byte count; the byte formula against real
tensors."""
import numpy as np
import pytest
import torch

from lib.graphflow import cache, choices, naive, wgraph
from lib.graphflow.decoder import Decoder, Sizes

torch.set_num_threads(1)


def setup(rule, layers=2, n=6, seed=0, output_tokens=0):
    rng = np.random.default_rng(seed)
    g = wgraph.sample_wgraph(rng, graph_layers=3, ops_per_layer=2, block_min=3, block_max=6,
                             system_tokens=5, vocab=40, output_tokens=output_tokens)
    paths = wgraph.sample_workflows(rng, g, n, 0.8)
    segs = wgraph.layout_all(g, paths, wgraph.sample_outputs(rng, g, paths, 40), rule)
    model = Decoder(Sizes(40, choices.position_table(g, rule), layers, 16, 2),
                    torch.Generator().manual_seed(seed))
    return g, segs, model


def qpos(g, segs, rule):
    return choices.query_position(g, sum(len(s.tokens) for s in segs), rule)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("rule", [choices.slot_positions, choices.contiguous_positions])
def test_shared_logits_equal_unshared_and_recompute(seed, rule):
    g, seg_lists, model = setup(rule, seed=seed)
    nodes = cache.build_shared(model, seg_lists)
    q = choices.query_token(g)
    for segs in seg_lists[:3]:
        shared = cache.final_logits(model, cache.assemble(cache.path_parts(nodes, segs)), q,
                                    qpos(g, segs, rule))
        alone = cache.final_logits(model, cache.assemble(cache.build_independent(model, segs)),
                                   q, qpos(g, segs, rule))
        assert torch.equal(shared, alone)                      # same ops on the same inputs
        pairs = wgraph.token_pairs(segs)
        ref = naive.final_logits(model, np.append(pairs[:, 0], q),
                                 np.append(pairs[:, 1], qpos(g, segs, rule)))
        assert np.abs(shared.numpy() - ref).max() <= 1e-12     # float64, two summation orders


@pytest.mark.parametrize("output_tokens", [0, 2])
def test_byte_formula_matches_tensor_sizes(output_tokens):
    g, seg_lists, model = setup(choices.slot_positions, output_tokens=output_tokens)
    nodes = cache.build_shared(model, seg_lists)
    pairs = [wgraph.token_pairs(s) for s in seg_lists]
    b = cache.bytes_per_token(2, 2, 8, 8)
    assert b == 2 * 2 * 2 * 8 * 8
    stored = sum(t.element_size() * t.numel() for t in nodes.values())
    assert stored == b * naive.segment_trie_tokens(seg_lists)
    if output_tokens == 0:                                     # op blocks open with markers
        assert stored == b * cache.prefix_tokens(pairs)
    else:                                                      # outputs may open alike by chance
        assert stored >= b * cache.prefix_tokens(pairs)
    parts = cache.build_independent(model, seg_lists[0])
    assert sum(t.element_size() * t.numel() for t in parts) == b * len(pairs[0])


def test_layer0_residual_is_zero_under_slots_and_the_formula_otherwise():
    for rule in (choices.slot_positions, choices.contiguous_positions):
        g, seg_lists, model = setup(rule)
        nodes = cache.build_shared(model, seg_lists)
        diff = cache.build_differential(model, g, nodes, rule)
        where = cache.node_segments(seg_lists)
        for key, r in diff.residuals.items():
            seg = where[key]
            formula = (naive.layer0_kv(model, seg.tokens, seg.positions)
                       - naive.layer0_kv(model, seg.tokens,
                                         choices.canonical_positions(g, key[-1], rule)))
            assert np.abs(r[0].numpy() - formula).max() <= 1e-14
            if rule is choices.slot_positions:
                assert r[0].abs().max() == 0.0


@pytest.mark.parametrize("output_tokens", [0, 3])
def test_rho_one_reproduces_and_stored_bytes_match_closed_form(output_tokens):
    rule = choices.slot_positions
    g, seg_lists, model = setup(rule, output_tokens=output_tokens)
    nodes = cache.build_shared(model, seg_lists)
    diff = cache.build_differential(model, g, nodes, rule)
    b = cache.bytes_per_token(2, 2, 8, 8)
    for rho in (0.0, 0.3, 1.0):
        sparse = cache.sparse_residuals(diff, rho, 0.0, torch.int32)
        expected = naive.differential_bytes(seg_lists, b, b // 8, rho, 8, 4)
        assert cache.stored_bytes(diff, sparse, nodes) == expected
        assert cache.differential_bytes(seg_lists, b, b // 8, rho, 8, 4) == expected
    sparse = cache.sparse_residuals(diff, 1.0, 0.0, torch.int64)
    for segs in seg_lists:
        got = cache.assemble(cache.differential_parts(diff, sparse, nodes, segs))
        true = cache.assemble(cache.path_parts(nodes, segs))
        assert cache.relative_error(got, true) <= 1e-15       # base + (true - base): one rounding


def test_one_layer_decoder_needs_no_residual_under_slots():
    # all residual mass sits in layers >= 1 (spec §1.2), so one layer makes C exact at rho = 0
    rule = choices.slot_positions
    g, seg_lists, model = setup(rule, layers=1)
    nodes = cache.build_shared(model, seg_lists)
    diff = cache.build_differential(model, g, nodes, rule)
    assert all(r.abs().max() == 0.0 for r in diff.residuals.values())


def test_pruning_keeps_the_top_quantile():
    norms = np.array([0.1, 0.5, 0.2, 0.9])
    assert choices.kept_residuals(norms, 0.0).all()
    assert choices.kept_residuals(norms, 0.5).tolist() == [False, True, False, True]


def test_sparsify_keeps_floor_rho_n_largest():
    r = torch.tensor([[0.5, -3.0], [1.0, 2.0]], dtype=torch.float64)
    values, index = choices.sparsify(r, 0.6)                 # floor(2.4) = 2 entries
    assert sorted(values.abs().tolist()) == [2.0, 3.0]
    assert sorted(index.tolist()) == [1, 3]


def test_ratio_can_fall_for_nested_sets():
    # A/B is not monotone in general: a workflow sharing less than the average lowers it
    x = np.array([[1], [2], [3], [4]])
    first = [x, x.copy()]                                      # A/B = 8/4
    second = first + [np.array([[9], [8], [7], [6]])]          # A/B = 12/8
    ratio = [cache.independent_tokens(s) / cache.prefix_tokens(s) for s in (first, second)]
    assert ratio == [2.0, 1.5]
