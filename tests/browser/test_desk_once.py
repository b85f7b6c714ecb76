"""Issue 24 in a real browser: Enter pressed twice at the desk registers the player once, and
the registration sent again with its nonce (a desk retrying after a lost answer) shows the
same seat card again instead of a second entry."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tables.models import Seat
from tourney import services
from tourney.models import Entry, IdempotentRequest

from .test_desk import _card_matches_seat, _log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RESEND = """async ([url, body]) => {
  const token = JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
  const r = await fetch(url, {
    method: "POST",
    body: body,
    headers: {"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true",
              "X-CSRFToken": token},
  });
  const html = await r.text();
  const main = document.getElementById("desk-main");
  main.innerHTML = html;
  htmx.process(main);
  return [r.status, r.headers.get("Idempotent-Replayed")];
}"""


def test_enter_twice_registers_once_and_a_resend_shows_the_same_seat_card(
    page, live_url, director, desk_clerk
):
    t = services.tournament_create(actor=director, name="Double Enter", tables=2, seed=5)
    register_url = reverse("tourney-desk-register", args=[t.pk])
    _log_in(page, live_url, "clerk", "clerk-pass-123", f"/desk/{t.pk}/")
    page.evaluate("() => { window.print = () => {}; }")
    posts: list[str] = []
    page.on(
        "request",
        lambda r: (
            posts.append(r.post_data or "")
            if r.method == "POST" and r.url.endswith(register_url)
            else None
        ),
    )

    page.keyboard.type("Zoe Once", delay=0)
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    page.locator("#seat-card .sc-name", has_text="Zoe Once").wait_for()
    page.wait_for_timeout(500)  # a second request, had one been sent, would be answered now
    entry = Entry.objects.get(tournament=t)
    _card_matches_seat(page, entry)
    assert len(posts) >= 1 and all("nonce=" in p for p in posts)
    assert len({p for p in posts}) == 1  # whatever went out twice carried the same nonce

    # The answer was lost; the desk sends the same form again, with the same nonce.
    status, replayed = page.evaluate(RESEND, [f"{live_url}{register_url}", posts[0]])
    assert (status, replayed) == (200, "true")
    page.locator("#seat-card .sc-name", has_text="Zoe Once").wait_for()
    _card_matches_seat(page, entry)
    assert Entry.objects.filter(tournament=t).count() == 1
    assert Seat.objects.filter(tournament=t).count() == 1
    assert IdempotentRequest.objects.filter(user=desk_clerk, scope="form").count() == 1
    # The form on the screen now carries a new nonce: the next player is a new registration.
    page.locator("#desk-name").focus()
    page.keyboard.type("Yan Next", delay=0)
    page.keyboard.press("Enter")
    page.locator("#seat-card .sc-name", has_text="Yan Next").wait_for()
    assert Entry.objects.filter(tournament=t).count() == 2
    assert page.js_errors == []
