"""Creating a tournament (its levels, chips and tables) and replacing its structure."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from tourney.core.events import record_event
from tourney.core.journal import current as journal_current
from tourney.core.locking import tournament_action
from tourney.engine import bounties as bounty_engine
from tourney.engine import clock as clock_engine
from tourney.engine import structure as structure_engine
from tourney.engine.errors import DomainError
from tourney.engine.numbers import ascii_int
from tourney.models import ChipDenomination, Level, Tournament
from tourney.selectors.clock import anchor_of, structure_items
from tourney.selectors.satellites import satellite_options
from tourney.services.clock import _store_anchor
from tourney.services.entries import MSG_NAME_REQUIRED

DEFAULT_CHIPS: tuple[tuple[int, str], ...] = (
    (25, "green"),
    (100, "black"),
    (500, "purple"),
    (1000, "yellow"),
    (5000, "orange"),
    (25000, "gray"),
)
MSG_TOO_MANY_TABLES = "At most 1,000 tables."
MSG_LEVELS_CHANGE_STARTED = "The structure cannot be replaced once the clock has started."

# RULES 9.1, 9.3, 9.4: the bounty settings, in the words of the form's fields
BOUNTY_FIELDS = (
    "bounty_kind",
    "bounty",
    "bounty_cash_percent",
    "mystery_from_players",
    "mystery_envelopes",
)
MSG_BOUNTY_KIND = "Bounty type: pick no bounties, knockout, progressive knockout or mystery."
MSG_BOUNTY_AMOUNT = "Bounty: give an amount of zero or more."
MSG_BOUNTY_NEEDED = (
    "A bounty event needs a bounty: give the bounty part of the buy-in (0.01 or more), "
    "or pick no bounties."
)
MSG_BOUNTY_WITHOUT_KIND = (
    "A bounty of more than 0 needs a bounty type: pick one, or set the bounty to 0."
)
MSG_CASH_PERCENT = "PKO cash share: a whole percent from 0 to 100."
MSG_STAGE = "Mystery stage: a whole number of players still in, from 1 to 100,000."
MSG_ENVELOPES = (
    "Mystery envelopes: amounts of 0.01 or more, each with a count of 1 or more "
    '(e.g. "5000 x 10, 1000 x 40").'
)
MSG_NOT_MYSTERY = (
    "Envelopes are only for mystery bounties: empty the envelopes, or pick mystery bounties."
)
_BOUNTY_MESSAGES = {  # the engine's codes (BountySettings) -> the field and its message
    "unknown_bounty_type": ("bounty_kind", MSG_BOUNTY_KIND),
    "bad_amount": ("bounty", MSG_BOUNTY_AMOUNT),
    "bad_share": ("bounty_cash_percent", MSG_CASH_PERCENT),
    "bad_stage": ("mystery_from_players", MSG_STAGE),
}


def _write_levels(t: Tournament, items: Sequence[clock_engine.Item]) -> None:
    Level.objects.filter(tournament=t).delete()
    Level.objects.bulk_create(
        Level(
            tournament=t,
            index=i,
            kind=it.kind,
            small_blind=it.small_blind,
            big_blind=it.big_blind,
            ante=it.ante,
            big_blind_ante=it.big_blind_ante,
            seconds=it.seconds,
            color_up=list(it.color_up),
        )
        for i, it in enumerate(items)
    )


def _unique_slug(name: str) -> str:
    base = slugify(name)[:100] or "tournament"
    slug, n = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def _bounty_refusal(code: str, field: str, msg: str) -> DomainError:
    return DomainError(code, msg, fields={field: msg})


def envelopes_stored(raw: object) -> dict[str, int]:
    """A mystery envelope set as the tournament row keeps it, ``{"5000": 10}`` (amounts in
    the smallest unit, ascending, empty counts left out), from ``{amount: count}`` whose
    amounts are ints or their digits (a redo reads the call back from JSON). RULES 9.4."""
    if not isinstance(raw, Mapping):
        raise _bounty_refusal("bad_envelopes", "mystery_envelopes", MSG_ENVELOPES)
    clean: dict[int, int] = {}
    for amount, count in raw.items():
        a = ascii_int(amount, 13) if isinstance(amount, str) else amount
        too_big = type(a) is int and a > 10**13 or type(count) is int and count > 10**6
        if a is None or a in clean or too_big:
            raise _bounty_refusal("bad_envelopes", "mystery_envelopes", MSG_ENVELOPES)
        clean[a] = count
    try:
        checked = bounty_engine.check_envelopes(clean)
    except DomainError:
        raise _bounty_refusal("bad_envelopes", "mystery_envelopes", MSG_ENVELOPES) from None
    return {str(a): c for a, c in checked.items()}


def bounty_options(values: Mapping[str, Any]) -> dict[str, Any]:
    """The bounty settings checked through the engine's ``BountySettings``: a bounty type
    with a bounty of at least one unit, or none and 0 (RULES 9.1); the PKO cash share a whole
    percent (9.3); the mystery stage one player or more, envelopes only for mystery bounties
    (9.4; they need not add up yet: late entries still come, the first draw checks them).
    Fields left out take the model's defaults. Returns the five fields as the row keeps them;
    a refusal names the field, in its words."""
    v = {f: values.get(f, Tournament._meta.get_field(f).get_default()) for f in BOUNTY_FIELDS}
    kind, bounty, stage = v["bounty_kind"], v["bounty"], v["mystery_from_players"]
    if type(bounty) is not int or not 0 <= bounty <= 10**13:
        raise _bounty_refusal("bad_amount", "bounty", MSG_BOUNTY_AMOUNT)
    if type(stage) is int and stage > 100_000:
        raise _bounty_refusal("bad_stage", "mystery_from_players", MSG_STAGE)
    try:
        bounty_engine.BountySettings(
            kind=kind,
            bounty=bounty,
            cash_percent=v["bounty_cash_percent"],
            mystery_from_players=stage,
        )
    except DomainError as exc:
        if exc.code == "bad_bounty" and kind == bounty_engine.NONE:
            raise _bounty_refusal(exc.code, "bounty_kind", MSG_BOUNTY_WITHOUT_KIND) from None
        if exc.code == "bad_bounty":
            raise _bounty_refusal(exc.code, "bounty", MSG_BOUNTY_NEEDED) from None
        field, msg = _BOUNTY_MESSAGES.get(exc.code, ("bounty_kind", exc.message))
        raise _bounty_refusal(exc.code, field, msg) from None
    envelopes = envelopes_stored(v["mystery_envelopes"])
    if envelopes and kind != bounty_engine.MYSTERY:
        raise _bounty_refusal("not_mystery", "mystery_envelopes", MSG_NOT_MYSTERY)
    return {**v, "mystery_envelopes": envelopes}


def tournament_create(
    *,
    actor,
    name: str,
    seats_per_table: int = 9,
    tables: int = 1,
    starting_stack: int = 10000,
    buy_in: int = 0,
    fee: int = 0,
    seed: int | None = None,
    levels: list[dict[str, Any]] | None = None,
    chips: Sequence[tuple[int, str]] | None = None,
    options: dict[str, Any] | None = None,
) -> Tournament:
    """Create a tournament with its chip set, structure and opened tables."""
    from tables.services.seats import tables_open

    name = (name or "").strip()
    if not name:
        raise DomainError("bad_input", MSG_NAME_REQUIRED, fields={"name": MSG_NAME_REQUIRED})
    if tables > 1000:
        raise DomainError("bad_input", MSG_TOO_MANY_TABLES, fields={"tables": MSG_TOO_MANY_TABLES})
    # RULES 9.1, 9.3, 9.4: refused before anything is written
    options = {**(options or {}), **bounty_options(options or {})}
    options = satellite_options(options)  # RULES 12.1: the target checked, as an id
    chip_set = tuple(chips or DEFAULT_CHIPS)
    if levels:
        items = structure_engine.parse_levels(levels)
        # RULES 4.5, 5.1: as for a structure set later (``structure_set``), before any write.
        problems = structure_engine.check_structure(items, [v for v, _ in chip_set])
        if problems:
            raise DomainError(
                "bad_structure", MSG_STRUCTURE_PROBLEMS, fields={"levels": "; ".join(problems)}
            )
    else:
        items = structure_engine.preset(
            "regular",
            starting_stack=starting_stack,
            denominations=tuple(v for v, _ in chip_set),
        )
    with transaction.atomic():
        t = Tournament(
            name=name,
            slug=_unique_slug(name),
            seats_per_table=seats_per_table,
            starting_stack=starting_stack,
            buy_in=buy_in,
            fee=fee,
            rng_seed=seed if seed is not None else random.SystemRandom().getrandbits(62),
            created_by=actor if getattr(actor, "is_authenticated", False) else None,
            **options,
        )
        a = clock_engine.initial_anchor(items)
        _store_anchor(t, a)
        t.save()
        ChipDenomination.objects.bulk_create(
            ChipDenomination(tournament=t, value=v, color=c) for v, c in chip_set
        )
        _write_levels(t, items)
        if tables:
            tables_open(t, count=tables)
        record_event(
            t,
            "tournament_created",
            {"name": name, "tables": tables, "seed": t.rng_seed, "levels": len(items)},
            actor,
        )
    return t


MSG_STRUCTURE_PAST = "Levels already played or running cannot change; edit the ones after."
MSG_STRUCTURE_PROBLEMS = "The structure breaks the chip rules (RULES 4.5, 5.1)."


def structure_set(
    *, tournament_id: int, levels: list[dict[str, Any]], actor=None, now: datetime | None = None
) -> tuple[clock_engine.Item, ...]:
    """Replace the structure (RULES 4.1). Before the start anything goes; once the clock runs,
    the items up to and including the current one must stay as they are (the clock's anchor
    stays valid and no played level is rewritten). The new structure must keep every blind and
    ante a multiple of the smallest chip in play (RULES 4.5) and color up only chips no later
    level needs (RULES 5.1)."""
    items = structure_engine.parse_levels(levels)
    now = now or timezone.now()
    with tournament_action(tournament_id) as t:
        old = structure_items(t)
        if t.clock_started:
            current = clock_engine.state(old, anchor_of(t), now).index
            if tuple(items[: current + 1]) != tuple(old[: current + 1]):
                raise DomainError(
                    "structure_past",
                    MSG_STRUCTURE_PAST,
                    status=409,
                    fields={"levels": f"keep items 0..{current} unchanged"},
                )
        chips = list(ChipDenomination.objects.filter(tournament=t).values_list("value", flat=True))
        problems = structure_engine.check_structure(items, chips)
        if problems:
            raise DomainError(
                "bad_structure", MSG_STRUCTURE_PROBLEMS, fields={"levels": "; ".join(problems)}
            )
        if not t.clock_started:
            _store_anchor(t, clock_engine.initial_anchor(items))
            t.save(
                update_fields=[
                    "clock_index",
                    "clock_left_ms",
                    "clock_at",
                    "clock_running",
                    "clock_started",
                ]
            )
        if j := journal_current():
            j.note_levels(old)
        _write_levels(t, items)
        record_event(t, "structure_set", {"before": len(old), "after": len(items)}, actor)
    return items
