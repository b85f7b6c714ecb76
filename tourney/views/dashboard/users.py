"""The director's users page (issue 10): users and their roles, API tokens (issued for any
user, shown once, revocable), the log of account changes; and the display-token rotation of
one tournament, behind a confirm step. Thin: check access, read the form, call one service
(tourney/services/accounts.py), render.

Ownership: a director manages every tournament of this installation (one card room); there
is no per-tournament owner (README, "Roles")."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_
from django.views.decorators.http import require_http_methods

from tourney.core.language import refusal_text
from tourney.engine.errors import DomainError
from tourney.models import Tournament
from tourney.services import accounts
from tourney.views.dashboard.base import director_only, director_view

TEMPLATE = "dashboard/users.html"
ROTATE_TEMPLATE = "dashboard/display_token.html"
MSG_NO_USER = accounts.MSG_NO_USER
MSG_UNKNOWN_OP = N_("Unknown action.")
# A role as the page names it (the log and the API keep "director" and "desk").
ROLE_NAMES = {"": N_("no role"), "director": N_("director"), "desk": N_("desk clerk")}


def _page(request: HttpRequest, *, error: DomainError | None = None, **extra) -> HttpResponse:
    ctx = {
        "users": accounts.users_with_roles(),
        "events": accounts.account_events(),
        "roles": list(accounts.ROLES),
        "error": refusal_text(error) if error else "",
        "error_fields": error.fields if error else {},
        "posted": request.POST if request.method == "POST" else {},
        **extra,
    }
    return render(request, TEMPLATE, ctx, status=error.status if error else 200)


def _user(username: str):
    user = get_user_model().objects.filter(username=(username or "")[:150]).first()
    if user is None:
        raise DomainError("user_not_found", MSG_NO_USER, status=404)
    return user


@director_only
@require_http_methods(["GET", "POST"])
def users(request: HttpRequest) -> HttpResponse:
    """GET: the page. POST ``op``: create, role, token, revoke (each one service call)."""
    if request.method == "GET":
        return _page(request)
    data = request.POST
    op = data.get("op", "")
    try:
        if op == "create":
            user = accounts.user_create(
                username=data.get("username", ""),
                password=data.get("password", ""),
                role=data.get("role", ""),
                actor=request.user,
            )
            message = _("User %(user)s added.") % {"user": user.get_username()}
        elif op == "role":
            role = data.get("role") or None
            user = accounts.user_set_role(
                username=_user(data.get("username", "")).get_username(),
                role=role,
                actor=request.user,
            )
            shown = _(ROLE_NAMES[role or ""]) if (role or "") in ROLE_NAMES else role
            message = _("%(user)s: %(role)s.") % {"user": user.get_username(), "role": shown}
        elif op == "token":
            user = _user(data.get("username", ""))
            key = accounts.api_token_issue(user=user, actor=request.user)
            # Shown this once (stored hashed): the page is not cached and not redirected to.
            response = _page(request, new_token=key, token_user=user.get_username())
            response["Cache-Control"] = "no-store"
            return response
        elif op == "revoke":
            user = _user(data.get("username", ""))
            prefix = data.get("prefix", "")[:12]
            accounts.api_token_revoke(user=user, prefix=prefix, actor=request.user)
            who = {"prefix": prefix, "user": user.get_username()}
            message = _("Token %(prefix)s… of %(user)s revoked.") % who
        else:
            raise DomainError("bad_input", MSG_UNKNOWN_OP, fields={"op": op[:20]})
    except DomainError as exc:
        return _page(request, error=exc)
    messages.success(request, message)
    return redirect(reverse("tourney-dashboard-users"))


@director_view
@require_http_methods(["GET", "POST"])
def display_token(request: HttpRequest, t: Tournament) -> HttpResponse:
    """The display link and its rotation: GET (or a POST without ``confirm``) asks first;
    a POST with ``confirm=yes`` rotates (every screen on the old link stops at its next
    poll)."""
    rotated = False
    if request.method == "POST" and request.POST.get("confirm") == "yes":
        t = accounts.display_token_rotate(tournament_id=t.pk, actor=request.user)
        rotated = True
    response = render(
        request,
        ROTATE_TEMPLATE,
        {
            "tournament": t,
            "rotated": rotated,
            "asking": request.method == "POST" and not rotated,
        },
    )
    response["Cache-Control"] = "no-store"
    return response
