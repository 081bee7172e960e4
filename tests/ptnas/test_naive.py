"""lib/ptnas/naive.py: the references on cases small enough to work by hand."""
import numpy as np

from lib.ptnas import naive


def test_closed_form_one_layer_by_hand():
    # d_in 1, one hidden unit with |w| = 2, |b| = 1, head |v| = 3: a = 3, dR/da = 3, V = 9 per row;
    # one layer: w_1 = 1, score = n_1 * sum V = 1 * 2 rows * 9
    w = [(np.array([[-2.0]]), np.array([1.0])), (np.array([[3.0]]), np.array([0.0]))]
    assert naive.ptproxy_closed_form(w, np.full((2, 1), 1e-5), 1e-5) == 18.0


def test_kendall_perfect_and_reversed():
    assert naive.kendall_tau([1, 2, 3], [4, 5, 6]) == 1.0
    assert naive.kendall_tau([1, 2, 3], [6, 5, 4]) == -1.0
