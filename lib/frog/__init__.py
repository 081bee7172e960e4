"""FROG (Huang et al., ICML 2026) as a miniature: a synthetic three-table database with planted
user targets, the transaction table as a node set or an edge set, and a learnable role gate."""
