"""The tables of lib/linear_rnns/shortcut_audit.py on tiny sizes (all must pass)."""
import numpy as np
import pytest

from lib.linear_rnns import shortcut_audit


def test_generator_audit_table():
    au = shortcut_audit.generator_audit([[2, 5]], 20, 0.5, np.random.default_rng(0))
    assert (au.labels_equal_bfs == au.examples).all() and au.target_is_sink.all()
    assert (au.shortcut_wilson_lo <= au.shortcut_accuracy).all()
    assert (au.shortcut_accuracy <= au.shortcut_wilson_hi).all()
    assert (au[au.released_bug].shortcut_correct == 20).all()          # the bug: always right


def test_shortcut_sensitivity_table():
    rng = np.random.default_rng(2)
    sw = shortcut_audit.shortcut_sensitivity([[1, 8], [9, 12]], 40, [0.2, 0.8], 2, rng)
    assert len(sw) == 2 * 2 * 2 and (sw.positives_correct == sw.positives).all()
    assert (sw.shortcut_correct == sw.positives_correct + sw.negatives_correct).all()
    # p and 1 - p have the same closed form; each seed reads the same stream at every p
    a, b = sw[sw.p == 0.2].reset_index(), sw[sw.p == 0.8].reset_index()
    assert (a.closed_form == b.closed_form).all()
    pooled = shortcut_audit.pool_seeds(sw, 0.99)
    assert len(pooled) == 4 and (pooled.examples == 80).all()
    assert (pooled.shortcut_family_wilson_lo <= pooled.shortcut_wilson_lo).all()


def test_closed_form_check_all_equal():
    tab = shortcut_audit.closed_form_check([0.1, 0.5], 5)
    assert len(tab) == 2 * (5 * 2 + 2) and (tab.closed_form == tab.enumerated).all()


def test_cut_margins_probabilities():
    cut = shortcut_audit.cut_margins([(0.5, 1, 100, "ours"), (0.1, 2, 100, "S1")], 10000, 0.55)
    # p = 1/2 on 1-100: 1/2 + 1/2 (1 + 2 (1 - 2^-99)) / 100 = 0.515 (to 1e-30), far below 0.55
    assert cut.closed_form[0] == pytest.approx(0.515, abs=1e-12)
    assert cut.p_sample_reaches_cut[0] < 1e-50 and 0.001 < cut.p_sample_reaches_cut[1] < 0.1


def test_chunks_keep_label_parity():
    assert shortcut_audit._chunks(10, 3, cells=8) == [2, 2, 2, 2, 2]
    assert shortcut_audit._chunks(7, 1, cells=4) == [4, 3]
    assert sum(shortcut_audit._chunks(10000, 300)) == 10000
