"""Independent certificates for the layer with w = 0 (spec §1.3 E3, §3.1): KKT residual by
non-negative least squares on the active rows, and an SLSQP Euclidean projection."""
from __future__ import annotations

import numpy as np
from scipy.optimize import linprog, minimize, nnls

ACTIVE = 1e-8   # rows with |A P - b| below this count as active in the KKT certificate


def kkt_residual(f: np.ndarray, P: np.ndarray, A: np.ndarray, b: np.ndarray) -> float:
    """min_{lam >= 0} ||A_act^T lam - (f - P)||: 0 iff P satisfies the projection's KKT
    conditions (P feasible is checked separately)."""
    act = np.abs(A @ P - b) <= ACTIVE * (1 + np.abs(b))
    if not act.any():
        return float(np.linalg.norm(f - P))
    return float(nnls(A[act].T, f - P)[1])


def slsqp_projection(f: np.ndarray, A: np.ndarray, b: np.ndarray) -> np.ndarray:
    """argmin ||y - f||^2 subject to A y <= b, by SLSQP from a feasible LP point."""
    x0 = feasible_point(A, b)
    res = minimize(lambda y: 0.5 * np.sum((y - f) ** 2), x0, jac=lambda y: y - f,
                   constraints=[{"type": "ineq", "fun": lambda y: b - A @ y,
                                 "jac": lambda y: -A}], method="SLSQP",
                   options={"ftol": 1e-15, "maxiter": 500})
    return res.x


def feasible_point(A: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A point with A y <= b (a linear programme), or ValueError saying the set is empty."""
    res = linprog(np.zeros(A.shape[1]), A_ub=A, b_ub=b, bounds=[(None, None)] * A.shape[1],
                  method="highs")
    if res.status != 0:
        raise ValueError(f"the constraint set A y <= b is empty (linprog: {res.message})")
    return res.x


def farkas_rows(A: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, float] | None:
    """If A y <= b is empty, a Farkas certificate: lam >= 0, sum lam = 1, A^T lam = 0 with
    b^T lam < 0 (the rows with lam > 0 contradict each other). None when the set is non-empty."""
    m = A.shape[0]
    res = linprog(b, A_eq=np.vstack([A.T, np.ones((1, m))]),
                  b_eq=np.r_[np.zeros(A.shape[1]), 1.0], bounds=[(0, None)] * m, method="highs")
    if res.status != 0 or res.fun >= -1e-9:
        return None
    return res.x, float(res.fun)


def check_nonempty(A: np.ndarray, b: np.ndarray) -> None:
    """Refuse, before any compute, a batch (B, m, n), (B, m) holding an empty constraint set;
    the message names the instance, the contradicting rows and by how much they contradict."""
    from lib.caffnet.projection import InfeasibleConstraints
    for i in range(A.shape[0]):
        cert = farkas_rows(A[i], b[i])
        if cert is not None:
            lam, gap = cert
            rows = np.flatnonzero(lam > 1e-9).tolist()
            raise InfeasibleConstraints(
                f"instance {i}: A y <= b has no solution: rows {rows} contradict each other "
                f"(weights {np.round(lam[rows], 4).tolist()} sum A_i to 0 but b_i to "
                f"{gap:.3g} < 0);"
                " Assumption 3.2 requires a non-empty constraint set for every input")
