"""Spike-HTR (Liang et al., ICML 2026) as a miniature: a spiking CTC line recognizer at T = 2 on
synthetic font lines, the InkCoder coarse-to-fine stream, the CTC-guided length reducer."""
