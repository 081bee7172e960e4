"""lib/caffnet/problems.py: the pwc bounds, the opt instance stream and the reference solver."""
import numpy as np
from scipy.optimize import minimize

from lib.caffnet import problems


def test_pwc_bounds_feasible():
    # spec §5 test 11: max l <= f* <= min u on a 4001-point grid (gap 0 on the equality region)
    x = np.linspace(-2, 2, 4001)
    B, t = problems.pwc_bounds(x), problems.pwc_target(x)
    assert np.all(B[:, :2].max(1) <= t + 1e-12) and np.all(t <= B[:, 2:].min(1) + 1e-12)
    assert np.all(problems.pwc_violation(t, B) <= 1e-12)


def test_pwc_table_transcription():
    # hand-evaluated rows of the spec §1.5 table: x = -1.5 (s = sin(-pi/4)), x = -0.5, x = 2
    s = np.sin(-np.pi / 4)
    B = problems.pwc_bounds(np.array([-1.5, -0.5, 2.0]))
    np.testing.assert_allclose(B[0], [5 * s**2 - 3, 5 * s**8 - 2, -3 * s + 0.2, -3 * s**3 + 1],
                               atol=1e-15)
    np.testing.assert_array_equal(B[1], [-2, -3, -2, 2])
    np.testing.assert_allclose(B[2], [3 / 8 - 2.5, 1.5 / 8 - 16 / 9, 2, 2.5], atol=1e-15)


def test_opt_instance_stream():
    # spec §5 test 12 (PROTO values, 3 decimals): pins the legacy stream's call order
    inst = problems.make_instance(1)
    np.testing.assert_allclose(np.diag(inst.Q), [0.417, 0.720, 0.000, 0.302, 0.147], atol=1e-3)
    np.testing.assert_allclose(inst.h, [3.650, 4.321, 1.078, 2.659, 0.931], atol=1e-3)
    # C^+ x is feasible on the cube: sum_j |(G C^+)_ij| = h_i bounds (G C^+ x)_i for |x_j| <= 1
    x = np.array(np.meshgrid(*[[-1, 1]] * 3)).reshape(3, -1).T
    assert np.all(x @ np.linalg.pinv(inst.C).T @ inst.G.T <= inst.h + 1e-12)


def test_reference_solver():
    # spec §5 test 14: the null-space solver against a direct SLSQP on the full problem
    inst = problems.make_instance(1)
    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, (8, 3))
    y = problems.reference_solve(inst, x, 8, rng)   # the default profile's 8 starts
    ineq, eq = problems.residuals(inst, y, x)
    assert ineq.max() <= 1e-9 and eq.max() <= 1e-12
    for i in range(8):
        best = np.inf
        for y0 in [np.linalg.pinv(inst.C) @ x[i], *rng.standard_normal((3, 5))]:
            r = minimize(lambda v: problems.objective(inst, v[None])[0], y0, method="SLSQP",
                         constraints=[{"type": "ineq", "fun": lambda v: inst.h - inst.G @ v},
                                      {"type": "eq", "fun": lambda v, xi=x[i]: inst.C @ v - xi}],
                         options={"ftol": 1e-13, "maxiter": 500})
            if r.success:
                best = min(best, r.fun)
        assert problems.objective(inst, y[i:i + 1])[0] <= best + 1e-7
