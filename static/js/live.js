/* The site's one poller: parts of a page kept up to date by asking the server again, without a
   reload (polling rather than server-sent events: see scoring/views/public.py). Loaded on every
   page by templates/base.html; a page without these attributes makes no request.

     <div data-live-src="URL" data-live-every="ms">
         A live page (standings, tables, deals, the director's dashboard): asks URL every few
         seconds (4 s unless data-live-every says) with If-None-Match and, when the answer is new
         (200, not 304), swaps every [data-live-part="x"] inside it for the answer's element of
         the same name. A [data-live-status] inside it shows its data-text-live or
         data-text-offline and carries data-live-state="live|offline".
     <div data-poll="URL" data-poll-every="ms">
         A job's progress (the audit box): is replaced by the HTML fragment at URL every second
         (unless data-poll-every says) until a fragment comes back without data-poll. A fragment
         that comes back with data-poll-go="URL" sends the page there (an import, once done, to
         its new tournament).

   Both share one loop. When a request fails (offline, server restarting, a redirect to the login
   page) it waits twice as long each time, up to a minute; it asks again at once when the browser
   is back online or the page is shown again. A hidden page does not ask. After each change the
   changed element (the data-live-src root, or the new data-poll element) dispatches a bubbling
   "live:updated" (replay.js listens), and pollers inside what came in are started too. */
(function () {
  "use strict";

  if (window.GupaiLive) return;  // one poller, however often the file is named

  var MAX_WAIT = 60000;
  var watchers = [];

  // The two ways of keeping an element up to date. apply(el, html) returns the element to follow.
  var KINDS = {
    live: {
      url: function (el) { return el.getAttribute("data-live-src"); },
      every: function (el) { return parseInt(el.getAttribute("data-live-every"), 10) || 4000; },
      apply: function (el, html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        doc.querySelectorAll("[data-live-part]").forEach(function (fresh) {
          var name = fresh.getAttribute("data-live-part");
          el.querySelectorAll("[data-live-part]").forEach(function (old) {
            if (old.getAttribute("data-live-part") === name) old.replaceWith(document.importNode(fresh, true));
          });
        });
        return el;
      },
      goesOn: function () { return true; }
    },
    poll: {
      url: function (el) { return el.getAttribute("data-poll"); },
      every: function (el) { return parseInt(el.getAttribute("data-poll-every"), 10) || 1000; },
      apply: function (el, html) {
        var holder = document.createElement("template");
        holder.innerHTML = html.trim();
        var next = holder.content.firstElementChild;
        if (!next) return el;  // an empty answer: ask again
        el.replaceWith(next);
        var go = next.getAttribute("data-poll-go");
        if (go) window.location.assign(go);
        return next;
      },
      goesOn: function (el) { return el.hasAttribute("data-poll"); }
    }
  };

  function say(w, state) {
    var status = w.el.querySelector("[data-live-status]");
    if (!status) return;
    var text = status.getAttribute("data-text-" + state);
    if (text && status.textContent !== text) status.textContent = text;
    status.setAttribute("data-live-state", state);
  }

  function later(w, ms) {
    window.clearTimeout(w.timer);
    w.timer = window.setTimeout(function () { ask(w); }, ms);
  }

  function stop(w) {
    w.done = true;
    window.clearTimeout(w.timer);
    var i = watchers.indexOf(w);
    if (i >= 0) watchers.splice(i, 1);
  }

  function ask(w) {
    if (w.done) return;
    if (!w.el.isConnected) { stop(w); return; }  // taken off the page (a live part swapped out)
    if (document.hidden || w.busy) return;  // visibilitychange asks again
    w.busy = true;
    var url = w.kind.url(w.el);
    var headers = { "Accept": "text/html" };
    if (w.tags[url]) headers["If-None-Match"] = w.tags[url];
    fetch(url, { headers: headers, credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (response.status === 304) return;
        // (redirected: to the login page, the session ended)
        if (!response.ok || response.redirected) throw new Error("HTTP " + response.status);
        var tag = response.headers.get("ETag");
        return response.text().then(function (html) {
          var next = w.kind.apply(w.el, html);
          if (next !== w.el) {
            w.el = next;
            next._liveWatcher = w;
            w.every = w.kind.every(next);
          }
          if (tag) w.tags[url] = tag;
          next.dispatchEvent(new CustomEvent("live:updated", { bubbles: true }));
          scan(next);
        });
      })
      .then(function () { w.wait = w.every; say(w, "live"); },
            function () { w.wait = Math.min(w.wait * 2, MAX_WAIT); say(w, "offline"); })
      .then(function () {
        w.busy = false;
        if (w.kind.goesOn(w.el)) later(w, w.wait); else stop(w);
      });
  }

  function now(w) { w.wait = w.every; later(w, 0); }

  function watch(el, kind) {
    var w = { el: el, kind: kind, every: kind.every(el), tags: {}, timer: null, busy: false, done: false };
    w.wait = w.every;
    el._liveWatcher = w;
    watchers.push(w);
    say(w, "live");
    later(w, w.every);
  }

  // Starts the pollers inside root (not root itself) that are not running yet.
  function scan(root) {
    root.querySelectorAll("[data-live-src], [data-poll]").forEach(function (el) {
      if (el._liveWatcher) return;
      watch(el, el.hasAttribute("data-live-src") ? KINDS.live : KINDS.poll);
    });
  }

  function all(fn) { watchers.slice().forEach(fn); }

  window.addEventListener("online", function () { all(now); });
  window.addEventListener("offline", function () { all(function (w) { say(w, "offline"); }); });
  document.addEventListener("visibilitychange", function () { if (!document.hidden) all(now); });

  window.GupaiLive = { scan: scan };
  scan(document);
})();
