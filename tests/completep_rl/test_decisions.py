from lib.completep_rl import decisions


def test_ntk_bounds_shift_by_a_half_when_lazy():
    fixed, lazy = (decisions.ntk_width_bounds(v) for v in ("adam_fixed_lr", "adam_lazy"))
    assert fixed == {"dh": (0.35, 0.65), "df": (0.4, 1.2)}
    for k in fixed:
        assert [a - b for a, b in zip(fixed[k], lazy[k])] == [0.5, 0.5]


def test_within_both_ways():
    assert decisions.within(0.5, (0.35, 0.65)) and not decisions.within(0.3, (0.35, 0.65))


def test_short_sweeps_are_not_slope_checked():
    assert decisions.slope_checkable([32, 128, 512, 2048])
    assert not decisions.slope_checkable([32, 128])
