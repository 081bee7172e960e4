"""The wGraph sampler, the layouts and the sort-and-LCP trie count against hand counts and the
Python-set reference."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.graphflow import choices, naive, wgraph


def small_graph(rng, output_tokens=0):
    return wgraph.sample_wgraph(rng, graph_layers=3, ops_per_layer=2, block_min=2, block_max=5,
                                system_tokens=4, vocab=32, output_tokens=output_tokens)


def test_trie_hand_example():
    # spec §5: prefixes {S}, {S,a}, {S,a,b}, {S,c} are 4 nodes (segments as one item each)
    S, a, b, c = 0, 1, 2, 3
    seqs = [np.array([[S], [a], [b]]), np.array([[S], [a]]), np.array([[S], [c]])]
    assert wgraph.distinct_prefixes(seqs) == 4
    assert naive.prefix_tokens(seqs) == 4


def test_trie_counts_token_position_pairs():
    # same tokens at other positions are other nodes: 3 + 3 - 1 shared = 5
    x = np.array([[7, 0], [8, 1], [9, 2]])
    y = np.array([[7, 0], [8, 2], [9, 3]])
    assert wgraph.distinct_prefixes([x, y]) == 5


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(0, 2), min_size=1, max_size=6), min_size=1, max_size=8))
def test_trie_matches_python_set(rows):
    seqs = [np.array([[v, i] for i, v in enumerate(r)]) for r in rows]
    assert wgraph.distinct_prefixes(seqs) == naive.prefix_tokens(seqs)


def test_weighted_prefixes_sum_weights_of_distinct_nodes():
    seqs = [np.array([[1], [2]]), np.array([[1], [3]]), np.array([[1], [2]])]
    weights = [np.array([10, 2]), np.array([10, 3]), np.array([10, 2])]
    assert wgraph.distinct_prefixes(seqs, weights) == 10 + 2 + 3


def test_blocks_open_with_their_marker_and_lengths_in_range():
    g = small_graph(np.random.default_rng(1))
    for o, block in enumerate(g.blocks):
        assert block[0] == o and 2 <= len(block) <= 5
        assert (block[1:] >= len(g.blocks)).all()


def test_workflow_sets_are_nested():
    g = small_graph(np.random.default_rng(0))
    big = wgraph.sample_workflows(np.random.default_rng(5), g, 9, 0.85)
    small = wgraph.sample_workflows(np.random.default_rng(5), g, 4, 0.85)
    assert big[:4] == small
    assert all(g.layer(a) < g.layer(b) for p in big for a, b in zip(p, p[1:]))


@pytest.mark.parametrize("rule", [choices.slot_positions, choices.contiguous_positions])
def test_layouts_give_increasing_positions(rule):
    rng = np.random.default_rng(2)
    g = small_graph(rng, output_tokens=3)
    paths = wgraph.sample_workflows(rng, g, 6, 0.7)
    for segs in wgraph.layout_all(g, paths, wgraph.sample_outputs(rng, g, paths, 32), rule):
        pos = wgraph.token_pairs(segs)[:, 1]
        assert (np.diff(pos) > 0).all()
        assert pos.max() < choices.position_table(g, rule)


def test_slot_positions_fix_each_op():
    rng = np.random.default_rng(3)
    g = small_graph(rng)
    paths = wgraph.sample_workflows(rng, g, 20, 0.6)
    seen = {}
    for segs in wgraph.layout_all(g, paths, wgraph.sample_outputs(rng, g, paths, 32),
                                  choices.slot_positions):
        for s in segs[1:]:
            assert seen.setdefault(s.code, tuple(s.positions)) == tuple(s.positions)
