"""TINN (time-induced neural networks, Dai et al., ICML 2026): a miniature companion.

Only the fast kernels are imported by notebooks; `naive` is the reference for tests and bench/.
"""
