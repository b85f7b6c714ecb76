"""Tables, seats and moves. Seating rules live in tables/engine (pure Python)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from tourney.models import Entry, Event, Tournament


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Open"
        BROKEN = "broken", "Broken"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    seats = models.PositiveSmallIntegerField()
    # RULES 3.5: lower breaks sooner; default highest-numbered first.
    break_rank = models.IntegerField(default=0)
    button_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=6, choices=Status.choices, default=Status.OPEN)
    unavailable_seats = models.JSONField(default=list, blank=True)
    # Players seated here. Kept by database triggers on the seat table (migration 0002), so
    # every writer (services, undo, cascades) keeps it true and balancing reads the sizes of
    # a thousand tables without counting their seats. Python never writes it.
    players = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["tournament", "number"]
        indexes = [
            # The next table to break (RULES 3.4-3.5: break order, then the highest number), which
            # every elimination asks, is the first entry here instead of a sort of all tables.
            models.Index(
                fields=["tournament", "status", "break_rank", "-number"],
                name="table_break_order",
            ),
            # RULES 1.3: the n-th table by number among those with the fewest players, which
            # a late entry draws into, found without reading the others' rows.
            models.Index(
                fields=["tournament", "status", "players", "number"], name="table_by_players"
            ),
        ]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="table_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
            models.CheckConstraint(condition=Q(seats__gte=2), name="table_seats_at_least_2"),
            models.CheckConstraint(
                condition=Q(button_seat__isnull=True) | Q(button_seat__gte=1),
                name="table_button_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.number}"


class TableCount(models.Model):
    """How many open tables of a tournament have ``players`` players and ``room`` open seats
    (seats less the unavailable ones, less the players). Kept by database triggers on the
    table table (tables migration 0004), as ``Table.players`` is kept by those on the seat
    table, so every writer keeps it true; Python never writes it. A late entry's draw and an
    elimination's table totals read these few rows instead of every open table.

    ``tournament_id`` is a plain column, not a foreign key: the triggers write it while a
    tournament's rows are being deleted, in whatever order; a trigger on the tournament
    table removes a deleted tournament's counts once its tables are gone."""

    tournament_id = models.BigIntegerField()
    players = models.IntegerField()
    room = models.IntegerField()
    tables = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament_id", "players", "room"], name="table_count_bucket"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tables} tables of {self.players} players, {self.room} open seats"


class Seat(models.Model):
    """Where an active entry sits. One row per occupied seat; the database refuses a second
    entry in a seat and a second seat for an entry."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="occupied")
    number = models.PositiveSmallIntegerField()
    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="seat")
    waits_for_button = models.BooleanField(default=False)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_holds_one_entry"),
            models.CheckConstraint(condition=Q(number__gte=1), name="seat_number_positive"),
        ]

    def __str__(self) -> str:
        return f"T{self.table.number} S{self.number}"


class Move(models.Model):
    class Reason(models.TextChoices):
        SEAT = "seat", "Seated"
        BALANCE = "balance", "Balance"
        BREAK = "break", "Table break"
        REDRAW = "redraw", "Redraw"
        MANUAL = "manual", "Manual"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="moves")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="moves")
    event = models.ForeignKey(Event, null=True, on_delete=models.SET_NULL, related_name="moves")
    from_table = models.PositiveSmallIntegerField(null=True, blank=True)
    from_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    to_table = models.PositiveSmallIntegerField()
    to_seat = models.PositiveSmallIntegerField()
    reason = models.CharField(max_length=8, choices=Reason.choices)
    waits_for_button = models.BooleanField(default=False)
    announced = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "id"]
        indexes = [models.Index(fields=["tournament", "announced"])]

    def __str__(self) -> str:
        return f"{self.entry} → T{self.to_table} S{self.to_seat} ({self.reason})"
