/* What the TV says (issue 29): chimes from static/sounds/ and the browser's speech synthesis,
 * in the display's language.
 *
 * display.js derives the clock and tells this script on every tick ("tourney:clock", with the
 * clock, the state it holds and the server's time). The server words every text
 * (selectors/announcements.py: ``state.speech``, one entry per item the state holds); this
 * script only notices the moments: a level or break starts (the clock rolls over, or the
 * director moves it), one minute is left in a level (the day's last level: the last hand),
 * a free text the director announced arrives with a polled state. Each is said once per
 * display: what was said is remembered in sessionStorage (a reload says nothing again, and
 * at its first tick the page says only what began a few seconds ago and was not said yet).
 *
 * Browsers keep audio silent until a click: the "Test sound" button (and any click) turns the
 * sound on, plays the chime and says a test sentence; on or off is remembered in localStorage.
 * ?sound=1 starts with the sound on, ?sound=0 off. With speech off for the tournament the
 * chimes still play. A free text shows in a banner for 15 seconds, with or without sound.
 */
(function () {
  "use strict";

  var root = document.getElementById("announce");
  var body = document.body;
  if (!root || (body.dataset.mode || "tv") !== "tv") return;
  var words = root.dataset;
  var params = new URLSearchParams(window.location.search);
  var KEY = "tourney-announce:" + (body.dataset.stateUrl || "");
  var SOUND_KEY = "tourney-sound";
  var BANNER_MS = 15000;
  var CATCH_UP_MS = 5000;   // a start this recent, not said yet, is said at the first tick
  var STALE_MS = 120000;    // a free text older than this is only shown, never said late
  var CHIMES = {            // kind -> [file, ms before the speech starts]
    level: [words.chimeLevel, 1300],
    "break": [words.chimeBreak, 1700],
    warning: [words.chimeAttention, 1300],
    announce: [words.chimeAttention, 1300],
    test: [words.chimeLevel, 1300]
  };

  function $(id) { return document.getElementById(id); }

  function store(kind) {
    try { return kind === "local" ? window.localStorage : window.sessionStorage; }
    catch (e) { return null; } // storage refused (a privacy setting): nothing remembered
  }
  function recall(kind, key) { var s = store(kind); try { return s ? s.getItem(key) : null; } catch (e) { return null; } }
  function remember(kind, key, value) { var s = store(kind); try { if (s) s.setItem(key, value); } catch (e) { /* full */ } }

  // ------------------------------------------------------------ sound on / off

  var asked = params.get("sound");
  var soundOn = asked === "1" || (asked !== "0" && recall("local", SOUND_KEY) === "on");
  var audio = null; // an AudioContext, only to learn whether the browser lets sound play

  function ensureAudio() {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    if (!audio) {
      audio = new Ctx();
      // A TV browser without a click keeps the context suspended (autoplay policy): the
      // button says so until the context really runs.
      audio.addEventListener("statechange", renderSound);
    }
    if (audio.state === "suspended") {
      var resumed = audio.resume();
      if (resumed && resumed.then) resumed.then(renderSound, renderSound);
    }
    return audio;
  }

  function audible() { return soundOn && !!audio && audio.state === "running"; }

  function setSound(on) {
    soundOn = on;
    remember("local", SOUND_KEY, on ? "on" : "off");
    if (on) ensureAudio();
    renderSound();
  }

  function renderSound() {
    var btn = $("sound");
    var on = audible();
    // data-sound: "on" (heard), "blocked" (wanted, but the browser keeps audio suspended), "off"
    body.dataset.sound = on ? "on" : (soundOn ? "blocked" : "off");
    if (!btn) return;
    btn.textContent = on ? words.soundOn : words.soundOff;
    btn.setAttribute("aria-pressed", on ? "true" : "false");
    btn.classList.toggle("on", on);
  }

  // ------------------------------------------------------------ chimes and speech

  var players = {};
  function player(url) {
    if (!players[url]) {
      players[url] = new Audio(url);
      players[url].preload = "auto";
    }
    return players[url];
  }

  function chime(kind) {
    body.dataset.lastChime = kind;
    if (!soundOn) return 0;
    var c = CHIMES[kind] || CHIMES.announce;
    if (!c[0]) return 0;
    var a = player(c[0]);
    try {
      a.currentTime = 0;
      var played = a.play();
      if (played && played.catch) played.catch(function () { /* blocked: the button says so */ });
    } catch (e) { return 0; }
    return c[1];
  }

  var voices = [];
  function loadVoices() {
    var synth = window.speechSynthesis;
    if (synth && synth.getVoices) voices = synth.getVoices() || [];
  }
  if (window.speechSynthesis && window.speechSynthesis.addEventListener) {
    window.speechSynthesis.addEventListener("voiceschanged", loadVoices);
  }
  loadVoices();

  function voiceFor(lang) {
    var of = voices.filter(function (v) { return (v.lang || "").toLowerCase().split(/[-_]/)[0] === lang; });
    return of.filter(function (v) { return v.default; })[0] || of.filter(function (v) { return v.localService; })[0] || of[0] || null;
  }

  function speechOn() { return !!(state && state.speech && state.speech.on); }

  function speak(text) {
    var synth = window.speechSynthesis;
    if (!text || !soundOn || !synth || !window.SpeechSynthesisUtterance) return;
    var lang = (state.speech && state.speech.lang) || document.documentElement.lang || "en";
    var u = new window.SpeechSynthesisUtterance(text);
    u.lang = lang;
    var voice = voiceFor(lang);
    if (voice) u.voice = voice;
    body.dataset.lastSpoken = text;
    synth.speak(u);
  }

  // One announcement at a time: a chime, then its words, then the next one.
  var busyUntil = 0;
  function say(kind, text, spoken) {
    var at = Math.max(Date.now(), busyUntil);
    var line = spoken && speechOn() ? text : "";
    busyUntil = at + (CHIMES[kind] || CHIMES.announce)[1] + (line ? 400 + line.length * 75 : 0);
    setTimeout(function () {
      var wait = chime(kind);
      if (line) setTimeout(function () { speak(line); }, wait);
    }, at - Date.now());
  }

  // ------------------------------------------------------------ the banner

  var bannerTimer = null;
  function banner(text) {
    var box = $("announce-banner"), p = $("announce-text");
    if (!box || !p) return;
    p.textContent = text;
    box.hidden = false;
    clearTimeout(bannerTimer);
    bannerTimer = setTimeout(function () { box.hidden = true; }, BANNER_MS);
  }

  // ------------------------------------------------------------ the moments

  var dataEl = $("display-state");
  var state = dataEl ? JSON.parse(dataEl.textContent) : null;
  var last = null; // the clock at the previous tick
  var lastId = Number(recall("session", KEY + ":last-id") || 0);

  function said(key, moment) {
    var before = Number(recall("session", KEY + ":" + key) || 0);
    // The same moment (within half a minute) was said already; a level started again later
    // (the director went back, then forward) is a new moment.
    if (before && Math.abs(before - moment) < 30000) return true;
    remember("session", KEY + ":" + key, String(Math.round(moment)));
    return false;
  }

  function textsOf(c) {
    var sp = state.speech || {};
    return (sp.items || [])[c.index - state.level_index] || {};
  }

  function started(c, now) {
    var item = c.item || {};
    var moment = now - ((item.seconds || 0) * 1000 - c.remaining);
    if (said(c.index + ":start", moment)) return;
    say(item.kind === "break" ? "break" : "level", textsOf(c).start || "", true);
  }

  function lastMinute(c, now) {
    var texts = textsOf(c);
    if (said(c.index + ":minute", now + c.remaining - 60000)) return;
    // "one minute" said with 45 s left is still true; the day's last hand is worth saying late.
    var fresh = c.remaining >= 45000 || texts.last;
    say("warning", texts.minute || "", fresh);
  }

  function onClock(c, now) {
    var running = c.status === "running";
    if (last === null) {
      var item = c.item || {};
      var elapsed = (item.seconds || 0) * 1000 - c.remaining;
      if (running && !c.waiting && elapsed >= 0 && elapsed < CATCH_UP_MS && item.seconds) {
        started(c, now);
      }
    } else if (running && !c.waiting && (c.index !== last.index || last.status === "not_started")) {
      started(c, now);
    } else if (running && c.index === last.index && last.running && last.remaining > 60000 &&
               c.remaining <= 60000 && last.remaining - c.remaining < 5000) {
      lastMinute(c, now); // counted down to it (a director's "set 0:30" is no last minute)
    }
    last = { index: c.index, status: c.status, running: running, remaining: c.remaining };
  }

  /* The director's free texts: those after the last one said. A display opened for the first
     time says none of those already there (said before it was there, or long ago); one
     reloaded (it remembers the last it said) says those that came since, if still fresh. */
  var reloaded = recall("session", KEY + ":last-id") !== null;
  function onAnnouncements(now, first) {
    var list = ((state.speech || {}).announcements || []).slice().sort(function (a, b) { return a.id - b.id; });
    list.forEach(function (a) {
      if (a.id <= lastId) return;
      lastId = a.id;
      remember("session", KEY + ":last-id", String(lastId));
      if (first && (!reloaded || now - a.at > 30000)) return;
      banner(a.text);
      say("announce", a.text, now - a.at < STALE_MS);
    });
  }

  document.addEventListener("tourney:clock", function (ev) {
    var d = ev.detail || {};
    if (!d.clock || !d.state) return;
    var first = last === null;
    state = d.state;
    onClock(d.clock, d.now || Date.now());
    onAnnouncements(d.now || Date.now(), first);
    if (first) remember("session", KEY + ":last-id", String(lastId)); // this page was here
  });

  // ------------------------------------------------------------ the buttons

  function test() {
    setSound(true);
    var text = speechOn() ? (state.speech && state.speech.test) || "" : "";
    busyUntil = 0;
    say("test", text, true);
  }

  document.addEventListener("click", function (ev) {
    var id = ev.target && ev.target.id;
    if (id === "sound-test") { test(); return; }
    // The sound button turns off only a sound that plays; a blocked one it turns on (the
    // click is the gesture the browser waits for); any other click turns it on.
    setSound(id === "sound" ? !audible() : true);
  });

  if (soundOn) ensureAudio();
  renderSound();
})();
