"""Setting a tournament up from the dashboard: the setup form's fields turned into one call of
``tournaments.tournament_create`` (plus ``money.payouts_set`` for a payout table), copying a past
tournament, and ticking moves off as announced.

Readings of the issue where it is silent:

- Money is typed in currency units with up to two decimals ("100", "12.50") and stored in the
  smallest unit (cents), as everywhere else.
- Late registration and rebuys close "at the end of level N" (N counts levels only, as the
  display shows them); the add-on is offered "at break N". The model keeps item indexes over
  the whole structure (RULES 4.4), so the level and break numbers are converted here (by
  ``engine.structure.item_index_of`` and ``item_number_of``).
- A typed structure is one item a line: ``25/50 20`` (small/big, minutes), ``100/200/200 20``
  (a third number is the big-blind ante), ``100/200 ante 25 20``, ``break 10`` or
  ``break 10 color-up 25``. A structure the chip set cannot pay (RULES 4.5, 5.1,
  ``structure.check_structure``) is refused with the engine's words.
- A copy takes every setting, the chip set, the structure and as many tables as the source
  opened at its creation; never its entries, seats or money. A payout table is copied only when
  the director set one (the table a freeze pinned was sized for last week's field).
- Bounties (RULES 9.1): the buy-in field is the prize-pool part, the desk's price is buy-in +
  bounty + fee. A copy takes the bounty settings, not the mystery envelopes (the ones left).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django import forms
from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_noop as N_

from tables.models import Move
from tourney.core.events import record_event
from tourney.core.locking import lock_tournament
from tourney.engine import bounties as bounty_engine
from tourney.engine import clock as clock_engine
from tourney.engine import structure as structure_engine
from tourney.engine.clock import BREAK, LEVEL
from tourney.engine.errors import DomainError
from tourney.engine.money_format import money_input, money_typed
from tourney.engine.numbers import ascii_int
from tourney.engine.structure import item_index_of, item_number_of
from tourney.models import ChipDenomination, Event, Tournament
from tourney.selectors import clock as clock_reads
from tourney.services import money, satellite_setup, starts, tournaments
from tourney.services.starts import default_zone, zone_choices

MSG_NO_MOVES = N_("Tick at least one move.")
MSG_MOVE_NOT_FOUND = N_("No such move in this tournament.")
MSG_SOURCE_NOT_FOUND = N_("No such tournament to copy.")
NAME_MAX = Tournament._meta.get_field("name").max_length  # 120
COPY_SUFFIX = " (copy)"
# Messages with values are templates (``%(name)s``) filled in by DomainError's ``params``: the
# screens translate the template, then fill it in (tourney.core.language.refusal_text).
MSG_NAME_TOO_LONG = N_("The name is too long (%(n)s characters at most).")
MSG_COPY_NAME_TOO_LONG = MSG_NAME_TOO_LONG % {"n": NAME_MAX}
MSG_BAD_CHIPS = N_(
    'List the chips as "25 green, 100 black, 500 purple": values above zero, each once.'
)
MSG_BAD_LINE = N_('Line %(n)s: write "25/50 20", "100/200/200 20" or "break 10 color-up 25".')
MSG_BAD_PAYOUTS = N_('Percentages per place, best first, adding up to 100 ("50 30 20").')
MSG_PAYOUTS_SUM = N_(
    'The percentages add up to %(total)s, not 100: change them so they do (e.g. "50 30 20").'
)
MSG_PAYOUTS_ORDER = N_(
    "Place %(place)s would be paid more than place %(above)s: list the percentages best paid "
    'first, each no more than the one before (e.g. "50 30 20").'
)
MSG_STRUCTURE_PROBLEMS = N_("The chip set cannot pay this structure.")
MSG_ENVELOPE_LINE = N_('Envelopes "%(part)s": write amount x count, like "5000 x 10, 1000 x 40".')
MSG_ENVELOPE_AMOUNT = N_(
    'Envelopes "%(part)s": the amount must be 0.01 or more, like 100 or 12.50.'
)
MSG_ENVELOPE_COUNT = N_(
    'Envelopes "%(part)s": the count must be a whole number from 1 to 1,000,000.'
)
MSG_BAD_AMOUNT = N_("An amount like 100 or 12.50, zero or more.")
MSG_FEE_NEEDS_PRICE = {
    "rebuy": N_("A rebuy fee needs a rebuy price (the fee is taken on top of it)."),
    "addon": N_("A add-on fee needs a add-on price (the fee is taken on top of it)."),
}

STRUCTURE_CHOICES = (
    ("regular", gettext_lazy("Regular (20-minute levels)")),
    ("turbo", gettext_lazy("Turbo (10-minute levels)")),
    ("deep", gettext_lazy("Deep stack (twice the stack)")),
    ("generate", gettext_lazy("Generate from the settings below")),
    ("custom", gettext_lazy("As typed in the levels box")),
)
DEFAULT_CHIPS_TEXT = ", ".join(f"{v} {c}" for v, c in tournaments.DEFAULT_CHIPS)


# ---------------------------------------------------------------- moves


def move_mark_announced(*, tournament_id: int, move_ids: Sequence[int], actor=None) -> int:
    """The director announced these moves: tick them off the move list. Returns how many were
    not ticked before (ticking twice is harmless)."""
    ids = sorted({int(i) for i in move_ids})
    if not ids:
        raise DomainError("bad_input", MSG_NO_MOVES, fields={"moves": MSG_NO_MOVES})
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        rows = Move.objects.filter(tournament=t, pk__in=ids)
        found = set(rows.values_list("pk", flat=True))
        missing = [i for i in ids if i not in found]
        if missing:
            raise DomainError(
                "move_not_found", MSG_MOVE_NOT_FOUND, status=404, fields={"moves": missing}
            )
        changed = rows.filter(announced=False).update(announced=True)
        record_event(t, "moves_announced", {"moves": ids, "changed": changed}, actor)
    return changed


# ---------------------------------------------------------------- parsing typed values


def _refused(code: str, msg: str, field: str, **params) -> DomainError:
    """A refusal at ``field``, its message filled in with ``params`` (translated on screens)."""
    return DomainError(code, msg, fields={field: msg % params}, params=params)


def parse_money(text: str | None, field: str) -> int:
    """ "12.50" → 1250 (the smallest unit); empty → 0."""
    amount = money_typed(text)
    if amount is None:
        raise DomainError("bad_input", MSG_BAD_AMOUNT, fields={field: MSG_BAD_AMOUNT})
    return amount


def parse_chips(text: str) -> list[tuple[int, str]]:
    chips: list[tuple[int, str]] = []
    for part in re.split(r"[,;\n]+", text or ""):
        words = part.split()
        if not words:
            continue
        value = ascii_int(words[0], 9)
        if not value:
            raise DomainError("bad_input", MSG_BAD_CHIPS, fields={"chips": MSG_BAD_CHIPS})
        chips.append((value, " ".join(words[1:])[:30]))
    values = [v for v, _ in chips]
    if not chips or len(set(values)) != len(values):
        raise DomainError("bad_input", MSG_BAD_CHIPS, fields={"chips": MSG_BAD_CHIPS})
    return sorted(chips)


_LEVEL_LINE = re.compile(
    r"^(?P<sb>\d+)\s*/\s*(?P<bb>\d+)(?:\s*/\s*(?P<bba>\d+))?"
    r"(?:\s+ante\s+(?P<ante>\d+))?\s+(?P<min>\d+)\s*(?:m|min|minutes)?$",
    re.I,
)
_BREAK_LINE = re.compile(
    r"^break\s+(?P<min>\d+)\s*(?:m|min|minutes)?(?:\s+colou?r-?up\s+(?P<cu>[\d ,]+))?$", re.I
)


def parse_levels_text(text: str) -> list[dict[str, Any]]:
    """The levels box → docs/api.md ``levels`` dicts (checked later by
    ``structure.parse_levels``)."""
    out: list[dict[str, Any]] = []
    for n, line in enumerate((text or "").splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = _LEVEL_LINE.match(line)
        if m:
            out.append(
                {
                    "kind": "level",
                    "small_blind": int(m["sb"]),
                    "big_blind": int(m["bb"]),
                    "ante": int(m["ante"] or 0),
                    "big_blind_ante": int(m["bba"] or 0),
                    "minutes": int(m["min"]),
                }
            )
            continue
        m = _BREAK_LINE.match(line)
        if m:
            cu = [int(c) for c in re.split(r"[ ,]+", (m["cu"] or "").strip()) if c]
            out.append({"kind": "break", "minutes": int(m["min"]), "color_up": cu})
            continue
        raise _refused("bad_structure", MSG_BAD_LINE, "levels_text", n=n)
    return out


def levels_text(items: Sequence[clock_engine.Item]) -> str:
    """The inverse of :func:`parse_levels_text`, for the editor."""
    lines = []
    for it in items:
        minutes = f"{it.seconds // 60}" if it.seconds % 60 == 0 else f"{it.seconds / 60:g}"
        if it.kind == clock_engine.BREAK:
            cu = " color-up " + " ".join(str(c) for c in it.color_up) if it.color_up else ""
            lines.append(f"break {minutes}{cu}")
        else:
            bba = f"/{it.big_blind_ante}" if it.big_blind_ante else ""
            ante = f" ante {it.ante}" if it.ante else ""
            lines.append(f"{it.small_blind}/{it.big_blind}{bba}{ante} {minutes}")
    return "\n".join(lines)


_ENVELOPE = re.compile(r"^(?P<amount>[\d,]+(\.\d\d?)?)(\s*[x×*]\s*(?P<count>\d+))?$", re.I | re.A)
# items split at new lines, semicolons and commas, but not the comma of "5,000"
_ENVELOPE_SEP = re.compile(r"[;\n]+|,(?!\d{3}(?!\d))", re.A)


def _envelope_refusal(msg: str, part: str) -> DomainError:
    return _refused("bad_envelopes", msg, "mystery_envelopes", part=part[:40])


def parse_envelopes(text: str | None) -> dict[int, int]:
    """ "5000 x 10, 1000 x 40" (amount x count in currency units; an amount alone is one
    envelope; the same amount twice adds up) → {500000: 10, 100000: 40}; empty → {}
    (RULES 9.4)."""
    out: dict[int, int] = {}
    for raw in _ENVELOPE_SEP.split(text or ""):
        part = " ".join(raw.split())
        if not part:
            continue
        m = _ENVELOPE.match(part)
        if m is None:
            raise _envelope_refusal(MSG_ENVELOPE_LINE, part)
        amount = parse_money(m["amount"], "mystery_envelopes")  # at most 2 decimals: the regex
        if amount < 1:
            raise _envelope_refusal(MSG_ENVELOPE_AMOUNT, part)
        count = ascii_int(m["count"], 7) if m["count"] else 1
        if not count or count > 10**6:
            raise _envelope_refusal(MSG_ENVELOPE_COUNT, part)
        out[amount] = out.get(amount, 0) + count
    return out


def parse_payouts(text: str) -> list[int] | None:
    """ "50 30 20" (percent, best first) → basis points; empty → None (the default table)."""
    parts = [p for p in re.split(r"[\s,;%]+", text or "") if p]
    if not parts:
        return None
    try:
        points = [Decimal(p) * 100 for p in parts]
    except ArithmeticError:  # not a number, or one the decimal context overflows on
        raise DomainError(
            "bad_input", MSG_BAD_PAYOUTS, fields={"payouts": MSG_BAD_PAYOUTS}
        ) from None
    # at most 100 % a place (also keeps NaN, infinities and huge exponents out)
    if any(not p.is_finite() or p <= 0 or p > 10000 or p != p.to_integral_value() for p in points):
        raise DomainError("bad_input", MSG_BAD_PAYOUTS, fields={"payouts": MSG_BAD_PAYOUTS})
    # RULES 8.2 in the form's words (the service's check speaks in basis points, for the API)
    for n in range(1, len(points)):
        if points[n] > points[n - 1]:
            raise _refused("bad_input", MSG_PAYOUTS_ORDER, "payouts", place=n + 1, above=n)
    if sum(points) != 10000:
        total = f"{sum(points) / 100:f}"
        total = total.rstrip("0").rstrip(".") if "." in total else total
        raise _refused("bad_input", MSG_PAYOUTS_SUM, "payouts", total=total)
    return [int(p) for p in points]


# ---------------------------------------------------------------- the setup form


class SetupForm(starts.StartFields, satellite_setup.SetupFields):  # RULES 12.1, issue 28
    """Shapes and bounds only; every rule is checked by the engines and services."""

    name = forms.CharField(max_length=120)
    seats_per_table = forms.IntegerField(min_value=2, max_value=12, initial=9)
    tables = forms.IntegerField(min_value=0, max_value=1000, initial=8)
    starting_stack = forms.IntegerField(min_value=1, max_value=10**9, initial=10000)
    buy_in = forms.CharField(max_length=20, initial="100", required=False)
    fee = forms.CharField(max_length=20, initial="20", required=False)
    guarantee = forms.CharField(max_length=20, initial="0", required=False)
    added_money = forms.CharField(max_length=20, initial="0", required=False)
    rounding = forms.CharField(max_length=20, initial="1", required=False)
    chips = forms.CharField(max_length=400, initial=DEFAULT_CHIPS_TEXT)
    structure = forms.ChoiceField(choices=STRUCTURE_CHOICES, initial="regular")
    level_minutes = forms.IntegerField(min_value=1, max_value=240, initial=20)
    target_hours = forms.DecimalField(min_value=0.5, max_value=72, initial=8, decimal_places=1)
    break_every = forms.IntegerField(min_value=0, max_value=50, initial=4)
    break_minutes = forms.IntegerField(min_value=1, max_value=240, initial=10)
    bb_ante_from = forms.IntegerField(min_value=0, max_value=100, initial=4)
    levels_text = forms.CharField(required=False, max_length=20000, widget=forms.Textarea)
    late_reg_level = forms.IntegerField(min_value=1, max_value=200, required=False, initial=6)
    reentries = forms.IntegerField(min_value=0, max_value=50, initial=1)
    rebuy_level = forms.IntegerField(min_value=1, max_value=200, required=False)
    rebuy_price = forms.CharField(max_length=20, required=False)
    rebuy_fee = forms.CharField(max_length=20, required=False)
    rebuy_chips = forms.IntegerField(min_value=0, max_value=10**9, required=False)
    addon_break = forms.IntegerField(min_value=1, max_value=100, required=False)
    addon_price = forms.CharField(max_length=20, required=False)
    addon_fee = forms.CharField(max_length=20, required=False)
    addon_chips = forms.IntegerField(min_value=0, max_value=10**9, required=False)
    payouts = forms.CharField(max_length=600, required=False)
    balance_tolerance = forms.IntegerField(min_value=1, max_value=9, required=False)
    redraw_at_three = forms.BooleanField(required=False, initial=True)
    redraw_at_two = forms.BooleanField(required=False, initial=True)
    redraw_at_one = forms.BooleanField(required=False, initial=True)
    race_threshold = forms.ChoiceField(
        choices=Tournament.Threshold.choices, initial=Tournament.Threshold.HALF_OR_MORE
    )
    auto_open_tables = forms.BooleanField(required=False, initial=True)
    draw_at_registration = forms.BooleanField(required=False, initial=True)
    public_names = forms.ChoiceField(
        choices=Tournament.NameStyle.choices, initial=Tournament.NameStyle.INITIAL
    )
    seed = forms.IntegerField(min_value=0, max_value=2**62, required=False)
    # The card room's zone (the desk's "today"); the machine's by default (settings.TIME_ZONE).
    time_zone = forms.ChoiceField(choices=zone_choices, initial=default_zone, required=False)
    # RULES 9.1: the buy-in above is the prize-pool part; the price is buy-in + bounty + fee.
    bounty_kind = forms.ChoiceField(
        choices=Tournament.BountyKind.choices, initial="none", required=False
    )
    bounty = forms.CharField(max_length=20, initial="0", required=False)
    bounty_cash_percent = forms.IntegerField(min_value=0, max_value=100, initial=50, required=False)
    mystery_from_players = forms.IntegerField(min_value=1, initial=9, required=False)  # ≤ 10**5
    mystery_envelopes = forms.CharField(max_length=4000, required=False, widget=forms.Textarea)


def form_errors(form: forms.Form) -> dict[str, str]:
    return {k: " ".join(str(m) for m in v) for k, v in form.errors.items()}


def structure_from(data: dict[str, Any], chips: Sequence[tuple[int, str]]) -> tuple:
    """The items the form asks for: a preset, the generator, or the typed lines."""
    denominations = tuple(v for v, _ in chips)
    kind = data["structure"]
    stack = data["starting_stack"]
    if kind in structure_engine.PRESETS:
        return structure_engine.preset(kind, starting_stack=stack, denominations=denominations)
    if kind == "generate":
        return structure_engine.generate(
            starting_stack=stack,
            denominations=denominations,
            level_minutes=data["level_minutes"],
            target_hours=float(data["target_hours"]),
            break_every=data["break_every"],
            break_minutes=data["break_minutes"],
            bb_ante_from_level=data["bb_ante_from"],
        )
    return structure_engine.parse_levels(parse_levels_text(data.get("levels_text") or ""))


def check_chips_pay(items: Sequence[clock_engine.Item], chips: Sequence[tuple[int, str]]) -> None:
    problems = structure_engine.check_structure(items, [v for v, _ in chips])
    if problems:
        raise DomainError(
            "bad_structure", MSG_STRUCTURE_PROBLEMS, fields={"levels_text": " ".join(problems)}
        )


def bounty_from_form(data: dict[str, Any]) -> dict[str, Any]:
    """The bounty fields of the cleaned setup or settings form, as ``tournament_create``'s
    options (RULES 9.1, 9.3, 9.4); an empty share or stage takes the default."""
    share = data.get("bounty_cash_percent")
    return {
        "bounty_kind": data.get("bounty_kind") or Tournament.BountyKind.NONE,
        "bounty": parse_money(data.get("bounty"), "bounty"),
        "bounty_cash_percent": bounty_engine.DEFAULT_CASH_PERCENT if share is None else share,
        "mystery_from_players": data.get("mystery_from_players") or 9,  # the model's default
        "mystery_envelopes": parse_envelopes(data.get("mystery_envelopes")),
    }


def setup_plan(data: dict[str, Any]) -> dict[str, Any]:
    """Everything ``tournament_create`` needs, from the cleaned form; raises DomainError."""
    chips = parse_chips(data["chips"])
    items = structure_from(data, chips)
    check_chips_pay(items, chips)
    deep = data["structure"] == "deep"
    stack = data["starting_stack"] * (structure_engine.DEEP_STACK_FACTOR if deep else 1)
    rounding = parse_money(data.get("rounding"), "rounding") or 100
    options: dict[str, Any] = {
        "guarantee": parse_money(data.get("guarantee"), "guarantee"),
        "added_money": parse_money(data.get("added_money"), "added_money"),
        "rounding_unit": rounding,
        "late_reg_until": item_index_of(items, LEVEL, data.get("late_reg_level"), field="level"),
        "reentries_allowed": data.get("reentries") or 0,
        "rebuy_until": item_index_of(items, LEVEL, data.get("rebuy_level"), field="level"),
        "rebuy_price": parse_money(data.get("rebuy_price"), "rebuy_price"),
        "rebuy_fee": parse_money(data.get("rebuy_fee"), "rebuy_fee"),
        "rebuy_chips": data.get("rebuy_chips") or 0,
        "addon_at": item_index_of(items, BREAK, data.get("addon_break"), field="addon_break"),
        "addon_price": parse_money(data.get("addon_price"), "addon_price"),
        "addon_fee": parse_money(data.get("addon_fee"), "addon_fee"),
        "addon_chips": data.get("addon_chips") or 0,
        "balance_tolerance": data.get("balance_tolerance"),
        "redraw_at_three": bool(data.get("redraw_at_three")),
        "redraw_at_two": bool(data.get("redraw_at_two")),
        "redraw_at_one": bool(data.get("redraw_at_one")),
        "race_threshold": data["race_threshold"],
        "auto_open_tables": bool(data.get("auto_open_tables")),
        "draw_at_registration": bool(data.get("draw_at_registration")),
        "public_names": data["public_names"],
        "time_zone": data.get("time_zone") or settings.TIME_ZONE,
        **tournaments.bounty_options(bounty_from_form(data)),  # RULES 9.1: named fields
        **satellite_setup.options_from_form(data),  # RULES 12.1
        **starts.options_from_form(data),  # issue 28: in the zone chosen above
    }
    for what, msg in MSG_FEE_NEEDS_PRICE.items():
        if options[f"{what}_fee"] and not options[f"{what}_price"]:
            raise DomainError("bad_input", msg, fields={f"{what}_fee": msg})
    return {
        "name": data["name"],
        "seats_per_table": data["seats_per_table"],
        "tables": data["tables"],
        "starting_stack": stack,
        "buy_in": parse_money(data.get("buy_in"), "buy_in"),
        "fee": parse_money(data.get("fee"), "fee"),
        "seed": data.get("seed"),
        "levels": structure_engine.items_to_data(items),
        "chips": chips,
        "options": options,
        "payouts": parse_payouts(data.get("payouts") or ""),
        "items": items,
    }


def setup_create(*, data: dict[str, Any], actor) -> Tournament:
    """Create the tournament the setup form describes, all or nothing."""
    plan = setup_plan(data)
    with transaction.atomic():
        t = tournaments.tournament_create(
            actor=actor,
            name=plan["name"],
            seats_per_table=plan["seats_per_table"],
            tables=plan["tables"],
            starting_stack=plan["starting_stack"],
            buy_in=plan["buy_in"],
            fee=plan["fee"],
            seed=plan["seed"],
            levels=plan["levels"],
            chips=plan["chips"],
            options=plan["options"],
        )
        if plan["payouts"]:
            money.payouts_set(tournament_id=t.pk, percentages=plan["payouts"], actor=actor)
    return t


# ---------------------------------------------------------------- copying


COPIED_FIELDS = (
    "seats_per_table",
    "buy_in",
    "fee",
    "guarantee",
    "added_money",
    "rounding_unit",
    "late_reg_until",
    "reentries_allowed",
    "rebuy_until",
    "rebuy_price",
    "rebuy_fee",
    "rebuy_chips",
    "addon_at",
    "addon_price",
    "addon_fee",
    "addon_chips",
    "balance_tolerance",
    "redraw_at_three",
    "redraw_at_two",
    "redraw_at_one",
    "race_threshold",
    "auto_open_tables",
    "draw_at_registration",
    "public_names",
    "time_zone",
    "bounty_kind",  # RULES 9.1; the envelopes are not copied (the ones left, last week's)
    "bounty",
    "bounty_cash_percent",
    "mystery_from_players",
)


def _tables_at_creation(src: Tournament) -> int:
    created = (
        Event.objects.filter(tournament=src, kind="tournament_created")
        .values_list("payload", flat=True)
        .first()
    )
    if created and isinstance(created.get("tables"), int):
        return created["tables"]
    return src.started_tables


def _custom_payouts(src: Tournament) -> list[int] | None:
    if not src.payout_percentages:
        return None
    if src.frozen_prizes is None:
        return list(src.payout_percentages)
    if Event.objects.filter(tournament=src, kind="payouts_set").exists():
        return list(src.payout_percentages)
    return None


def copy_name(name: str) -> str:
    """The default name of a copy: the source's, cut so that " (copy)" still fits."""
    return name[: NAME_MAX - len(COPY_SUFFIX)] + COPY_SUFFIX


def rules_initial(t: Tournament, items: Sequence[clock_engine.Item]) -> dict[str, Any]:
    """The form fields a tournament's money and rules fill in, shared by the setup form copied
    from a past tournament and the settings form of this one."""
    return {
        "buy_in": money_input(t.buy_in),
        "fee": money_input(t.fee),
        "guarantee": money_input(t.guarantee),
        "added_money": money_input(t.added_money),
        "rounding": money_input(t.rounding_unit),
        "late_reg_level": item_number_of(items, LEVEL, t.late_reg_until),
        "reentries": t.reentries_allowed,
        "rebuy_level": item_number_of(items, LEVEL, t.rebuy_until),
        "rebuy_price": money_input(t.rebuy_price) if t.rebuy_price else "",
        "rebuy_fee": money_input(t.rebuy_fee) if t.rebuy_fee else "",
        "rebuy_chips": t.rebuy_chips or None,
        "addon_break": item_number_of(items, BREAK, t.addon_at),
        "addon_price": money_input(t.addon_price) if t.addon_price else "",
        "addon_fee": money_input(t.addon_fee) if t.addon_fee else "",
        "addon_chips": t.addon_chips or None,
        "balance_tolerance": t.balance_tolerance,
        "redraw_at_three": t.redraw_at_three,
        "redraw_at_two": t.redraw_at_two,
        "redraw_at_one": t.redraw_at_one,
        "race_threshold": t.race_threshold,
        "auto_open_tables": t.auto_open_tables,
        "draw_at_registration": t.draw_at_registration,
        "public_names": t.public_names,
        "time_zone": t.time_zone or settings.TIME_ZONE,
        "bounty_kind": t.bounty_kind,
        "bounty": money_input(t.bounty),
        "bounty_cash_percent": t.bounty_cash_percent,
        "mystery_from_players": t.mystery_from_players,
    }


def copy_initial(src: Tournament) -> dict[str, Any]:
    """The setup form filled in from a past tournament (to edit before creating)."""
    items = clock_reads.structure_items(src)
    chips = ChipDenomination.objects.filter(tournament=src).order_by("value")
    bp = _custom_payouts(src)
    return {
        "name": copy_name(src.name),
        "seats_per_table": src.seats_per_table,
        "tables": _tables_at_creation(src),
        "starting_stack": src.starting_stack,
        "chips": ", ".join(f"{c.value} {c.color}".strip() for c in chips),
        "structure": "custom",
        "levels_text": levels_text(items),
        "payouts": " ".join(f"{p / 100:g}" for p in bp) if bp else "",
        **rules_initial(src, items),
    }


def tournament_copy(
    *, source_id: int, name: str = "", actor=None, seed: int | None = None
) -> Tournament:
    """Next week's event: a new tournament with the settings, chip set, structure and table
    count of a past one; nothing of its play (entries, seats, money, clock)."""
    src = Tournament.objects.filter(pk=source_id).first()
    if src is None:
        raise DomainError("not_found", MSG_SOURCE_NOT_FOUND, status=404)
    name = (name or "").strip() or copy_name(src.name)
    if len(name) > NAME_MAX:
        raise _refused("bad_input", MSG_NAME_TOO_LONG, "name", n=NAME_MAX)
    items = clock_reads.structure_items(src)
    chips = [
        (c.value, c.color)
        for c in ChipDenomination.objects.filter(tournament=src).order_by("value")
    ]
    explicit = ("seats_per_table", "buy_in", "fee")
    options = {f: getattr(src, f) for f in COPIED_FIELDS if f not in explicit}
    bp = _custom_payouts(src)
    with transaction.atomic():
        t = tournaments.tournament_create(
            actor=actor,
            name=name,
            seats_per_table=src.seats_per_table,
            tables=_tables_at_creation(src),
            starting_stack=src.starting_stack,
            buy_in=src.buy_in,
            fee=src.fee,
            seed=seed,
            levels=structure_engine.items_to_data(items),
            chips=chips or None,
            options=options,
        )
        if bp:
            money.payouts_set(tournament_id=t.pk, percentages=bp, actor=actor)
        record_event(t, "tournament_copied", {"source": src.pk}, actor)
    return t
