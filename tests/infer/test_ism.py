"""Image-source IRs: the vectorised kernel against the per-image loop, the direct path, a
mirrored image, causality, the image count."""
import numpy as np
import pytest

from lib.infer import ism, naive
from tests.conftest import assert_close

ROOM, SRC = np.array([3.0, 1.6, 1.2]), np.array([0.5, 0.4, 0.9])
KW = dict(beta=0.55, fs=4000.0, c=343.0, n=1024, taps=41, bulk=20)


@pytest.mark.parametrize("order, mics", [(0, 1), (2, 3), (4, 17)], ids=lambda v: str(v))
def test_vectorised_matches_loop(order, mics):
    pts = np.random.default_rng(order).uniform([1.0, 0.3, 0.2], [2.5, 1.3, 1.0], (mics, 3))
    fast = ism.impulse_responses(ROOM, SRC, pts, order=order, **KW)
    slow = naive.impulse_responses(ROOM, SRC, pts, order=order, **KW)
    assert_close("IR", slow, fast, rtol=0, atol=1e-15)     # same sums in a different order


def test_direct_path_peak_and_amplitude():
    mic = np.array([[1.7, 0.8, 0.9]])
    h = ism.impulse_responses(ROOM, SRC, mic, order=0, **KW)[0]
    d = np.linalg.norm(mic[0] - SRC)
    t = d / 343.0 * 4000.0 + 20
    assert abs(int(np.argmax(np.abs(h))) - t) <= 0.5
    # the windowed sinc sums to 1 within its window gain (Hann tail): DC gain of the filter
    gain = ism.hann_sinc(np.arange(-20, 21) + np.rint(t) - t, 41).sum()
    assert abs(h.sum() - gain / (4 * np.pi * d)) <= 1e-12
    assert abs(gain - 1) < 0.02


def one_image(mic: np.ndarray, image: np.ndarray, gain: float) -> np.ndarray:
    """The windowed-sinc IR of one image with gain / (4 pi d), written out by hand."""
    d = np.linalg.norm(mic - image)
    t = d / 343.0 * 4000.0 + 20
    taps = np.rint(t).astype(int) + np.arange(-20, 21)
    h = np.zeros(1024)
    h[taps] = gain / (4 * np.pi * d) * ism.hann_sinc(taps - t, 41)
    return h


def test_first_order_images_are_the_six_mirrors():
    mic = np.array([[1.5, 0.8, 0.6]])
    first = (ism.impulse_responses(ROOM, SRC, mic, order=1, **KW)
             - ism.impulse_responses(ROOM, SRC, mic, order=0, **KW))[0]
    mirrors = []
    for axis in range(3):
        for wall in (0.0, ROOM[axis]):                       # reflect in x_axis = wall
            img = SRC.copy()
            img[axis] = 2 * wall - SRC[axis]
            mirrors.append(img)
    expected = sum(one_image(mic[0], img, 0.55) for img in mirrors)
    assert_close("first-order part", expected, first, rtol=0, atol=1e-15)


@pytest.mark.parametrize("order", [0, 1, 3, 10])
def test_image_count_is_the_l1_ball(order):
    assert len(ism.lattice(order)) == (2 * order + 1) * (2 * order ** 2 + 2 * order + 3) // 3


def test_irs_are_causal_and_the_window_is_checked():
    pts = np.array([[1.5, 0.8, 0.9]])
    h = ism.impulse_responses(ROOM, SRC, pts, order=6, **KW)
    assert np.all(h[:, 513:] == 0)
    with pytest.raises(ValueError, match="n/2"):
        ism.impulse_responses(ROOM, SRC, pts, order=6, **{**KW, "n": 128})
