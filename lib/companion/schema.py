"""Field types every paper's schema uses, declared once so that a range means the same everywhere.

A paper whose field needs another range declares its own alias under its own name."""
from __future__ import annotations

from typing import Annotated

from pydantic import Field

PosInt = Annotated[int, Field(ge=1)]                 # a count of at least one
Pos = Annotated[float, Field(gt=0.0)]                # a strictly positive real
Unit = Annotated[float, Field(gt=0.0, lt=1.0)]       # a fraction in the open interval (0, 1)
Width = Annotated[int, Field(ge=1, le=4096)]         # a layer width, one to 4096 units
