/* Refusals shown where they happen (issue 31, item 4).

   A refused form (a 4xx answer) carries its form or panel, re-rendered with the message next
   to what was typed; the htmx-config meta in _base.html swaps it in place of the form, like a
   success. With DEBUG on, django-htmx's debug script (added by {% htmx_script %}) listens on
   the document and would put that fragment in place of the whole page instead: the answer is
   stopped here, on <html>, before it bubbles up to the document. A full page (Django's 404
   or 403 page, a traceback) still goes on to it, so a developer sees those as before.

   A server error (5xx) or a lost connection changes nothing on the screen otherwise: a short
   message then appears inside the form that was sent. */
(function () {
  "use strict";

  var root = document.documentElement;
  var FULL_PAGE = /^\s*(<!doctype|<html)/i;
  // The messages in the page's language (issue 29): a <meta name="forms-messages"
  // data-server=... data-offline=...> written by the template ({% include "_forms_messages.html" %}),
  // read when shown (the meta may come after this script); English without it.
  var MSG_SERVER = "The server could not do this (error {status}). Reload the page to see what was saved, then try again.";
  var MSG_OFFLINE = "No answer from the server: check the connection, then try again.";
  function said(key, english) {
    var meta = document.querySelector('meta[name="forms-messages"]');
    var text = meta && meta.getAttribute("data-" + key);
    return text || english;
  }

  root.addEventListener("htmx:beforeOnLoad", function (event) {
    var xhr = event.detail && event.detail.xhr;
    if (!xhr || xhr.status < 400 || xhr.status >= 500) return;
    if (FULL_PAGE.test(String(xhr.responseText || "").slice(0, 200))) return;
    event.stopPropagation();
  });

  function show(elt, text) {
    var box = (elt && elt.closest && (elt.closest("form") || elt.closest("section"))) || null;
    if (!box) return;
    var p = box.querySelector(":scope > .js-request-error");
    if (!p) {
      p = document.createElement("p");
      p.className = "error js-request-error";
      p.setAttribute("role", "alert");
      box.insertBefore(p, box.firstChild);
    }
    p.textContent = text;
  }

  root.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail && event.detail.xhr;
    if (!xhr || xhr.status < 500) return;
    show(event.detail.elt, said("server", MSG_SERVER).replace("{status}", String(xhr.status)));
  });
  root.addEventListener("htmx:sendError", function (event) {
    show(event.detail && event.detail.elt, said("offline", MSG_OFFLINE));
  });
  root.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    var box = elt && elt.closest && (elt.closest("form") || elt.closest("section"));
    var old = box && box.querySelector(":scope > .js-request-error");
    if (old) old.remove();
  });

  /* Exactly once (issue 24). While a form's request runs, its submit buttons are disabled
     (after htmx has read the pressed button's value): a second click or Enter sends nothing.
     A form carries a one-time nonce ({% nonce %}); the server answers a repeat of it with
     the first answer. A form that stays on the screen after its answer gets a fresh nonce,
     so that pressing it again later is a new action; after a lost answer (no answer, or a
     5xx) it keeps its nonce, and sending it again cannot do the write twice. */
  var SUBMITS = 'button:not([type="button"]):not([type="reset"]), input[type="submit"]';

  // The form a write (not a search or a panel's refresh) was sent from.
  function formOf(event) {
    var elt = event.detail && event.detail.elt;
    var config = event.detail && event.detail.requestConfig;
    if (!elt || !elt.closest || (config && String(config.verb).toLowerCase() === "get")) return null;
    return elt.tagName === "FORM" ? elt : elt.closest("form");
  }

  function freshNonce() {
    var bytes = new Uint8Array(18);
    window.crypto.getRandomValues(bytes);
    return btoa(String.fromCharCode.apply(null, bytes)).replace(/\+/g, "-").replace(/\//g, "_");
  }

  root.addEventListener("htmx:beforeRequest", function (event) {
    var form = formOf(event);
    if (!form) return;
    form.querySelectorAll(SUBMITS).forEach(function (b) {
      if (b.disabled) return;
      b.disabled = true;
      b.setAttribute("data-busy-disabled", "");
    });
  });
  root.addEventListener("htmx:afterRequest", function (event) {
    var form = formOf(event);
    if (!form) return;
    form.querySelectorAll("[data-busy-disabled]").forEach(function (b) {
      b.disabled = false;
      b.removeAttribute("data-busy-disabled");
    });
    var xhr = event.detail.xhr;
    var nonce = form.querySelector('input[name="nonce"]');
    if (nonce && form.isConnected && xhr && xhr.status > 0 && xhr.status < 500) {
      nonce.value = freshNonce();
    }
  });
})();
