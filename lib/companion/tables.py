"""Tables as a stage publishes them: every float at the precision the ledger prints (6 significant
digits), so that outputs do not change with the last bits of a BLAS kernel.

A float computed by another OpenBLAS core type (or another CPU) can differ in its 16th digit;
written in full, every CSV holding one differs, and DVC sees a changed output where no result
changed. The runner rewrites each CSV its notebook staged before swapping it in; integers and
text are kept as written, and a float keeps a decimal point or an exponent (so a column of
floats still reads back as floats).
"""
from __future__ import annotations

import csv
import io
import re
from pathlib import Path

DIGITS = 6                                  # claims.py prints floats with :.6g
FLOAT = re.compile(r"^[-+]?(?:\d+\.\d*|\.\d+|\d+(?:\.\d*)?[eE][-+]?\d+)$")


def round_field(field: str, digits: int = DIGITS) -> str:
    """A CSV field rounded to `digits` significant digits when it is a float literal."""
    if not FLOAT.match(field):
        return field
    text = f"{float(field):.{digits}g}"
    return text if any(c in text for c in ".eEn") else text + ".0"


def round_text(text: str, digits: int = DIGITS) -> str:
    """A whole CSV with its float fields rounded (quoting and line ends as pandas writes them)."""
    rows = csv.reader(io.StringIO(text, newline=""))
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\n")
    for row in rows:
        writer.writerow([round_field(f, digits) for f in row])
    return out.getvalue()


def round_folder(folder: Path, digits: int = DIGITS) -> list[Path]:
    """Rewrite every CSV under `folder` with rounded floats; return the files that changed."""
    changed = []
    for path in sorted(folder.rglob("*.csv")) if folder.exists() else []:
        text = path.read_text(encoding="utf-8")
        rounded = round_text(text, digits)
        if rounded != text:
            path.write_text(rounded, encoding="utf-8")
            changed.append(path)
    return changed
