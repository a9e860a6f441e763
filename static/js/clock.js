/* A session's clock counting down (templates/scoring/_clock.html, {% session_clock %}):

     <p data-clock data-ends-at="UTC end" data-server-now="UTC time the server made the page"
        data-time-src="URL of the server's time" data-text-left="Time left: %(time)s"
        data-text-over="Time is up"><span data-clock-text>…</span></p>

   The time left is the server's, never the phone's: when a clock arrives (the page, or a live
   part swapped in by live.js) the phone's clock is measured against the server's time in it
   (the offset), and the count runs from the phone's clock plus that offset. A phone whose clock
   is minutes wrong shows the same time left as any other. When the page is shown again (a phone
   that slept, a tab brought back) the offset is measured again from data-time-src (half the
   round trip counted), so a clock changed meanwhile does not drift the count.

   A clock that warns (the scorer page, the room display: {% session_clock session alerts=True %})
   also has data-warn-at="seconds" and data-text-warn="5 minutes left", and holds a
   [data-clock-alert] banner (role="alert"): it says data-text-warn from data-warn-at seconds
   left (the clock gets the class "warn"), data-text-over once the time is up ("ended"), and is
   hidden before. */
(function () {
  "use strict";

  if (window.GupaiClock) return;

  var offset = null;  // server time minus phone time, in ms
  var timer = null;

  function clocks() { return document.querySelectorAll("[data-clock]"); }

  // When the answer holding the page began to arrive, on the phone's clock (nearer the server's
  // "now" than the moment this script runs); the script's own moment where that is not known.
  function arrivedAt() {
    var nav = window.performance && performance.getEntriesByType && performance.getEntriesByType("navigation")[0];
    if (nav && nav.responseStart > 0) return Date.now() - (performance.now() - nav.responseStart);
    return Date.now();
  }

  function measure(el, phoneAt) {
    var server = Date.parse(el.getAttribute("data-server-now"));
    if (!isNaN(server)) offset = server - phoneAt;
    el._clockMeasured = true;
  }

  function two(n) { return (n < 10 ? "0" : "") + n; }

  // As scoring.web.presentation.clock_time: 4:05, or 1:02:03 from an hour.
  function format(seconds) {
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    return h ? h + ":" + two(m) + ":" + two(s) : m + ":" + two(s);
  }

  function show() {
    window.clearTimeout(timer);
    var now = Date.now() + (offset || 0);
    var next = 1000;
    Array.prototype.forEach.call(clocks(), function (el) {
      var left = Date.parse(el.getAttribute("data-ends-at")) - now;
      if (isNaN(left)) return;
      var seconds = Math.max(0, Math.ceil(left / 1000));
      var text = seconds > 0 ? el.getAttribute("data-text-left").replace("%(time)s", format(seconds))
                             : el.getAttribute("data-text-over");
      var span = el.querySelector("[data-clock-text]");
      if (span && span.textContent !== text) span.textContent = text;
      el.classList.toggle("ended", seconds === 0);
      var warnAt = parseInt(el.getAttribute("data-warn-at"), 10);
      var alert = el.querySelector("[data-clock-alert]");
      if (warnAt > 0 && alert) {
        var warn = seconds > 0 && seconds <= warnAt;
        el.classList.toggle("warn", warn);
        var said = seconds === 0 ? el.getAttribute("data-text-over") : warn ? el.getAttribute("data-text-warn") : "";
        if (alert.textContent !== said) alert.textContent = said;
        alert.hidden = !said;
      }
      if (left > 0) next = Math.min(next, (left % 1000) || 1000);
    });
    // Just past the next whole second of the nearest clock.
    if (clocks().length) timer = window.setTimeout(show, next + 20);
  }

  // Clocks that came in since the last look: the newest one's server time sets the offset.
  function arrived(phoneAt) {
    Array.prototype.forEach.call(clocks(), function (el) {
      if (!el._clockMeasured) measure(el, phoneAt);
    });
    show();
  }

  function resync() {
    var el = document.querySelector("[data-clock][data-time-src]");
    if (!el || !window.fetch) { show(); return; }
    var sent = Date.now();
    fetch(el.getAttribute("data-time-src"), {cache: "no-store", credentials: "same-origin",
                                            headers: {"Accept": "application/json"}})
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) {
        var server = data && Date.parse(data.now);
        var back = Date.now();
        if (server && !isNaN(server)) offset = server - (sent + back) / 2;
      }, function () { /* offline: keep the offset measured before */ })
      .then(show);
  }

  document.addEventListener("live:updated", function () { arrived(Date.now()); });
  document.addEventListener("visibilitychange", function () { if (!document.hidden) resync(); });

  window.GupaiClock = {format: format};
  arrived(arrivedAt());
})();
