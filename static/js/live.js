/* Live pages: <div data-live-src="URL" data-live-every="ms"> asks URL every few seconds with
   If-None-Match and, when the answer is new (200, not 304), swaps every [data-live-part="x"]
   inside it for the answer's element of the same name. Polling rather than server-sent events:
   see scoring/views/public.py. When a request fails (offline, server restarting) it waits
   twice as long each time, up to a minute, and says so in [data-live-status]; it asks again at
   once when the browser is back online or the page is shown again. A hidden page does not ask. */
(function () {
  "use strict";

  var MAX_WAIT = 60000;

  function start(root) {
    var url = root.getAttribute("data-live-src");
    var every = parseInt(root.getAttribute("data-live-every"), 10) || 4000;
    var status = root.querySelector("[data-live-status]");
    var wait = every;
    var etag = null;
    var timer = null;
    var busy = false;

    function say(state) {
      if (!status) return;
      var text = status.getAttribute("data-text-" + state);
      if (text && status.textContent !== text) status.textContent = text;
      status.setAttribute("data-live-state", state);
    }

    function later(ms) {
      window.clearTimeout(timer);
      timer = window.setTimeout(ask, ms);
    }

    function swap(html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      doc.querySelectorAll("[data-live-part]").forEach(function (fresh) {
        var name = fresh.getAttribute("data-live-part");
        root.querySelectorAll("[data-live-part]").forEach(function (old) {
          if (old.getAttribute("data-live-part") === name) old.replaceWith(document.importNode(fresh, true));
        });
      });
      root.dispatchEvent(new CustomEvent("live:updated", { bubbles: true }));
    }

    function ask() {
      if (document.hidden || busy) return;  // visibilitychange asks again
      busy = true;
      var headers = { "Accept": "text/html" };
      if (etag) headers["If-None-Match"] = etag;
      fetch(url, { headers: headers, credentials: "same-origin", cache: "no-store" })
        .then(function (response) {
          if (response.status === 304) return null;
          if (!response.ok) throw new Error("HTTP " + response.status);
          var tag = response.headers.get("ETag");
          return response.text().then(function (html) {
            swap(html);
            etag = tag;
          });
        })
        .then(function () { wait = every; say("live"); },
              function () { wait = Math.min(wait * 2, MAX_WAIT); say("offline"); })
        .then(function () { busy = false; later(wait); });
    }

    function now() { wait = every; later(0); }

    window.addEventListener("online", now);
    window.addEventListener("offline", function () { say("offline"); });
    document.addEventListener("visibilitychange", function () { if (!document.hidden) now(); });
    say("live");
    later(every);
  }

  document.querySelectorAll("[data-live-src]").forEach(start);
})();
