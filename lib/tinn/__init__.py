"""TINN (time-induced neural networks, Dai et al., ICML 2026): a miniature companion.

Notebooks compute with the fast kernels. `naive` holds their plain references, for tests and
bench/; a notebook may call it only to record a claim that a fast kernel agrees with it on a
small instance, never for a figure's or a headline's numbers (tests/test_naive_rule.py).
"""
