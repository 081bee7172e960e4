"""The functional linear model baseline of spec §3 (a): linear regression on the basis scores with
a cross-validated lasso; its region is the union of the supports of the non-zero coefficients."""
from __future__ import annotations

import numpy as np
from sklearn.linear_model import LassoCV

MAX_ITER = 20000  # coordinate-descent sweeps: the default 1000 stops short on the smallest alphas


def flm_lasso(Z: np.ndarray, y: np.ndarray, Z_test: np.ndarray, cv: int, alphas: int
              ) -> tuple[np.ndarray, np.ndarray]:
    """Fit LassoCV(cv, alphas) on standardised scores (n, J); return the coefficients (J,) and the
    predictions on Z_test. The folds are contiguous (no shuffling), so the fit is deterministic.
    scikit-learn >= 1.9 takes the number of alphas as `alphas` (n_alphas was removed)."""
    fit = LassoCV(cv=cv, alphas=alphas, max_iter=MAX_ITER).fit(Z, y)
    return fit.coef_, fit.predict(Z_test)
