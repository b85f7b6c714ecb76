"""Accounts: users and their roles, API tokens, and a tournament's display token."""

from __future__ import annotations

from typing import Literal

from ninja import Field, Router, Schema, Status

from tourney.api import auth as api_auth
from tourney.api import schemas as out
from tourney.api.common import director_tournament, need_director
from tourney.services import accounts as account_services

router = Router(tags=["accounts"], **out.ROUTER_OPTIONS)


class UserIn(Schema):
    username: str = Field(min_length=1, max_length=150)
    password: str = Field(min_length=1, max_length=200)
    role: Literal["director", "desk"]


@router.post("/users", auth=api_auth.DIRECTOR, response={201: out.UserOut})
def user_create(request, payload: UserIn):
    need_director(request)
    user = account_services.user_create(
        username=payload.username, password=payload.password, role=payload.role, actor=request.user
    )
    return Status(201, {"username": user.get_username(), "role": payload.role})


class RoleIn(Schema):
    role: Literal["director", "desk"] | None


@router.put("/users/{username}/role", auth=api_auth.DIRECTOR, response=out.UserOut)
def user_role(request, username: str, payload: RoleIn):
    need_director(request)
    account_services.user_set_role(username=username, role=payload.role, actor=request.user)
    return {"username": username, "role": payload.role}


@router.post(
    "/tokens",
    response={201: out.TokenOut},
    summary="A new API token for yourself, shown once",
)
def token_new(request):
    return Status(
        201, {"token": account_services.api_token_issue(user=request.user, actor=request.user)}
    )


@router.delete("/tokens/{prefix}", response=out.TokenRevokedOut)
def token_revoke(request, prefix: str):
    account_services.api_token_revoke(user=request.user, prefix=prefix, actor=request.user)
    return {"revoked": prefix}


@router.post(
    "/tournaments/{tid}/display-token/rotate",
    auth=api_auth.DIRECTOR,
    response=out.DisplayTokenOut,
)
def display_rotate(request, tid: int):
    director_tournament(request, tid)
    t = account_services.display_token_rotate(tournament_id=tid, actor=request.user)
    return {"display_token": t.display_token}
