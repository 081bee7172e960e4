"""F8 reporting: the two-layer 'measured' text is built from the runs, never from the cap."""
import numpy as np

from lib.gd_perceptron.real_data import History, Method, first_solved


def _history(accuracy: list[list[float]], solved_at: list[int]) -> History:
    """A hand-built History of len(solved_at) methods; loss and grad norm are unused here."""
    acc = np.array(accuracy)
    methods = [Method(f"m{r}", "gd", 1.0) for r in range(acc.shape[1])]
    return History(methods, acc, np.zeros_like(acc), np.zeros_like(acc), np.array(solved_at))


def test_first_solved_names_the_earliest_method():
    runs = [_history([[0.5, 0.5], [1.0, 0.9], [1.0, 1.0]], [1, 2]),
            _history([[0.5], [1.0]], [1])]
    assert first_solved(runs) == "1 (m0)"


def test_first_solved_reports_steps_run_when_never_solved():
    # three rows are steps 0, 1, 2: two steps were run, whatever cap was asked for
    runs = [_history([[0.5, 0.6], [0.7, 0.8], [0.9, 0.95]], [-1, -1])]
    assert first_solved(runs) == "never at accuracy 1.0 in 2 steps (best accuracy 0.9500)"
