// The bust's confirm step (RULES 9.5): who won the hand, one key per player. Each choice
// shows its key (at one table the seat number: "4" ticks seat 4, "0" seat 10); a key ticks
// or unticks that player (several ticked: a split pot). Enter confirms, Esc cancels. When the
// step appears, the Confirm button takes the focus, so a bust is: table, seat, Enter, the
// winner's seat, Enter.
(function () {
  "use strict";

  var FORM = "#eliminations form.confirm-bust";
  var TEXT = /^(text|search|number|tel|email|password|url)$/;

  function typing(target) {
    if (!target || !target.tagName) return false;
    var tag = target.tagName;
    if (tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable) return true;
    return tag === "INPUT" && TEXT.test(target.type || "text");
  }

  function focusConfirm() {
    var form = document.querySelector(FORM);
    // Only when nothing has the focus (the bust form that had it was just replaced): never
    // away from a field the director is typing in, when another panel refreshes.
    var active = document.activeElement;
    if (!form || (active && active !== document.body)) return;
    var button = form.querySelector("[data-confirm-bust]");
    if (button) button.focus();
  }

  // The confirm step stays while other screens change things (the desk registers, the
  // clock moves on): the panel's refresh would put the empty bust form back and lose the
  // names checked and the winners ticked. Confirm or Cancel renders the panel afresh.
  document.body.addEventListener("htmx:confirm", function (evt) {
    var elt = evt.detail && evt.detail.elt;
    if (!elt || elt.id !== "eliminations" || !elt.querySelector("form.confirm-bust")) return;
    evt.preventDefault();
  });

  document.body.addEventListener("htmx:afterSettle", focusConfirm);
  focusConfirm();

  document.addEventListener("keydown", function (evt) {
    if (evt.altKey || evt.ctrlKey || evt.metaKey || typing(evt.target)) return;
    var form = document.querySelector(FORM);
    if (!form) return;
    if (evt.key === "Escape") {
      var cancel = form.querySelector("[data-cancel-bust]");
      if (cancel) { evt.preventDefault(); cancel.click(); }
      return;
    }
    if (evt.key === "Enter") {
      // A ticked checkbox (or the page) has the focus: Enter confirms, as on the button.
      var t = evt.target;
      if (t && (t.tagName === "BUTTON" || t.tagName === "A")) return;
      evt.preventDefault();
      if (form.requestSubmit) form.requestSubmit(form.querySelector("[data-confirm-bust]"));
      else form.querySelector("[data-confirm-bust]").click();
      return;
    }
    if (!evt.key || evt.key.length !== 1) return;
    var box = form.querySelector('input[name="winner"][data-key="' + evt.key.toLowerCase() + '"]');
    if (!box) return;
    evt.preventDefault();
    box.checked = !box.checked;
    box.dispatchEvent(new Event("change", { bubbles: true }));
  });
})();
