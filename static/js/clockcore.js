/* What the TV (display.js) and the lobby (lobby.js) share: the server's time as this browser
 * estimates it, and how a clock's figures are written. Loaded before either script.
 *
 * Words in the page's language (issue 29): the page hands over its strings as JSON data
 * (`display-strings`, tourney/views/display.py's screen_strings); `text(key, {name: value})`
 * fills in their `%(name)s` places. Chips are grouped with the page's own thousands separator,
 * as the server groups them and its money ("12,500", German "12.500"), so the first frame the
 * server renders and every tick agree.
 *
 * The server stamped its time somewhere between a request's start and its answer's arrival;
 * taken as stamped at the arrival, the estimate is never ahead of the server (a level never
 * rolls over early) and behind by at most the round trip (a busy server can stamp a page late
 * in its round trip: the midpoint then ran ahead). Of the last eight samples, the one with the
 * shortest round trip wins.
 */
window.TourneyClock = (function () {
  "use strict";

  var stringsEl = document.getElementById("display-strings");
  var STRINGS = stringsEl ? JSON.parse(stringsEl.textContent) || {} : {};
  var THOUSANDS = typeof STRINGS.thousands === "string" ? STRINGS.thousands : ",";
  var GROUPED = new Intl.NumberFormat("en-US");

  /* The page's string `key` (the key itself when the page has none), places filled in. */
  function text(key, values) {
    var s = Object.prototype.hasOwnProperty.call(STRINGS, key) ? STRINGS[key] : key;
    if (!values) return s;
    return s.replace(/%\((\w+)\)s/g, function (whole, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole;
    });
  }

  function serverClock(body) {
    var samples = []; // [{offset, rtt}]: offset = server - client
    var offset = 0;

    function addSample(serverMs, sentAt, receivedAt) {
      samples.push({ offset: serverMs - receivedAt, rtt: receivedAt - sentAt });
      if (samples.length > 8) samples.shift();
      var best = samples[0];
      for (var i = 1; i < samples.length; i++) if (samples[i].rtt < best.rtt) best = samples[i];
      offset = best.offset;
    }

    // A first, rough sample from the page itself (its load time is the round trip); the
    // polls' quicker samples replace it.
    if (body.dataset.serverNow) {
      var nav = performance.getEntriesByType && performance.getEntriesByType("navigation")[0];
      var origin = performance.timeOrigin || Date.now();
      if (nav && nav.responseStart > 0) {
        addSample(Number(body.dataset.serverNow), origin + nav.requestStart, origin + nav.responseStart);
      } else {
        addSample(Number(body.dataset.serverNow), origin, Date.now());
      }
    }
    return { addSample: addSample, now: function () { return Date.now() + offset; } };
  }

  function chips(n) { return GROUPED.format(Number(n)).replace(/,/g, THOUSANDS); }

  function duration(ms) {
    if (ms === null || ms === undefined) return "–";
    var s = Math.max(0, Math.ceil(ms / 1000));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    var ss = (sec < 10 ? "0" : "") + sec;
    if (h) return h + ":" + (m < 10 ? "0" : "") + m + ":" + ss;
    return m + ":" + ss;
  }

  function blinds(item) {
    return item && item.kind === "level" ? chips(item.small_blind) + " / " + chips(item.big_blind) : "";
  }

  function ante(item) {
    if (!item || item.kind !== "level") return "";
    if (item.big_blind_ante) return text("bb_ante", { chips: chips(item.big_blind_ante) });
    if (item.ante) return text("ante", { chips: chips(item.ante) });
    return text("no_ante");
  }

  function levelTitle(item) {
    if (!item) return "";
    if (item.kind === "break") return text("break");
    return item.number ? text("level", { number: item.number }) : "";
  }

  return {
    serverClock: serverClock, chips: chips, duration: duration, blinds: blinds, ante: ante,
    text: text, levelTitle: levelTitle
  };
})();
