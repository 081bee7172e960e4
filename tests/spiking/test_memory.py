"""lib/spiking/memory.py: glibc takes the settings; elsewhere it is a no-op that says so."""
import platform

from lib.spiking import memory


def test_reuse_freed_memory_reports_whether_glibc_took_it():
    took = memory.reuse_freed_memory()
    assert isinstance(took, bool)
    if platform.system() == "Linux" and platform.libc_ver()[0] == "glibc":
        assert took
