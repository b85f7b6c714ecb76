"""``{% nonce %}``: a form's one-time nonce, the hidden field ``nonce`` next to
``{% csrf_token %}``. Made fresh each time the form is rendered; posting the form twice with
the same nonce does its write once, and the repeat gets the first answer again
(tourney/middleware.py, ``IdempotencyMiddleware``)."""

from __future__ import annotations

import secrets

from django import template
from django.utils.html import format_html

register = template.Library()


@register.simple_tag
def nonce() -> str:
    return format_html('<input type="hidden" name="nonce" value="{}">', secrets.token_urlsafe(18))
