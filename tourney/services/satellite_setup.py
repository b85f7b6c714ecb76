"""The satellite fields of the setup form (RULES 12.1): "Satellite for" (the target event),
"Seat value" and "Tickets transferable", and the tournament options they make. The setup
form (tourney/services/setup.py) inherits them; ``tournament_create`` checks the options
(tourney/selectors/satellites.py ``satellite_options``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_noop as N_

from tourney.engine.errors import DomainError
from tourney.engine.money_format import money_input, money_typed
from tourney.models import Tournament
from tourney.selectors.satellites import target_choices

MSG_SEAT_VALUE = N_(
    "Seat value: an amount like 550 or 550.00, more than zero (empty: the target's price)."
)


def _choices(t: Tournament | None = None) -> list[tuple[str, str]]:
    return [("", gettext_lazy("— not a satellite —"))] + [
        (str(pk), name) for pk, name in target_choices(t)
    ]


class SetupFields(forms.Form):
    """The satellite's fields (shapes only; the rules are checked by the service)."""

    satellite_target = forms.ChoiceField(choices=_choices, required=False)
    seat_value = forms.CharField(max_length=20, required=False)
    tickets_transferable = forms.BooleanField(required=False)


def seat_value_parse(text: str | None) -> int:
    """ "550" or "550.00" → 55000 (the smallest unit); empty → 0 (the target's price); a
    typed zero is refused (a seat is worth something)."""
    amount = money_typed(text)
    if amount is None or (amount == 0 and (text or "").strip()):
        raise DomainError("bad_input", MSG_SEAT_VALUE, fields={"seat_value": MSG_SEAT_VALUE})
    return amount


def options_from_form(data: dict[str, Any]) -> dict[str, Any]:
    """The satellite options of the setup form's cleaned data (none when no target)."""
    target = data.get("satellite_target") or ""
    value = seat_value_parse(data.get("seat_value"))
    transferable = bool(data.get("tickets_transferable"))
    if not target and not value and not transferable:
        return {}
    return {
        "satellite_target": int(target) if target.isdigit() else None,
        "seat_value": value,
        "tickets_transferable": transferable,
    }


def satellite_initial(t: Tournament) -> dict[str, Any]:
    """The settings page's satellite form as the tournament is."""
    return {
        "satellite_target": str(t.satellite_target_id or ""),
        "seat_value": money_input(t.seat_value) if t.seat_value else "",
        "tickets_transferable": t.tickets_transferable,
    }


def settings_form(t: Tournament, data=None) -> SetupFields:
    """The settings page's satellite form: the targets offered leave ``t`` itself out."""
    form = SetupFields(data, initial=None if data is not None else satellite_initial(t))
    form.fields["satellite_target"].choices = _choices(t)
    return form
