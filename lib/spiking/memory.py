"""CPU memory reuse for simulations that make many short-lived tensors of a few MB (one per
time step): glibc gives such blocks back to the kernel on free and faults them in again on the
next allocation, which cost as much as the arithmetic in the ann2snn_cka evaluation (1 000
images at T = 64: about 11 s with 2 M page faults by default, 7.5 s with 0.4 M after this).
Keeping freed memory in the process removes most of that."""
from __future__ import annotations

import ctypes
import ctypes.util

M_TOP_PAD, M_MMAP_THRESHOLD = -2, -3             # glibc's mallopt parameters
MMAP_THRESHOLD = 32 << 20                        # the largest glibc accepts
TOP_PAD = 256 << 20


def reuse_freed_memory() -> bool:
    """Serve blocks below 32 MB from the heap and grow it 256 MB at a time (a larger trim
    threshold measured no better); True where glibc's mallopt took both, False elsewhere (no
    change)."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
    except (OSError, AttributeError, TypeError):
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(M_TOP_PAD, TOP_PAD))
