"""What the calpro notebooks fix where the spec is open (spec §7), and the tolerances of their
exact and bound checks. The rules deciding the statistical and qualitative claims are in
decisions.py, which the claims stage alone reads."""
from __future__ import annotations

PRIOR_ARM = "p1"             # the prior-aware arm of the C1, C2, C5 claims (spec §1.4 P1)
BOUND_SE = 3.0               # bound checks: gap within 3 SE (spec §3: "3 SE" throughout)
PIVOT_ATOL = 1e-6            # bound.pivotal_oracle: quadrature and Brent's method (spec §3)
NIG_ATOL = 1e-9              # nig.student_t: float64 log-gamma and logs of O(10) terms
CLOSED_FORM_ATOL = 1e-12     # tv/kl.closed_form: float64 sums and logs of a few terms
KL_ATOL = 1e-9               # pacbayes.kl_closed_form: float64 sums of a few hundred terms
