"""Per-length and per-step accuracy counts (the authors' eval_by_T / eval_by_t)."""
import numpy as np
import torch

from lib.linear_rnns import curves, tasks


def _split(x, y, mask, length):
    return tasks.Split(x=np.array(x), y=np.array(y), mask=np.array(mask, dtype=bool),
                       length=np.array(length))


def test_sizes_decode_dgc_target_id():
    rng = np.random.default_rng(0)
    s = tasks.dgc_paper(12, 2, 19, rng)
    # the target id is the last field of the string: re-serialise from the characters
    strings = ["".join(tasks.DGC_CHARS[c - 1] for c in row[:n]) for row, n in zip(s.x, s.length)]
    expected = [int(st.rsplit(";", 1)[1], 2) for st in strings]
    assert curves.sizes("dgc_paper", s).tolist() == expected
    assert min(expected) >= 2 and max(expected) <= 19


def test_sizes_are_lengths_elsewhere():
    s = tasks.parity(5, 3, 9, np.random.default_rng(1))
    assert curves.sizes("parity", s).tolist() == s.length.tolist()


def test_by_length_and_by_step_hand_counts():
    # two bins; lengths 1, 2, 2 and 3; per-step targets everywhere
    a = _split([[1, 0], [1, 1]], [[0, 0], [1, 1]], [[1, 0], [1, 1]], [1, 2])
    b = _split([[1, 1, 0], [1, 1, 1]], [[0, 0, 0], [0, 0, 0]], [[1, 1, 0], [1, 1, 1]], [2, 3])
    hits = [np.array([[True, False], [False, True]]),
            np.array([[True, False, True], [True, True, False]])]
    L = curves.by_length("parity", hits, [a, b])
    assert L.to_dict("list") == {"size": [1, 2, 3], "correct": [1, 1, 0], "n": [1, 2, 1]}
    S = curves.by_step(hits, [a, b])
    # t = 1: hits T, F, T, T; t = 2: T, F, T; t = 3: F
    assert S.to_dict("list") == {"t": [1, 2, 3], "correct": [3, 2, 0], "n": [4, 3, 1]}


class _Echo(torch.nn.Module):
    """Predicts class x - 1 at every position (tokens 1, 2 -> classes 0, 1)."""

    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.zeros(1))

    def forward(self, x):
        return torch.nn.functional.one_hot((x - 1).clamp(min=0), 2).float() + 0 * self.w


def test_correct_reads_every_position():
    s = _split([[1, 2, 2], [2, 1, 0]], [[0, 1, 0], [1, 1, 0]], [[1, 1, 1], [1, 1, 0]], [3, 2])
    got = curves.correct(_Echo(), s, chunk=1).tolist()
    assert got == [[True, True, False], [True, False, False]]


def test_finish_adds_wilson_bounds_around_the_rate():
    df = curves.stack([curves.by_step([np.ones((2, 2), bool)], [_split([[1, 1]] * 2, [[0, 0]] * 2,
                                                                         [[1, 1]] * 2, [2, 2])])
                         .assign(task="parity", family="rnn", seed=0)], "t")
    assert (df.accuracy == 1.0).all() and (df.accuracy_wilson_lo < 1).all()
    assert (df.accuracy_wilson_hi == 1).all()
    assert curves.stack([], "t").empty


def test_band_is_the_envelope_of_seed_intervals():
    df = curves.stack([curves._counts(np.array([1, 1, 2]), np.array([1, 0, 1]), "t")
                         .assign(task="x", family="f", seed=s) for s in (0, 1)], "t")
    df.loc[df.seed == 1, "accuracy_wilson_lo"] = 0.0
    b = curves.band(df, "t")
    assert b.lo.tolist() == [0.0, 0.0] and b.accuracy.tolist() == [0.5, 1.0]


def test_per_bin_sums_sizes_inside_each_bin():
    df = curves._counts(np.array([1, 2, 2, 5]), np.array([1, 1, 0, 1]), "size").assign(
        task="parity", family="rnn", seed=0)
    got = curves.per_bin(df, {"parity": [[1, 2], [3, 5]]})
    want = {"bin_index": [0, 1], "correct": [2, 1], "n": [3, 1]}
    assert got[["bin_index", "correct", "n"]].to_dict("list") == want


def test_step_majority_counts_per_position():
    s = _split([[1, 1], [1, 1], [1, 0]], [[0, 1], [0, 0], [1, 0]], [[1, 1], [1, 1], [1, 0]],
               [2, 2, 1])
    got = curves.step_majority([s])
    assert got.t.tolist() == [1, 2] and got.majority.tolist() == [2 / 3, 1 / 2]
