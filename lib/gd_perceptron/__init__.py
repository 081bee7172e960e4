"""Gradient descent as a perceptron algorithm (Tyurin, arXiv 2512.11587).

Modules: `datasets` (data set A and the author's small examples), `models` (linear and two-layer
models with explicit gradients), `dynamics` (full-dimensional GD / generalized perceptron in torch),
`span` (the exact span-reduced engine for large d), `exact` (rational perceptron counts),
`real_data` (the Fashion-MNIST protocol of F8). `naive` holds plain-loop references for tests.
"""
