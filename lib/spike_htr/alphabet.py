"""The label alphabet (spec §1.1): the CTC blank at 0, then space and a-z (27 symbols); labels are
lower case, so recognition is case-insensitive by construction."""
from __future__ import annotations

BLANK = 0
SYMBOLS = " abcdefghijklmnopqrstuvwxyz"
CLASSES = len(SYMBOLS) + 1          # 28 logits: blank and the 27 symbols
_INDEX = {ch: i + 1 for i, ch in enumerate(SYMBOLS)}


def encode(text: str) -> list[int]:
    """Label indices 1..27 of a line, or a ValueError naming the first character outside it."""
    bad = [ch for ch in text if ch not in _INDEX]
    if bad:
        raise ValueError(f"text {text!r} has {bad[0]!r}: allowed are space and a-z")
    return [_INDEX[ch] for ch in text]


def decode(labels: list[int]) -> str:
    """The text of label indices 1..27 (no blank)."""
    return "".join(SYMBOLS[i - 1] for i in labels)
