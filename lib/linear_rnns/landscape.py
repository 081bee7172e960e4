"""The complexity landscape of spec §1.1: the class chain and where each model class sits.

Constants only (transcribed from the spec's landscape table, §1.1 and §2.6); the notebook draws
them. `lower` is the hardest class the model provably solves a complete problem of, `upper` the
class it provably lies in (None = unknown / not stated).
"""
from __future__ import annotations

CHAIN = ("TC0", "NC1", "PNC1", "L", "NL", "AC1", "NC2", "NC", "P")
DEPTH = {"TC0": "O(1) threshold", "NC1": "O(log n)", "PNC1": "O(log n log* n) Boolean",
         "L": "O(log^2 n)", "NL": "O(log^2 n)", "AC1": "O(log n) unbounded fan-in",
         "NC2": "O(log^2 n)", "NC": "polylog", "P": "poly (not polylog unless NC = P)"}

# (model class, lower bound class or None, upper bound class, automaton model, source)
MODELS = (
    ("Transformer (log precision)", None, "TC0", "-", "prior work"),
    ("Diagonal / LTI LRNN", None, "TC0", "-", "Illusion of State (prior work)"),
    ("PD LRNN", "NC1", "NC1", "deterministic WFA", "Thm 7, Thm 8"),
    ("DPLR LRNN (RWKV-7, DeltaNet)", "PNC1", "PNC1", "WFA over Q", "Thm 5, Thm 6"),
    ("General LRNN over Q", None, "PNC1", "WFA (one layer)", "Thm 3"),
    ("ReLU RNN, log precision", "L", "L", "counter machine", "Thm 2, Prop 1"),
    ("ReLU RNN, poly precision", "P", "P", "multi-stack machine", "Thm 1, Prop 1"),
)
