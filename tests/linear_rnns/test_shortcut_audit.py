"""The batched check tables of lib/linear_rnns/checks.py on tiny sizes (all must pass)."""
from fractions import Fraction

import numpy as np
import pytest

from lib.linear_rnns import checks, scan


def test_check_tables_all_pass():
    rng = np.random.default_rng(0)
    ex = checks.exact_scans(scan.KINDS, [1, 3], [1, 2], 2, rng)
    assert ex[["hillis_steele", "blelloch", "tree"]].all().all() and len(ex) == 12
    cnt = checks.scan_counts([1, 5], rng)
    assert cnt.hs_rounds.tolist() == [0, 3]                        # ceil(log2 5) = 3
    dag = checks.circuit_depths([1, 3], [1])
    assert (dag.depth == dag.formula).all()
    lift = checks.lift_checks(3, 3, 2, rng)
    assert lift.unrolled_ok.all() and lift.lift_ok.all()
    auto = checks.pd_automata(2, 3, 2, 10, 5, 6, rng)
    assert (auto.dfa_agree == auto.words).all() and (auto.dwfa_value_agree == auto.dwfa_words).all()
    ow = checks.wfa_overwrites(1, 2, 5, 4, rng)
    assert (ow.agree == ow.words).all()
    sl = checks.single_layer_wfas(1, 2, 2, 5, 4, 1, rng)
    assert (sl.agree == sl.words).all() and (sl.hankel_rank <= sl.states).all()
    au = checks.generator_audit([[2, 5]], 20, 0.5, rng)
    assert (au.labels_equal_bfs == au.examples).all() and au.target_is_sink.all()
    assert (au.shortcut_wilson_lo <= au.shortcut_accuracy).all()
    assert (au.shortcut_accuracy <= au.shortcut_wilson_hi).all()
    assert (au[au.released_bug].shortcut_correct == 20).all()          # the bug: always right


def test_imm_streams_table():
    imm = checks.imm_streams(12, 7, np.random.default_rng(1))
    assert imm.exact.all() and imm.positivity_agrees.all() and len(imm) == 12


def test_shortcut_sensitivity_table():
    rng = np.random.default_rng(2)
    sw = checks.shortcut_sensitivity([[1, 8], [9, 12]], 40, [0.2, 0.8], 2, rng)
    assert len(sw) == 2 * 2 * 2 and (sw.positives_correct == sw.positives).all()
    assert (sw.shortcut_correct == sw.positives_correct + sw.negatives_correct).all()
    # p and 1 - p have the same closed form; each seed reads the same stream at every p
    a, b = sw[sw.p == 0.2].reset_index(), sw[sw.p == 0.8].reset_index()
    assert (a.closed_form == b.closed_form).all()
    pooled = checks.pool_seeds(sw, 0.99)
    assert len(pooled) == 4 and (pooled.examples == 80).all()
    assert (pooled.shortcut_family_wilson_lo <= pooled.shortcut_wilson_lo).all()


def test_closed_form_check_all_equal():
    tab = checks.closed_form_check([0.1, 0.5], 5)
    assert len(tab) == 2 * (5 * 2 + 2) and (tab.closed_form == tab.enumerated).all()


def test_cut_margins_probabilities():
    cut = checks.cut_margins([(0.5, 1, 100, "ours"), (0.1, 2, 100, "S1")], 10000, 0.55)
    # p = 1/2 on 1-100: 1/2 + 1/2 (1 + 2 (1 - 2^-99)) / 100 = 0.515 (to 1e-30), far below 0.55
    assert cut.closed_form[0] == pytest.approx(0.515, abs=1e-12)
    assert cut.p_sample_reaches_cut[0] < 1e-50 and 0.001 < cut.p_sample_reaches_cut[1] < 0.1


def test_chunks_keep_label_parity():
    assert checks._chunks(10, 3, cells=8) == [2, 2, 2, 2, 2]
    assert checks._chunks(7, 1, cells=4) == [4, 3] and sum(checks._chunks(10000, 300)) == 10000


def test_product_tables():
    rng = np.random.default_rng(2)
    rw = checks.rwkv_products([1, 4], 3, [1, 5], rng)
    assert len(rw) == 12 and rw.exact.all() and rw.positivity_agrees.all()
    assert (~rw.first_token_exact == rw.first_token_predicted_wrong).all()
    dn = checks.deltanet_products([1, 2], 2, rng)
    assert dn.exact.all() and (dn.steps == 694 * dn.N).all()
    tr = checks.transvection_maps([2, 3])
    assert len(tr) == 2 + 6 and tr.exact.all() and (tr.steps == 3).all()
    assert not checks.transvection_maps([2, 3], middle=Fraction(1, 4)).exact.any()
