"""Issue 29: `make run` serves with gunicorn and WhiteNoise as a home game's production
(TOURNEY_HOME_GAME=1): no debug pages, the static files served, the secret key of var/."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_procfile_serves_with_gunicorn_not_the_development_server():
    web = next(
        line for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith("web:")
    )
    assert "gunicorn" in web and "runserver" not in web
    assert "TOURNEY_HOME_GAME=1" in (ROOT / "Makefile").read_text()


def test_a_home_game_is_served_by_gunicorn_without_debug_pages(tmp_path):
    port = _free_port()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))},
        "TOURNEY_HOME_GAME": "1",
        "TOURNEY_VAR_DIR": str(tmp_path),
        "PORT": str(port),
        "WEB_THREADS": "2",
    }
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=120,
    )
    gunicorn = Path(sys.executable).parent / "gunicorn"
    web = subprocess.Popen(
        [str(gunicorn), "--config", "gunicorn.conf.py"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                login = requests.get(f"{base}/login/", timeout=30)
                break
            except requests.ConnectionError:
                assert time.monotonic() < deadline and web.poll() is None, "gunicorn did not start"
                time.sleep(0.2)
        assert login.status_code == 200
        assert "gunicorn" in (login.headers.get("Server") or "")
        script = requests.get(f"{base}/static/js/display.js", timeout=5)
        assert script.status_code == 200
        assert "javascript" in script.headers["Content-Type"]
        assert "max-age" in script.headers.get("Cache-Control", "")  # WhiteNoise, not Django
        missing = requests.get(f"{base}/no-such-page/", timeout=5)
        assert missing.status_code == 404
        assert "Traceback" not in missing.text and "URLconf" not in missing.text  # no debug page
        assert (tmp_path / "secret_key").exists()
    finally:
        web.terminate()
        web.wait(timeout=15)


def test_a_worker_gives_back_the_memory_of_a_backup_and_only_after_one(monkeypatch):
    """gunicorn.conf.py's post_request: after a backup's download or a restore (a whole
    tournament's document built, ~270 MB at 10,000 entries) the freed memory goes back to
    the system; the polls and pages do not pay for it."""
    import runpy

    from tourney.core import memory

    calls = []
    monkeypatch.setattr(memory, "release_memory", lambda: calls.append(1) or True)
    conf = runpy.run_path(str(Path(__file__).resolve().parents[1] / "gunicorn.conf.py"))
    for path in ("/td/7/backup.json", "/td/restore/", "/display/abc/state.json", "/td/7/"):
        conf["post_request"](None, None, {"PATH_INFO": path}, None)
    assert len(calls) == 2  # the backup and the restore, not the poll nor the page
    monkeypatch.undo()
    assert memory.release_memory() is (sys.platform == "linux")  # glibc's malloc_trim here
