"""A demo tournament for `make run`: chip set, regular structure, 3 tables of 9, 23 players
seated, clock not started, and a director account; beside it a satellite into it (8 players,
starting in an hour) and a lobby display showing both. Idempotent: the tournament is made in one
transaction (a Ctrl-C halfway leaves nothing), and a demo left with fewer players by an older,
interrupted run is finished before its clock starts."""

import os
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from tourney import services
from tourney.models import Lobby, Tournament
from tourney.roles import DESK_GROUP, DIRECTOR_GROUP
from tourney.services import lobbies

DEMO_SLUG = "demo-friday-100"
SATELLITE_SLUG = "demo-friday-satellite"
LOBBY_NAME = "Card room"
SATELLITE_NAMES = [
    "Abe Ross",
    "Bea Lane",
    "Cal Webb",
    "Dot Hays",
    "Eli Cruz",
    "Fay Dunn",
    "Gil Ford",
    "Ivy Shaw",
]
DEFAULT_PORT = 8000  # the Procfile's and the Makefile's default
NAMES = [
    "Ann Lee",
    "Bo Chen",
    "Cy Diaz",
    "Di Eng",
    "Ed Fox",
    "Flo Gu",
    "Gus Hale",
    "Hana Ito",
    "Ian Jett",
    "Jo Kim",
    "Kai Lund",
    "Liv Moss",
    "Max Noor",
    "Nia Ortiz",
    "Oli Park",
    "Pia Quinn",
    "Ray Ruiz",
    "Sue Sato",
    "Tom Tran",
    "Uma Vance",
    "Vic Wolfe",
    "Wes Xu",
    "Yara Zane",
]


def served_port() -> int:
    """The port `make run` serves on: $PORT (the Makefile exports it and the Procfile's web
    process binds it), 8000 when unset or not a port number."""
    raw = os.environ.get("PORT", "").strip()
    if raw.isascii() and raw.isdigit() and 0 < int(raw) < 65536:
        return int(raw)
    return DEFAULT_PORT


def _password(name: str) -> str:
    path = settings.VAR_DIR / f"{name}_password"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(9))
        path.chmod(0o600)
    return path.read_text().strip()


class Command(BaseCommand):
    help = "Create the demo tournament and a director login (idempotent)."

    def handle(self, *args, **options):
        User = get_user_model()
        director_group, _ = Group.objects.get_or_create(name=DIRECTOR_GROUP)
        desk_group, _ = Group.objects.get_or_create(name=DESK_GROUP)
        accounts = {}
        for username, group in (("director", director_group), ("desk", desk_group)):
            user = User.objects.filter(username=username).first()
            password = _password(username)
            if user is None:
                user = User.objects.create_user(username, password=password)
            if not user.check_password(password):
                user.set_password(password)
                user.save()
            if username == "director" and not (user.is_staff and user.is_superuser):
                # The printed director login opens /admin/ too (README: Admin).
                user.is_staff = user.is_superuser = True
                user.save(update_fields=["is_staff", "is_superuser"])
            user.groups.add(group)
            accounts[username] = password
        director = User.objects.get(username="director")
        t = Tournament.objects.filter(slug=DEMO_SLUG).first()
        if t is None:
            with transaction.atomic():
                t = services.tournament_create(
                    actor=director,
                    name="Demo Friday 100",
                    seats_per_table=9,
                    tables=3,
                    starting_stack=10000,
                    buy_in=10000,
                    fee=2000,
                    seed=2026,
                )
                Tournament.objects.filter(pk=t.pk).update(slug=DEMO_SLUG, late_reg_until=5)
                for name in NAMES:
                    services.entry_register(tournament_id=t.pk, name=name, actor=director)
            t.refresh_from_db()
            self.stdout.write(f"Created the demo tournament ({len(NAMES)} players seated).")
        else:
            missing = self._missing_players(t)
            with transaction.atomic():
                for name in missing:
                    services.entry_register(tournament_id=t.pk, name=name, actor=director)
            t.refresh_from_db()
            if missing:
                self.stdout.write(
                    f"Finished the demo tournament ({len(missing)} more players seated)."
                )
            else:
                self.stdout.write("The demo tournament is already there.")
        self.stdout.write(f"  Director login: director / {accounts['director']}")
        self.stdout.write(f"  Desk login:     desk / {accounts['desk']}")
        site = f"http://127.0.0.1:{served_port()}"
        self.stdout.write(f"  Dashboard: {site}/td/{t.pk}/")
        self.stdout.write(f"  Desk:      {site}/desk/{t.pk}/")
        self.stdout.write(f"  Display:   {site}/display/{t.display_token}/")
        self.stdout.write(f"  Phone:     {site}/p/{t.display_token}/")
        lobby = self._card_room(t, director)
        self.stdout.write(f"  Lobby:     {site}/lobby/{lobby.token}/")

    @staticmethod
    def _card_room(t: Tournament, director) -> Lobby:
        """The satellite into the demo (RULES 12) and the lobby display (issue 28)."""
        with transaction.atomic():
            if not Tournament.objects.filter(slug=SATELLITE_SLUG).exists():
                sat = services.tournament_create(
                    actor=director,
                    name="Demo Friday satellite",
                    seats_per_table=9,
                    tables=1,
                    starting_stack=5000,
                    buy_in=2000,
                    fee=200,
                    seed=2027,
                    options={"satellite_target": t.pk},
                )
                Tournament.objects.filter(pk=sat.pk).update(
                    slug=SATELLITE_SLUG, starts_at=timezone.now() + timedelta(hours=1)
                )
                for name in SATELLITE_NAMES:
                    services.entry_register(tournament_id=sat.pk, name=name, actor=director)
            lobby = Lobby.objects.filter(name=LOBBY_NAME).first()
            if lobby is None:
                lobby = lobbies.lobby_create(name=LOBBY_NAME, actor=director)
        return lobby

    @staticmethod
    def _missing_players(t: Tournament) -> list[str]:
        """The demo names with no entry yet, while the demo has not started: what an older,
        interrupted `make run` left unregistered. A demo in play is left as it is."""
        if t.clock_started or t.entries.count() >= len(NAMES):
            return []
        there = set(t.entries.values_list("player__name", flat=True))
        return [name for name in NAMES if name not in there]
