"""The tolerances and bounds of bsnp's exact and bound checks (spec §3 NB1, A6), each with its
source. The rules deciding the statistical claims are in decisions.py, which the claims stage
alone reads."""
from __future__ import annotations

ORDER_RANGE = (1.95, 2.05)   # D1: fitted order of the FD solver (second-order stencil)
MAX_ERROR_N127 = 2e-4        # D1: max error at n = 127 (the (-2, 2) corner is the hardest)
ZERO_LAMBDA_ATOL = 1e-5      # D2: O(h^2) truncation at h = 1/129
FLOAT64_ATOL = 1e-10         # D3: two exact differentiation routes in float64
IDENTITY_MC_ATOL = 3e-3      # D4: relative error; the MC error of 1e6 draws is about 1e-3
NOISE_LEVEL_TOL = 0.02       # D5: within 2%; the std of 2,500 x 50 draws is known to ~0.3%
GRAD_COS_MIN = 0.99          # A6: cosine of closed-form and MC gradients, 256 eps samples
