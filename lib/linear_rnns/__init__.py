"""Merrill, Jiang, Li, Lin, Sabharwal, "Why Are Linear RNNs More Parallelizable?" (arXiv
2603.03612): the kernels and constructions of the companion (spec docs/specs/linear_rnns.md).

Kernels: `scan` (affine-pair scans, §5), `circuits` (gate DAGs and their depth), `arith` (Q -> Z
lifts, §2.6), `automata` (the reference automata), `graphs` (DGC instances and solvers).
Constructions: `constructions` (the counter RNN, §4.1), `stacks` (§4.3), `permutation_diagonal`
(PD LRNNs, §4.5), `dplr` (§4.6), `wfa` (§4.7), `landscape` (§1.1). Tables the notebooks turn
into claims: `scan_checks`, `automaton_checks`, `product_checks`, `shortcut_audit` (with `rates`
and `released`, the generator of §6.1a; `released_imm`, the released IMM-over-Z labels in
int64). Training (notebook 08): `tasks`, `models`, `train`,
`seeds`, `sweep`, `sidebyside`. Also `schema` (parameters), `decisions` (the claims' rules) and
`naive` (plain-loop references for tests and bench/).
"""
