from lib.completep_rl import decisions


def test_ntk_bounds_shift_by_a_half_when_lazy():
    fixed, lazy = (decisions.ntk_width_bounds(v) for v in ("adam_fixed_lr", "adam_lazy"))
    assert fixed == {"dh": (0.35, 0.65), "df": (0.4, 1.2)}
    for k in fixed:
        assert [a - b for a, b in zip(fixed[k], lazy[k])] == [0.5, 0.5]


def test_short_sweeps_are_not_slope_checked():
    assert decisions.slope_checkable([32, 128, 512, 2048])
    assert not decisions.slope_checkable([32, 128])


def test_transfer_rule_is_strict():
    assert decisions.transfers_better(0.0, 0.5)
    assert not decisions.transfers_better(0.5, 0.5)


def test_pairs_are_four_apart():
    assert decisions.pairs([8, 32, 128]) == [(8, 32), (32, 128)]
    assert decisions.pairs([8, 16, 64]) == [(16, 64)]


def test_short_rl_sweeps_say_why():
    assert decisions.rl_checkable(3, 3, 30, 2) == ""
    assert "sizes" in decisions.rl_checkable(2, 3, 30, 2)
    assert "iterations" in decisions.rl_checkable(3, 3, 5, 2)
    assert "seed" in decisions.rl_checkable(3, 3, 30, 1)


def test_probe_states_lie_in_the_box():
    import torch
    probe = decisions.probe_states(1000, torch.Generator().manual_seed(0))
    assert probe.shape == (1000, 4)
    assert (probe.abs() <= torch.tensor(decisions.PROBE_HALF_WIDTHS, dtype=torch.float64)).all()


def test_consistency_eta_per_width_and_per_arm():
    import pandas as pd
    rows = [{"arm": "ntk", "N": n, "L": 2, "lr_exp": x, "seed": 0, "score": s}
            for n, x, s in ((8, -2.0, 10.0), (8, -1.0, 20.0), (32, -2.0, 50.0),
                            (32, -1.0, 30.0))]
    scores = pd.DataFrame(rows)
    assert decisions.consistency_exponent(scores, "ntk", 8, 2, "per_width") == -1.0
    assert decisions.consistency_exponent(scores, "ntk", 8, 2, "per_arm") == -2.0   # 30 vs 25
