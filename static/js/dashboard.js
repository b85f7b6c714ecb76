// Director dashboard: the live countdown (computed here from remaining_ms), the version poll
// that refreshes panels when another screen changed something, and keyboard shortcuts.
(function () {
  "use strict";

  var CHANGED = "tourney-changed";
  var POLL_MS = 2000;
  var live = document.getElementById("dash-live");
  var known = live ? live.dataset.version : null;

  function changed() {
    document.body.dispatchEvent(new CustomEvent(CHANGED, { bubbles: true }));
  }

  // -- version poll: one tiny JSON request every 2 s; panels refresh only on a change.
  if (live && live.dataset.versionUrl) {
    setInterval(function () {
      if (document.hidden) return;
      fetch(live.dataset.versionUrl, { credentials: "same-origin", cache: "no-store" })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (body) {
          if (!body) return;
          var v = String(body.version);
          if (known !== null && v !== known) { known = v; changed(); }
          known = v;
        })
        .catch(function () { /* the venue's wifi blinked: try again next tick */ });
    }, POLL_MS);
  }

  // Our own actions already refresh the panels: learn their version, so the poll stays quiet.
  document.body.addEventListener("htmx:afterRequest", function (evt) {
    var xhr = evt.detail && evt.detail.xhr;
    var v = xhr && xhr.getResponseHeader("X-Tourney-Version");
    if (v) known = v;
  });

  // -- panel refreshes never get in the way of an action, and nothing is ever aborted.
  // A panel refreshes itself on the change event. Nothing syncs on the panel with htmx's
  // hx-sync "replace": its aborts log htmx:sendAbort errors in the console (issue 31) and an
  // aborted action may still have been done on the server. Instead:
  //  - one refresh of a panel at a time: a change while one is in flight asks for one more
  //    after it (the newest state), never two at once, never an abort;
  //  - while an action inside the panel (a form, a filter) is in flight, the panel does not
  //    refresh and a refresh already in flight does not swap: the action's response renders
  //    the panel (a refresh swapped first would remove the form and lose its response);
  //  - a response whose panel is no longer in the page is not swapped.
  var PANEL = '[hx-trigger^="tourney-changed"]';
  var busy = typeof WeakMap === "function" ? new WeakMap() : null;
  var refreshing = typeof WeakMap === "function" ? new WeakMap() : null;
  var refreshOf = typeof WeakMap === "function" ? new WeakMap() : null;  // xhr → its panel

  function panelOf(elt) {
    var panel = elt && elt.closest ? elt.closest(PANEL) : null;
    return panel && panel !== elt ? panel : null;  // requests of the panel itself: refreshes
  }

  function isPanel(elt) {
    return !!(elt && elt.matches && elt.matches(PANEL));
  }

  function refreshAgain(old) {
    var panel = old.id ? document.getElementById(old.id) : null;
    if (!panel || !isPanel(panel) || !window.htmx) return;
    window.htmx.ajax("GET", panel.getAttribute("hx-get"), { source: panel, target: panel, swap: "outerHTML" });
  }

  if (busy) {
    document.body.addEventListener("htmx:confirm", function (evt) {
      var elt = evt.detail && evt.detail.elt;
      if (!isPanel(elt)) return;
      if ((busy.get(elt) || 0) > 0) { evt.preventDefault(); return; }
      var state = refreshing.get(elt);
      if (state) { evt.preventDefault(); state.again = true; }
    });
    document.body.addEventListener("htmx:beforeRequest", function (evt) {
      var elt = evt.detail && evt.detail.elt;
      if (isPanel(elt)) {
        refreshing.set(elt, { again: false });
        if (evt.detail.xhr) refreshOf.set(evt.detail.xhr, elt);
        return;
      }
      var panel = panelOf(elt);
      if (panel) busy.set(panel, (busy.get(panel) || 0) + 1);
    });
    document.body.addEventListener("htmx:beforeSwap", function (evt) {
      var d = evt.detail || {};
      var target = d.target;
      if (target && !document.body.contains(target)) { d.shouldSwap = false; return; }
      var panel = d.xhr ? refreshOf.get(d.xhr) : null;  // a refresh (not an action's answer)
      if (panel && (busy.get(panel) || 0) > 0) d.shouldSwap = false;
    });
    // The action's element is still in the page when its request failed; when its response
    // replaced the panel, the old panel (and its count) is gone with it.
    document.body.addEventListener("htmx:afterRequest", function (evt) {
      var elt = evt.detail && evt.detail.elt;
      var refreshed = evt.detail && evt.detail.xhr ? refreshOf.get(evt.detail.xhr) : null;
      if (refreshed) {  // after a swap htmx names another element here: the xhr tells
        var state = refreshing.get(refreshed);
        refreshing.delete(refreshed);
        if (state && state.again) setTimeout(function () { refreshAgain(refreshed); }, 0);
        return;
      }
      var panel = panelOf(elt);
      if (panel && busy.get(panel)) busy.set(panel, busy.get(panel) - 1);
    });
  }

  // -- typed values are never wiped by a refresh from another screen.
  // A panel whose fields hold something the director typed and has not sent yet (odd chips
  // at a color-up table, a bust row, a break-order number) keeps it: its refresh waits, the
  // panel is marked stale, and it refreshes once the fields are sent or cleared.
  function typedIn(panel) {
    var fields = panel.querySelectorAll("input, textarea, select");
    for (var i = 0; i < fields.length; i++) {
      var f = fields[i];
      if (f.type === "hidden" || f.type === "submit" || f.type === "button") continue;
      if (f.type === "checkbox" || f.type === "radio") {
        if (f.checked !== f.defaultChecked) return true;
      } else if (f.tagName === "SELECT") {
        // A select without a "selected" option shows its first one: that is its default.
        var initial = 0;
        for (var j = 0; j < f.options.length; j++) {
          if (f.options[j].defaultSelected) { initial = j; break; }
        }
        if (f.options.length && f.selectedIndex !== initial) return true;
      } else if (f.value !== f.defaultValue) {
        return true;
      }
    }
    return false;
  }

  document.body.addEventListener("htmx:confirm", function (evt) {
    var elt = evt.detail && evt.detail.elt;
    if (!elt || !elt.matches || !elt.matches(PANEL)) return;
    if (typedIn(elt)) {
      evt.preventDefault();
      elt.classList.add("stale");
    }
  });
  function maybeRefreshStale(evt) {
    var panel = evt.target && evt.target.closest ? evt.target.closest(".stale" + PANEL) : null;
    if (panel && !typedIn(panel)) { panel.classList.remove("stale"); changed(); }
  }
  document.addEventListener("input", maybeRefreshStale);
  document.addEventListener("change", maybeRefreshStale);

  // -- break order by dragging a tile onto another (RULES 3.5), as well as by the numbers:
  // the dragged table takes the other's place in the order; the rank inputs are rewritten
  // 1..n and the break-order form is sent, exactly as if the numbers had been typed.
  var dragged = null;

  function tileOf(elt) {
    var tile = elt && elt.closest ? elt.closest("#tables .tile") : null;
    return tile && tile.querySelector('input[name^="rank_"]') ? tile : null;
  }

  function clearDropMarks() {
    document.querySelectorAll("#tables .drop-before, #tables .drop-after").forEach(function (t) {
      t.classList.remove("drop-before", "drop-after");
    });
  }

  function breakOrder() {
    var inputs = Array.prototype.slice.call(document.querySelectorAll('#tables input[name^="rank_"]'));
    return inputs.map(function (input) {
      return { input: input, table: Number(input.name.slice(5)), rank: Number(input.value) || 0 };
    }).sort(function (a, b) { return a.rank - b.rank || b.table - a.table; });
  }

  function rankOf(tile) {
    var input = tile.querySelector('input[name^="rank_"]');
    return Number(input.value) || 0;
  }

  document.addEventListener("dragstart", function (evt) {
    var tile = evt.target && evt.target.closest ? tileOf(evt.target) : null;
    if (!tile || !evt.target.matches("header[draggable]")) return;
    dragged = tile;
    tile.classList.add("dragging");
    evt.dataTransfer.effectAllowed = "move";
    evt.dataTransfer.setData("text/plain", tile.id);
  });
  document.addEventListener("dragover", function (evt) {
    var tile = dragged ? tileOf(evt.target) : null;
    if (!tile || tile === dragged) return;
    evt.preventDefault();
    evt.dataTransfer.dropEffect = "move";
    clearDropMarks();
    tile.classList.add(rankOf(dragged) < rankOf(tile) ? "drop-after" : "drop-before");
  });
  document.addEventListener("drop", function (evt) {
    var tile = dragged ? tileOf(evt.target) : null;
    if (!tile || tile === dragged) return;
    evt.preventDefault();
    var order = breakOrder();
    var from = order.findIndex(function (o) { return o.input === dragged.querySelector('input[name^="rank_"]'); });
    var to = order.findIndex(function (o) { return o.input === tile.querySelector('input[name^="rank_"]'); });
    var moving = order.splice(from, 1)[0];
    order.splice(to, 0, moving);  // the dragged table takes the target's place
    order.forEach(function (o, i) { o.input.value = String(i + 1); });
    var form = document.getElementById("break-order");
    if (form) {
      if (form.requestSubmit) form.requestSubmit(); else form.submit();
    }
  });
  document.addEventListener("dragend", function () {
    if (dragged) dragged.classList.remove("dragging");
    dragged = null;
    clearDropMarks();
  });

  // -- countdown
  var started = performance.now();
  var fired = false;

  function fmt(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    var mm = h ? String(m).padStart(2, "0") : String(m);
    return (h ? h + ":" : "") + mm + ":" + String(sec).padStart(2, "0");
  }

  function tick() {
    var el = document.querySelector("[data-countdown]");
    if (!el) return;
    var left = Number(el.dataset.remainingMs || 0);
    if (el.dataset.running === "1") left -= performance.now() - started;
    el.textContent = fmt(left);
    el.classList.toggle("last-minute", el.dataset.running === "1" && left <= 60000);
    // "break in": counts down with the clock (the same anchor: the panel's render).
    var brk = document.querySelector("#clock [data-break-in]");
    if (brk) {
      var toBreak = Number(brk.dataset.ms || 0);
      if (el.dataset.running === "1") toBreak -= performance.now() - started;
      brk.textContent = fmt(toBreak);
    }
    if (el.dataset.running === "1" && left <= 0 && !fired) {
      fired = true;  // the next item starts: ask the server for it once
      setTimeout(changed, 700);
    }
  }

  document.body.addEventListener("htmx:afterSwap", function (evt) {
    if (evt.detail.target && evt.detail.target.querySelector &&
        (evt.detail.target.matches("[data-countdown]") || evt.detail.target.querySelector("[data-countdown]"))) {
      started = performance.now();
      fired = false;
    }
  });
  document.body.addEventListener("htmx:load", function (evt) {
    if (evt.detail.elt && evt.detail.elt.id === "clock") { started = performance.now(); fired = false; }
  });
  setInterval(tick, 250);
  tick();

  // -- keyboard: Space pauses or resumes (as shown on screen), "/" finds a player.
  function typing(target) {
    var tag = target && target.tagName;
    return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (target && target.isContentEditable);
  }

  document.addEventListener("keydown", function (evt) {
    if (evt.altKey || evt.ctrlKey || evt.metaKey || typing(evt.target)) return;
    if (evt.key === " " || evt.code === "Space") {
      var btn = document.querySelector('[data-shortcut="space"]');
      if (btn) { evt.preventDefault(); btn.click(); }
    } else if (evt.key === "/") {
      var search = document.querySelector("[data-search]");
      if (search) { evt.preventDefault(); search.focus(); search.select(); }
    }
  });
})();
