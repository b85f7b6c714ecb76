"""Tournament data. Rules live in tourney/engine (pure Python); writes live in services.py."""

from __future__ import annotations

import secrets
import zoneinfo

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


def new_display_token() -> str:
    return secrets.token_urlsafe(24)


class MultiDayEvent(models.Model):
    """An event played over several days (RULES 10): Day 1 flights and Day 2 (and later days),
    each a Tournament of its own (``Tournament.multi_day_event``), sharing the structure and
    payouts; the event's pool is every flight's money (RULES 10.6)."""

    class Policy(models.TextChoices):  # RULES 10.3
        LARGEST = "largest", _("Largest stack forward")
        FIRST = "first", _("First stack forward")

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=140, unique=True)
    policy = models.CharField(max_length=10, choices=Policy.choices, default=Policy.LARGEST)
    pays_on_day1 = models.BooleanField(default=False)  # RULES 10.7
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name


class League(models.Model):
    """A league (issue 27): its seasons score the tournaments that count toward them."""

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=140, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Season(models.Model):
    """A season of a league: how its tournaments score (tourney/engine/points.py: a preset, a
    points table or a formula, and the options) and its public standings."""

    class Scoring(models.TextChoices):
        PLACE_TABLE = "place_table", "Points by place (table)"
        ENTRANTS_MINUS_PLACE = "entrants_minus_place", "Entrants − place + 1"
        SQRT_BUYIN = "sqrt_buyin", "Square-root formula with buy-in weighting"
        FORMULA = "formula", "A formula of your own"

    class Entries(models.TextChoices):
        BEST = "best", "A player's best finish counts once"
        FIRST = "first", "First entry only"
        EACH = "each", "Every entry scores"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=120)
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    scoring = models.CharField(max_length=24, choices=Scoring.choices, default=Scoring.PLACE_TABLE)
    points_table = models.JSONField(default=list, blank=True)  # place 1 first; [] = preset's
    formula = models.TextField(blank=True, default="")
    best_n = models.PositiveSmallIntegerField(null=True, blank=True)  # None: every event
    entries = models.CharField(max_length=8, choices=Entries.choices, default=Entries.BEST)
    attendance_points = models.DecimalField(max_digits=9, decimal_places=2, default=0)
    share_ties = models.BooleanField(default=True)
    public_token = models.CharField(max_length=43, unique=True, default=new_display_token)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "-created_at"]

    def __str__(self) -> str:
        return f"{self.league} {self.name}"


class Tournament(models.Model):
    class Status(models.TextChoices):
        SETUP = "setup", _("Setup")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    class Threshold(models.TextChoices):
        HALF_OR_MORE = "half_or_more", _("Half or more")
        MORE_THAN_HALF = "more_than_half", _("More than half")

    class BountyKind(models.TextChoices):  # RULES 9.1
        NONE = "none", _("No bounties")
        FIXED = "fixed", _("Knockout (fixed bounty)")
        PROGRESSIVE = "progressive", _("Progressive knockout (PKO)")
        MYSTERY = "mystery", _("Mystery bounties")

    class NameStyle(models.TextChoices):
        FULL = "full", _("Full name")
        INITIAL = "initial", _("First name and initial")
        NICKNAME = "nickname", _("Nickname")

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=140, unique=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SETUP)
    seats_per_table = models.PositiveSmallIntegerField(default=9)
    starting_stack = models.PositiveIntegerField(default=10000)
    buy_in = models.PositiveBigIntegerField(default=0, help_text="Prize-pool part, smallest unit")
    fee = models.PositiveBigIntegerField(default=0, help_text="House part, smallest unit")
    guarantee = models.PositiveBigIntegerField(default=0)
    added_money = models.PositiveBigIntegerField(default=0)
    rounding_unit = models.PositiveIntegerField(default=100)
    payout_percentages = models.JSONField(null=True, blank=True)
    # RULES 8.2: prize per place once registration closes (tourney.services.money.payouts_freeze).
    frozen_prizes = models.JSONField(null=True, blank=True)
    # A new random token whenever either of the two fields above is written, set by the
    # database (triggers, migration 0006): the tournament lock reads those two big fields
    # only when the token differs from the one it last saw (tourney.services).
    prizes_key = models.CharField(max_length=32, default="", editable=False)
    # Windows (RULES 4.4): level indexes (0-based over the structure) whose end closes them.
    late_reg_until = models.PositiveSmallIntegerField(null=True, blank=True)
    reentries_allowed = models.PositiveSmallIntegerField(default=0)
    rebuy_until = models.PositiveSmallIntegerField(null=True, blank=True)
    rebuy_price = models.PositiveBigIntegerField(default=0)
    rebuy_fee = models.PositiveBigIntegerField(default=0)  # kept apart from the pool (RULES 8.1)
    rebuy_chips = models.PositiveIntegerField(default=0)
    addon_at = models.PositiveSmallIntegerField(null=True, blank=True)
    addon_price = models.PositiveBigIntegerField(default=0)
    addon_fee = models.PositiveBigIntegerField(default=0)  # kept apart from the pool (RULES 8.1)
    addon_chips = models.PositiveIntegerField(default=0)
    # RULES 9: the bounty part of each buy-in (kept apart from the pool and the fee), the
    # PKO cash share, and the mystery envelopes left ({"amount": count}) with their stage.
    bounty_kind = models.CharField(
        max_length=12, choices=BountyKind.choices, default=BountyKind.NONE
    )
    bounty = models.PositiveBigIntegerField(default=0, help_text="Bounty part, smallest unit")
    bounty_cash_percent = models.PositiveSmallIntegerField(default=50)
    mystery_from_players = models.PositiveIntegerField(default=9)
    mystery_envelopes = models.JSONField(default=dict, blank=True)
    # RULES 10: a day of a multi-day event: its day (1 for a flight), the flight's letter
    # ("A" of Day 1A), and where a flight ends (the last level's item index, and/or a field
    # size); ``bagged`` once its survivors' chips are bagged and tagged.
    multi_day_event = models.ForeignKey(
        MultiDayEvent, null=True, blank=True, on_delete=models.PROTECT, related_name="days"
    )
    day = models.PositiveSmallIntegerField(default=1)
    flight = models.CharField(max_length=8, blank=True, default="")
    end_at_level = models.PositiveSmallIntegerField(null=True, blank=True)
    end_at_players = models.PositiveIntegerField(null=True, blank=True)
    bagged = models.BooleanField(default=False)
    # Issue 27: the season this tournament counts toward (its results score there).
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments"
    )
    # Issue 28: when play is to start (the director home's "today" and "upcoming", the desk's
    # other events); a satellite's target event and the value of a seat there (RULES 12.1).
    starts_at = models.DateTimeField(null=True, blank=True)
    satellite_target = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="satellites"
    )
    seat_value = models.PositiveBigIntegerField(default=0, help_text="Smallest unit")
    tickets_transferable = models.BooleanField(default=False)
    registration_open = models.BooleanField(default=True)
    rebuys_open = models.BooleanField(default=True)
    # Rule settings (RULES 3.1, 3.7, 5.6) with the defaults of docs/rules.md; house options off.
    balance_tolerance = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Empty: RULES 3.1 (2 above six tables, else 1)"
    )
    redraw_at_three = models.BooleanField(default=True)
    redraw_at_two = models.BooleanField(default=True)
    redraw_at_one = models.BooleanField(default=True)
    race_threshold = models.CharField(
        max_length=16, choices=Threshold.choices, default=Threshold.HALF_OR_MORE
    )
    auto_open_tables = models.BooleanField(default=True)
    hand_for_hand = models.BooleanField(default=False)
    hand_for_hand_round = models.PositiveIntegerField(default=0)
    started_tables = models.PositiveSmallIntegerField(default=0)
    draw_at_registration = models.BooleanField(
        default=True, help_text="Card room: seat at the desk. Off: draw all seats at the start."
    )
    # RULES 7.1 during late registration: places count from the bottom of the whole field,
    # so each late entry moves every player already out one place down. Rather than rewrite
    # thousands of rows per entry, the entries count that here: a busted entry's place is
    # its stored place plus ``place_lag`` (``Entry.place`` is final once this is 0). It is
    # written back into the rows (``tourney.services.places_settle``) when registration
    # closes, and whenever a stored place would otherwise drop below 1.
    place_lag = models.IntegerField(
        default=0, help_text="Late entries since the busted entries' places were written"
    )
    chips_color_up_delta = models.BigIntegerField(
        default=0, help_text="Chip value added minus removed by color-ups (RULES 5.9)"
    )
    public_names = models.CharField(
        max_length=10, choices=NameStyle.choices, default=NameStyle.INITIAL
    )
    # The card room's zone (an IANA name, "Europe/Paris"): the desk's "today" and the times
    # the screens print. Empty: the server's TIME_ZONE (by default the machine's own zone).
    time_zone = models.CharField(max_length=64, blank=True, default="")
    # The language of the public screens (display, phone page, lobby cards): a code of
    # settings.LANGUAGES; empty: the site's LANGUAGE_CODE. A screen's ``?lang=`` overrides it.
    language = models.CharField(max_length=8, blank=True, default="")
    # The director's own wording of the spoken announcements, by kind (level, break, colorup,
    # one_minute, last_hand); a kind not here is said in the screen's language's default.
    announce_templates = models.JSONField(default=dict, blank=True)
    # Spoken announcements on the displays (the display's "test sound" button unlocks audio).
    announce_speech = models.BooleanField(default=True)
    rng_seed = models.BigIntegerField(default=0)
    draw_counter = models.PositiveIntegerField(default=0)
    # The clock is anchors, never a counter (RULES 4.3).
    clock_index = models.PositiveSmallIntegerField(default=0)
    clock_left_ms = models.BigIntegerField(default=0)
    clock_at = models.DateTimeField(null=True, blank=True)
    clock_running = models.BooleanField(default=False)
    clock_started = models.BooleanField(default=False)
    clock_announced = models.IntegerField(default=-1, help_text="Last item whose start is recorded")
    display_token = models.CharField(max_length=64, unique=True, default=new_display_token)
    version = models.PositiveBigIntegerField(default=1)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(seats_per_table__gte=2), name="seats_at_least_2"),
            models.CheckConstraint(condition=Q(starting_stack__gt=0), name="stack_positive"),
            models.CheckConstraint(condition=Q(rounding_unit__gt=0), name="rounding_positive"),
            models.CheckConstraint(condition=Q(clock_left_ms__gte=0), name="clock_left_nonneg"),
        ]

    def __str__(self) -> str:
        return self.name

    def activate_zone(self) -> None:
        """Print times in this tournament's zone for the rest of the request (the middleware
        ``TournamentZoneMiddleware`` puts the server's zone back after it)."""
        from django.utils import timezone

        timezone.activate(self.zone)

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        """The card room's time zone (``time_zone``, else the server's TIME_ZONE)."""
        try:
            return zoneinfo.ZoneInfo(self.time_zone or settings.TIME_ZONE)
        except (ValueError, zoneinfo.ZoneInfoNotFoundError):
            return zoneinfo.ZoneInfo(settings.TIME_ZONE)


class Level(models.Model):
    class Kind(models.TextChoices):
        LEVEL = "level", _("Level")
        BREAK = "break", _("Break")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="levels")
    index = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=5, choices=Kind.choices, default=Kind.LEVEL)
    # Big integers: a generated structure for a deep stack climbs past 2^31 (PostgreSQL).
    small_blind = models.PositiveBigIntegerField(default=0)
    big_blind = models.PositiveBigIntegerField(default=0)
    ante = models.PositiveBigIntegerField(default=0)
    big_blind_ante = models.PositiveBigIntegerField(default=0)
    seconds = models.PositiveIntegerField()
    color_up = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["tournament", "index"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "index"], name="level_index_unique"),
            models.CheckConstraint(condition=Q(seconds__gt=0), name="level_seconds_positive"),
            models.CheckConstraint(
                condition=Q(kind="break") | Q(big_blind__gte=models.F("small_blind")),
                name="level_bb_at_least_sb",
            ),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.BREAK:
            return f"#{self.index} break {self.seconds}s"
        return f"#{self.index} {self.small_blind}/{self.big_blind}"


class ChipDenomination(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="chips")
    value = models.PositiveIntegerField()
    color = models.CharField(max_length=30, blank=True)
    in_play = models.BooleanField(default=True)

    class Meta:
        ordering = ["tournament", "value"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "value"], name="chip_value_unique"),
            models.CheckConstraint(condition=Q(value__gt=0), name="chip_value_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.value} {self.color}".strip()


class Player(models.Model):
    """A person, across tournaments (issue 27's player database). The personal fields (email,
    phone, membership number, notes, photo) are for directors and the desk only; the public
    screens show the display name. ``anonymised_at``: the person asked to be removed, the
    personal fields were blanked and the name replaced, the results stay. ``merged_into``:
    this record was merged into another (its entries moved there)."""

    name = models.CharField(max_length=120, db_index=True)
    nickname = models.CharField(max_length=60, blank=True)
    email = models.EmailField(max_length=254, blank=True, default="")
    phone = models.CharField(max_length=40, blank=True, default="")
    membership = models.CharField(max_length=40, blank=True, default="", db_index=True)
    notes = models.TextField(blank=True, default="")
    photo = models.ImageField(upload_to="players/", blank=True, default="")
    anonymised_at = models.DateTimeField(null=True, blank=True)
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="merged_from"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """One buy-in of one player; a re-entry is a new Entry of the same player."""

    class Status(models.TextChoices):
        REGISTERED = "registered", "Registered, seat not drawn yet"
        SEATED = "seated", "Seated"
        ALTERNATE = "alternate", "Alternate"
        BUSTED = "busted", "Busted"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SEATED)
    chips_bought = models.PositiveBigIntegerField(default=0)
    paid = models.PositiveBigIntegerField(default=0, help_text="Prize-pool money paid")
    fee_paid = models.PositiveBigIntegerField(default=0)
    # RULES 9.1: the bounty part this entry paid; the bounty on its head now (0 once out);
    # the bounty money it has won in cash.
    bounty_paid = models.PositiveBigIntegerField(default=0)
    bounty = models.PositiveBigIntegerField(default=0)
    bounty_won = models.PositiveBigIntegerField(default=0)
    # RULES 10.5: a Day 2 (or later) entry is the bag it was built from
    carried_from = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="carried_to"
    )
    rebuys = models.PositiveSmallIntegerField(default=0)
    addons = models.PositiveSmallIntegerField(default=0)
    # Stored places: the place is this plus ``tournament.place_lag`` (``Entry.place_now``).
    place = models.PositiveIntegerField(null=True, blank=True)
    place_to = models.PositiveIntegerField(null=True, blank=True)
    prize = models.PositiveBigIntegerField(default=0)
    # RULES 8.3: an agreed deal replaces the place prize once the entry finishes.
    deal_amount = models.PositiveBigIntegerField(null=True, blank=True)
    bust_stack = models.PositiveBigIntegerField(null=True, blank=True)
    bust_hand = models.PositiveIntegerField(null=True, blank=True)
    bust_table = models.PositiveSmallIntegerField(null=True, blank=True)
    bust_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    h4h_round = models.PositiveIntegerField(null=True, blank=True)
    busted_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="entry_number_unique"),
            models.CheckConstraint(
                condition=Q(place__isnull=True) | Q(place_to__gte=models.F("place")),
                name="entry_place_range",
            ),
        ]
        indexes = [
            models.Index(fields=["tournament", "status"]),
            # the desk's undo: a clerk's last registration here (one index entry)
            models.Index(fields=["tournament", "created_by", "created_at"], name="entry_by_clerk"),
            # the finishers, best place first (results, and a late entry's prize check, which
            # otherwise read every entry of the field)
            models.Index(fields=["tournament", "place"], name="entry_by_place"),
        ]

    def __str__(self) -> str:
        return f"#{self.number} {self.player}"

    def places_now(self, lag: int) -> tuple[int | None, int | None]:
        """(place, place_to) as they stand (RULES 7.1): the stored ones plus the tournament's
        ``place_lag``; (None, None) while the entry is still in."""
        if self.place is None:
            return None, None
        return self.place + lag, self.place_to + lag


class ChipCount(models.Model):
    """A player's chips counted (RULES 10.4, 10.8): during play (``bag`` false; the latest
    count is shown) or bagged at the end of a day (``bag`` true, one per entry and day), with
    where the player sat and who entered it."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="counts")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="counts")
    chips = models.PositiveBigIntegerField()
    bag = models.BooleanField(default=False)
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    at = models.DateTimeField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["tournament", "entry", "at"], name="count_latest")]
        constraints = [
            models.UniqueConstraint(
                fields=["entry"], condition=Q(bag=True), name="one_bag_per_entry"
            )
        ]

    def __str__(self) -> str:
        return f"{self.entry_id}: {self.chips}"


class Knockout(models.Model):
    """Who eliminated whom (RULES 9.5-9.8): one row per winner of the pot that busted an
    entry, with the bounty it took: ``cash`` paid, ``to_head`` added to the winner's own
    bounty (PKO), ``envelope`` the mystery envelope drawn (shared by split winners). The
    last player's own bounty is a row with ``busted`` = ``winner``. ``hand``: the
    elimination's event."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="knockouts")
    hand = models.PositiveBigIntegerField()
    busted = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="knocked_out_by")
    winner = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="knockouts")
    cash = models.PositiveBigIntegerField(default=0)
    to_head = models.PositiveBigIntegerField(default=0)
    envelope = models.PositiveBigIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["tournament", "hand"], name="knockout_by_hand")]

    def __str__(self) -> str:
        return f"{self.winner_id} knocked out {self.busted_id}"


class Event(models.Model):
    """The audit log and the undo stack: one row per write service call."""

    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.CASCADE, related_name="events"
    )
    kind = models.CharField(max_length=40, db_index=True)
    payload = models.JSONField(default=dict, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    undone = models.BooleanField(default=False)
    # The table an event concerns, where it is looked up by table (a chip race, RULES 5):
    # an indexed column, not a search through every payload of the day.
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["tournament", "kind", "table_number"], name="event_by_table")
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk}"


class ApiToken(models.Model):
    """Bearer tokens, stored hashed; the clear text is shown once."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    prefix = models.CharField(max_length=12)
    key_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)
    revoked = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"{self.user} {self.prefix}…"


class IdempotentRequest(models.Model):
    """A write request sent with an idempotency key (the API's ``Idempotency-Key`` header) or
    a form's one-time nonce, and the answer it got (tourney/core/idempotency.py). The row is
    inserted in the transaction of the write itself: a key is stored exactly when its write
    is, and a repeat of the key gets this answer instead of a second write."""

    class Scope(models.TextChoices):
        API = "api", "API Idempotency-Key"
        FORM = "form", "form nonce"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    scope = models.CharField(max_length=4, choices=Scope.choices)
    key = models.CharField(max_length=255)
    # SHA-256 of the method, the path and the body: the same key with another request is refused
    request_hash = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField(default=0)  # 0 while the first request runs
    content = models.BinaryField(default=b"")
    headers = models.JSONField(default=dict)
    created_at = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "scope", "key"], name="idempotent_request_one_per_key"
            )
        ]

    def __str__(self) -> str:
        return f"{self.scope} {self.key} ({self.status})"


# The card room's models (issue 28: floor plan, lobby displays, satellite tickets) and what
# the room hears and other tools follow (issue 29: announcements, status feeds).
from tourney.feed_models import Announcement, FeedDelivery, StatusFeed  # noqa: E402, F401
from tourney.room_models import Lobby, Room, Ticket  # noqa: E402, F401
