/* The scorer pages' side of the outbox (static/js/outbox.js): what waits to be sent for this
   table, shown and sent from the page.

   The page names its table in an element marked data-outbox (templates/scorer/table.html: the
   "Last deals" section; templates/scoring/correct.html: the correction form's box):
   data-outbox-scope ("<tournament>:<table>", as the drafts), data-outbox-page (the table's
   /s/<token>/), and the translated texts (data-text-*).

   - The list: each deal waiting is shown at the top of "Last deals" as "Deal N — waiting to send"
     (or refused: the deal form opens on it, static/js/deal-drafts.js); a correction,
     confirmation or dispute waiting is said at its deal's row; a refused one shows the server's
     errors at its form's field, to fix and send again (or to drop, on purpose).
   - Forms marked data-outbox-kind (a deal's confirm, dispute, correction): with the network
     gone, or this table's outbox not empty (they must not overtake a deal), their submit is
     queued instead of posted; otherwise they post as they always did.
   - Sending: on load, `online`, the page shown again, a timer with backoff (1 s, doubling up to
     30 s) while the server is away, a message from the service worker, and Background Sync
     ("gupai-outbox") where the browser has it. When the table's outbox has been emptied the
     page is loaded again, showing the deals as recorded.
   - The phone's storage: static/js/sw-register.js asks the browser to keep it (GupaiDB.persisted,
     the "gupai-storage" event); refused while deals wait, #storage-warning is shown.
   - The clock: deals carry when they were drawn in the server's time (data-server-now on
     <html>); the offset is kept in "meta" from the last page the server rendered, for a page
     the service worker served from its cache.

   window.GupaiOutboxPage: for deal-drafts.js (ready, items, count, headers, serverNow, queue,
   put, drop, drain, text, onRefused). */
(function () {
  "use strict";

  var box = document.querySelector("[data-outbox]");
  var Outbox = window.GupaiOutbox;
  if (!box || !Outbox || !window.GupaiDB || !window.indexedDB || !window.idb) return;

  var scope = box.getAttribute("data-outbox-scope");
  var page = box.getAttribute("data-outbox-page");
  var onTablePage = !!document.getElementById("deals");
  var items = [];
  var offset = 0;
  var wait = 1000;
  var timer = null;
  var reloading = false;
  var shownWaiting = false;  // this page has listed deals waiting (reloaded once they are all sent)
  var statusBox = document.getElementById("outbox-status");
  var KIND_TEXT = {correct: "waiting-correct", confirm: "waiting-confirm", dispute: "waiting-dispute"};

  function text(name, values) {
    var s = box.getAttribute("data-text-" + name) || "";
    Object.keys(values || {}).forEach(function (k) { s = s.replace("%(" + k + ")s", values[k]); });
    return s;
  }

  function say(message) {
    if (!statusBox) return;
    statusBox.textContent = message;
    statusBox.hidden = !message;
  }

  // --- the clock ------------------------------------------------------------------------------

  var rendered = parseInt(document.documentElement.getAttribute("data-server-now"), 10);
  var clock = Outbox.open().then(function (db) {
    return db.get("meta", "clock").then(function (kept) {
      var fresh = isNaN(rendered) ? null : rendered - Date.now();
      // A page rendered more than 30 s ago by the phone's clock came from the worker's cache.
      if (fresh !== null && (!kept || fresh > kept.offset - 30000)) {
        offset = fresh;
        return db.put("meta", {name: "clock", offset: offset});
      }
      offset = kept ? kept.offset : (fresh || 0);
    });
  }).catch(function () { /* no storage: the phone's own clock */ });

  function serverNow() { return Date.now() + offset; }

  // --- what is queued -------------------------------------------------------------------------

  function csrf() {
    var input = document.querySelector('input[name="csrfmiddlewaretoken"]');
    return input ? input.value : "";
  }

  function headers() { return {"X-Gupai-Outbox": String(items.length)}; }

  function refresh() {
    return Outbox.list(scope).then(function (list) {
      items = list;
      if (items.length) shownWaiting = true;
      render();
      return items;
    });
  }

  // The outbox emptied by a sender other than this page's drain (the worker, another tab, a
  // retry): once it showed deals waiting, the page again, as the server has them.
  function reloadWhenSent() {
    if (reloading || !shownWaiting || items.length || !onTablePage) return;
    reloading = true;
    window.location.replace(page);
  }

  function showNotices() {
    return Outbox.notices(scope).then(function (list) {
      if (list.length) say(list.map(function (n) { return text("recorded", {number: n.number}); }).join(" "));
    });
  }

  function queue(item) {
    item.scope = scope;
    item.page = page;
    item.drawnAt = item.drawnAt || serverNow();
    item.state = "waiting";
    item.errors = null;
    return Outbox.add(item).then(function () {
      if (navigator.serviceWorker && navigator.serviceWorker.controller) {
        navigator.serviceWorker.ready.then(function (registration) {
          if (registration.sync) return registration.sync.register("gupai-outbox");
        }).catch(function () { /* the timer and `online` send it */ });
      }
      return refresh();
    }).then(function () { soon(0); return item; });
  }

  function put(item) { return Outbox.update(item).then(refresh); }

  function drop(key) { return Outbox.remove(key).then(refresh); }

  // --- sending --------------------------------------------------------------------------------

  function soon(delay) {
    if (timer) window.clearTimeout(timer);
    timer = window.setTimeout(drain, delay);
  }

  function ping() {
    // Tells the server this phone is here and how much it holds (the queue waits for the scorer).
    fetch(page + "ping/", {credentials: "same-origin", cache: "no-store", headers: headers()})
      .catch(function () { /* away: nothing to tell */ });
  }

  function drain() {
    timer = null;
    if (reloading) return Promise.resolve();
    return Outbox.drain(scope, {csrf: csrf()}).then(function (result) {
      if (result.stopped === "away" || result.stopped === "busy") {
        soon(wait);
        wait = Math.min(wait * 2, 30000);
      } else {
        wait = 1000;
      }
      if (result.stopped === "refused") ping();
      return refresh().then(function () {
        if (result.sent && !items.length && onTablePage) {
          reloading = true;  // every deal sent: the page as the server has them
          window.location.replace(page);
          return;
        }
        if (result.item && api.onRefused) api.onRefused(result.item);
        return showNotices();
      });
    }, function () { soon(wait); });
  }

  // --- the list -------------------------------------------------------------------------------

  function render() {
    var persisted = window.GupaiDB.persisted;
    var warning = document.getElementById("storage-warning");
    if (warning) warning.hidden = !(persisted === false && items.length);
    if (!onTablePage) return;
    var deals = document.getElementById("deals");
    deals.querySelectorAll("[data-outbox-item]").forEach(function (el) { el.remove(); });
    var heading = deals.querySelector("h2");
    var empty = deals.querySelector("p.muted");
    var waitingDeals = items.filter(function (i) { return i.kind === "deal"; })
      .sort(function (a, b) { return b.number - a.number; });
    if (empty && !deals.querySelector("article.deal")) empty.hidden = waitingDeals.length > 0;
    var after = heading;
    waitingDeals.forEach(function (item) {
      var card = document.createElement("article");
      card.className = "card deal " + (item.state === "refused" ? "errors" : "warnings");
      card.setAttribute("data-outbox-item", item.key);
      card.id = "waiting-" + item.number;
      var h = document.createElement("h3");
      h.textContent = text(item.state === "refused" ? "refused-deal" : "waiting-deal", {number: item.number});
      card.appendChild(h);
      var message = item.state === "refused" && item.errors && item.errors.status !== "invalid" && item.errors.message;
      if (message) {
        var p = document.createElement("p");
        p.textContent = message;
        card.appendChild(p);
      }
      after.insertAdjacentElement("afterend", card);
      after = card;
    });
    items.filter(function (i) { return i.kind !== "deal"; }).forEach(renderMove);
  }

  // A correction, confirmation or dispute at its deal's row: waiting, or refused with the errors.
  function renderMove(item) {
    var row = document.getElementById("deal-" + item.number);
    if (!row) return;
    var p = document.createElement("p");
    p.className = "badge waiting";
    p.setAttribute("data-outbox-item", item.key);
    p.textContent = text(KIND_TEXT[item.kind], {number: item.number});
    row.querySelector("h3").insertAdjacentElement("afterend", p);
    if (item.state !== "refused") return;
    var form = row.querySelector('form[data-outbox-kind="' + item.kind + '"][action="' + item.url + '"]') ||
      row.querySelector('form[data-outbox-kind="' + item.kind + '"]');
    var errors = (item.errors && item.errors.errors) || {};
    var names = Object.keys(errors);
    var shown = false;
    if (form) {
      var details = form.closest("details");
      if (details) details.open = true;
      item.fields.forEach(function (pair) {
        var input = form.elements[pair[0]];
        if (input && input.type !== "hidden" && input.tagName !== "BUTTON") input.value = pair[1];
      });
      names.forEach(function (name) {
        var input = form.elements[name];
        if (!input || !input.tagName) return;
        input.setAttribute("aria-invalid", "true");
        var error = document.createElement("p");
        error.className = "field-error";
        error.id = (input.id || name) + "-queued-error";
        error.setAttribute("role", "alert");
        error.setAttribute("data-outbox-item", item.key);
        error.textContent = errors[name].join(" ");
        input.insertAdjacentElement("afterend", error);
        input.setAttribute("aria-describedby", error.id);
        shown = true;
      });
    }
    var refused = document.createElement("div");
    refused.className = "card errors";
    refused.setAttribute("role", "alert");
    refused.setAttribute("data-outbox-item", item.key);
    var why = document.createElement("p");
    why.textContent = shown ? text("move-refused") : ((item.errors && item.errors.message) || text("move-refused"));
    var discard = document.createElement("button");
    discard.type = "button";
    discard.className = "secondary small";
    discard.setAttribute("data-outbox-discard", item.key);
    discard.textContent = text("discard");
    refused.appendChild(why);
    refused.appendChild(discard);
    p.insertAdjacentElement("afterend", refused);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-outbox-discard]");
    if (!button) return;
    // On purpose, by the scorer: the move is not sent; the queue goes on.
    drop(button.getAttribute("data-outbox-discard")).then(function () { soon(0); });
  });

  // --- moves queued instead of posted -----------------------------------------------------------

  function pairs(form, submitter) {
    var out = [];
    new FormData(form, submitter || undefined).forEach(function (value, name) { out.push([name, value]); });
    return out;
  }

  document.addEventListener("submit", function (event) {
    var form = event.target.closest("form[data-outbox-kind]");
    if (!form) return;
    var kind = form.getAttribute("data-outbox-kind");
    var submitter = event.submitter;
    var action = submitter && submitter.name === "action" ? submitter.value : "";
    var pending = items.filter(function (i) { return i.kind === kind && i.url === form.getAttribute("action"); })[0];
    if (navigator.onLine && !items.length) return;  // posted as always
    event.preventDefault();
    if (kind === "correct" && action !== "save") {  // a preview needs the server
      say(text("preview-offline"));
      return;
    }
    var item = pending || {key: newKey(), seq: Outbox.sequence(), kind: kind, url: form.getAttribute("action"),
                           number: parseInt(form.getAttribute("data-outbox-number"), 10)};
    item.fields = pairs(form, submitter);
    queue(item).then(function () {
      say(text("queued-move", {number: item.number}));
      var details = form.closest("details");
      if (details) details.open = false;
      // Back to the table's page where the worker keeps a copy of it (offline, it opens from there).
      if (!onTablePage && window.caches && navigator.serviceWorker && navigator.serviceWorker.controller) {
        window.caches.match(page).then(function (kept) {
          if (kept) window.location.href = page + "#deal-" + item.number;
        }).catch(function () { /* stays here: the status says it is kept */ });
      }
    });
  });

  function newKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  // --- triggers -------------------------------------------------------------------------------

  window.addEventListener("online", function () { wait = 1000; soon(0); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") soon(0);
  });
  window.addEventListener("gupai-outbox", function () { if (!reloading) refresh().then(reloadWhenSent); });
  if (window.BroadcastChannel) {
    // Another tab or the worker changed the outbox (sent what this page shows as waiting).
    new BroadcastChannel("gupai-outbox").addEventListener("message", function (event) {
      if (reloading || !event.data || event.data.scope !== scope) return;
      refresh().then(reloadWhenSent);
    });
  }
  if (navigator.serviceWorker) {
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && String(event.data.type || event.data).indexOf("gupai-outbox") === 0) soon(0);
    });
  }

  // The table's page kept by the worker, whichever of its pages this phone opened first: a page
  // left before the worker was ready never asked to be kept (static/js/sw-register.js). Asked
  // once a worker controls this page: now, or when it takes the page over.
  function keepTablePage() {
    window.caches.match(page).then(function (kept) {
      if (!kept && navigator.serviceWorker.controller) navigator.serviceWorker.controller.postMessage({keep: page});
    }).catch(function () { /* no cache to look in: the worker keeps it on its next navigation */ });
  }
  if (window.caches && navigator.serviceWorker) {
    if (navigator.serviceWorker.controller) keepTablePage();
    else navigator.serviceWorker.addEventListener("controllerchange", keepTablePage, {once: true});
  }

  var api = {
    scope: scope, page: page, text: text, headers: headers, serverNow: serverNow, queue: queue, put: put,
    drop: drop, drain: function () { soon(0); }, onRefused: null,
    items: function () { return items.slice(); },
    count: function () { return items.length; }
  };
  // The browser's answer on keeping this site's storage: asked on load by static/js/sw-register.js
  // (which also lists this table for /s/ in the "tables" store).
  window.addEventListener("gupai-storage", render);
  api.ready = clock.then(refresh).then(function () {
    soon(0);
    return api;
  });
  window.GupaiOutboxPage = api;
})();
