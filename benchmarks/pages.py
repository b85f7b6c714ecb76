"""The screens at scale (issue 11): query counts and render times of the director's dashboard
and its panels, the desk, the public display and the player page, for a 1,000-entry and a
10,000-entry tournament in play.

    .venv/bin/python benchmarks/pages.py [--small 1000] [--large 10000] [--repeat 10]

Uses DATABASE_URL if set (a database it may fill), else a scratch SQLite file. Production
settings (DEBUG off). Each page is fetched through Django's test client as the director
(public pages anonymously): the render time is the median of ``--repeat`` fetches, the query
count that of one more fetch. Targets: query counts the same at both sizes; render <= 100 ms
at the large size. Exits non-zero on a miss."""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

from common import setup_django

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TARGET_MS = 100.0


def tournament(entries: int, user, rng: random.Random):
    """A tournament in play: ``entries`` seated by the draw, the clock running, a few dozen
    players out (results, prizes and moves to show)."""
    from seating_services import field

    from tables import services as ts
    from tourney import services
    from tourney.models import Entry
    from tourney.services import maintenance

    t = field(entries, 0, user)  # registered in bulk, seats drawn below
    ts.seating_draw_all(tournament_id=t.pk, actor=user)
    services.clock_action(tournament_id=t.pk, action="start", actor=user)
    seated = list(Entry.objects.filter(tournament=t, status="seated").values_list("pk", flat=True))
    for i, eid in enumerate(rng.sample(seated, 40)):
        services.elimination_record(tournament_id=t.pk, busts=[(eid, 1000 + i)], actor=user)
    t.refresh_from_db()
    # As the worker's beat does within minutes on a server without autovacuum (this machine's
    # PostgreSQL): without statistics the planner joins whole tables for a ten-row read.
    maintenance.vacuum_hot_tables()
    return t


def pages(t) -> list[tuple[str, str, bool]]:
    """(name, path, as the director) of every screen a 10,000-entry day keeps open. Panels
    are fetched as htmx fetches them (the HX-Request header), the pages whole."""
    td = f"/td/{t.pk}/"
    return [
        ("dashboard", td, True),
        ("dashboard: clock panel", td + "clock/", True),
        ("dashboard: tables panel", td + "tables/", True),
        ("dashboard: moves panel", td + "moves/", True),
        ("dashboard: event log", td + "log/", True),
        ("dashboard: money", td + "money/", True),
        ("desk", f"/desk/{t.pk}/", True),
        ("display", f"/display/{t.display_token}/", False),
        ("display state (200)", f"/display/{t.display_token}/state.json", False),
        ("player page", f"/p/{t.display_token}/", False),
    ]


def measure(
    client, anon, path: str, as_director: bool, repeat: int, token: str = ""
) -> tuple[float, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tourney.selectors.display import forget_version

    c = client if as_director else anon
    headers = {"HX-Request": "true"} if path.count("/") > 3 and path.startswith("/td/") else {}
    r = c.get(path, secure=True, headers=headers)
    if r.status_code != 200:
        raise SystemExit(f"{path}: HTTP {r.status_code}")
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        c.get(path, secure=True, headers=headers)
        times.append((time.perf_counter() - t0) * 1000)
    # The public pages read the display's version from a cache that lives a second
    # (tourney/selectors/display.py): prime it right before the counted fetch, so the count
    # never depends on whether that second ran out during the timed fetches.
    if token:
        forget_version(token)
    c.get(path, secure=True, headers=headers)
    with CaptureQueriesContext(connection) as ctx:
        c.get(path, secure=True, headers=headers)
    return statistics.median(times), len(ctx.captured_queries)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--small", type=int, default=1000)
    ap.add_argument("--large", type=int, default=10000)
    ap.add_argument("--repeat", type=int, default=10)
    args = ap.parse_args()
    os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver")
    setup_django("pages-bench-", freeze=True)
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.test import Client

    from tourney.roles import DIRECTOR_GROUP

    user, _ = get_user_model().objects.get_or_create(username="pages-bench")
    user.groups.add(Group.objects.get_or_create(name=DIRECTOR_GROUP)[0])
    client, anon = Client(), Client()
    client.force_login(user)
    rng = random.Random(1)
    # Both built first: each then has the other among the room's events (the desk's "other
    # events"), so the two sizes show the same panels.
    built = {size: tournament(size, user, rng) for size in (args.small, args.large)}
    results = {
        size: {
            name: measure(client, anon, path, director, args.repeat, t.display_token)
            for name, path, director in pages(t)
        }
        for size, t in built.items()
    }
    db = os.environ["DATABASE_URL"].split(":", 1)[0]
    print(f"screens at scale — database {db}; render median of {args.repeat}, queries per page")
    print(f"{'page':<26}{'ms @' + str(args.small):>12}{'ms @' + str(args.large):>13}"
          f"{'queries':>16}")  # fmt: skip
    misses = []
    for name in results[args.small]:
        (ms_s, q_s), (ms_l, q_l) = results[args.small][name], results[args.large][name]
        print(f"{name:<26}{ms_s:>12.1f}{ms_l:>13.1f}{f'{q_s} / {q_l}':>16}")
        if q_s != q_l:
            misses.append(f"{name}: {q_s} queries at {args.small}, {q_l} at {args.large}")
        if ms_l > TARGET_MS:
            misses.append(f"{name}: {ms_l:.0f} ms > {TARGET_MS:.0f} ms")
    print(
        "targets (same query count; <= 100 ms): "
        + ("MISS " + "; ".join(misses) if misses else "ok")
    )
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
