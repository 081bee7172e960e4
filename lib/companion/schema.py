"""Field types every paper's schema uses, declared once so that a range means the same everywhere.

A paper whose field needs another range declares its own alias under its own name.

PosInt and Pos carry no upper bound on purpose: what is too big depends on the field (a width of
10^4 is a 0.8 GB matrix, a step count of 10^6 is a few minutes), so each field that uses them
declares its own ceiling with its reason, `param(default, why, le=...)`, and elements of lists
use a bounded Annotated type (tests/test_param_bounds.py requires a finite range of every number).
A ceiling here would not be a backstop but an override: pydantic keeps the type's `le` over the
field's, so every per-field bound would silently loosen to it."""
from __future__ import annotations

from typing import Annotated

from pydantic import Field

PosInt = Annotated[int, Field(ge=1)]                 # a count of at least one
Pos = Annotated[float, Field(gt=0.0)]                # a strictly positive real
Unit = Annotated[float, Field(gt=0.0, lt=1.0)]       # a fraction in the open interval (0, 1)
Width = Annotated[int, Field(ge=1, le=4096)]         # a layer width, one to 4096 units
