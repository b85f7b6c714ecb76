"""Editing a tournament's settings after it was created (issue 31, item 6): the dashboard's
settings page turned into one call of ``tournament_settings_update``, recorded as a
``settings_changed`` Event, undone and redone by the general undo (tourney/services/undo.py).

Readings of the issue where it is silent (refusals change nothing and say how to go on):

- Money, windows and rule settings are those of the setup form (tourney/services/setup.py): money in
  currency units, late registration and rebuys "until the end of level N", the add-on "at
  break N", payouts in percent per place (``money.payouts_set`` does that part, so its own
  checks apply: not after a deal, not more places than entries once frozen).
- What every entry already paid or received stays equal for all: the buy-in, the fee and the
  starting stack change only before the first entry; a rebuy's or an add-on's price, fee and
  chips only before the first rebuy or add-on. Seats per table change only before anyone is
  seated (the open tables get the new size; tables are opened and closed on the floor).
- A window cannot be moved into the past (RULES 4.4): late registration and rebuys cannot end
  at a level that is already over, the add-on cannot be at a break already over. Once
  registration (or the rebuy period) is closed it stays closed: the prizes froze when it
  closed (RULES 8.2); late registration's end and the re-entries no longer change.
- Fewer re-entries than a player already made is allowed: it holds from now on (nobody's
  entry is taken back); the number of re-entries already made is not a reason to refuse.
- The rule settings (tolerance, redraws, chip race, opening tables, names on the display,
  time zone) apply from the next action on; nothing already done is redone.
- Seating at registration switches only before the first entry (entries would otherwise be
  half seated, half waiting for a draw).
- Bounties (RULES 9.1, 9.3, 9.4; checked by ``tournaments.bounty_options``, after the locks):
  the type and the bounty change only before the first entry (every entry pays the same); the
  PKO cash share only before the first knockout paid; the mystery stage and envelopes only
  before the first envelope drawn. The envelopes need not add up to the bounty money when set
  (late entries still come): the first draw checks it, and the page shows both as a hint.
"""

from __future__ import annotations

import zoneinfo
from datetime import datetime
from typing import Any

from django.conf import settings as django_settings
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy, override
from django.utils.translation import gettext_noop as N_

from tables.models import Seat, Table
from tourney.core.events import record_event
from tourney.core.journal import current as journal_current
from tourney.core.language import refusal_text
from tourney.core.locking import tournament_action
from tourney.engine.clock import BREAK, LEVEL
from tourney.engine.errors import DomainError
from tourney.engine.money_format import money_exact, money_input
from tourney.engine.structure import item_index_of
from tourney.models import Entry, Knockout, Tournament
from tourney.selectors.bounties import bounty_totals, buy_in_split, envelopes_drawn
from tourney.selectors.clock import clock_index, structure_items
from tourney.selectors.money import window_passed
from tourney.services import money, setup, starts, tournaments
from tourney.services.tournaments import BOUNTY_FIELDS

MSG_NOTHING_CHANGED = N_("Nothing changed: edit a setting, then save.")
MSG_UNKNOWN_SETTING = N_("%(field)s is not a setting that can be edited.")
MSG_FINISHED = N_("The tournament is finished: its settings can no longer change.")
MSG_NAME = N_("Give the tournament a name (120 characters at most).")
MSG_PAID_ALREADY = N_(
    "%(label)s cannot change: %(n)s entries have already bought in at the current one. "
    "Keep it, or undo those registrations first."
)
MSG_SEATED_ALREADY = N_(
    "Seats per table cannot change: %(n)s players are already seated. Open or close tables "
    "on the floor instead."
)
MSG_SEATS_UNAVAILABLE = N_(
    "Seats per table cannot be %(n)s: table %(table)s has seat %(seat)s marked unavailable. "
    "Make that seat available first."
)
MSG_DRAW_AFTER_ENTRIES = N_(
    "Seating at registration cannot be switched: %(n)s players have registered already."
)
MSG_REGISTRATION_CLOSED = N_(
    "Registration is already closed, so late registration and re-entries can no longer "
    "change (the prizes were fixed when it closed)."
)
MSG_LEVEL_OVER = N_(
    "%(what)s cannot end at level %(level)s: that level is already over (the clock is at "
    "%(now)s). Choose level %(next)s or later."
)
MSG_REBUYS_CLOSED = N_("The rebuy period is already closed, so it can no longer change.")
MSG_BREAK_OVER = N_(
    "The add-on cannot be at break %(n)s: that break is already over. Choose a later break."
)
MSG_TAKEN_ALREADY = {
    "rebuy": N_(
        "The rebuy price, fee and chips cannot change: %(n)s rebuys were already taken. "
        "Keep them as they are."
    ),
    "addon": N_(
        "The add-on price, fee and chips cannot change: %(n)s add-ons were already taken. "
        "Keep them as they are."
    ),
}
MSG_FEE_NEEDS_PRICE = setup.MSG_FEE_NEEDS_PRICE  # {"rebuy": …, "addon": …}
MSG_FROZEN = N_(
    "The prizes are already fixed (registration closed), so the guarantee and added money "
    "can no longer change."
)
MSG_BAD_ZONE = N_('Unknown time zone "%(zone)s": pick one from the list (e.g. Europe/Paris).')
MSG_BAD_VALUE = N_("%(label)s: %(hint)s")
MSG_KNOCKOUTS_PAID = N_(
    "The PKO cash share cannot change: %(n)s knockouts were already paid with it. Keep it, "
    "or undo those eliminations first."
)
MSG_ENVELOPES_DRAWN = N_(
    "The mystery stage and envelopes cannot change: %(n)s envelopes were already drawn. "
    "Keep them, or undo those eliminations first."
)
MSG_ENVELOPES_HINT = N_(
    "The envelopes hold %(envelopes)s; the bounty money collected so far is %(collected)s. "
    "They must add up to it at the first draw (RULES 9.4)."
)

# model field -> what a person calls it (messages, the log)
LABELS = {
    "name": N_("Name"),
    "seats_per_table": N_("Seats per table"),
    "starting_stack": N_("Starting stack"),
    "buy_in": N_("Buy-in"),
    "fee": N_("Fee"),
    "guarantee": N_("Guarantee"),
    "added_money": N_("Added money"),
    "late_reg_until": N_("Late registration"),
    "reentries_allowed": N_("Re-entries per player"),
    "rebuy_until": N_("Rebuys"),
    "rebuy_price": N_("Rebuy price"),
    "rebuy_fee": N_("Rebuy fee"),
    "rebuy_chips": N_("Rebuy chips"),
    "addon_at": N_("Add-on"),
    "addon_price": N_("Add-on price"),
    "addon_fee": N_("Add-on fee"),
    "addon_chips": N_("Add-on chips"),
    "balance_tolerance": N_("Balance tolerance"),
    "redraw_at_three": N_("Redraw at three tables"),
    "redraw_at_two": N_("Redraw at two tables"),
    "redraw_at_one": N_("Redraw at the final table"),
    "race_threshold": N_("Chip race extra chip"),
    "auto_open_tables": N_("Open tables when full"),
    "draw_at_registration": N_("Seat at registration"),
    "public_names": N_("Names on the display"),
    "time_zone": N_("Time zone"),
    "starts_at": N_("Starts at"),  # issue 28: the director home's today and upcoming
    "payout_percentages": N_("Payouts"),
    "rounding_unit": N_("Round prizes to"),
    "bounty_kind": N_("Bounty type"),
    "bounty": N_("Bounty"),
    "bounty_cash_percent": N_("PKO cash share"),
    "mystery_from_players": N_("Mystery stage"),
    "mystery_envelopes": N_("Mystery envelopes"),
}
# Fields written on the tournament row by this service (the payout table and the rounding
# unit go through ``money.payouts_set``).
ROW_FIELDS = tuple(f for f in LABELS if f not in ("payout_percentages", "rounding_unit"))
MONEY = ("buy_in", "fee", "guarantee", "added_money", "rebuy_price", "rebuy_fee", "addon_price")
MONEY += ("addon_fee",)
COUNTS = {  # field -> (least, most)
    "seats_per_table": (2, 12),
    "starting_stack": (1, 10**9),
    "reentries_allowed": (0, 50),
    "rebuy_chips": (0, 10**9),
    "addon_chips": (0, 10**9),
    "balance_tolerance": (1, 9),
}
FLAGS = (
    "redraw_at_three",
    "redraw_at_two",
    "redraw_at_one",
    "auto_open_tables",
    "draw_at_registration",
)
CHOICES = {
    "race_threshold": set(Tournament.Threshold.values),
    "public_names": set(Tournament.NameStyle.values),
}
WINDOWS = ("late_reg_until", "rebuy_until", "addon_at")


def _refuse(code: str, msg: str, at: str, status: int = 409, **params) -> DomainError:
    """A refusal naming the field ``at``, its message filled in with ``params``."""
    filled = msg % params if params else msg
    return DomainError(code, msg, status=status, fields={at: filled}, params=params)


def label(field: str):  # a setting's name, in the language active when shown (the log: LABELS)
    return gettext_lazy(LABELS[field])


def _hint(text: str, **values):  # translated (and filled in) when the message is shown
    return lazy(lambda: gettext(text) % values if values else gettext(text), str)()


def _check_shape(field: str, value: Any) -> None:
    """Types and bounds (the form checks them too; a redo or a script may not)."""
    ok = True
    if field == "name":
        ok = isinstance(value, str) and 0 < len(value.strip()) <= 120
        if not ok:
            raise _refuse("bad_input", MSG_NAME, field, 400)
    elif field in MONEY:
        ok = type(value) is int and 0 <= value <= 10**13
        hint = _hint(N_("an amount of zero or more"))
    elif field in COUNTS:
        lo, hi = COUNTS[field]
        ok = (value is None and field == "balance_tolerance") or (
            type(value) is int and lo <= value <= hi
        )
        hint = _hint(N_("a whole number from %(lo)s to %(hi)s"), lo=lo, hi=hi)
    elif field in FLAGS:
        ok = type(value) is bool
        hint = _hint(N_("on or off"))
    elif field in CHOICES:
        ok = isinstance(value, str) and value in CHOICES[field]
        hint = _hint(N_("one of %(values)s"), values=", ".join(sorted(CHOICES[field])))
    elif field in WINDOWS:
        ok = value is None or (type(value) is int and 0 <= value < 10**4)
        hint = _hint(N_("a level of the structure, or empty"))
    elif field in BOUNTY_FIELDS:
        pass  # together, after the locks: ``_check_state``
    elif field == "starts_at":
        ok = value is None or (isinstance(value, datetime) and value.tzinfo is not None)
        hint = _hint(N_("a date and time, or empty"))
    elif field == "time_zone":
        try:
            ok = isinstance(value, str) and bool(value) and bool(zoneinfo.ZoneInfo(value))
        except (ValueError, zoneinfo.ZoneInfoNotFoundError):
            ok = False
        if not ok:
            raise _refuse("bad_input", MSG_BAD_ZONE, field, 400, zone=value)
    if not ok:
        raise _refuse("bad_input", MSG_BAD_VALUE, field, 400, label=label(field), hint=hint)


def _where(items, index: int):
    """ "level 3" or "break 1": the item the clock is in, as the display names it."""
    kind = items[index].kind
    n = sum(1 for it in items[: index + 1] if it.kind == kind)
    return _hint(N_("level %(n)s") if kind == "level" else N_("break %(n)s"), n=n)


def _level_number(items, index: int) -> int:
    return sum(1 for it in items[: index + 1] if it.kind == "level") or 1


def field_locks(t: Tournament) -> dict[str, tuple[str, str]]:
    """The settings that can no longer change now, model field -> (code, message)."""
    return {f: (exc.code, exc.message) for f, exc in lock_refusals(t).items()}


def lock_refusals(t: Tournament) -> dict[str, DomainError]:
    """The settings that can no longer change now, model field -> the refusal: the one
    source of the reasons, raised by the service and shown under the form's fields."""
    locks: dict[str, DomainError] = {}
    entries = Entry.objects.filter(tournament=t).count()
    if entries:
        for f in ("buy_in", "fee", "starting_stack", "bounty_kind", "bounty"):  # RULES 9.1
            locks[f] = _refuse("settings_locked", MSG_PAID_ALREADY, f, label=label(f), n=entries)
        locks["draw_at_registration"] = _refuse(
            "settings_locked", MSG_DRAW_AFTER_ENTRIES, "draw_at_registration", n=entries
        )
    seated = Seat.objects.filter(tournament=t).count()
    if seated:
        locks["seats_per_table"] = _refuse(
            "settings_locked", MSG_SEATED_ALREADY, "seats_per_table", n=seated
        )
    if not t.registration_open:
        for f in ("late_reg_until", "reentries_allowed"):
            locks[f] = _refuse("registration_closed", MSG_REGISTRATION_CLOSED, f)
    if not t.rebuys_open:
        locks["rebuy_until"] = _refuse("rebuys_closed", MSG_REBUYS_CLOSED, "rebuy_until")
    if t.frozen_prizes is not None:
        for f in ("guarantee", "added_money"):
            locks[f] = _refuse("prizes_frozen", MSG_FROZEN, f)
    for what, msg in MSG_TAKEN_ALREADY.items():
        counter = "rebuys" if what == "rebuy" else "addons"
        taken = sum(Entry.objects.filter(tournament=t).values_list(counter, flat=True))
        if taken:
            for f in (f"{what}_price", f"{what}_fee", f"{what}_chips"):
                locks[f] = _refuse("settings_locked", msg, f, n=taken)
    if t.bounty_kind != Tournament.BountyKind.NONE:
        paid = Knockout.objects.filter(tournament=t).filter(Q(cash__gt=0) | Q(to_head__gt=0))
        if n := paid.count():  # RULES 9.3: every knockout is paid at the same share
            f = "bounty_cash_percent"
            locks[f] = _refuse("knockouts_paid", MSG_KNOCKOUTS_PAID, f, n=n)
        if n := envelopes_drawn(t):  # RULES 9.4: the set the draws were made from
            for f in ("mystery_from_players", "mystery_envelopes"):
                locks[f] = _refuse("envelopes_drawn", MSG_ENVELOPES_DRAWN, f, n=n)
    return locks


def _check_state(t: Tournament, changes: dict[str, Any]) -> None:
    """Refuse what no longer makes sense (see the module's docstring)."""
    locks = lock_refusals(t) if changes else {}
    for field in changes:
        if field in locks:
            raise locks[field]
    if "seats_per_table" in changes:
        n = changes["seats_per_table"]
        for table in Table.objects.filter(tournament=t, status=Table.Status.OPEN):
            high = [s for s in table.unavailable_seats or () if s > n]
            if high:
                p = {"n": n, "table": table.number, "seat": min(high)}
                raise _refuse("settings_locked", MSG_SEATS_UNAVAILABLE, "seats_per_table", **p)
    now = clock_index(t) if t.clock_started else None
    if now is not None:
        items = structure_items(t)
        for field in ("late_reg_until", "rebuy_until"):
            value = changes.get(field)
            if field in changes and value is not None and window_passed(value, now):
                p = {"what": label(field), "level": _level_number(items, value)}
                p["now"] = _where(items, now)
                p["next"] = _level_number(items, now) + (items[now].kind == "break")
                raise _refuse("window_passed", MSG_LEVEL_OVER, field, **p)
        value = changes.get("addon_at")
        if "addon_at" in changes and value is not None and value < now:
            number = sum(1 for it in items[: value + 1] if it.kind == "break")
            raise _refuse("window_passed", MSG_BREAK_OVER, "addon_at", n=number)
    if any(f in changes for f in BOUNTY_FIELDS):
        tournaments.bounty_options({f: changes.get(f, getattr(t, f)) for f in BOUNTY_FIELDS})
    for what, msg in MSG_FEE_NEEDS_PRICE.items():
        price = changes.get(f"{what}_price", getattr(t, f"{what}_price"))
        fee = changes.get(f"{what}_fee", getattr(t, f"{what}_fee"))
        if fee and not price:
            raise _refuse("bad_input", msg, f"{what}_fee", 400)


def tournament_settings_update(
    *, tournament_id: int, changes: dict[str, Any], actor=None
) -> dict[str, list]:
    """Change some of a tournament's settings at once (model field -> new value; the payout
    table as ``payout_percentages``, basis points best first, [] for the default table; the
    rounding unit as ``rounding_unit``). All or nothing. Returns {field: [before, after]} of
    what changed; values equal to the current ones are left out, and nothing changed at all
    is refused. Recorded as one ``settings_changed`` Event, undone by the general undo."""
    if not isinstance(changes, dict):
        changes = {}
    for field in changes:
        if field not in LABELS:
            raise _refuse("bad_input", MSG_UNKNOWN_SETTING, str(field), 400, field=field)
    changes = starts.parsed(  # the start: a redo replays the ISO text it recorded
        {f: (v.strip() if f == "name" and isinstance(v, str) else v) for f, v in changes.items()}
    )
    if "mystery_envelopes" in changes:  # as the row keeps them; a bad set: refused later
        try:
            changes["mystery_envelopes"] = tournaments.envelopes_stored(
                changes["mystery_envelopes"]
            )
        except DomainError:
            pass
    for field, value in changes.items():
        if field in ROW_FIELDS:
            _check_shape(field, value)
    table = changes.get("payout_percentages")
    if table is not None and not (
        isinstance(table, list | tuple) and all(type(p) is int for p in table)
    ):
        raise _refuse("bad_percentages", money.MSG_BAD_TABLE, "payout_percentages", 400)
    unit = changes.get("rounding_unit")
    if unit is not None and (type(unit) is not int or not 0 < unit <= 10**11):
        hint = _hint(N_("an amount above zero"))
        f = "rounding_unit"
        raise _refuse("bad_rounding_unit", MSG_BAD_VALUE, f, 400, label=label(f), hint=hint)
    call = {"service": "tournament_settings_update", "kwargs": {"changes": starts.plain(changes)}}
    with tournament_action(tournament_id, call=call) as t:
        if t.status == Tournament.Status.FINISHED:
            raise DomainError("tournament_finished", MSG_FINISHED, status=409)
        row = {f: v for f, v in changes.items() if f in ROW_FIELDS and getattr(t, f) != v}
        done: dict[str, list] = starts.plain({f: [getattr(t, f), v] for f, v in row.items()})
        table = changes.get("payout_percentages", ...)
        if table is not ... and list(table or []) == list(t.payout_percentages or []):
            table = ...
        rounding = changes.get("rounding_unit")
        if rounding == t.rounding_unit:
            rounding = None
        if not row and table is ... and rounding is None:
            raise DomainError("nothing_changed", MSG_NOTHING_CHANGED, status=400)
        _check_state(t, row)
        if table is not ... or rounding is not None:
            before_table, before_unit = t.payout_percentages, t.rounding_unit
            money.payouts_set(
                tournament_id=t.pk,
                percentages=None if table is ... else list(table or []),
                rounding_unit=rounding,
                actor=actor,
            )
            t.refresh_from_db(fields=["payout_percentages", "rounding_unit", "frozen_prizes"])
            if table is not ...:
                done["payout_percentages"] = [before_table, t.payout_percentages]
            if rounding is not None:
                done["rounding_unit"] = [before_unit, t.rounding_unit]
        if row:
            j = journal_current()
            j.note_tournament(fields=list(row))
            if "seats_per_table" in row:
                # The open tables take the new size (nobody sits yet: checked above).
                tables = Table.objects.filter(tournament=t, status=Table.Status.OPEN)
                for pk, seats in tables.values_list("pk", "seats"):
                    j.tables.setdefault(pk, {}).setdefault("seats", seats)
                tables.update(seats=row["seats_per_table"])
            for f, v in row.items():
                setattr(t, f, v)
            Tournament.objects.filter(pk=t.pk).update(**row)
        with override("en"):  # the log's text; the screens word ``changes`` again
            summary = summary_of(t, done)
        record_event(t, "settings_changed", {"changes": done, "summary": summary}, actor)
    return done


def summary_of(t: Tournament, done: dict[str, list]) -> str:
    """What changed, in the active language and the settings' order (the log: English)."""
    items = structure_items(t)

    def shown(field: str, v: Any) -> str:
        if v is None:
            words = {"late_reg_until": N_("until closed"), "balance_tolerance": N_("by the rules")}
            return gettext(words.get(field, N_("none")))
        if field in ("late_reg_until", "rebuy_until"):
            return gettext("end of level %(n)s") % {"n": _level_number(items, v)}
        if field == "addon_at":
            return _where(items, v)
        if field in MONEY or field in ("rounding_unit", "bounty"):
            return money_exact(v)
        if field == "bounty_kind":
            return str(Tournament.BountyKind(v).label)
        if field == "bounty_cash_percent":
            return gettext("%(n)s %% in cash") % {"n": v}
        if field == "mystery_from_players":
            return gettext("from %(n)s players") % {"n": v}
        if field == "mystery_envelopes":
            return envelopes_text(v, ", ", money_exact) or gettext("none")
        if field == "payout_percentages":
            return " ".join(f"{p / 100:g}" for p in v) + " %"
        if field == "starts_at":
            return date_format(timezone.localtime(datetime.fromisoformat(v), t.zone), "D d M H:i")
        if isinstance(v, bool):
            return gettext("on") if v else gettext("off")
        return str(v)

    ordered = [(f, done[f]) for f in LABELS if f in done]  # jsonb reorders the keys
    return "; ".join(f"{label(f)}: {shown(f, a)} → {shown(f, b)}" for f, (a, b) in ordered)


# ---------------------------------------------------------------- the settings form

# The setup form's fields that stay editable, with their setup names (tourney/services/setup.py).
FORM_FIELDS = (
    "name",
    "seats_per_table",
    "starting_stack",
    "buy_in",
    "fee",
    "guarantee",
    "added_money",
    "rounding",
    "payouts",
    "late_reg_level",
    "reentries",
    "rebuy_level",
    "rebuy_price",
    "rebuy_fee",
    "rebuy_chips",
    "addon_break",
    "addon_price",
    "addon_fee",
    "addon_chips",
    "balance_tolerance",
    "race_threshold",
    "public_names",
    "time_zone",
    "starts_at",
    "redraw_at_three",
    "redraw_at_two",
    "redraw_at_one",
    "auto_open_tables",
    "draw_at_registration",
    *BOUNTY_FIELDS,
)
# form field -> model field, where the names differ (a service's message finds its field)
FORM_TO_MODEL = {
    "rounding": "rounding_unit",
    "payouts": "payout_percentages",
    "late_reg_level": "late_reg_until",
    "reentries": "reentries_allowed",
    "rebuy_level": "rebuy_until",
    "addon_break": "addon_at",
}
MODEL_TO_FORM = {v: k for k, v in FORM_TO_MODEL.items()}


def _settings_form_class():
    import copy

    from django import forms

    from tourney.services.setup import SetupForm

    fields = {name: copy.deepcopy(SetupForm.base_fields[name]) for name in FORM_FIELDS}
    fields["starting_stack"].initial = None
    return type("SettingsForm", (forms.Form,), fields)


SettingsForm = _settings_form_class()


def settings_initial(t: Tournament) -> dict[str, Any]:
    """The settings form filled in from the tournament as it is now."""
    table = t.payout_percentages
    return {
        "name": t.name,
        "seats_per_table": t.seats_per_table,
        "starting_stack": t.starting_stack,
        "payouts": " ".join(f"{p / 100:g}" for p in table) if table else "",
        **setup.rules_initial(t, structure_items(t)),
        "mystery_envelopes": envelopes_text(t.mystery_envelopes),
        "starts_at": starts.starts_input(t),
    }


def envelopes_text(envelopes: dict | None, sep: str = "\n", shown=money_input) -> str:
    """The envelope set as typed (``setup.parse_envelopes`` reads it back), biggest first."""
    pairs = sorted(((int(a), c) for a, c in (envelopes or {}).items() if c), reverse=True)
    return sep.join(f"{shown(a)} x {c}" for a, c in pairs)


def price_text(t: Tournament) -> str:
    """The desk's price in its parts (RULES 9.1): "Price at the desk: 140.00 = 100.00 prize
    pool + 20.00 bounty + 20.00 fee"."""
    split = buy_in_split(t)
    words = (N_("prize pool"), N_("bounty"), N_("fee"))
    parts = zip((split.prize_pool, split.bounty, split.fee), words, strict=True)
    shown = " + ".join(f"{money_exact(v)} {gettext(w)}" for v, w in parts if v or w != "bounty")
    price = {"price": money_exact(split.price), "parts": shown}
    return gettext("Price at the desk: %(price)s = %(parts)s") % price


def envelopes_hint(t: Tournament) -> str | None:
    """The envelopes against the bounty money collected so far (RULES 9.4), for the page."""
    if t.bounty_kind != Tournament.BountyKind.MYSTERY:
        return None
    totals = bounty_totals(t)
    return gettext(MSG_ENVELOPES_HINT) % {
        "envelopes": money_exact(totals["in_envelopes"]),
        "collected": money_exact(totals["collected"]),
    }


def changes_from_form(t: Tournament, data: dict[str, Any]) -> dict[str, Any]:
    """The cleaned settings form → ``tournament_settings_update``'s ``changes``: only what
    differs from the tournament now. Raises DomainError naming the form's field."""
    items = structure_items(t)
    wanted: dict[str, Any] = {
        "name": data["name"].strip(),
        "seats_per_table": data["seats_per_table"],
        "starting_stack": data["starting_stack"],
        "late_reg_until": item_index_of(
            items, LEVEL, data.get("late_reg_level"), field="late_reg_level"
        ),
        "reentries_allowed": data.get("reentries") or 0,
        "rebuy_until": item_index_of(items, LEVEL, data.get("rebuy_level"), field="rebuy_level"),
        "rebuy_chips": data.get("rebuy_chips") or 0,
        "addon_at": item_index_of(items, BREAK, data.get("addon_break"), field="addon_break"),
        "addon_chips": data.get("addon_chips") or 0,
        "balance_tolerance": data.get("balance_tolerance"),
        "race_threshold": data["race_threshold"],
        "public_names": data["public_names"],
        "time_zone": data.get("time_zone") or t.time_zone,
    }
    # issue 28: typed in the zone the form chose (the tournament's, or the one set with it)
    wanted["starts_at"] = starts.parse_starts_at(data.get("starts_at"), wanted["time_zone"])
    for field in MONEY:
        wanted[field] = setup.parse_money(data.get(field), field)
    for field in FLAGS:
        wanted[field] = bool(data.get(field))
    wanted.update(setup.bounty_from_form(data))  # RULES 9.1: checked by the service
    wanted["mystery_envelopes"] = tournaments.envelopes_stored(wanted["mystery_envelopes"])
    changes = {f: v for f, v in wanted.items() if getattr(t, f) != v}
    if "time_zone" in changes and not t.time_zone:
        if wanted["time_zone"] == django_settings.TIME_ZONE:
            del changes["time_zone"]  # the server's zone, shown as the default: no change
    rounding = setup.parse_money(data.get("rounding"), "rounding") or 100
    if rounding != t.rounding_unit:
        changes["rounding_unit"] = rounding
    table = setup.parse_payouts(data.get("payouts") or "") or []
    if table != list(t.payout_percentages or []):
        changes["payout_percentages"] = table
    return changes


def locked_fields(t: Tournament) -> dict[str, str]:
    """The settings form's fields that can no longer change, with why: the service's own
    refusal (``field_locks``), shown under the field, which is then read-only."""
    return {MODEL_TO_FORM.get(f, f): refusal_text(exc) for f, exc in lock_refusals(t).items()}
