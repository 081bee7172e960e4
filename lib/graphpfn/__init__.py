"""GraphPFN (Eremeev et al., ICML 2026) as a miniature: the official synthetic-graph prior
reimplemented in numpy and checked exactly, and a tiny PFN with zero-initialised neighbourhood
attention trained on it against the same PFN without (spec docs/specs/graphpfn.md)."""
