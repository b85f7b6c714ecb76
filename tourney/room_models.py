"""The card room's data (issue 28): the room itself (its floor plan), lobby displays that show
several events at once, and the tickets satellites award. Imported by ``tourney.models``; the
tournament models are named by string here, so the two modules never import each other."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q


def new_lobby_token() -> str:
    return secrets.token_urlsafe(24)


class Room(models.Model):
    """The card room, one row (``Room.get()``). ``floor_plan``: the table numbers the room has,
    in the order they are handed out (empty: any number, counting up). A table number open in
    one unfinished event is not handed to another (``tables.services.seats.tables_open``)."""

    name = models.CharField(max_length=120, blank=True, default="")
    floor_plan = models.JSONField(default=list, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return self.name or "The room"

    @classmethod
    def get(cls) -> Room:
        row, _ = cls.objects.get_or_create(pk=1)
        return row


class Lobby(models.Model):
    """A lobby display: one token, several events' clocks on one screen, in pages that rotate
    when more events than fit. No tournaments chosen: every event of today and upcoming that
    is not finished."""

    name = models.CharField(max_length=120)
    token = models.CharField(max_length=64, unique=True, default=new_lobby_token)
    tournaments = models.ManyToManyField("tourney.Tournament", blank=True, related_name="lobbies")
    per_page = models.PositiveSmallIntegerField(default=6)
    page_seconds = models.PositiveSmallIntegerField(default=15)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(per_page__gte=1) & Q(per_page__lte=24), name="lobby_per_page_range"
            ),
            models.CheckConstraint(condition=Q(page_seconds__gte=5), name="lobby_page_seconds"),
        ]

    def __str__(self) -> str:
        return self.name


class Ticket(models.Model):
    """A seat won in a satellite (RULES 12): for ``player``, into ``target``, worth ``value``.
    Issued to each entry that finished in a seat place (or took a seat in the satellite's
    deal); used when the desk registers the player into the target at no charge
    (``used_by``: that entry); or refunded to cash by a director, with the reason."""

    class Status(models.TextChoices):
        ISSUED = "issued", "Issued"
        USED = "used", "Used"
        REFUNDED = "refunded", "Refunded"

    satellite = models.ForeignKey(
        "tourney.Tournament", on_delete=models.CASCADE, related_name="tickets_awarded"
    )
    target = models.ForeignKey(
        "tourney.Tournament", on_delete=models.PROTECT, related_name="tickets"
    )
    entry = models.OneToOneField(
        "tourney.Entry", on_delete=models.CASCADE, related_name="ticket_won"
    )
    player = models.ForeignKey("tourney.Player", on_delete=models.PROTECT, related_name="tickets")
    value = models.PositiveBigIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.ISSUED)
    used_by = models.OneToOneField(
        "tourney.Entry",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="ticket_used",
    )
    refund_reason = models.TextField(blank=True, default="")
    refunded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    refunded_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["target", "status"], name="ticket_by_target")]

    def __str__(self) -> str:
        return f"Ticket #{self.pk} into {self.target_id}"
