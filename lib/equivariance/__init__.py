"""Companion library for Shahverdi, Marchetti, Bökman, Kohn, "Identifiable Equivariant Networks
are Layerwise Equivariant" (arXiv 2601.21645): groups, MLP latent symmetries, the proof
construction of spec §1.7, identifiability diagnostics and the Lenc–Vedaldi metric."""
