"""Shared test helpers: the CPU libraries pinned before any loads; one float comparison that
names what it compares; each test's changes to the process environment undone after it; one torch
thread per test, as the notebooks and the sweep engine's runs have."""
import os
import sys

from lib.companion import numerics

# Every test process takes the code path the runner gives a notebook kernel (and the kernels and
# subprocesses a test starts inherit it): a test that compares a result computed here with one
# computed in a pinned subprocess (the sweep engine's local jobs, nbval's kernels) compares one
# code path with itself on any CPU. The libraries read the settings when they load, so this
# runs before numpy or torch is imported, and refuses to go on when one already was.
_LOADED = [m for m in ("numpy", "torch", "scipy") if m in sys.modules]
if _LOADED and numerics.drift():
    raise RuntimeError(f"{', '.join(_LOADED)} loaded before tests/conftest.py could pin the CPU "
                       f"libraries ({sorted(numerics.drift())} unset): run the tests through "
                       "`make test`, or `eval \"$(python -m lib.companion.numerics)\"` first")
numerics.pin()

import numpy as np  # noqa: E402  (after the pins: OpenBLAS and numpy's loops read them on load)
import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def environment_restored():
    """Undo what a test (e.g. the runner's main, which pins the CPU libraries) wrote into
    os.environ: a later test's subprocesses would otherwise inherit it and take another CPU code
    path than the test process, whose libraries were loaded before."""
    saved = dict(os.environ)
    yield
    if os.environ != saved:
        os.environ.clear()
        os.environ.update(saved)


@pytest.fixture(autouse=True)
def one_torch_thread():
    """One torch thread while a test runs (the policy of notebooks and sweep runs: the thread
    count changes float results, and tiny ops lose to a thread pool on shared cores); the
    previous count restored after. Only where the test's modules imported torch."""
    torch = sys.modules.get("torch")
    if torch is None:
        yield
        return
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def assert_close(name: str, ref, got, *, rtol: float, atol: float) -> None:
    """Fail with the quantity's name and the worst error unless |got - ref| <= atol + rtol |ref|.

    NaN on either side always fails. Callers state why their tolerances have the size they have.
    """
    ref = np.asarray(ref, dtype=np.float64)
    got = np.asarray(got, dtype=np.float64)
    assert ref.shape == got.shape, f"{name}: shape {got.shape} != reference {ref.shape}"
    assert not np.isnan(ref).any(), f"{name}: reference has NaN"
    assert not np.isnan(got).any(), f"{name}: result has NaN"
    err = np.abs(got - ref)
    allowed = atol + rtol * np.abs(ref)
    worst = int(np.argmax(err - allowed)) if err.size else 0
    assert np.all(err <= allowed), (
        f"{name}: max abs err {err.max():.3e} (at flat index {worst}: got "
        f"{got.flat[worst]!r}, ref {ref.flat[worst]!r}); allowed atol {atol:g} + rtol {rtol:g}")


@pytest.fixture
def close():
    """The assert_close helper as a fixture, for tests that prefer injection."""
    return assert_close


@pytest.fixture(scope="session")
def project_template(tmp_path_factory):
    """The project copied, generated, committed and its data pulled, once per test session (per
    xdist worker): the tests that need a whole project take a clone of it
    (tests/project_copy.py)."""
    from lib.companion import paths
    from tests import project_copy
    if not (paths.ROOT / "dvc-remote").exists():
        pytest.skip("dvc-remote/ is missing")
    return project_copy.template(tmp_path_factory.mktemp("template") / "companion")


def pytest_addoption(parser):
    """--report-dir: the built report (results/report) that tests/report/test_browser.py opens."""
    parser.addoption("--report-dir", default=None, metavar="DIR",
                     help="a built report folder (<results>/report) to render in headless "
                          "Chromium; without it the browser test is skipped")


def pytest_collection_modifyitems(config, items):
    """The modules marked `heavy` first, each in its own order: `make unit` keeps this order
    (xdist's --no-loadscope-reorder), so its two workers do not end on a long module while the
    other waits (xdist's own reorder puts modules with few tests, which are these, last)."""
    items.sort(key=lambda item: item.get_closest_marker("heavy") is None)
