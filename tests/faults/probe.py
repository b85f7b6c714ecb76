"""The fault run's view of the database, run as a process of its own with the run's
environment (``python -m tests.faults.probe setup|facts``): the test process itself never
opens the scratch database, so pytest-django's own database stays out of it.

``setup`` makes the logins (a director, eight desk clerks) and their API tokens; ``facts TID
WAIT`` waits until every clock transition the anchors say has happened is recorded (at most
WAIT seconds), then reads what the test asserts. Each prints one line of JSON, last."""

from __future__ import annotations

import json
import os
import sys
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tourney.settings")
django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.models import Group  # noqa: E402
from django.utils import timezone  # noqa: E402

from tables.engine.balancing import tolerance_for  # noqa: E402
from tables.models import Seat, Table  # noqa: E402
from tables.selectors import seating_settings  # noqa: E402
from tourney.engine import clock as clock_engine  # noqa: E402
from tourney.models import Entry, Event, Tournament  # noqa: E402
from tourney.roles import DESK_GROUP, DIRECTOR_GROUP  # noqa: E402
from tourney.selectors.clock import anchor_of, structure_items  # noqa: E402
from tourney.tokens import token_create  # noqa: E402

DESKS = 8
LEVEL_KINDS = ("level_started", "break_started")


def setup() -> dict:
    users = get_user_model().objects
    director = users.create_user("td", password="faults-td-pass")
    director.groups.add(Group.objects.get_or_create(name=DIRECTOR_GROUP)[0])
    desk_group = Group.objects.get_or_create(name=DESK_GROUP)[0]
    desks = []
    for n in range(1, DESKS + 1):
        clerk = users.create_user(f"desk{n}", password="faults-desk-pass")
        clerk.groups.add(desk_group)
        desks.append(token_create(user=clerk))
    return {"director": token_create(user=director), "desks": desks}


def _state(t: Tournament):
    now = timezone.now()
    return clock_engine.state(structure_items(t), anchor_of(t), now), now


def _settled(tid: int, wait: float) -> tuple[Tournament, bool]:
    """The tournament once ``clock_announced`` has reached the index the anchors give."""
    deadline = time.monotonic() + wait
    while True:
        t = Tournament.objects.get(pk=tid)
        if t.clock_announced >= _state(t)[0].index or time.monotonic() > deadline:
            return t, t.clock_announced >= _state(t)[0].index
        time.sleep(0.25)


def facts(tid: int, wait: float) -> dict:
    t, settled = _settled(tid, wait)
    state, now = _state(t)
    items = structure_items(t)
    anchor = anchor_of(t)
    open_counts = dict(
        Table.objects.filter(tournament=t, status=Table.Status.OPEN).values_list(
            "number", "players"
        )
    )
    return {
        "settled": settled,
        "now": now.isoformat(),
        "anchor": {
            "index": anchor.index,
            "left_ms": anchor.left_ms,
            "at": anchor.at.isoformat() if anchor.at else None,
            "running": anchor.running,
            "started": anchor.started,
        },
        "state_index": state.index,
        "clock_announced": t.clock_announced,
        "item_ms": [item.seconds * 1000 for item in items],
        "entries": [
            {"id": e, "name": name, "status": status}
            for e, name, status in Entry.objects.filter(tournament=t).values_list(
                "id", "player__name", "status"
            )
        ],
        "seats": [
            {"entry": e, "table": tn, "seat": s, "table_status": ts, "table_seats": n}
            for e, tn, s, ts, n in Seat.objects.filter(tournament=t).values_list(
                "entry_id", "table__number", "number", "table__status", "table__seats"
            )
        ],
        "open_tables": {str(k): v for k, v in open_counts.items()},
        "tolerance": tolerance_for(len(open_counts), seating_settings(t)),
        "transitions": [
            {"index": p["index"], "due": p["due"], "kind": kind}
            for kind, p in Event.objects.filter(
                tournament=t, kind__in=LEVEL_KINDS, undone=False
            ).values_list("kind", "payload")
        ],
        "busts": [
            [b[0] for b in p["busts"]]
            for p in Event.objects.filter(tournament=t, kind="elimination", undone=False)
            .order_by("id")
            .values_list("payload", flat=True)
        ],
        "clock_actions": [
            {"kind": kind, "after": p.get("after")}
            for kind, p in Event.objects.filter(tournament=t, kind__startswith="clock_")
            .order_by("id")
            .values_list("kind", "payload")
        ],
        "undone": Event.objects.filter(tournament=t, undone=True).count(),
    }


def main(argv: list[str]) -> None:
    if argv[0] == "setup":
        out = setup()
    else:
        out = facts(int(argv[1]), float(argv[2]))
    sys.stdout.write("\n" + json.dumps(out) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
