"""What the room hears and what other tools follow (issue 29): announcements the display
speaks, and the outbound status feeds (webhooks) of a tournament. Imported by
``tourney.models``; the tournament is named by string here, so the two modules never import
each other."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q


def new_feed_secret() -> str:
    return secrets.token_urlsafe(32)


class Announcement(models.Model):
    """A free text the director announces now ("Seat open at table 7"): the tournament's
    displays speak each announcement once, in their language, after a chime."""

    tournament = models.ForeignKey(
        "tourney.Tournament", on_delete=models.CASCADE, related_name="announcements"
    )
    text = models.CharField(max_length=300)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["tournament", "id"], name="announcement_by_tournament")]

    def __str__(self) -> str:
        return self.text


class StatusFeed(models.Model):
    """An outbound status feed: the tournament's clock and field state POSTed to ``url`` on
    each change and every ``every_seconds`` (at least 30), signed with an HMAC of ``secret``.
    ``kind``: the field names of the most used director tool's feed, or our own JSON."""

    class Kind(models.TextChoices):
        TD = "td", "Tournament-director status fields"
        TOURNEY = "tourney", "Tourney JSON"

    tournament = models.ForeignKey(
        "tourney.Tournament", on_delete=models.CASCADE, related_name="status_feeds"
    )
    url = models.URLField(max_length=500)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.TD)
    secret = models.CharField(max_length=100, default=new_feed_secret)
    every_seconds = models.PositiveIntegerField(default=60)
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The last sending (by the Celery task): when, its HTTP status (0: no answer) and error.
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    last_ok_at = models.DateTimeField(null=True, blank=True)
    last_status = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=500, blank=True, default="")
    failures = models.PositiveIntegerField(default=0, help_text="Failed sendings in a row")
    # The tournament version last sent: a change is sent once, however many ticks see it.
    sent_version = models.PositiveBigIntegerField(default=0)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(every_seconds__gte=30), name="feed_every_30s_or_more"
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} feed to {self.url}"


class FeedDelivery(models.Model):
    """One attempt to send a status feed (kept: the last 50 a feed; the dashboard shows the
    failures)."""

    feed = models.ForeignKey(StatusFeed, on_delete=models.CASCADE, related_name="deliveries")
    at = models.DateTimeField()
    attempt = models.PositiveSmallIntegerField(default=1)
    version = models.PositiveBigIntegerField(default=0)
    status = models.PositiveSmallIntegerField(default=0)
    ok = models.BooleanField(default=False)
    error = models.CharField(max_length=500, blank=True, default="")
    ms = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["feed", "-id"], name="delivery_by_feed")]

    def __str__(self) -> str:
        return f"feed {self.feed_id} attempt {self.attempt}: {self.status or self.error}"
