import numpy as np
import pytest

from lib.completep_rl import coord, decisions, naive


@pytest.mark.parametrize("kind", ["completep", "ntk"])
def test_one_step_equals_the_torch_adam_loop(kind):
    x, y = coord.batch(6, 4, 0)
    fast = coord.one_step(kind, 12, 2, x, y, 1e-3, 1e-8, 2, 3, "adam_fixed_lr")
    slow = naive.one_step_loop(kind, 12, 2, x, y, 1e-3, 1e-8, 2, 3, "adam_fixed_lr")
    for k in ("df", "dh"):
        np.testing.assert_allclose(fast[k], slow[k], rtol=1e-9)


def test_slope_recovers_a_power():
    assert coord.slope([1, 2, 4, 8], [3 * s ** 0.7 for s in (1, 2, 4, 8)]) == pytest.approx(0.7)


def test_coord_check_slopes_on_a_small_grid():
    """The mechanism in CI: CompleteP flat, NTK rising in width and depth (spec §5)."""
    x, y = coord.batch(64, 4, 0)
    widths, depths = [32, 128, 512], [1, 4, 16]

    def sweep(kind, sizes, by_width):
        return [coord.one_step(kind, s if by_width else 32, 2 if by_width else s, x, y, 1e-3,
                               1e-8, 1, 0, "adam_fixed_lr")["df"].mean() for s in sizes]
    assert abs(coord.slope(widths, sweep("completep", widths, True))) <= decisions.CP_SLOPE_MAX
    assert coord.slope(widths, sweep("ntk", widths, True)) >= 0.4
    assert abs(coord.slope(depths, sweep("completep", depths, False))) <= decisions.CP_SLOPE_MAX
    assert coord.slope(depths, sweep("ntk", depths, False)) > decisions.NTK_DEPTH_SLOPE_MIN
