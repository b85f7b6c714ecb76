/* The lobby display (issue 28): several events' clocks on one screen.
 *
 * Each card's clock is derived as on the event's own TV (display.js; RULES 4.3): the state
 * carries `remaining_ms` at `server_time_ms` with the items that follow, so the countdown is
 * computed from the server's time (offset measured once per poll, the least-delayed sample
 * wins, taken as stamped at the answer's arrival) and rolls over by itself. The cards come in
 * pages of `per_page`; with more events than that, the page turns every `page_seconds`.
 * Polls send If-None-Match and mostly get 304 (one ETag for the whole lobby). No inline
 * script: the first state is JSON data in the page.
 *
 * URL options: ?poll=1 seconds between polls; ?lang=de|es|en the language (issue 29: the page
 * comes in it with its words for the cards, clockcore.js's `text`; none is written here).
 */
(function () {
  "use strict";

  var dataEl = document.getElementById("lobby-state");
  if (!dataEl) return;
  var body = document.body;
  var params = new URLSearchParams(window.location.search);
  var state = JSON.parse(dataEl.textContent);
  var etag = state.etag;
  var poll_s = parseFloat(params.get("poll"));
  var POLL_MS = (isFinite(poll_s) ? Math.min(60, Math.max(0.5, poll_s)) : 1) * 1000;
  // Columns and rows for n cards on a page (a 16:9 screen), as tourney/views/lobby.py's GRID.
  var GRID = [[1, 1], [2, 1], [3, 1], [2, 2], [3, 2], [3, 2], [4, 2], [4, 2], [3, 3], [4, 3],
    [4, 3], [4, 3], [4, 4], [4, 4], [4, 4], [4, 4], [5, 4], [5, 4], [5, 4], [5, 4], [6, 4],
    [6, 4], [6, 4], [6, 4]];

  function $(id) { return document.getElementById(id); }

  // ------------------------------------------------------------ server time (clockcore.js)

  var clock = window.TourneyClock.serverClock(body);
  var addSample = clock.addSample, serverNow = clock.now;

  // ------------------------------------------------------------ formatting (clockcore.js)

  var chips = window.TourneyClock.chips, duration = window.TourneyClock.duration;
  var blinds = window.TourneyClock.blinds, ante = window.TourneyClock.ante;
  var text = window.TourneyClock.text, levelTitle = window.TourneyClock.levelTitle;

  function nextText(item) {
    if (!item) return text("last_level");
    if (item.kind === "break") return text("next_break_for", { duration: duration(item.seconds * 1000) });
    return text("next_blinds", { blinds: blinds(item) });
  }

  /* "in 1 h 12 min", "in 12 min", "in 40 s" until a registering event's start. */
  function startsIn(ms) {
    if (ms <= 0) return text("starting_soon");
    var min = Math.ceil(ms / 60000);
    if (min < 2) return text("in_seconds", { seconds: Math.ceil(ms / 1000) });
    if (min < 60) return text("in_minutes", { minutes: min });
    var h = Math.floor(min / 60), m = min % 60;
    if (h >= 24) return text("in_days", { days: Math.floor(h / 24), hours: h % 24 });
    return m ? text("in_hours_minutes", { hours: h, minutes: m }) : text("in_hours", { hours: h });
  }

  // ------------------------------------------------------------ a card's clock

  /* Where a card's clock is at server time `now`: the walk of RULES 4.3 over its items
     (display.js's clockAt, for one card). */
  function clockAt(card, now) {
    var items = card.items, i = 0, remaining = card.remaining_ms, status = card.status;
    var waiting = false;
    if (status === "running") {
      remaining -= now - card.server_time_ms;
      while (remaining <= 0 && i + 1 < items.length) {
        i += 1;
        remaining += items[i].seconds * 1000;
      }
      if (remaining <= 0) {
        remaining = 0;
        if (card.more_items) waiting = true;
        else status = "finished";
      }
    }
    var toBreak = null;
    if (status !== "finished" && items[i] && items[i].kind !== "break") {
      var acc = remaining;
      for (var j = i + 1; j < items.length; j++) {
        if (items[j].kind === "break") { toBreak = acc; break; }
        acc += items[j].seconds * 1000;
      }
      if (toBreak === null && card.ms_to_next_break !== null && card.ms_to_next_break !== undefined) {
        var aged = card.status === "running" ? now - card.server_time_ms : 0;
        toBreak = Math.max(0, card.ms_to_next_break - aged);
      }
    }
    return { index: card.level_index + i, item: items[i], next: items[i + 1] || null,
      remaining: remaining, status: status, waiting: waiting, toBreak: toBreak,
      hasNext: i + 1 < items.length || card.more_items };
  }

  // ------------------------------------------------------------ building the cards

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function stat(cls, label, value, small) {
    var div = el("div", "ev-stat " + cls);
    div.appendChild(el("dt", "", label));
    var dd = el("dd", "", value);
    if (small) dd.appendChild(el("small", "", small));
    div.appendChild(dd);
    return div;
  }

  /* The card's markup (as templates/display/_lobby_card.html), its moving parts kept. */
  function cardEl(card) {
    var registering = card.phase === "registering";
    var art = el("article", "ev-card is-" + card.phase);
    art.dataset.token = card.token;
    var head = el("header", "ev-head");
    head.appendChild(el("h2", "ev-name", card.name));
    var badge = head.appendChild(el("span", "ev-badge"));
    art.appendChild(head);
    if (card.flight_line) art.appendChild(el("p", "ev-flight", card.flight_line));
    var clock = el("div", "ev-clock");
    var parts = { art: art, badge: badge, card: card };
    // Registering with a start time: the time it starts; else the clock, as the TV has it.
    var startView = registering && !!card.starts_text;
    parts.level = clock.appendChild(el("p", "ev-level", startView ? text("starts") : ""));
    parts.countdown = clock.appendChild(el("p", "ev-countdown" + (startView ? " ev-start" : "")));
    if (startView) {
      parts.countdown.textContent = card.starts_text;
      parts.soon = clock.appendChild(el("p", "ev-soon"));
    } else {
      parts.countdown.setAttribute("role", "timer");
      parts.blinds = clock.appendChild(el("p", "ev-blinds"));
    }
    art.appendChild(clock);
    var dl = el("dl", "ev-stats");
    if (card.registering) {
      dl.appendChild(stat("ev-seats", text("seats_left"), card.seats_left === null ? "–" : String(card.seats_left)));
      var parts_ = card.price_parts && card.price_parts !== card.price ? " " + card.price_parts : "";
      dl.appendChild(stat("ev-price", text("buy_in"), card.price, parts_));
    }
    if (registering) {
      dl.appendChild(stat("ev-players", text("entries"), String(card.entries)));
    } else {
      dl.appendChild(stat("ev-players", text("players"), String(card.players_left), " / " + card.entries));
      dl.appendChild(stat("ev-avg", text("avg_stack"), chips(card.average_stack)));
      var brk = dl.appendChild(stat("ev-break", text("next_break"), "–"));
      parts.toBreak = brk.querySelector("dd");
    }
    dl.appendChild(stat("ev-pool", card.pool_label, card.prize_pool));
    art.appendChild(dl);
    var link = el("a", "ev-link", text("seating_board"));
    link.href = body.dataset.seatingUrl.replace("__token__", encodeURIComponent(card.token));
    art.appendChild(link);
    return parts;
  }

  function setText(node, text) {
    if (node && node.textContent !== text) node.textContent = text;
  }

  /* A card's moving parts at server time `now`; true when its clock is past what it holds. */
  function renderCard(p, now) {
    var card = p.card;
    var registering = card.phase === "registering";
    if (p.soon) {
      setText(p.badge, text("registering"));
      setText(p.soon, startsIn(card.starts_at_ms - now));
      return false;
    }
    var c = clockAt(card, now);
    var item = c.item || {};
    var isBreak = item.kind === "break";
    var note = { paused: text("paused"), finished: text(card.flight_line ? "day_over" : "complete") }[c.status];
    if (registering) note = text("registering");
    else if (!note && isBreak) note = text("break");
    setText(p.badge, note || text(card.hand_for_hand ? "hand_for_hand" : "running"));
    setText(p.level, levelTitle(c.item));
    setText(p.countdown, c.status === "finished" ? "0:00" : duration(c.remaining));
    p.countdown.classList.toggle("long", p.countdown.textContent.length > 5);
    if (isBreak) setText(p.blinds, c.hasNext ? nextText(c.next) : text("last_level"));
    else {
      var a = ante(item);
      p.blinds.replaceChildren(document.createTextNode(blinds(item) + " "), el("span", "ev-ante", a));
    }
    setText(p.toBreak, isBreak ? text("now") : duration(c.toBreak));
    var art = p.art;
    art.classList.toggle("is-break", isBreak);
    art.classList.toggle("is-paused", c.status === "paused");
    art.classList.toggle("is-not_started", c.status === "not_started");
    art.classList.toggle("is-finished", c.status === "finished");
    art.classList.toggle("is-last-minute", c.status === "running" && c.remaining <= 60000);
    art.dataset.levelIndex = String(c.index);
    return c.waiting;
  }

  // ------------------------------------------------------------ pages

  var page = 0;
  var shown = [];
  var pageTimer = null;

  function pageCount() {
    return Math.max(1, Math.ceil(state.events.length / state.per_page));
  }

  function renderPage() {
    var grid = $("lobby-grid");
    var pages = pageCount();
    if (page >= pages) page = 0;
    var cards = state.events.slice(page * state.per_page, (page + 1) * state.per_page);
    var n = Math.min(state.per_page, state.events.length);
    var dims = GRID[Math.max(1, Math.min(GRID.length, n)) - 1];
    grid.className = "lobby-grid cols-" + dims[0] + " rows-" + dims[1];
    shown = cards.map(cardEl);
    var frag = document.createDocumentFragment();
    shown.forEach(function (p) { frag.appendChild(p.art); });
    if (!cards.length) frag.appendChild(el("p", "lobby-empty", text("no_event")));
    grid.replaceChildren(frag);
    body.dataset.page = String(page + 1);
    body.dataset.pages = String(pages);
    var label = $("lobby-page");
    setText(label, page + 1 + "/" + pages);
    label.hidden = pages < 2;
    tick();
  }

  function turn() {
    clearTimeout(pageTimer);
    pageTimer = null;
    if (pageCount() < 2) return;
    page = (page + 1) % pageCount();
    renderPage();
    pageTimer = setTimeout(turn, state.page_seconds * 1000);
  }

  function keepTurning() {
    if (pageCount() > 1 && pageTimer === null) pageTimer = setTimeout(turn, state.page_seconds * 1000);
    if (pageCount() < 2 && pageTimer !== null) { clearTimeout(pageTimer); pageTimer = null; }
  }

  // ------------------------------------------------------------ ticking

  var tickTimer = null;
  var outrun = false;

  function tick() {
    clearTimeout(tickTimer);
    var now = serverNow();
    var delay = 1000;
    outrun = false;
    shown.forEach(function (p) {
      if (renderCard(p, now)) outrun = true;
      var card = p.card;
      if (card.status === "running" && card.phase === "running") {
        var left = card.remaining_ms - (now - card.server_time_ms);
        var ms = ((left % 1000) + 1000) % 1000;
        delay = Math.min(delay, ms + 3);
      }
    });
    // Cards on other pages may outrun what they hold too (no worker announced a level).
    state.events.forEach(function (card) {
      if (card.phase === "running" && clockAt(card, now).waiting) outrun = true;
    });
    tickTimer = setTimeout(tick, Math.max(10, Math.min(1000, delay)));
  }

  // ------------------------------------------------------------ polling

  var failures = 0;
  function poll() {
    var sentAt = Date.now();
    var headers = etag && !outrun ? { "If-None-Match": etag } : {};
    fetch(body.dataset.stateUrl, { headers: headers, cache: "no-store", credentials: "omit" })
      .then(function (r) {
        var receivedAt = Date.now();
        var serverMs = Number(r.headers.get("X-Server-Time"));
        if (serverMs) addSample(serverMs, sentAt, receivedAt);
        if (r.status === 304) return null;
        if (!r.ok) throw new Error("state " + r.status);
        return r.json();
      })
      .then(function (fresh) {
        failures = 0;
        $("offline").hidden = true;
        if (!fresh) return;
        var pagesChanged = fresh.per_page !== state.per_page || fresh.page_seconds !== state.page_seconds;
        state = fresh;
        etag = fresh.etag;
        body.dataset.stateEtag = etag;
        setText(document.querySelector(".lobby-name"), state.name);
        if (pagesChanged && pageTimer !== null) { clearTimeout(pageTimer); pageTimer = null; }
        renderPage();
        keepTurning();
      })
      .catch(function () {
        failures += 1;
        if (failures >= 3) $("offline").hidden = false; // the clocks keep counting regardless
      })
      .then(function () { setTimeout(poll, POLL_MS); });
  }

  // ------------------------------------------------------------ start

  body.dataset.stateEtag = etag;
  renderPage();
  keepTurning();
  setTimeout(poll, POLL_MS);
})();
