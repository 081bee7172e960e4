"""sBayFDNN (Zhu, Li, Ma, Wu; arXiv 2602.20651): B-spline functional embedding, group
spike-and-slab first layer, plug-in inclusion rule, region recovery against baselines, in a
simulated miniature (spec docs/specs/sbayfdnn.md)."""
