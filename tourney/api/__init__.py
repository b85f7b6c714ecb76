"""JSON API v1 (../shared/API.md is the contract). Thin: authenticate, validate the schema,
call one service or engine, shape the answer. The OpenAPI document is /api/v1/openapi.json."""

from __future__ import annotations

import random
from typing import Annotated, Any, Literal

from django.http import Http404
from django.shortcuts import get_object_or_404
from ninja import Field, NinjaAPI, Router, Schema, Status
from ninja.errors import AuthenticationError, HttpError
from ninja.errors import ValidationError as NinjaValidationError
from pydantic import StrictInt

from tables import services as table_services
from tourney import selectors, services
from tourney.api import auth as api_auth
from tourney.api import schemas as out
from tourney.engine import chip_race, icm, pots
from tourney.engine.errors import DomainError
from tourney.engine.numbers import MAX_ID
from tourney.middleware import error_code_for
from tourney.models import Tournament
from tourney.roles import is_desk, is_director

MAX_CHIPS = 10**12
MAX_MONEY = 10**13

MSG_FORBIDDEN = "Your role does not allow this."
MSG_UNAUTHORIZED = "Log in or send a valid API token (Authorization: Bearer <token>)."


# The error body of API.md ("Conventions"), declared for every operation in the OpenAPI
# document so that a client (and schemathesis) can check every error answer against it.
ERROR_SCHEMA = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message", "fields"],
            "properties": {
                "code": {"type": "string", "minLength": 1},
                "message": {"type": "string", "minLength": 1},
                "fields": {"type": "object"},
            },
        }
    },
}
ERROR_STATUSES = {
    400: "Bad input: nothing changed",
    401: "No or bad credentials",
    403: "The role does not allow this",
    404: "No such tournament, table, entry, user or token",
    409: "The state forbids it: nothing changed",
}


class TourneyAPI(NinjaAPI):
    def get_openapi_schema(self, *, path_prefix=None, path_params=None):
        """Ninja's document, with the API.md error answers declared for every operation."""
        schema = super().get_openapi_schema(path_prefix=path_prefix, path_params=path_params)
        schema.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
        ref = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
        for operations in schema["paths"].values():
            for operation in operations.values():
                responses = operation.setdefault("responses", {})
                for status, words in ERROR_STATUSES.items():
                    responses.setdefault(status, {"description": words, **ref})
        return schema


api = TourneyAPI(
    title="Tourney API",
    version="1",
    description="Poker tournament director: see API.md for the contract.",
    auth=api_auth.ANY,
    docs_url=None,  # the Swagger page loads from a CDN; the venue may be offline
    urls_namespace="api-v1",
    default_router=Router(**out.ROUTER_OPTIONS),
)


def _error(request, status: int, code: str, message: str, fields: dict | None = None):
    return api.create_response(
        request,
        {"error": {"code": code, "message": message, "fields": fields or {}}},
        status=status,
    )


@api.exception_handler(DomainError)
def _domain_error(request, exc: DomainError):
    return _error(request, exc.status, exc.code, exc.message, exc.fields)


@api.exception_handler(AuthenticationError)
def _auth_error(request, exc):
    return _error(request, 401, "unauthorized", MSG_UNAUTHORIZED)


@api.exception_handler(NinjaValidationError)
def _validation_error(request, exc: NinjaValidationError):
    fields: dict[str, str] = {}
    for err in exc.errors:
        loc = [str(p) for p in err.get("loc", ()) if p not in ("body", "payload")]
        fields[".".join(loc) or "body"] = err.get("msg", "invalid")
    return _error(request, 400, "bad_input", "The request is not valid.", fields)


@api.exception_handler(Http404)
def _not_found(request, exc):
    return _error(request, 404, "not_found", "Not found.")


@api.exception_handler(HttpError)
def _http_error(request, exc: HttpError):
    # Raised by ninja itself: 400 for a body that is not JSON, 403 for a session call without
    # its CSRF token; each gets the code its status has in API.md (400: bad_input).
    status = exc.status_code
    if status == 403 and "csrf" in str(exc).lower():
        code = "csrf_failed"
    else:
        code = error_code_for(status)
    if status == 400 and str(exc).startswith("Cannot parse request body"):
        return _error(request, 400, code, "The body is not valid JSON.", {"body": str(exc)})
    return _error(request, status, code, str(exc))


def _need_director(request) -> None:
    if not is_director(request.user):
        raise DomainError("forbidden", MSG_FORBIDDEN, status=403)


def _need_desk(request) -> None:
    if not is_desk(request.user):
        raise DomainError("forbidden", MSG_FORBIDDEN, status=403)


def _tournament(tid: int) -> Tournament:
    return get_object_or_404(Tournament, pk=tid)


# ---------------------------------------------------------------- floor tools (stateless)


class SettlePlayer(Schema):
    seat: int = Field(ge=1, le=100)
    committed: int = Field(ge=0, le=MAX_CHIPS)
    folded: bool = False
    cards: str | None = Field(default=None, max_length=4)
    rank: int | None = Field(default=None, ge=1, le=100)


class SettleIn(Schema):
    button_seat: int = Field(ge=1, le=100)
    chip_unit: int = Field(default=1, ge=1, le=MAX_CHIPS)
    board: str | None = Field(default=None, max_length=10)
    players: list[SettlePlayer] = Field(min_length=1, max_length=23)


@api.post(
    "/floor/settle",
    auth=api_auth.DESK,
    tags=["floor"],
    response=out.SettleOut,
    summary="Pots and payouts of one hand (RULES 6)",
)
def floor_settle(request, payload: SettleIn):
    result = pots.settle(
        players=[
            pots.HandPlayer(
                seat=p.seat, committed=p.committed, folded=p.folded, cards=p.cards, rank=p.rank
            )
            for p in payload.players
        ],
        button_seat=payload.button_seat,
        chip_unit=payload.chip_unit,
        board=payload.board,
    )
    body: dict[str, Any] = {
        "returned": {str(k): v for k, v in result.returned.items()},
        "pots": [
            {
                "amount": p.amount,
                "eligible": list(p.eligible),
                "winners": list(p.winners),
                "shares": {str(k): v for k, v in p.shares.items()},
            }
            for p in result.pots
        ],
        "payouts": {str(k): v for k, v in result.payouts.items()},
    }
    if result.hands:
        body["hands"] = {
            str(k): {"category": h.category, "best_five": list(h.best_five)}
            for k, h in result.hands.items()
        }
    return body


class RacePlayerIn(Schema):
    seat: int = Field(ge=1, le=100)
    chips: dict[str, int]


class ChipRaceIn(Schema):
    denominations: list[Annotated[int, Field(ge=1, le=MAX_CHIPS)]] = Field(
        min_length=2, max_length=20
    )
    remove: int = Field(ge=1, le=MAX_CHIPS)
    threshold: Literal["half_or_more", "more_than_half"] = "half_or_more"
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1)
    cards: dict[str, list[str]] | None = None
    players: list[RacePlayerIn] = Field(min_length=1, max_length=23)


MSG_SEED_AND_CARDS = "Give either the cards the dealer dealt or a seed, not both."


def _int_key(key: str, where: str, seen: dict | None = None, most: int | None = None) -> int:
    """A JSON object key as a whole number (from 1 to ``most`` if given). With ``seen``, once:
    keys that read as the same number ("25" and "025") would overwrite each other, so the
    second is refused."""
    try:
        value = int(key)
    except (TypeError, ValueError):
        raise DomainError(
            "bad_input", f"{where}: {key!r} is not a number.", fields={where: key}
        ) from None
    if most is not None and not 1 <= value <= most:
        raise DomainError(
            "bad_input", f"{where}: {key!r} is not a number from 1 to {most}.", fields={where: key}
        )
    if seen is None:
        return value
    if value in seen:
        raise DomainError(
            "bad_input",
            f"{where}: {key!r} and {seen[value]!r} are the same number.",
            fields={where: key},
        )
    seen[value] = key
    return value


@api.post(
    "/floor/chip-race",
    auth=api_auth.DESK,
    tags=["floor"],
    response=out.ChipRaceOut,
    summary="Color-up with the odd-chip race (RULES 5)",
)
def floor_chip_race(request, payload: ChipRaceIn):
    if payload.cards is not None and payload.seed is not None:
        raise DomainError("no_deal", MSG_SEED_AND_CARDS, fields={"seed": payload.seed})
    players = []
    for p in payload.players:
        chips: dict[int, int] = {}
        seen: dict[int, str] = {}
        for k, v in p.chips.items():
            if not 0 <= v <= 10**6:
                raise DomainError(
                    "bad_input",
                    "Chip counts are between 0 and 1,000,000.",
                    fields={f"players.{p.seat}.chips.{k}": v},
                )
            chips[_int_key(k, "chips", seen, MAX_CHIPS)] = v
        players.append(chip_race.RacePlayer(seat=p.seat, chips=chips))
    cards = None
    rng = None
    seed = None
    if payload.cards is not None:
        seen = {}
        cards = {_int_key(k, "cards", seen, 100): tuple(v) for k, v in payload.cards.items()}
    else:
        # A drawn seed is answered too, so that the race can be replayed (RULES 1.1).
        seed = payload.seed if payload.seed is not None else random.SystemRandom().getrandbits(62)
        rng = random.Random(seed)
    result = chip_race.color_up(
        denominations=payload.denominations,
        remove=payload.remove,
        players=players,
        threshold=payload.threshold,
        rng=rng,
        cards=cards,
    )
    return {**race_dict(result), "seed": seed}


def race_dict(result: chip_race.RaceResult) -> dict[str, Any]:
    return {
        "remove": result.remove,
        "unit": result.unit,
        "awarded": result.awarded,
        "value_removed": result.value_removed,
        "value_added": result.value_added,
        "players": [
            {
                "seat": o.seat,
                "odd_chips": o.odd_chips,
                "cards": list(o.cards),
                "won": o.won,
                "protected": o.protected,
                "chips": {str(k): v for k, v in sorted(o.chips.items())},
            }
            for o in result.players
        ],
    }


class IcmIn(Schema):
    stacks: list[Annotated[int, Field(ge=0, le=MAX_CHIPS)]] = Field(min_length=1, max_length=14)
    payouts: list[float] = Field(min_length=1, max_length=100)


@api.post(
    "/floor/icm",
    auth=api_auth.DESK,
    tags=["floor"],
    response=out.IcmOut,
    summary="ICM deal equities (RULES 8.3)",
)
def floor_icm(request, payload: IcmIn):
    if any(p < 0 or p > MAX_MONEY for p in payload.payouts):
        raise DomainError(
            "bad_input", "Payouts are between 0 and 10^13.", fields={"payouts": "out of range"}
        )
    return {"equities": icm.icm_equities(payload.stacks, payload.payouts)}


# ---------------------------------------------------------------- tournaments


class TournamentIn(Schema):
    name: str = Field(min_length=1, max_length=120)
    seats_per_table: int = Field(default=9, ge=2, le=12)
    tables: int = Field(default=1, ge=0, le=1000)
    starting_stack: int = Field(default=10000, ge=1, le=10**9)
    buy_in: int = Field(default=0, ge=0, le=MAX_MONEY)
    fee: int = Field(default=0, ge=0, le=MAX_MONEY)
    guarantee: int = Field(default=0, ge=0, le=MAX_MONEY)
    added_money: int = Field(default=0, ge=0, le=MAX_MONEY)
    rounding_unit: int = Field(default=100, ge=1, le=10**9)
    seed: int | None = Field(default=None, ge=0, le=2**62)
    levels: list[dict[str, Any]] | None = Field(default=None, max_length=500)  # as PUT levels
    balance_tolerance: int | None = Field(default=None, ge=1, le=9)
    redraw_at_three: bool = True
    redraw_at_two: bool = True
    redraw_at_one: bool = True
    race_threshold: Literal["half_or_more", "more_than_half"] = "half_or_more"
    auto_open_tables: bool = True
    draw_at_registration: bool = True
    late_reg_until: int | None = Field(default=None, ge=0, le=499)


def tournament_dict(t: Tournament) -> dict[str, Any]:
    return {
        "id": t.pk,
        "name": t.name,
        "slug": t.slug,
        "status": t.status,
        "seats_per_table": t.seats_per_table,
        "starting_stack": t.starting_stack,
        "buy_in": t.buy_in,
        "fee": t.fee,
        "guarantee": t.guarantee,
        "seed": t.rng_seed,
        "balance_tolerance": t.balance_tolerance,
        "redraw_at_three": t.redraw_at_three,
        "redraw_at_two": t.redraw_at_two,
        "redraw_at_one": t.redraw_at_one,
        "race_threshold": t.race_threshold,
        "registration_open": t.registration_open,
    }


@api.post(
    "/tournaments", auth=api_auth.DIRECTOR, tags=["tournaments"], response={201: out.TournamentOut}
)
def tournament_create(request, payload: TournamentIn):
    _need_director(request)
    data = payload.dict()
    t = services.tournament_create(
        actor=request.user,
        name=data.pop("name"),
        seats_per_table=data.pop("seats_per_table"),
        tables=data.pop("tables"),
        starting_stack=data.pop("starting_stack"),
        buy_in=data.pop("buy_in"),
        fee=data.pop("fee"),
        seed=data.pop("seed"),
        levels=data.pop("levels"),
        options=data,
    )
    return Status(201, tournament_dict(t))


@api.get("/tournaments/{tid}", auth=api_auth.DESK, tags=["tournaments"], response=out.TournamentOut)
def tournament_get(request, tid: int):
    _need_desk(request)
    return tournament_dict(_tournament(tid))


class EntryIn(Schema):
    name: str = Field(default="", max_length=120)
    player_id: int | None = Field(default=None, ge=1, le=MAX_ID)


@api.post(
    "/tournaments/{tid}/entries",
    auth=api_auth.DESK,
    tags=["registration"],
    response={201: out.EntryOut},
)
def entry_create(request, tid: int, payload: EntryIn):
    _need_desk(request)
    entry = services.entry_register(
        tournament_id=tid, name=payload.name, player_id=payload.player_id, actor=request.user
    )
    seat = table_services.seats_of(entry.tournament, [entry.pk]).get(entry.pk)
    waits = False
    if seat:
        waits = entry.seat.waits_for_button
    return Status(
        201,
        {
            "id": entry.pk,
            "number": entry.number,
            "name": entry.player.name,
            "table": seat[0] if seat else None,
            "seat": seat[1] if seat else None,
            "status": entry.status,
            "waits_for_button": waits,
        },
    )


@api.get(
    "/tournaments/{tid}/seating", auth=api_auth.DESK, tags=["seating"], response=out.SeatingOut
)
def seating_get(request, tid: int):
    _need_desk(request)
    return selectors.seating(_tournament(tid))


class ButtonIn(Schema):
    seat: int = Field(ge=1, le=100)


@api.put(
    "/tournaments/{tid}/tables/{number}/button",
    auth=api_auth.DIRECTOR,
    tags=["seating"],
    response=out.ButtonOut,
)
def button_set(request, tid: int, number: int, payload: ButtonIn):
    _need_director(request)
    row = table_services.table_set_button(
        tournament_id=tid, table_number=number, seat=payload.seat, actor=request.user
    )
    return {"table": row.number, "button_seat": row.button_seat}


class BustIn(Schema):
    id: int = Field(ge=1, le=MAX_ID)
    starting_stack: int = Field(ge=1, le=MAX_CHIPS)


class EliminationIn(Schema):
    entries: list[BustIn] = Field(min_length=1, max_length=100)


@api.post(
    "/tournaments/{tid}/eliminations",
    auth=api_auth.DIRECTOR,
    tags=["seating"],
    response=out.EliminationOut,
)
def elimination_create(request, tid: int, payload: EliminationIn):
    _need_director(request)
    _tournament(tid)
    result = services.elimination_record(
        tournament_id=tid,
        busts=[(b.id, b.starting_stack) for b in payload.entries],
        actor=request.user,
    )
    return {
        "places": result["places"],
        "moves": [{k: v for k, v in m.items() if k != "id"} for m in result["moves"]],
        "winner": result["winner"],
        "provisional": result["provisional"],
    }


@api.get("/tournaments/{tid}/clock", auth=api_auth.DESK, tags=["clock"], response=out.ClockOut)
def clock_get(request, tid: int):
    _need_desk(request)
    return selectors.clock_payload(_tournament(tid))


class ClockIn(Schema):
    action: Literal["start", "pause", "resume", "next", "previous", "adjust", "jump"]
    # Strict: ``true`` or ``"60"`` is not a number of seconds (the engine refuses them too).
    seconds: StrictInt | None = Field(default=None, ge=-86400, le=86400)
    index: StrictInt | None = Field(default=None, ge=0, le=1000)


@api.post("/tournaments/{tid}/clock", auth=api_auth.DIRECTOR, tags=["clock"], response=out.ClockOut)
def clock_post(request, tid: int, payload: ClockIn):
    _need_director(request)
    _tournament(tid)
    services.clock_action(
        tournament_id=tid,
        action=payload.action,
        seconds=payload.seconds,
        index=payload.index,
        actor=request.user,
    )
    return selectors.clock_payload(_tournament(tid))


@api.get("/tournaments/{tid}/results", auth=api_auth.DESK, tags=["money"], response=out.ResultsOut)
def results_get(request, tid: int):
    _need_desk(request)
    return selectors.results(_tournament(tid))


# Routers of their own modules, same auth and error shape.
from tourney.api.colorup import router as _colorup_router  # noqa: E402
from tourney.api.money import router as _money_router  # noqa: E402

api.add_router("/", _colorup_router)
api.add_router("/", _money_router)


# ---------------------------------------------------------------- structure, undo, audit

from tourney.engine import structure as structure_engine  # noqa: E402
from tourney.engine.clock import item_to_dict  # noqa: E402


@api.get("/tournaments/{tid}/levels", auth=api_auth.DESK, tags=["clock"], response=out.LevelsOut)
def levels_get(request, tid: int):
    _need_desk(request)
    return {"levels": [item_to_dict(i) for i in services.structure_items(_tournament(tid))]}


class LevelsIn(Schema):
    levels: list[dict[str, Any]] = Field(min_length=1, max_length=500)


@api.put(
    "/tournaments/{tid}/levels", auth=api_auth.DIRECTOR, tags=["clock"], response=out.LevelsOut
)
def levels_put(request, tid: int, payload: LevelsIn):
    _need_director(request)
    _tournament(tid)
    items = services.structure_set(tournament_id=tid, levels=payload.levels, actor=request.user)
    return {"levels": [item_to_dict(i) for i in items]}


class GenerateIn(Schema):
    preset: Literal["regular", "turbo", "deep"] | None = None
    starting_stack: int = Field(default=10000, ge=100, le=10**9)
    denominations: list[int] = Field(
        default=[25, 100, 500, 1000, 5000, 25000], min_length=1, max_length=20
    )
    level_minutes: int = Field(default=20, ge=1, le=240)
    target_hours: float = Field(default=8, gt=0, le=72)
    break_every: int = Field(default=4, ge=0, le=50)  # 0: no breaks but those of break_after
    break_minutes: int = Field(default=10, ge=1, le=120)
    # 1-based level numbers a break follows (before break_every takes over), ascending.
    break_after: list[Annotated[int, Field(ge=1, le=500)]] | None = Field(
        default=None, max_length=100
    )
    bb_ante_from_level: int = Field(default=4, ge=0, le=500)  # 0: no big-blind ante


@api.post(
    "/structures/generate",
    auth=api_auth.DIRECTOR,
    tags=["clock"],
    response=out.LevelsOut,
    summary="A structure from presets or the generator (RULES 4.5, 5.1)",
)
def structure_generate(request, payload: GenerateIn):
    if payload.preset:
        items = structure_engine.preset(
            payload.preset,
            starting_stack=payload.starting_stack,
            denominations=tuple(payload.denominations),
        )
    else:
        items = structure_engine.generate(
            starting_stack=payload.starting_stack,
            denominations=payload.denominations,
            level_minutes=payload.level_minutes,
            target_hours=payload.target_hours,
            break_every=payload.break_every,
            break_minutes=payload.break_minutes,
            break_after=payload.break_after,
            bb_ante_from_level=payload.bb_ante_from_level,
        )
    return {"levels": structure_engine.items_to_data(items)}


@api.post(
    "/tournaments/{tid}/undo",
    auth=api_auth.DIRECTOR,
    tags=["audit"],
    response=out.UndoOut,
    summary="Undo the last action",
)
def undo_post(request, tid: int):
    from tourney.undo import action_undo

    _need_director(request)
    _tournament(tid)
    return action_undo(tournament_id=tid, actor=request.user)


@api.post(
    "/tournaments/{tid}/redo",
    auth=api_auth.DIRECTOR,
    tags=["audit"],
    response=out.RedoOut,
    summary="Redo the last undone action",
)
def redo_post(request, tid: int):
    from tourney.undo import action_redo

    _need_director(request)
    _tournament(tid)
    return action_redo(tournament_id=tid, actor=request.user)


@api.get(
    "/tournaments/{tid}/events",
    auth=api_auth.DIRECTOR,
    tags=["audit"],
    response=out.EventsOut,
    summary="The event log, newest first",
)
def events_get(request, tid: int, kind: str | None = None, limit: int = 100):
    _need_director(request)
    t = _tournament(tid)
    qs = t.events.select_related("actor").order_by("-id")
    if kind:
        qs = qs.filter(kind=kind)
    return {
        "events": [
            {
                "id": e.pk,
                "kind": e.kind,
                "at": e.created_at.isoformat(),
                "actor": e.actor.get_username() if e.actor else None,
                "undone": e.undone,
                "payload": {k: v for k, v in e.payload.items() if k not in ("undo", "call")},
            }
            for e in qs[: max(1, min(limit, 1000))]
        ]
    }


# ---------------------------------------------------------------- users and tokens (issue 10)


class UserIn(Schema):
    username: str = Field(min_length=1, max_length=150)
    password: str = Field(min_length=1, max_length=200)
    role: Literal["director", "desk"]


@api.post("/users", auth=api_auth.DIRECTOR, tags=["accounts"], response={201: out.UserOut})
def user_create(request, payload: UserIn):
    from tourney.accounts import user_create as create

    _need_director(request)
    user = create(
        username=payload.username, password=payload.password, role=payload.role, actor=request.user
    )
    return Status(201, {"username": user.get_username(), "role": payload.role})


class RoleIn(Schema):
    role: Literal["director", "desk"] | None


@api.put("/users/{username}/role", auth=api_auth.DIRECTOR, tags=["accounts"], response=out.UserOut)
def user_role(request, username: str, payload: RoleIn):
    from tourney.accounts import user_set_role

    _need_director(request)
    user_set_role(username=username, role=payload.role, actor=request.user)
    return {"username": username, "role": payload.role}


@api.post(
    "/tokens",
    tags=["accounts"],
    response={201: out.TokenOut},
    summary="A new API token for yourself, shown once",
)
def token_new(request):
    from tourney.accounts import api_token_issue

    return Status(201, {"token": api_token_issue(user=request.user, actor=request.user)})


@api.delete("/tokens/{prefix}", tags=["accounts"], response=out.TokenRevokedOut)
def token_revoke(request, prefix: str):
    from tourney.accounts import api_token_revoke

    api_token_revoke(user=request.user, prefix=prefix, actor=request.user)
    return {"revoked": prefix}


@api.post(
    "/tournaments/{tid}/display-token/rotate",
    auth=api_auth.DIRECTOR,
    tags=["accounts"],
    response=out.DisplayTokenOut,
)
def display_rotate(request, tid: int):
    from tourney.accounts import display_token_rotate

    _need_director(request)
    _tournament(tid)
    t = display_token_rotate(tournament_id=tid, actor=request.user)
    return {"display_token": t.display_token}
