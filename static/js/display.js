/* Public display (TV) and player phone page.
 *
 * The clock is derived, never counted (RULES 4.3): the state carries `remaining_ms` at
 * `server_time_ms` and the items that follow, so this script computes the countdown from the
 * server's time (offset measured once per poll, the least-delayed sample wins) and rolls over
 * to the next level by itself at zero; the next poll confirms. Polls send If-None-Match and
 * mostly get 304. No inline script anywhere: the first state is JSON data in the page.
 *
 * URL options (TV): ?view=clock|seating|standings shows one view, ?rotate=20 seconds per view,
 * ?page=10 seconds per seating page, ?sound=1 starts unmuted, ?poll=1 seconds between polls,
 * ?lang=de|es|en the language (issue 29: the page comes in it, its words for the countdown
 * with it, clockcore.js's `text`; no English word is written here).
 */
(function () {
  "use strict";

  var dataEl = document.getElementById("display-state");
  if (!dataEl) return;
  var body = document.body;
  var mode = body.dataset.mode || "tv";
  var params = new URLSearchParams(window.location.search);
  var state = JSON.parse(dataEl.textContent);
  var etag = state.etag;

  function numParam(name, fallback, min, max) {
    var v = parseFloat(params.get(name));
    if (!isFinite(v)) return fallback;
    return Math.min(max, Math.max(min, v));
  }

  var POLL_MS = numParam("poll", mode === "tv" ? 1 : 5, 0.5, 60) * 1000;
  var ROTATE_MS = numParam("rotate", 20, 5, 3600) * 1000;
  var PAGE_MS = numParam("page", 10, 3, 600) * 1000;
  var VIEW = params.get("view");

  function $(id) { return document.getElementById(id); }

  // ------------------------------------------------------------ server time (clockcore.js)

  var clock = window.TourneyClock.serverClock(body);
  var addSample = clock.addSample, serverNow = clock.now;

  // ------------------------------------------------------------ formatting (clockcore.js)

  var chips = window.TourneyClock.chips, duration = window.TourneyClock.duration;
  var blinds = window.TourneyClock.blinds, ante = window.TourneyClock.ante;
  var text = window.TourneyClock.text, levelTitle = window.TourneyClock.levelTitle;

  /* As the server words it (selectors/display_words.py's color_up_text). */
  function colorUp(item) {
    if (!item || item.kind !== "break" || !item.color_up || !item.color_up.length) return "";
    var names = item.color_up.map(function (v) {
      var color = state.chips[String(v)] || "";
      var words = { color: color, chips: chips(v) };
      return color ? text("color_up_chip", words) : text("color_up_value", words);
    });
    var last = names.pop();
    var together = names.length ? text("and_list", { chips: names.join(", "), last: last }) : last;
    return text("color_up", { chips: together });
  }

  function nextText(item) {
    if (!item) return text("last_level");
    if (item.kind === "break") return text("break_for", { duration: duration(item.seconds * 1000) });
    var a = ante(item);
    return blinds(item) + (a !== text("no_ante") ? " · " + a : "");
  }

  // ------------------------------------------------------------ the clock

  /* Where the clock is at server time `now`: the walk of RULES 4.3 over the items we hold. */
  function clockAt(now) {
    var items = state.items, i = 0, remaining = state.remaining_ms, status = state.status;
    var waiting = false;
    if (status === "running") {
      remaining -= now - state.server_time_ms;
      while (remaining <= 0 && i + 1 < items.length) {
        i += 1;
        remaining += items[i].seconds * 1000;
      }
      if (remaining <= 0) {
        remaining = 0;
        if (state.more_items) waiting = true; // beyond what we hold: the next poll tells
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
      // The next break lies beyond the items we hold: the server counted it from the same
      // anchor (ms_to_next_break at server_time_ms), so age that figure instead of "–".
      if (toBreak === null && state.ms_to_next_break !== null && state.ms_to_next_break !== undefined) {
        var aged = state.status === "running" ? now - state.server_time_ms : 0;
        toBreak = Math.max(0, state.ms_to_next_break - aged);
      }
    }
    return {
      index: state.level_index + i,
      item: items[i],
      next: items[i + 1] || null,
      remaining: remaining,
      status: status,
      waiting: waiting,
      toBreak: toBreak,
      hasNext: i + 1 < items.length || state.more_items
    };
  }

  function setText(id, text) {
    var el = $(id);
    if (el && el.textContent !== text) el.textContent = text;
    return el;
  }

  function show(id, visible) {
    var el = $(id);
    if (el) el.hidden = !visible;
  }

  /* The TV's footer line stays whole in any language and at any blinds: its font shrinks (to
     60 % at most) until the words fit its box, instead of being cut short. */
  function fitLine(el) {
    if (!el || mode !== "tv" || !el.getClientRects().length) return false;
    el.style.fontSize = "";
    var size = parseFloat(getComputedStyle(el).fontSize) || 0;
    var least = size * 0.6;
    while (el.scrollWidth > el.clientWidth + 1 && size > least) {
      size *= 0.94;
      el.style.fontSize = size + "px";
    }
    return true;
  }

  var lastIndex = null;

  function renderClock() {
    var c = clockAt(serverNow());
    var item = c.item || {};
    var isBreak = item.kind === "break";
    setText("level-title", levelTitle(c.item));
    var cd = setText("countdown", c.status === "finished" ? "0:00" : duration(c.remaining));
    if (cd) cd.classList.toggle("long", cd.textContent.length > 5);
    // RULES 10.2: a day of a multi-day event stops ("Day over"), a tournament completes: the
    // page hands over the one wording that fits it ("finished").
    var note = { not_started: text("starting_soon"), paused: text("paused"), finished: text("finished") }[c.status] || "";
    setText("clock-note", note);
    show("clock-note", !!note);
    setText("blinds", blinds(item));
    setText("ante", ante(item));
    show("blinds", !isBreak);
    show("ante", !isBreak);
    var cu = colorUp(item);
    setText("color-up", cu);
    show("color-up", !!cu);
    var dayOver = !!(state.flight && state.flight.over);  // RULES 10.2: a flight has ended
    var nextEl = $("next-level"), nextWas = nextEl ? nextEl.textContent : "";
    setText("next-level", dayOver ? text("bag_and_tag") : c.hasNext ? nextText(c.next) : text("last_level"));
    if (nextEl && (nextEl.textContent !== nextWas || !nextEl.dataset.fitted)) {
      nextEl.dataset.fitted = fitLine(nextEl) ? "1" : "";
    }
    body.classList.toggle("is-day-over", dayOver);
    setText("next-break", isBreak ? text("now") : duration(c.toBreak));

    var running = c.status === "running";
    body.classList.toggle("is-break", isBreak);
    body.classList.toggle("is-running", running);
    body.classList.toggle("is-paused", c.status === "paused");
    body.classList.toggle("is-not_started", c.status === "not_started");
    body.classList.toggle("is-finished", c.status === "finished");
    body.classList.toggle("is-last-minute", running && c.remaining <= 60000);

    if (lastIndex !== null && c.index !== lastIndex) body.dataset.switchedAt = String(Date.now());
    body.dataset.levelIndex = String(c.index);
    lastIndex = c.index;
    // The chimes and the spoken announcements (announce.js) follow the derived clock.
    document.dispatchEvent(new CustomEvent("tourney:clock", {
      detail: { clock: c, state: state, now: serverNow() }
    }));
    return c;
  }

  var tickTimer = null;
  function tick() {
    clearTimeout(tickTimer);
    var c = renderClock();
    // Wake just after the displayed second changes, so seconds flip on time and never drift.
    var delay = 1000;
    if (c.status === "running" && !c.waiting) delay = (c.remaining % 1000) + 3;
    tickTimer = setTimeout(tick, Math.max(10, Math.min(1000, delay)));
  }

  // ------------------------------------------------------------ sound: static/js/announce.js

  // ------------------------------------------------------------ stats and payouts

  function renderStats() {
    setText("players-left", String(state.players_left));
    setText("entries", String(state.entries));
    setText("average-stack", chips(state.average_stack));
    setText("prize-pool", state.prize_pool);
    show("badge-h4h", !!state.hand_for_hand);
    show("badge-final", state.tables_in_play === 1 && state.status !== "not_started" && !state.finished);
    renderFlight();
    renderBounties();
    renderLeaders();
    renderPayouts();
  }

  /* The day of a multi-day event (RULES 10.2): the server words the line (flights.py). */
  function renderFlight() {
    var f = state.flight, el = $("flight-line");
    if (!f || !el) return;
    setText("flight-line", f.line);
    el.classList.toggle("over", !!f.over);
    if (f.pool_label) setText("prize-pool-label", f.pool_label);
    if (f.payouts_note) setText("payouts-note", f.payouts_note);
  }

  /* The bounty panel of a bounty event (RULES 9): figures, the biggest heads, a note; the
     server words them all (display_bounties.py), this only puts them in place. */
  function renderBounties() {
    var b = state.bounties;
    if (!b || !$("bounties")) return;
    setText("bounty-title", b.title);
    var figs = document.createDocumentFragment();
    (b.figures || []).forEach(function (f) {
      var div = document.createElement("div");
      div.className = "bfig";
      var dt = document.createElement("dt");
      dt.textContent = f.label;
      var dd = document.createElement("dd");
      dd.textContent = f.value;
      div.appendChild(dt);
      div.appendChild(dd);
      figs.appendChild(div);
    });
    $("bounty-figures").replaceChildren(figs);
    show("bounty-figures", !!(b.figures && b.figures.length));
    var rows = document.createDocumentFragment();
    (b.biggest || []).forEach(function (h) {
      var li = document.createElement("li");
      li.appendChild(span("who", h.name));
      li.appendChild(span("where", text("table_seat", { table: h.table, seat: h.seat })));
      li.appendChild(span("amount", h.amount));
      rows.appendChild(li);
    });
    $("bounty-list").replaceChildren(rows);
    show("bounty-list", !!(b.biggest && b.biggest.length));
    setText("bounty-note", b.note || "");
    show("bounty-note", !!b.note);
  }

  /* The chip leaders (RULES 10.8): the biggest latest counts, worded by the server
     (display_chip_counts.py). The panel comes with the page: its first count reloads it. */
  function renderLeaders() {
    var list = $("chip-leader-list");
    if (!list || !state.chip_leaders) return;
    var rows = document.createDocumentFragment();
    state.chip_leaders.forEach(function (c) {
      var li = document.createElement("li");
      li.appendChild(span("who", c.name));
      li.appendChild(span("where", text("table_seat", { table: c.table, seat: c.seat })));
      li.appendChild(span("chips", c.chips));
      li.appendChild(span("at", c.at));
      rows.appendChild(li);
    });
    list.replaceChildren(rows);
  }

  /* A season's standings (issue 27): the top of the season the tournament counts toward,
     worded by the server (display_standings.py); a view of its own on the TV, a section on
     the phone. The page comes with it: a tournament joining or leaving a season reloads. */
  function renderStandings() {
    var list = $("standings-list");
    var st = state.standings;
    if (!list || !st) return;
    var rows = document.createDocumentFragment();
    st.rows.forEach(function (r) {
      var li = document.createElement("li");
      li.className = r.rank === 1 ? "st-row leader" : "st-row";
      li.appendChild(span("rank", String(r.rank)));
      li.appendChild(span("who", r.name));
      li.appendChild(span("pts", r.points));
      li.appendChild(span("ev", String(r.events)));
      li.appendChild(span("wins", String(r.wins)));
      rows.appendChild(li);
    });
    list.replaceChildren(rows);
    setText("standings-events", String(st.events));
    setText("standings-error", st.error || "");
    show("standings-error", !!st.error);
  }

  function standingsChanged(fresh) {
    return !!$("standings-list") !== !!fresh.standings;
  }

  function leadersChanged(fresh) {
    return !!$("chip-leaders") !== !!(fresh.chip_leaders && fresh.chip_leaders.length);
  }

  /* Whether this page was built for another bounty setup than the state's (the director
     changed it): its panels are not there, so the page is built again. */
  function bountiesChanged(fresh) {
    var panel = $("bounties");
    var kind = fresh.bounties ? fresh.bounties.kind : null;
    return (panel ? panel.dataset.kind : null) !== kind;
  }

  function payoutRow(p) {
    var li = document.createElement("li");
    if (p.deal) li.className = "deal";
    li.appendChild(span("place", p.places));
    if (p.name) li.appendChild(span("who", p.name)); // a deal's amount (RULES 8.3)
    li.appendChild(span("amount", p.amount));
    return li;
  }

  function firstPlace(places) { return String(places).split("–")[0]; }
  function lastPlace(places) { return String(places).split("–").pop(); }

  /* The payouts in place order. On the phone the page scrolls: all of them. On the TV the
     panel holds what fits in two columns (column one 1..k, column two k+1..2k, display.css),
     and when the table is longer a line under them says which places are not shown
     ("+41 more: places 20–60"), never a clipped run that jumps from 11 to 20. */
  function renderPayouts() {
    var list = $("payouts");
    if (!list) return;
    var payouts = state.payouts || [];
    if (mode !== "tv") {
      var all = document.createDocumentFragment();
      payouts.forEach(function (p) { all.appendChild(payoutRow(p)); });
      list.replaceChildren(all);
      return;
    }
    var panel = list.parentElement;
    var note = $("payouts-more");
    if (!panel || !panel.getClientRects().length) return; // hidden: fitted when shown
    if (note) note.hidden = true;
    list.dataset.more = "0";
    if (!payouts.length) { list.replaceChildren(); return; }
    var probe = payoutRow(payouts[0]);
    list.style.setProperty("--rows", "1");
    list.replaceChildren(probe);
    var rowH = probe.getBoundingClientRect().height || 1;
    var ps = getComputedStyle(panel);
    var bottom = panel.getBoundingClientRect().bottom - (parseFloat(ps.paddingBottom) || 0) -
      (parseFloat(ps.borderBottomWidth) || 0);
    var top = list.getBoundingClientRect().top;
    var perColumn = Math.max(1, Math.floor((bottom - top + 0.5) / rowH));
    var shown = payouts.length;
    // A deal's rows carry names (RULES 8.3): one wide column then (display.css), not two.
    var cols = payouts.some(function (p) { return p.deal; }) ? 1 : 2;
    list.classList.toggle("one-column", cols === 1);
    if (payouts.length > perColumn * cols && note) {
      // Not all fit: the notice takes its line first, the rows get what is left.
      var from = firstPlace(payouts[0].places), to = lastPlace(payouts[payouts.length - 1].places);
      note.textContent = text("more_places", { count: to, from: from, to: to }); // a first measure
      note.hidden = false;
      var nb = note.getBoundingClientRect();
      var nm = parseFloat(getComputedStyle(note).marginTop) || 0;
      perColumn = Math.max(1, Math.floor((bottom - nb.height - nm - top + 0.5) / rowH));
      shown = Math.min(payouts.length, perColumn * cols);
      var rest = payouts.slice(shown);
      from = firstPlace(rest[0].places);
      var count = Number(to) - Number(from) + 1;
      if (!(count > 0)) count = rest.length;
      note.textContent = from === to ? text("more_place", { count: count, place: from })
        : text("more_places", { count: count, from: from, to: to });
      list.dataset.more = String(count);
    } else if (payouts.length > perColumn * cols) {
      shown = perColumn * cols;
    }
    var frag = document.createDocumentFragment();
    for (var k = 0; k < shown; k++) frag.appendChild(payoutRow(payouts[k]));
    list.style.setProperty("--rows", String(Math.max(1, Math.min(perColumn, Math.ceil(shown / cols)))));
    list.replaceChildren(frag);
  }

  function span(cls, text) {
    var el = document.createElement("span");
    el.className = cls;
    el.textContent = text;
    return el;
  }

  // ------------------------------------------------------------ seating board (TV)

  var page = 0;
  var pageCount = 1;

  function heads() { return !!(state.bounties && state.bounties.heads); }

  function isRecent(at) { return at && serverNow() - at < state.recent_ms; }

  function seatRow(row) {
    var li = document.createElement("li");
    li.className = "seat-row" + (isRecent(row[3]) ? " moved" : "");
    li.appendChild(span("who", row[0]));
    if (row.length > 4) li.appendChild(span("bty", row[4])); // the head (RULES 9.1)
    li.appendChild(span("tbl", String(row[1])));
    li.appendChild(span("st", String(row[2])));
    return li;
  }

  /* How many rows fit: the board's height over one row's, times the columns the CSS sets. */
  function pageSize(board) {
    var probe = seatRow(heads() ? ["Mm", 1, 1, 0, "0"] : ["Mm", 1, 1, 0]);
    probe.style.visibility = "hidden";
    board.replaceChildren(probe);
    var rowH = probe.getBoundingClientRect().height || 1;
    var styles = getComputedStyle(board);
    var gap = parseFloat(styles.rowGap) || 0;
    var cols = parseInt(styles.getPropertyValue("--cols"), 10) || 4;
    var rows = Math.max(1, Math.floor((board.clientHeight + gap) / (rowH + gap)));
    board.style.setProperty("--rows", String(rows));
    return rows * cols;
  }

  function renderSeating() {
    var board = $("seating-board");
    var view = $("seating-view");
    if (!board || !view || view.hidden) return;
    var rows = state.seating;
    // Every row's bounty column as wide as the widest amount, so the columns line up.
    var widest = 0;
    if (heads()) rows.forEach(function (r) { widest = Math.max(widest, String(r[4]).length); });
    board.classList.toggle("has-bounties", heads());
    board.style.setProperty("--bty", Math.max(2, widest) + 0.8 + "ch");
    var size = pageSize(board);
    pageCount = Math.max(1, Math.ceil(rows.length / size));
    if (page >= pageCount) page = 0;
    var frag = document.createDocumentFragment();
    rows.slice(page * size, (page + 1) * size).forEach(function (r) { frag.appendChild(seatRow(r)); });
    board.replaceChildren(frag);
    setText("seating-count", String(rows.length));
    setText("seating-page", pageCount > 1 ? text("page_of", { page: page + 1, pages: pageCount }) : "");

    var moves = $("moves");
    if (moves) {
      var mf = document.createDocumentFragment();
      state.moves.filter(function (m) { return isRecent(m.at); }).forEach(function (m) {
        var li = document.createElement("li");
        li.appendChild(span("who", m.name));
        var mv = span("move", m.from[0] + "·" + m.from[1] + " → ");
        var to = document.createElement("b");
        to.textContent = m.to[0] + "·" + m.to[1];
        mv.appendChild(to);
        li.appendChild(mv);
        mf.appendChild(li);
      });
      if (!mf.childNodes.length) mf.appendChild(span("none", text("no_moves")));
      moves.replaceChildren(mf);
      fitMoves(moves);
    }
  }

  /* The newest moves that fit in their panel; the older ones become "+k earlier", never a
     row cut in half at the panel's bottom. */
  function fitMoves(list) {
    var box = list.parentElement;
    if (!box || !box.getClientRects().length) return;
    var hidden = 0;
    while (box.scrollHeight > box.clientHeight + 1) {
      var extra = list.querySelector("li.more");
      if (extra) extra.remove();
      var rows = list.querySelectorAll("li:not(.more)");
      if (!rows.length) break;
      rows[rows.length - 1].remove();
      hidden += 1;
      var more = document.createElement("li");
      more.className = "more";
      more.textContent = text("earlier", { count: hidden });
      list.appendChild(more);
    }
    list.dataset.more = String(hidden);
  }

  // ------------------------------------------------------------ views and rotation (TV)

  var current = null;
  var viewTimer = null;
  var seatingUntil = 0;

  function showView(name) {
    if (state.finished) { // the results view stays (the page reloads when it changes) ...
      if (!$("standings-view")) return;
      current = name; // ... taking turns with a season's standings (issue 27)
      body.dataset.view = name;
      $("results-view").hidden = name === "standings";
      $("standings-view").hidden = name !== "standings";
      return;
    }
    current = name;
    body.dataset.view = name;
    $("clock-view").hidden = name !== "clock";
    $("seating-view").hidden = name !== "seating";
    if ($("standings-view")) $("standings-view").hidden = name !== "standings";
    if (name === "seating") renderSeating();
    else renderPayouts();
    if (name === "clock") fitLine($("next-level"));
  }

  function cycle() {
    clearTimeout(viewTimer);
    if (state.finished) {
      showView(current === "standings" ? "results" : "standings");
      viewTimer = setTimeout(cycle, ROTATE_MS);
      return;
    }
    if (VIEW === "standings" && $("standings-view")) {
      if (current !== VIEW) showView(VIEW);
      return;
    }
    if (VIEW === "clock" || VIEW === "seating") {
      if (current !== VIEW) { page = 0; showView(VIEW); }
      else if (VIEW === "seating") { page = (page + 1) % pageCount; renderSeating(); }
      if (VIEW === "seating") viewTimer = setTimeout(cycle, PAGE_MS);
      return;
    }
    if (current === "clock") {
      page = 0;
      showView("seating");
      seatingUntil = Date.now() + Math.max(ROTATE_MS, pageCount * PAGE_MS);
      viewTimer = setTimeout(cycle, Math.min(PAGE_MS, ROTATE_MS));
    } else if (current === "seating" && Date.now() + 50 < seatingUntil && page + 1 < pageCount) {
      page += 1;
      renderSeating();
      viewTimer = setTimeout(cycle, Math.min(PAGE_MS, seatingUntil - Date.now()));
    } else if (current === "seating" && Date.now() + 50 < seatingUntil) {
      viewTimer = setTimeout(cycle, seatingUntil - Date.now());
    } else if (current === "seating" && $("standings-view")) {
      showView("standings");
      viewTimer = setTimeout(cycle, ROTATE_MS);
    } else {
      showView("clock");
      viewTimer = setTimeout(cycle, ROTATE_MS);
    }
  }

  // ------------------------------------------------------------ find my seat (phone)

  function refreshFind(query) {
    var url = body.dataset.findUrl;
    var results = $("find-results");
    if (!url || !results || !query) return;
    var sep = url.indexOf("?") < 0 ? "?" : "&"; // the find URL keeps the page's ?lang=
    fetch(url + sep + "name=" + encodeURIComponent(query), { cache: "no-store", credentials: "omit" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (html === null) return;
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("find-results");
        var old = $("find-results");
        if (fresh && old) old.replaceWith(document.importNode(fresh, true));
      })
      .catch(function () { /* the page keeps what it shows */ });
  }

  function findQuery() {
    var input = $("find-name");
    return input ? input.value.trim() : "";
  }

  if (mode === "phone") {
    var form = $("find-form");
    if (form) {
      form.addEventListener("submit", function (ev) {
        ev.preventDefault();
        var q = findQuery();
        var url = new URL(window.location.href);
        url.searchParams.set("name", q);
        window.history.replaceState(null, "", url);
        refreshFind(q);
      });
    }
  }

  // ------------------------------------------------------------ polling

  var failures = 0;
  function poll() {
    var sentAt = Date.now();
    // Past the items it holds (no worker announced the levels, so the ETag did not change),
    // the screen asks for the whole state: the server rebuilds one the clock has outrun.
    var headers = etag && !clockAt(serverNow()).waiting ? { "If-None-Match": etag } : {};
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
        show("offline", false);
        if (!fresh) return;
        // The tournament ended (or its last bust was undone), or its results changed: the
        // server renders the winner and the results (or the clock again) in a new page.
        if (fresh.finished || state.finished || bountiesChanged(fresh) || leadersChanged(fresh) || standingsChanged(fresh)) { window.location.reload(); return; }
        state = fresh;
        etag = fresh.etag;
        body.dataset.stateEtag = etag;
        renderStats();
        renderStandings();
        tick();
        if (mode === "tv" && current === "seating") renderSeating();
        if (mode === "phone") refreshFind(findQuery());
      })
      .catch(function () {
        failures += 1;
        if (failures >= 3) show("offline", true); // the clock keeps counting regardless
      })
      .then(function () { setTimeout(poll, POLL_MS); });
  }

  // ------------------------------------------------------------ start

  window.addEventListener("resize", function () {
    fitLine($("next-level"));
    if (current === "seating") renderSeating();
    else renderPayouts();
  });
  body.dataset.stateEtag = etag;
  renderStats();
  tick();
  if (mode === "tv" && !state.finished) {
    var only = VIEW === "seating" || (VIEW === "standings" && $("standings-view"));
    showView(only ? VIEW : "clock");
    if (VIEW === "seating") viewTimer = setTimeout(cycle, PAGE_MS);
    else if (VIEW !== "clock" && !only) viewTimer = setTimeout(cycle, ROTATE_MS);
  } else if (mode === "tv" && $("standings-view") && VIEW !== "clock" && VIEW !== "seating") {
    showView(VIEW === "standings" ? "standings" : "results");
    if (VIEW !== "standings") viewTimer = setTimeout(cycle, ROTATE_MS);
  }
  setTimeout(poll, POLL_MS);
})();
