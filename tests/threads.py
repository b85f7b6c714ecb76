"""Real threads released together, for the PostgreSQL concurrency tests (STYLE: concurrency is
tested with threads on committed transactions)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connections


def at_once(n: int, fn: Callable[[], Any], timeout: float = 120) -> list[Any]:
    """Run ``fn`` in ``n`` threads released by one barrier; what each returned, or the
    exception it raised (as the object, for the test to assert on)."""
    barrier = threading.Barrier(n)
    out: list[Any] = []

    def run() -> None:
        try:
            barrier.wait(30)
            out.append(fn())
        except BaseException as exc:  # noqa: BLE001 — returned to the test
            out.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(n)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout)
    assert len(out) == n, f"{n - len(out)} of {n} threads did not finish in {timeout} s"
    return out
