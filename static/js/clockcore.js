/* What the TV (display.js) and the lobby (lobby.js) share: the server's time as this browser
 * estimates it, and how a clock's figures are written. Loaded before either script.
 *
 * The server stamped its time somewhere between a request's start and its answer's arrival;
 * taken as stamped at the arrival, the estimate is never ahead of the server (a level never
 * rolls over early) and behind by at most the round trip (a busy server can stamp a page late
 * in its round trip: the midpoint then ran ahead). Of the last eight samples, the one with the
 * shortest round trip wins.
 */
window.TourneyClock = (function () {
  "use strict";

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

  function chips(n) { return Number(n).toLocaleString("en-US"); }

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
    if (item.big_blind_ante) return "BB ante " + chips(item.big_blind_ante);
    if (item.ante) return "Ante " + chips(item.ante);
    return "No ante";
  }

  return { serverClock: serverClock, chips: chips, duration: duration, blinds: blinds, ante: ante };
})();
