"""The tables of lib/linear_rnns/automaton_checks.py on tiny sizes (all must pass)."""
import numpy as np

from lib.linear_rnns import automaton_checks


def test_automaton_tables_all_pass():
    rng = np.random.default_rng(0)
    auto = automaton_checks.pd_automata(2, 3, 2, 10, 5, 6, rng)
    assert (auto.dfa_agree == auto.words).all() and (auto.dwfa_value_agree == auto.dwfa_words).all()
    ow = automaton_checks.wfa_overwrites(1, 2, 5, 4, rng)
    assert (ow.agree == ow.words).all()
    sl = automaton_checks.single_layer_wfas(1, 2, 2, 5, 4, 1, rng)
    assert (sl.agree == sl.words).all() and (sl.hankel_rank <= sl.states).all()
