"""CPU memory reuse for simulations that make many short-lived tensors of a few MB (one per
time step): glibc gives such blocks back to the kernel on free and faults them in again on the
next allocation, which cost more than twice the arithmetic in the ann2snn_cka evaluation
(bench/ann2snn_cka_forward.py). Keeping freed memory in the process removes that."""
from __future__ import annotations

import ctypes
import ctypes.util

M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3      # glibc's mallopt parameters
MMAP_THRESHOLD = 32 << 20                        # the largest glibc accepts
TRIM_THRESHOLD = 1 << 30


def reuse_freed_memory() -> bool:
    """Serve blocks below 32 MB from the heap and return freed heap memory to the kernel only
    above 1 GiB; True where glibc's mallopt took both, False elsewhere (no change)."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
    except (OSError, AttributeError, TypeError):
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and \
        bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
