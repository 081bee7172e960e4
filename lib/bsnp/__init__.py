"""Bias-Spectrum Neural Processes (bsnp): the 1-D parametric Poisson miniature (spec bsnp.md)."""
