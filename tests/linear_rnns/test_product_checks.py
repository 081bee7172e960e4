"""The tables of lib/linear_rnns/product_checks.py on tiny sizes (all must pass)."""
from fractions import Fraction

import numpy as np

from lib.linear_rnns import product_checks


def test_imm_streams_table():
    imm = product_checks.imm_streams(12, 7, np.random.default_rng(1))
    assert imm.exact.all() and imm.positivity_agrees.all() and len(imm) == 12


def test_product_tables():
    rng = np.random.default_rng(2)
    rw = product_checks.rwkv_products([1, 4], 3, [1, 5], rng)
    assert len(rw) == 12 and rw.exact.all() and rw.positivity_agrees.all()
    assert (~rw.first_token_exact == rw.first_token_predicted_wrong).all()
    dn = product_checks.deltanet_products([1, 2], 2, rng)
    assert dn.exact.all() and (dn.steps == 694 * dn.N).all()
    tr = product_checks.transvection_maps([2, 3])
    assert len(tr) == 2 + 6 and tr.exact.all() and (tr.steps == 3).all()
    assert not product_checks.transvection_maps([2, 3], middle=Fraction(1, 4)).exact.any()


def test_rwkv_long_products_table():
    rng = np.random.default_rng(3)
    lp = product_checks.rwkv_long_products([1, 40], 3, [1, 5], rng)
    assert len(lp) == 12 and lp.exact.all() and lp.positivity_agrees.all()
    # the broken in-place program must be wrong somewhere (entries [-5, 5], 40 matrices)
    assert not lp[(lp.entries == 5) & (lp.N == 40)].in_place_exact.all()
    # and 40 matrices with entries in [-5, 5] pass int64 (bits > 63), so Python ints are needed
    assert lp[(lp.entries == 5) & (lp.N == 40)].max_bits.max() > 63
