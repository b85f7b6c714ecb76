"""Giving a process's freed memory back to the system after a request that built a whole
tournament's document (a backup's download, a restore): a 10,000-entry day's document peaks
at about 270 MB, and once freed, the C library keeps most of those pages for the process
(a web worker stayed at about 210 MB); trimmed, it is back to about 140 MB."""

from __future__ import annotations

import ctypes
import gc

# The requests that build a whole tournament's document (their paths end so).
BIG_REQUESTS = ("/backup.json", "/td/restore/")


def release_memory() -> bool:
    """Collect the garbage, then hand the free heap pages back to the system where the C
    library can (glibc's ``malloc_trim``); False where it cannot (another C library)."""
    gc.collect()
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return False
    trim(0)
    return True
