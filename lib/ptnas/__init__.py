"""pTNAS (Xing, Cai, Luo, Ooi, Pei; arXiv 2403.10318): pTProxy as the released code computes it,
a mini NAS-bench of MLPs trained as one masked batched network, proxy rankings and the anytime
filter-and-refine search of the miniature companion (spec docs/specs/ptnas.md)."""
