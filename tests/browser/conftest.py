"""Browser tests: Debian's Chromium driven through Playwright's sync API.

Every test here is marked ``browser``. When /usr/bin/chromium is missing the tests skip with
the reason, unless REQUIRE_BROWSER=1 (then they fail). Use ``page`` (a fresh context at
1920x1080; ``page.set_viewport_size`` for others) against ``live_server.url``, and
``screenshot(page, name)`` to save artifacts/screenshots/<name>.png (gitignored). Tests that
use the live server need ``@pytest.mark.django_db(transaction=True)``.
"""

from __future__ import annotations

import os
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.core.signals import request_finished, request_started

# Playwright's sync API runs an event loop in this thread; Django's ORM would refuse to run
# next to it without this (the ORM calls here are synchronous and safe).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
REQUIRE_BROWSER = os.environ.get("REQUIRE_BROWSER") == "1"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--autoplay-policy=no-user-gesture-required",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
RESOLUTIONS = {"1366x768": (1366, 768), "1920x1080": (1920, 1080), "3840x2160": (3840, 2160)}


class _InFlight:
    """Requests the live server is still handling. A page's panels may have refreshes in
    flight when its test ends; the database flush of a transactional test must wait for them,
    or on PostgreSQL it deadlocks with them (and the next test finds the old rows)."""

    def __init__(self) -> None:
        self.count = 0
        self.lock = threading.Lock()
        self.test_thread: int | None = None

    def watch(self) -> None:
        """From now on, count the live server's requests: not those the test itself makes in
        its own thread (the test client's, schemathesis's), which may never be closed."""
        with self.lock:
            self.count = 0
            self.test_thread = threading.get_ident()

    def _counts(self) -> bool:
        return self.test_thread is not None and threading.get_ident() != self.test_thread

    def started(self, **kwargs) -> None:
        if self._counts():
            with self.lock:
                self.count += 1

    def finished(self, **kwargs) -> None:
        if self._counts():
            with self.lock:
                self.count = max(0, self.count - 1)

    def wait_idle(self, timeout: float = 10.0, quiet: float = 0.2) -> None:
        """Return once no request has been in flight for ``quiet`` seconds (a request the
        browser sent just before it closed may not have reached the server yet)."""
        deadline = time.monotonic() + timeout
        idle_since = None
        while time.monotonic() < deadline:
            if self.count == 0:
                idle_since = idle_since or time.monotonic()
                if time.monotonic() - idle_since >= quiet:
                    return
            else:
                idle_since = None
            time.sleep(0.02)
        warnings.warn(f"the live server still had {self.count} request(s) in flight", stacklevel=2)


IN_FLIGHT = _InFlight()
request_started.connect(IN_FLIGHT.started, dispatch_uid="browser-in-flight-start")
request_finished.connect(IN_FLIGHT.finished, dispatch_uid="browser-in-flight-end")


def _missing_reason() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"Chromium is not installed at {CHROMIUM}"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright Python package is not installed"
    return None


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here):
            item.add_marker(pytest.mark.browser)


def pytest_runtest_setup(item):
    if item.get_closest_marker("browser") is None:
        return
    reason = _missing_reason()
    if reason:
        if REQUIRE_BROWSER:
            pytest.fail(f"REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)


@pytest.fixture(scope="session")
def browser() -> Iterator:
    reason = _missing_reason()
    if reason:
        if REQUIRE_BROWSER:
            pytest.fail(f"REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    try:
        yield chromium
    finally:
        chromium.close()
        pw.stop()


@pytest.fixture
def page(browser) -> Iterator:
    IN_FLIGHT.watch()
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.on(
        "console",
        lambda msg: errors.append(msg.text) if msg.type == "error" and "CSP" in msg.text else None,
    )
    pg.js_errors = errors  # a test may assert the page ran without script or CSP errors
    try:
        yield pg
    finally:
        context.close()
        IN_FLIGHT.wait_idle()


@pytest.fixture
def live_url(live_server) -> str:
    """The live server's base URL without the trailing slash."""
    return live_server.url.rstrip("/")


@pytest.fixture
def screenshot() -> Callable:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(pg, name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        pg.screenshot(path=str(path))
        return path

    return take
