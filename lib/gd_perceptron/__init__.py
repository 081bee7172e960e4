"""Gradient descent as a perceptron algorithm (Tyurin, arXiv 2512.11587).

Kernels behind each figure: `examples` and `equivalence` (F0, F3, notebook 01), `exact` and
`lower_bound` (F1, 02), `speedup` (F2, F7; 03 and 06), `oscillations` (F4, F5; 04),
`trajectories` (F6, 05), `real_data` (F8, 07). Shared parts: `datasets` (data set A and the
author's examples; `make_dataset` is the swap point), `models` (linear and two-layer models with
explicit gradients), `dynamics` (batched GD / generalized perceptron / Batch Perceptron), `span`
(the exact span reduction), `schema` (parameters), `decisions` (the verdicts of the statistical
and qualitative claims). `naive` holds plain-loop references for tests and bench/ (a notebook
may call one only to record an agreement claim on a small instance; tests/test_naive_rule.py).
"""
