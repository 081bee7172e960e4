"""Samplers: points in Omega, discs inside Omega, meso radius below the wall distance."""
import numpy as np

from lib.musa_pinn import geometry
from tests.musa_pinn.conftest import assert_close

DOM = geometry.Domain()


def test_interior_points_in_omega():
    pts = geometry.sample_interior(DOM, 501, np.random.default_rng(0), margin=0.03)
    assert pts.shape == (501, 2) and (DOM.wall_distance(pts) >= 0.03).all()


def test_boundary_points_on_walls():
    pts = geometry.sample_boundary(DOM, 777, np.random.default_rng(1))
    assert_close("d on the boundary", np.zeros(777), DOM.wall_distance(pts), 0, 1e-12)
    on_holes = np.abs(np.linalg.norm(pts[:, None] - np.array(DOM.holes), axis=-1)
                      - DOM.radius).min(-1) < 1e-12
    share = DOM.perimeters()[1:].sum() / DOM.perimeters().sum()
    assert abs(on_holes.mean() - share) < 0.06      # ~4 sd of a binomial share over 777 points


def test_wall_distance_of_known_points():
    d = DOM.wall_distance(np.array([[0.45, 0.5], [0.2, 0.5], [-0.5, 0.0]]))
    assert_close("d", [-0.17, min(0.25 - 0.17, np.hypot(0.3, 0.4) - 0.17), 0.0], d, 0, 1e-15)


def test_discs_lie_inside_omega():
    rng = np.random.default_rng(2)
    for discs in (geometry.fixed_radius_discs(DOM, 301, 0.12, rng),
                  geometry.fixed_radius_discs(DOM, 301, 0.02, rng),
                  geometry.meso_discs(DOM, 301, 4.0, 0.8, 0.01, rng),
                  geometry.random_radius_discs(DOM, 301, 0.02, 0.15, rng)):
        assert (DOM.wall_distance(discs.centres) >= discs.radii - 1e-15).all()


def test_meso_radius_is_fraction_of_wall_distance():
    d = geometry.meso_discs(DOM, 199, 4.0, 0.8, 0.01, np.random.default_rng(3))
    assert_close("r = 0.8 d", 0.8 * DOM.wall_distance(d.centres), d.radii, 1e-14, 0)
    assert d.radii.min() >= 0.01 - 1e-15


def test_meso_centres_favour_the_skeleton():
    rng = np.random.default_rng(4)
    meso = geometry.meso_discs(DOM, 2000, 4.0, 0.8, 0.01, rng)
    uniform = geometry.sample_interior(DOM, 2000, rng, margin=0.0125)
    assert DOM.wall_distance(meso.centres).mean() > 1.5 * DOM.wall_distance(uniform).mean()
