"""GraphFlow (Li et al., ICML 2026) as a miniature: exact KV-cache byte accounting for agent
workflows that share prefixes on a synthetic wGraph, and a tiny float64 decoder on which shared
caches are checked against a full recompute (spec docs/specs/graphflow.md)."""
