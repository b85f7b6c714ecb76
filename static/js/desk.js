/* Registration desk: the keyboard flow.
   Type a name → known players appear (htmx, debounced) → ↑/↓ choose → Enter registers the
   chosen one (Shift+Enter: a new player by the typed name) → the seat card shows → Enter on
   the empty box prints it → type the next name. Esc clears the box (or cancels an override).
   Every form still works without this file. */
(function () {
  "use strict";

  document.documentElement.classList.add("js");

  var active = 0;
  var pending = null; // the search started by Enter before the debounced one answered

  function norm(text) {
    return (text || "").replace(/\s+/g, " ").trim();
  }
  function box() {
    return document.getElementById("desk-name");
  }
  function results() {
    return document.getElementById("desk-results");
  }
  function options() {
    var r = results();
    return r ? Array.prototype.slice.call(r.querySelectorAll(".opt")) : [];
  }
  function isFresh() {
    var r = results();
    return !!r && r.getAttribute("data-q") !== null && norm(r.getAttribute("data-q")) === norm(box().value);
  }

  function mark() {
    var opts = options();
    if (active >= opts.length) active = opts.length - 1;
    if (active < 0) active = 0;
    opts.forEach(function (o, i) {
      o.classList.toggle("active", i === active);
      o.setAttribute("aria-selected", i === active ? "true" : "false");
      if (i === active) {
        o.id = "desk-active-option";
        if (box()) box().setAttribute("aria-activedescendant", o.id);
      } else if (o.id === "desk-active-option") {
        o.removeAttribute("id");
      }
    });
    if (box()) box().setAttribute("aria-expanded", opts.length ? "true" : "false");
  }

  function press(opt) {
    var button = opt && opt.querySelector(".opt-primary");
    if (button) button.click();
  }

  function newOption() {
    var opts = options();
    for (var i = 0; i < opts.length; i++) {
      if (opts[i].getAttribute("data-action") === "new") return opts[i];
    }
    return null;
  }

  // The results must belong to what is typed now: when Enter comes before the debounced
  // search has answered, search at once and act on that answer.
  function withFreshResults(then) {
    if (isFresh()) {
      then();
      return;
    }
    var form = document.getElementById("register-form");
    var url = form.getAttribute("data-search-url");
    pending = htmx.ajax("GET", url, {
      target: "#desk-results",
      swap: "outerHTML",
      values: { q: box().value },
    });
    pending.then(function () {
      pending = null;
      active = 0;
      mark();
      then();
    });
  }

  function printCard() {
    if (!document.getElementById("seat-card")) return;
    window.print();
  }

  function setPrintFormat(value) {
    var body = document.body;
    body.classList.remove("print-receipt", "print-sheet");
    body.classList.add(value === "sheet" ? "print-sheet" : "print-receipt");
    try {
      window.localStorage.setItem("desk-print-format", value);
    } catch (e) {
      /* private mode: the choice lasts for this page only */
    }
  }

  function savedPrintFormat() {
    try {
      return window.localStorage.getItem("desk-print-format") || "receipt";
    } catch (e) {
      return "receipt";
    }
  }

  function onBoxKey(event) {
    var opts = options();
    if (event.key === "ArrowDown") {
      event.preventDefault();
      active = Math.min(active + 1, opts.length - 1);
      mark();
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      active = Math.max(active - 1, 0);
      mark();
    } else if (event.key === "Enter") {
      event.preventDefault();
      if (!norm(box().value)) {
        printCard();
        return;
      }
      var shift = event.shiftKey;
      withFreshResults(function () {
        press(shift ? newOption() : options()[active]);
      });
    } else if (event.key === "Escape") {
      event.preventDefault();
      box().value = "";
      var r = results();
      if (r) r.innerHTML = "";
      if (r) r.setAttribute("data-q", "");
      active = 0;
      mark();
    }
  }

  document.addEventListener("keydown", function (event) {
    var b = box();
    if (b && event.target === b) {
      onBoxKey(event);
      return;
    }
    if (event.key === "Escape") {
      var cancel = document.getElementById("override-cancel");
      if (cancel) {
        event.preventDefault();
        cancel.click();
        return;
      }
      if (b) {
        event.preventDefault();
        b.focus();
      }
      return;
    }
    // A letter typed anywhere outside a field goes to the name box.
    var tag = (event.target.tagName || "").toLowerCase();
    var inField = tag === "input" || tag === "textarea" || tag === "select" || event.target.isContentEditable;
    if (b && !inField && !event.ctrlKey && !event.metaKey && !event.altKey && event.key.length === 1 && /\S/.test(event.key)) {
      b.focus();
    }
  });

  // Undo: a countdown on the button; gone when the minute is over.
  var undoTimer = null;
  function tickUndo() {
    var forms = document.querySelectorAll("form.undo[data-expires]");
    forms.forEach(function (form) {
      var left = Math.round((Number(form.getAttribute("data-expires")) - Date.now()) / 1000);
      if (left <= 0) {
        form.remove();
        return;
      }
      var span = form.querySelector(".undo-left");
      if (span) span.textContent = "(" + Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0") + ")";
    });
  }

  function setUp() {
    var b = box();
    if (b && !document.getElementById("override-confirm")) {
      b.focus();
      var end = b.value.length;
      b.setSelectionRange(end, end);
    }
    var print = document.getElementById("print-card");
    if (print) print.addEventListener("click", printCard);
    var format = document.getElementById("print-format");
    var saved = savedPrintFormat();
    setPrintFormat(saved);
    if (format) {
      format.value = saved;
      format.addEventListener("change", function () {
        setPrintFormat(format.value);
      });
    }
    active = 0;
    mark();
    tickUndo();
  }

  function configureHtmx() {
    if (!window.htmx) return;
    // A refusal (4xx) carries the page fragment with its message: show it in place.
    htmx.config.responseHandling = [
      { code: "204", swap: false },
      { code: "[23]..", swap: true },
      { code: "4..", swap: true, error: false },
      { code: "...", swap: false, error: true },
    ];
  }

  document.addEventListener("DOMContentLoaded", function () {
    configureHtmx();
    setUp();
    undoTimer = window.setInterval(tickUndo, 1000);
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail && event.detail.target;
    if (!target) return;
    if (target.id === "desk-main") {
      setUp();
    } else if (target.id === "desk-results" || (target.closest && target.closest("#desk-results"))) {
      // A late answer for text that is no longer in the box is dropped.
      if (!isFresh() && !pending) {
        var r = results();
        if (r && !norm(box().value)) r.innerHTML = "";
      }
      active = 0;
      mark();
    }
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (elt && elt.closest && elt.closest("#desk-main") && elt.tagName === "FORM") {
      // One Enter, one registration: no second submit while the first is on its way.
      if (elt.getAttribute("data-busy") === "1") {
        event.preventDefault();
        return;
      }
      elt.setAttribute("data-busy", "1");
    }
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (elt && elt.removeAttribute) elt.removeAttribute("data-busy");
  });
})();
