/* The site's one poller: parts of a page kept up to date by asking the server again, without a
   reload, at once when the server says something changed. Loaded on every page by
   templates/base.html; a page without these attributes makes no request.

     <div data-live-src="URL" data-live-every="ms" data-live-after="cursor">
         A live page (standings, tables, deals, the director's dashboard): asks URL every few
         seconds (4 s unless data-live-every says) with If-None-Match and, when the answer is new
         (200, not 304), swaps every [data-live-part="x"] inside it for the answer's element of
         the same name — except a part the user is writing in (a field of it focused, or one the
         user changed from what the page came with), which is kept as it is and asked for again.
         A [data-live-status] inside it shows its data-text-live or data-text-offline and carries
         data-live-state="live|offline".
         With data-live-after, URL is asked with ?after=cursor (the answer's [data-live-after]
         is the next cursor) and the answer may hold lists of changes: each [data-live-list="x"]
         that is not itself a part is merged into the page's list of that name, item by item
         ([data-live-key]): an item already shown is replaced, one marked data-live-gone taken
         away, a new one put in place by its data-live-order (highest first) when the page's list
         has data-live-prepend and the item is newer than all it shows — keeping at most
         data-live-most items; one sent again with the same data-live-stamp is left as it is.
         A [data-live-empty] stands in for an empty list.
         With data-live-events="URL" (the tournament's events stream, server-sent events), it
         also listens there: each event asks URL again at once (a burst of events, once ~300 ms
         later), and while the stream is open the poll is only a safety net every 30 s. When the
         stream fails it polls every few seconds as without it, while the browser reconnects
         (or, refused, a new stream is tried after 1 s, 2 s, 4 s… up to a minute); it
         catches up at once whenever the stream opens. data-live-stream says "open" or "down".
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
  var SAFETY = 30000;     // the poll while the events stream is open
  var SOON = 300;         // events close together: one fetch
  // The stream's event names (scoring/services/events.py); any of them means "ask again".
  var EVENTS = ["deal_recorded", "deal_corrected", "deal_confirmed", "deal_voided", "deal_disputed",
                "dispute_resolved", "session_seated", "session_closed", "session_reopened",
                "session_clock_started", "session_clock_stopped",
                "table_substituted", "adjustment_recorded", "adjustment_deleted", "snapshot"];
  var watchers = [];

  // Form fields the user typed in or changed (input and change events come from the user, not
  // from a script setting a value), and whether a live part holds one still unsent, or the focus.
  document.addEventListener("input", function (event) { event.target._liveTouched = true; }, true);
  document.addEventListener("change", function (event) { event.target._liveTouched = true; }, true);

  function inUse(part) {
    var active = document.activeElement;
    if (active && part.contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName)) return true;
    return Array.prototype.some.call(part.querySelectorAll("input, textarea, select"), function (field) {
      return field._liveTouched === true && changed(field);
    });
  }

  function changed(field) {
    if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
    if (field.tagName === "SELECT") {
      return Array.prototype.some.call(field.options, function (o) { return o.selected !== o.defaultSelected; });
    }
    return field.value !== field.defaultValue;
  }

  // The two ways of keeping an element up to date. apply(el, html) returns the element to follow.
  var KINDS = {
    live: {
      url: function (el) {
        var src = el.getAttribute("data-live-src");
        var after = el.getAttribute("data-live-after");
        return after ? src + (src.indexOf("?") < 0 ? "?" : "&") + "after=" + encodeURIComponent(after) : src;
      },
      // The ETag belongs to the page, whatever the cursor: an unchanged version is a 304.
      key: function (el) { return el.getAttribute("data-live-src"); },
      every: function (el) { return parseInt(el.getAttribute("data-live-every"), 10) || 4000; },
      apply: function (el, html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        el._liveHeld = false;
        doc.querySelectorAll("[data-live-part]").forEach(function (fresh) {
          var name = fresh.getAttribute("data-live-part");
          el.querySelectorAll("[data-live-part]").forEach(function (old) {
            if (old.getAttribute("data-live-part") !== name) return;
            // A part being written in (a dispute's note, a ticked box) is kept as it is: swapped,
            // what was typed would be lost. Its ETag is not kept either, so it is asked again.
            if (inUse(old)) el._liveHeld = true;
            else old.replaceWith(document.importNode(fresh, true));
          });
        });
        doc.querySelectorAll("[data-live-list]:not([data-live-part])").forEach(function (fresh) {
          var name = fresh.getAttribute("data-live-list");
          el.querySelectorAll("[data-live-list]").forEach(function (list) {
            if (list.getAttribute("data-live-list") === name) merge(list, fresh);
          });
        });
        var after = doc.querySelector("[data-live-after]");
        if (after && el.hasAttribute("data-live-after")) el.setAttribute("data-live-after", after.getAttribute("data-live-after"));
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

  function items(list) {
    return Array.prototype.filter.call(list.children, function (c) { return c.hasAttribute("data-live-key"); });
  }
  function order(item) { return parseFloat(item.getAttribute("data-live-order")) || 0; }

  // The changes of `fresh` merged into the page's `list` (see the top of this file).
  function merge(list, fresh) {
    var top = items(list).reduce(function (most, c) { return Math.max(most, order(c)); }, -Infinity);
    Array.prototype.slice.call(fresh.children).forEach(function (item) {
      var key = item.getAttribute("data-live-key");
      if (!key) return;
      var old = items(list).filter(function (c) { return c.getAttribute("data-live-key") === key; })[0];
      if (item.hasAttribute("data-live-gone")) {
        if (old) old.remove();
        return;
      }
      // Sent again unchanged (the cursor's overlap): the one shown stays, a replay where it was.
      if (old && old.getAttribute("data-live-stamp") && old.getAttribute("data-live-stamp") === item.getAttribute("data-live-stamp")) return;
      var node = document.importNode(item, true);
      if (old) {
        old.replaceWith(node);
      } else if (list.hasAttribute("data-live-prepend") && order(item) > top) {
        var before = items(list).filter(function (c) { return order(c) < order(item); })[0];
        list.insertBefore(node, before || null);
      }
    });
    var most = parseInt(list.getAttribute("data-live-most"), 10);
    if (most > 0) items(list).slice(most).forEach(function (c) { c.remove(); });
    var empty = list.querySelector(":scope > [data-live-empty]");
    if (items(list).length && empty) empty.remove();
    var stand = fresh.querySelector(":scope > [data-live-empty]");
    if (!items(list).length && !empty && stand) list.appendChild(document.importNode(stand, true));
  }

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
    window.clearTimeout(w.soonTimer);
    window.clearTimeout(w.streamTimer);
    if (w.source) w.source.close();
    var i = watchers.indexOf(w);
    if (i >= 0) watchers.splice(i, 1);
  }

  function ask(w) {
    if (w.done) return;
    if (!w.el.isConnected) { stop(w); return; }  // taken off the page (a live part swapped out)
    if (w.busy) { w.again = true; return; }  // an event during a fetch: ask again after it
    if (document.hidden) return;  // visibilitychange asks again
    w.busy = true;
    w.again = false;
    var url = w.kind.url(w.el);
    var key = w.kind.key ? w.kind.key(w.el) : url;
    var headers = { "Accept": "text/html" };
    if (w.tags[key]) headers["If-None-Match"] = w.tags[key];
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
          if (tag && !next._liveHeld) w.tags[key] = tag;
          next.dispatchEvent(new CustomEvent("live:updated", { bubbles: true }));
          scan(next);
        });
      })
      .then(function () { w.wait = w.every; say(w, "live"); },
            function () { w.wait = Math.min(w.wait * 2, MAX_WAIT); say(w, "offline"); })
      .then(function () {
        w.busy = false;
        if (!w.kind.goesOn(w.el)) stop(w);
        else if (w.again) later(w, 0);
        else later(w, w.streaming && w.wait === w.every ? SAFETY : w.wait);
      });
  }

  // Something changed (an event, or the stream just opened): ask soon, once for a burst.
  function soon(w) {
    window.clearTimeout(w.soonTimer);
    w.soonTimer = window.setTimeout(function () { w.wait = w.every; later(w, 0); }, SOON);
  }

  function streamState(w, open) {
    w.streaming = open;
    w.el.setAttribute("data-live-stream", open ? "open" : "down");
  }

  function listen(w) {
    var url = w.el.getAttribute("data-live-events");
    if (!url || !window.EventSource || w.done) return;
    var source = new EventSource(url);
    w.source = source;
    source.addEventListener("open", function () {
      w.streamWait = 1000;
      streamState(w, true);
      soon(w);  // what changed while it was down
    });
    EVENTS.forEach(function (name) { source.addEventListener(name, function () { soon(w); }); });
    source.addEventListener("error", function () {
      // Polling as before from now on; the browser reconnects by itself (with Last-Event-ID)
      // unless the answer was a refusal (closed), then a new stream after a growing pause.
      var wasOpen = w.streaming;
      streamState(w, false);
      if (wasOpen && !w.busy) later(w, w.every);
      if (source.readyState === EventSource.CLOSED && !w.done) {
        var pause = w.streamWait || 1000;
        w.streamWait = Math.min(pause * 2, MAX_WAIT);
        window.clearTimeout(w.streamTimer);
        w.streamTimer = window.setTimeout(function () { if (w.source === source) listen(w); }, pause);
      }
    });
  }

  function now(w) { w.wait = w.every; later(w, 0); }

  function watch(el, kind) {
    var w = { el: el, kind: kind, every: kind.every(el), tags: {}, timer: null, busy: false, done: false,
              streaming: false, source: null };
    w.wait = w.every;
    el._liveWatcher = w;
    watchers.push(w);
    say(w, "live");
    later(w, w.every);
    if (kind === KINDS.live) listen(w);
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
