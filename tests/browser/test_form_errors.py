"""Issue 31, item 4 in a real browser: a typing mistake in any form that writes is answered
with that form (or its panel) again, the message inside it and what was typed still there;
the rest of the page stays. Most tests run the live server with DEBUG on, as ``make run``
does: then ``{% htmx_script %}`` adds django-htmx's debug script, which used to put the bare
4xx fragment in place of the whole page (static/js/forms.js stops it). A few run with DEBUG
off as well. Screenshots: artifacts/screenshots/form-error-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.models import Seat
from tests.browser.helpers import log_in as _log_in
from tourney import services
from tourney.models import Tournament
from tourney.services.setup import MSG_PAYOUTS_ORDER
from tourney.views.dashboard.base import MSG_NOT_A_NUMBER
from tourney.views.dashboard.panels import MSG_NOBODY_THERE, MSG_SAME_PLAYER_TWICE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(params=[True, False], ids=["debug", "no-debug"])
def debug(request, settings):
    settings.DEBUG = request.param
    return request.param


@pytest.fixture
def debug_on(settings):
    settings.DEBUG = True
    return True


def _debug_script_loaded(page) -> bool:
    return page.locator("script[src*='django-htmx.js']").count() == 1


def _refused(page, submit, status_min=400) -> int:
    """Run ``submit`` (a click or a key) and return the answer's status (a refusal: 4xx)."""
    with page.expect_response(lambda r: r.request.method == "POST") as info:
        submit()
    status = info.value.status
    assert status_min <= status < 500, status
    page.wait_for_timeout(150)  # the swap settles
    return status


def _page_intact(page, *selectors: str) -> None:
    """The page around the form is still there: the top bar, the stylesheet, other panels."""
    expect(page.locator("header.topbar")).to_be_visible()
    assert page.locator("link[rel=stylesheet]").count() >= 1
    for sel in selectors:
        expect(page.locator(sel)).to_be_visible()


# ---------------------------------------------------------------- setup


def test_setup_form_keeps_what_was_typed(page, live_url, director, debug, screenshot):
    _log_in(page, live_url, "/td/new/")
    assert _debug_script_loaded(page) is debug
    page.fill("input[name=name]", "Sunday Stack")
    page.fill("input[name=buy_in]", "ten")
    _refused(page, lambda: page.click("text=Create tournament"))
    form = page.locator("#setup-form")
    expect(form.locator(".field-error")).to_have_count(1)
    expect(form.locator("label", has=page.locator("input[name=buy_in]"))).to_contain_text("Buy-in")
    expect(
        form.locator("label", has=page.locator("input[name=buy_in]")).locator(".field-error")
    ).to_be_visible()
    expect(form.locator("p.error[role=alert]")).to_be_visible()
    expect(form.locator("input[name=name]")).to_have_value("Sunday Stack")
    expect(form.locator("input[name=buy_in]")).to_have_value("ten")
    _page_intact(page, "nav, header.topbar .brand")
    screenshot(page, f"form-error-setup-{'debug' if debug else 'nodebug'}")


# ---------------------------------------------------------------- dashboard


@pytest.fixture
def seated(seated_tournament):
    return seated_tournament


def _dashboard(page, live_url, t) -> None:
    _log_in(page, live_url, f"/td/{t.pk}/")
    page.locator("#tables").wait_for()


def test_bust_form_nobody_there(page, live_url, director, seated, debug, screenshot):
    _dashboard(page, live_url, seated)
    assert _debug_script_loaded(page) is debug
    form = page.locator("#eliminations form.bust-form")
    form.locator("input[name=table_1]").fill("99")
    form.locator("input[name=seat_1]").fill("1")
    form.locator("input[name=stack_1]").fill("20000")
    _refused(page, lambda: form.locator("button[type=submit]").click())
    panel = page.locator("#eliminations")
    expect(panel.locator(".error[role=alert]")).to_have_text(
        MSG_NOBODY_THERE.format(table=99, seat=1)
    )
    expect(panel.locator("input[name=table_1]")).to_have_value("99")
    expect(panel.locator("input[name=seat_1]")).to_have_value("1")
    expect(panel.locator("input[name=stack_1]")).to_have_value("20000")
    _page_intact(page, "#clock", "#tables", "#moves", "#money", "#log")
    screenshot(page, f"form-error-bust-{'debug' if debug else 'nodebug'}")


def test_bust_form_same_seat_twice(page, live_url, director, seated, debug_on):
    seat = Seat.objects.filter(tournament=seated, entry__isnull=False).select_related("table")[0]
    _dashboard(page, live_url, seated)
    form = page.locator("#eliminations form.bust-form")
    for n in (1, 2):
        form.locator(f"input[name=table_{n}]").fill(str(seat.table.number))
        form.locator(f"input[name=seat_{n}]").fill(str(seat.number))
        form.locator(f"input[name=stack_{n}]").fill("5000")
    _refused(page, lambda: form.locator("button[type=submit]").click())
    panel = page.locator("#eliminations")
    expect(panel.locator(".error[role=alert]")).to_have_text(
        MSG_SAME_PLAYER_TWICE.format(first=1, n=2, table=seat.table.number, seat=seat.number)
    )
    expect(panel.locator("input[name=seat_2]")).to_have_value(str(seat.number))
    _page_intact(page, "#clock", "#tables")


def test_move_form_keeps_the_seats_typed(page, live_url, director, seated, debug_on, screenshot):
    _dashboard(page, live_url, seated)
    tools = page.locator("#tables .table-tools")
    tools.locator("input[name=from_table]").fill("99")
    tools.locator("input[name=from_seat]").fill("4")
    tools.locator("input[name=to_table]").fill("1")
    tools.locator("input[name=to_seat]").fill("2")
    _refused(page, lambda: tools.get_by_role("button", name="Move", exact=True).click())
    panel = page.locator("#tables")
    expect(panel.locator(".error[role=alert]")).to_have_text(
        MSG_NOBODY_THERE.format(table=99, seat=4)
    )
    tools = panel.locator(".table-tools")
    expect(tools.locator("input[name=from_table]")).to_have_value("99")
    expect(tools.locator("input[name=from_seat]")).to_have_value("4")
    expect(tools.locator("input[name=to_table]")).to_have_value("1")
    expect(tools.locator("input[name=to_seat]")).to_have_value("2")
    _page_intact(page, "#clock", "#eliminations", "#log")
    screenshot(page, "form-error-move")


def test_table_forms_keep_what_was_typed(page, live_url, director, seated, debug_on):
    _dashboard(page, live_url, seated)
    tools = page.locator("#tables .table-tools")
    tools.locator("input[name=count]").fill("two")
    _refused(page, lambda: tools.get_by_role("button", name="Open tables").click())
    panel = page.locator("#tables")
    expect(panel.locator(".error[role=alert]")).to_have_text(
        MSG_NOT_A_NUMBER.format(label="Tables to open")
    )
    expect(panel.locator("input[name=count]")).to_have_value("two")

    page.once("dialog", lambda d: d.accept())
    panel.locator("input[name=table][aria-label='Table to break']").fill("x9")
    _refused(page, lambda: panel.get_by_role("button", name="Break table").click())
    expect(panel.locator(".error[role=alert]")).to_have_text(MSG_NOT_A_NUMBER.format(label="Table"))
    expect(panel.locator("input[aria-label='Table to break']")).to_have_value("x9")

    panel.locator("input[name=table][aria-label=Table]").fill("1")
    panel.locator("input[name=seat][aria-label=Seat]").fill("s")
    _refused(page, lambda: panel.get_by_role("button", name="Close seat").click())
    expect(panel.locator(".error[role=alert]")).to_have_text(MSG_NOT_A_NUMBER.format(label="Seat"))
    expect(panel.locator("input[name=table][aria-label=Table]")).to_have_value("1")
    expect(panel.locator("input[name=seat][aria-label=Seat]")).to_have_value("s")

    panel.locator("input[name=rank_1]").fill("first")
    _refused(page, lambda: panel.get_by_role("button", name="Save break order").click())
    expect(panel.locator(".error[role=alert]")).to_have_text(
        MSG_NOT_A_NUMBER.format(label="Table 1")
    )
    expect(panel.locator("input[name=rank_1]")).to_have_value("first")
    _page_intact(page, "#clock", "#eliminations")


def test_clock_refusal_stays_in_the_clock(page, live_url, director, seated, debug_on):
    _dashboard(page, live_url, seated)
    # A level number the server cannot read (a stale or tampered page) is refused in place.
    page.evaluate("document.querySelector('#clock select[name=index] option').value = 'x'")
    page.select_option("#clock select[name=index]", index=0)
    _refused(page, lambda: page.locator("#clock form.jump button").click())
    expect(page.locator("#clock .error[role=alert]")).to_have_text(
        MSG_NOT_A_NUMBER.format(label="Level")
    )
    _page_intact(page, "#tables", "#eliminations", "#clock .countdown")


def test_clock_time_left_typed_wrong_stays_in_the_clock(page, live_url, director, seated, debug):
    _dashboard(page, live_url, seated)
    clock = page.locator("#clock")
    clock.locator("input[name=left]").fill("ten past")
    _refused(page, lambda: clock.locator("input[name=left]").press("Enter"))
    clock = page.locator("#clock")
    expect(clock.locator(".error[role=alert]")).to_be_visible()
    expect(clock.locator("input[name=left]")).to_have_value("ten past")
    _page_intact(page, "#tables", "#eliminations", "#clock .countdown")


def test_a_server_error_or_no_answer_is_said_inside_the_form(page, live_url, director, seated):
    """DEBUG off: a 5xx (or no answer at all) changed nothing on screen before; now a short
    message appears in the form that was sent, and goes with its next request."""
    _dashboard(page, live_url, seated)
    page.route("**/tables/open/", lambda route: route.fulfill(status=500, body="boom"))
    form = page.locator("#tables form", has=page.locator("input[name=count]"))
    with page.expect_response("**/tables/open/"):
        form.get_by_role("button", name="Open tables").click()
    expect(form.locator(".js-request-error[role=alert]")).to_contain_text("error 500")
    expect(page.locator("#clock")).to_be_visible()
    page.unroute("**/tables/open/")
    page.route("**/tables/open/", lambda route: route.abort())
    form.get_by_role("button", name="Open tables").click()
    expect(form.locator(".js-request-error[role=alert]")).to_contain_text("No answer")
    expect(form.locator(".js-request-error")).to_have_count(1)


def test_payouts_form_keeps_what_was_typed(page, live_url, director, seated, debug_on):
    _dashboard(page, live_url, seated)
    panel = page.locator("#money")
    panel.locator("summary", has_text="Payout table").click()
    panel.locator("input[name=payouts]").fill("50 30")
    _refused(page, lambda: panel.get_by_role("button", name="Save payouts").click())
    panel = page.locator("#money")
    expect(panel.locator(".error[role=alert]")).to_be_visible()
    expect(panel.locator("input[name=payouts]")).to_be_visible()
    expect(panel.locator("input[name=payouts]")).to_have_value("50 30")
    _page_intact(page, "#clock", "#tables")


def test_deal_with_nobody_ticked(page, live_url, director, debug_on, screenshot):
    t = services.tournament_create(actor=director, name="Deal", tables=1, seed=3)
    for name in ("Ann Lee", "Bob Marsh", "Carla Diaz"):
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    services.registration_close(tournament_id=t.pk, actor=director)
    _dashboard(page, live_url, t)
    panel = page.locator("#money")
    panel.locator("summary", has_text="Deal").click()
    for box in panel.locator("form.deal input[name^=stack_]").all():
        box.fill("20000")
    panel.get_by_role("button", name="Show the numbers").click()
    page.locator("#money button[value=icm]").wait_for()
    _refused(page, lambda: page.locator("#money button[value=icm]").click())
    panel = page.locator("#money")
    expect(panel.locator(".error[role=alert]")).to_be_visible()
    expect(panel.locator("button[value=icm]")).to_be_visible()  # the numbers stay
    _page_intact(page, "#clock", "#tables", "#eliminations")
    screenshot(page, "form-error-deal")


def test_undo_of_a_stale_action_stays_in_the_log(page, live_url, director, seated, debug_on):
    _dashboard(page, live_url, seated)
    page.locator("#undo-button:not([disabled])").wait_for()
    # A stale button (another director undid that action meanwhile) names another action.
    page.evaluate("document.querySelector('#log input[name=event]').value = '999999'")
    _refused(page, lambda: page.locator("#undo-button").click())
    expect(page.locator("#log .error[role=alert]")).to_be_visible()
    _page_intact(page, "#clock", "#tables", "#eliminations")


# ---------------------------------------------------------------- other dashboard pages


def test_structure_editor_keeps_the_text(
    page, live_url, director, tournament, debug_on, screenshot
):
    _log_in(page, live_url, f"/td/{tournament.pk}/structure/")
    box = page.locator("#levels-text")
    box.fill("100/200 20\n200/100 20")
    _refused(page, lambda: page.locator("#structure-editor button", has_text="Save").first.click())
    form = page.locator("#structure-editor")
    expect(form.locator(".error[role=alert]")).to_be_visible()
    expect(form.locator("#levels-text")).to_have_value("100/200 20\n200/100 20")
    expect(form.locator(".error[role=alert]")).to_contain_text("Level 2: the big blind")
    form.scroll_into_view_if_needed()
    screenshot(page, "form-error-structure")
    _page_intact(page, "svg.chart")


def test_settings_form_keeps_what_was_typed(page, live_url, director, tournament, debug_on):
    _log_in(page, live_url, f"/td/{tournament.pk}/settings/")
    form = page.locator("#settings-form")
    form.locator("input[name=payouts]").fill("30 50 20")
    _refused(page, lambda: form.locator("button[type=submit], button:not([type])").first.click())
    form = page.locator("#settings-form")
    expect(form.locator(".field-error")).to_have_text(MSG_PAYOUTS_ORDER % {"place": 2, "above": 1})
    expect(form.locator("input[name=payouts]")).to_have_value("30 50 20")
    _page_intact(page, "nav.dash-nav")


def test_floor_tool_keeps_what_was_typed(page, live_url, director, tournament, debug_on):
    _log_in(page, live_url, f"/td/{tournament.pk}/floor/")
    form = page.locator("#tool-icm")
    form.locator("input[name=i_stacks]").fill("50000 lots")
    form.locator("input[name=i_prizes]").fill("500 300")
    _refused(page, lambda: form.get_by_role("button", name="Equities").click())
    form = page.locator("#tool-icm")
    expect(form.locator(".error[role=alert]")).to_be_visible()
    expect(form.locator("input[name=i_stacks]")).to_have_value("50000 lots")
    expect(form.locator("input[name=i_prizes]")).to_have_value("500 300")
    _page_intact(page, "#tool-settle", "#tool-race")


def test_users_page_keeps_the_username(page, live_url, director, debug_on):
    _log_in(page, live_url, "/td/users/")
    form = page.locator("#add-user")
    form.locator("input[name=username]").fill("maria")
    form.locator("input[name=password]").fill("x")
    _refused(page, lambda: form.locator("button").first.click())
    form = page.locator("#add-user")
    expect(form.locator(".error")).to_be_visible()
    expect(form.locator("input[name=username]")).to_have_value("maria")
    _page_intact(page)


def test_color_up_race_keeps_its_table_form(page, live_url, director, seated, debug_on):
    services.clock_action(tournament_id=seated.pk, action="start", actor=director)
    services.clock_action(tournament_id=seated.pk, action="next", actor=director)
    first, second = Seat.objects.filter(tournament=seated, table__number=1).order_by("number")[:2]
    _log_in(page, live_url, f"/td/{seated.pk}/colorup/")
    form = page.locator("#table-1 form", has=page.locator("input[name^=odd_]"))
    form.locator(f"input[name=odd_{first.number}]").fill("3")
    form.locator(f"input[name=odd_{second.number}]").fill("two")
    _refused(page, lambda: form.get_by_role("button", name="Deal the race").click())
    form = page.locator("#table-1 form", has=page.locator("input[name^=odd_]"))
    expect(form.locator(".error[role=alert]")).to_have_text(
        MSG_NOT_A_NUMBER.format(label=f"Seat {second.number} odd chips")
    )
    expect(form.locator(f"input[name=odd_{first.number}]")).to_have_value("3")
    expect(form.locator(f"input[name=odd_{second.number}]")).to_have_value("two")
    expect(page.locator("#table-2 .error")).to_have_count(0)
    _page_intact(page, "#colorup", "#table-2")


# ---------------------------------------------------------------- desk and login


def test_desk_empty_name(page, live_url, director, desk_clerk, tournament, debug, screenshot):
    _log_in(page, live_url, f"/desk/{tournament.pk}/", "clerk", "clerk-pass-123")
    assert _debug_script_loaded(page) is debug
    page.fill("#desk-name", "   ")
    _refused(page, lambda: page.get_by_role("button", name="Register new player").click())
    main = page.locator("#desk-main")
    expect(main.locator(".msg.bad[role=alert]")).to_be_visible()
    expect(main.locator("#desk-name")).to_be_visible()
    _page_intact(page, "#desk-main #register-form")
    screenshot(page, f"form-error-desk-{'debug' if debug else 'nodebug'}")


def test_login_keeps_the_username(page, live_url, director, debug_on):
    page.goto(f"{live_url}/login/")
    page.fill("input[name=username]", "td")
    page.fill("input[name=password]", "wrong")
    _refused(page, lambda: page.keyboard.press("Enter"))
    expect(page.locator(".error[role=alert]")).to_be_visible()
    expect(page.locator("input[name=username]")).to_have_value("td")
    _page_intact(page)


def test_enter_in_a_setup_field_creates_the_tournament(page, live_url, director):
    """Enter in a field is the big button's "Create", not the structure's "Preview"."""
    _log_in(page, live_url, "/td/new/")
    page.fill("input[name=name]", "Enter Cup")
    with page.expect_navigation():
        page.press("input[name=name]", "Enter")
    t = Tournament.objects.get(name="Enter Cup")
    assert page.url.endswith(f"/td/{t.pk}/")
