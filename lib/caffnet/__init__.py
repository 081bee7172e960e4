"""CAffNet (Zhao, Lee, Jeon, Yong; arXiv 2605.24437): the constraint-affine layer, its baselines
and the three scenarios of the miniature companion (spec docs/specs/caffnet.md)."""
