"""ttfs_snn: a miniature companion to Che, Fang, Ma, Huang, Xue, Yuan, Masquelier, Tian,
*Efficiently Training Time-to-First-Spike Spiking Neural Networks from Scratch* (arXiv 2410.23619).

The TTFS neuron, its surrogate gradient, pooling on spike tensors, the initialisations and the
decoders are our own reconstruction (spec `ttfs_snn.md` §1); `naive.py` holds the plain-loop
references that tests and bench/ check them against.
"""
