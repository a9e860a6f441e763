/* The phone's outbox: what a scorer page queued while the server could not be reached (deals,
   corrections, confirmations, disputes), kept in IndexedDB (store "outbox" of static/js/gupai-db.js)
   and sent in order, one at a time per table, as soon as the server answers again.

   The same file runs in the scorer page (static/js/outbox-view.js calls it) and in the service
   worker (importScripts, for Background Sync "gupai-outbox"): no DOM here; the window's event is
   guarded. An item: {key (its Idempotency-Key: the server records it once), seq (its place:
   Date.now()*1000 + a counter), scope ("<tournament>:<table>"), page ("/s/<token>/"), url
   (where it is POSTed), kind ("deal" | "correct" | "confirm" | "dispute"), number (the deal's),
   fields ([name, value] pairs, as the form sent them), drawnAt (ms, server time), state
   ("waiting" | "refused"), errors (the server's answer when refused)}.

   Sending an item: its fields as FormData with Accept: application/json and X-Gupai-Outbox (how
   many items wait for its table), 4 s at most. The answer decides:
   - no answer, a timeout, 5xx or 429: the server is away; the queue stops and is tried later;
   - "saved": the item leaves the outbox;
   - "key_reused": its key is recorded already (as deal `number`): it leaves, and the phone
     says "already recorded as deal N" (a notice kept in "meta" until a page shows it);
   - anything else (invalid, taken, error, conflict...): the item is "refused", the server's
     answer in `errors`, and its table's queue stops there until the scorer fixes it or drops it.
   Nothing leaves the outbox otherwise.

   self.GupaiOutbox: open(), add(item), list(scope), count(scope), remove(key), update(item),
   drain(scope, options), drainAll(), notices(scope), plus sequence() for a new item's seq.
   Changes are announced as a "gupai-outbox" CustomEvent on window (detail {scope}) and on the
   BroadcastChannel "gupai-outbox" (other tabs, the worker). */
(function (self) {
  "use strict";

  var TIMEOUT = 4000;
  var counter = 0;
  var channel = self.BroadcastChannel ? new self.BroadcastChannel("gupai-outbox") : null;

  function open() { return self.GupaiDB.open(); }

  function sequence() {
    counter = (counter + 1) % 1000;
    return Date.now() * 1000 + counter;
  }

  function announce(scope) {
    if (typeof self.window !== "undefined" && self.CustomEvent) {
      self.dispatchEvent(new self.CustomEvent("gupai-outbox", {detail: {scope: scope}}));
    }
    if (channel) channel.postMessage({type: "gupai-outbox", scope: scope});
  }

  function bySeq(a, b) { return a.seq - b.seq; }

  function list(scope) {
    return open().then(function (db) {
      return scope ? db.getAllFromIndex("outbox", "scope", scope) : db.getAll("outbox");
    }).then(function (items) { return items.sort(bySeq); });
  }

  function count(scope) {
    return open().then(function (db) {
      return scope ? db.countFromIndex("outbox", "scope", scope) : db.count("outbox");
    });
  }

  function add(item) {
    item.seq = item.seq || sequence();
    item.state = item.state || "waiting";
    item.errors = item.errors || null;
    return open().then(function (db) { return db.put("outbox", item); })
      .then(function () { announce(item.scope); return item; });
  }

  function update(item) {
    return open().then(function (db) { return db.put("outbox", item); })
      .then(function () { announce(item.scope); return item; });
  }

  function remove(key) {
    return open().then(function (db) {
      var tx = db.transaction("outbox", "readwrite");
      return tx.store.get(key).then(function (item) {
        return tx.store.delete(key).then(function () { return tx.done; }).then(function () { return item; });
      });
    }).then(function (item) { if (item) announce(item.scope); return item; });
  }

  // "already recorded as deal N", kept until a page of the table has shown it.
  function note(scope, notice) {
    return open().then(function (db) {
      var tx = db.transaction("meta", "readwrite");
      var name = "notices:" + scope;
      return tx.store.get(name).then(function (row) {
        row = row || {name: name, list: []};
        row.list.push(notice);
        return tx.store.put(row).then(function () { return tx.done; });
      });
    });
  }

  // The notices of a table, taken (a page shows them once).
  function notices(scope) {
    return open().then(function (db) {
      var tx = db.transaction("meta", "readwrite");
      var name = "notices:" + scope;
      return tx.store.get(name).then(function (row) {
        return (row ? tx.store.delete(name) : Promise.resolve()).then(function () { return tx.done; })
          .then(function () { return row ? row.list : []; });
      });
    });
  }

  // --- sending ------------------------------------------------------------------------------

  // options.csrf: the page's current CSRF token, used instead of the one queued with the item
  // (the worker has none to offer and sends the queued one).
  function send(item, options) {
    var body = new FormData();
    (item.fields || []).forEach(function (pair) { body.append(pair[0], pair[1]); });
    if (item.kind === "deal") {
      body.set("idem_key", item.key);
      body.set("number", String(item.number));
      body.set("action", "submit");
    }
    if (options && options.csrf) body.set("csrfmiddlewaretoken", options.csrf);
    if (item.drawnAt) body.set("drawn_at", String(Math.round(item.drawnAt)));
    var controller = self.AbortController ? new self.AbortController() : null;
    var timer = controller ? setTimeout(function () { controller.abort(); }, TIMEOUT) : null;
    return count(item.scope).then(function (n) {
      return fetch(item.url, {method: "POST", body: body, credentials: "same-origin",
                              signal: controller ? controller.signal : undefined,
                              headers: {"Accept": "application/json", "X-Gupai-Outbox": String(n)}});
    }).then(function (response) {
      return response.text().then(function (text) {
        var data = null;
        try { data = JSON.parse(text); } catch (e) { /* an HTML page: a proxy's, or a form's old answer */ }
        return outcome(response.status, data);
      });
    }).then(function (result) {
      clearTimeout(timer);
      return result;
    }, function () {
      clearTimeout(timer);
      return {outcome: "away"};
    });
  }

  function outcome(http, data) {
    if (http >= 500 || http === 429 || http === 0) return {outcome: "away"};
    var status = data && data.status;
    if (status === "saved") return {outcome: "saved", data: data};
    if (status === "key_reused") return {outcome: "recorded", data: data};
    // Without JSON, a 2xx is the form's answer to a move that was done (a redirect followed).
    if (!data && http < 300) return {outcome: "saved", data: {status: "saved"}};
    return {outcome: "refused", data: data || {status: "error", http: http}};
  }

  // One drain at a time per table, across tabs and the worker where the browser has Web Locks
  // (a second one finds the queue busy and leaves it); else one per context.
  var running = {};

  function exclusively(scope, work) {
    var locks = self.navigator && self.navigator.locks;
    if (locks && locks.request) {
      return locks.request("gupai-outbox:" + scope, {ifAvailable: true}, function (lock) {
        return lock ? work() : {stopped: "busy", sent: 0, recorded: [], item: null};
      });
    }
    if (running[scope]) return Promise.resolve({stopped: "busy", sent: 0, recorded: [], item: null});
    running[scope] = true;
    return work().then(function (r) { running[scope] = false; return r; },
                       function (e) { running[scope] = false; throw e; });
  }

  // Send a table's items in seq order. Resolves {sent, recorded: [notices], late: [numbers],
  // stopped: null | "away" | "refused" | "busy", item: the refused one}.
  function drain(scope, options) {
    return exclusively(scope, function () {
      var result = {sent: 0, recorded: [], late: [], stopped: null, item: null};
      function step() {
        return list(scope).then(function (items) {
          var head = items[0];
          if (!head) return result;
          if (head.state === "refused") {
            result.stopped = "refused";
            result.item = head;
            return result;
          }
          return send(head, options).then(function (answer) {
            if (answer.outcome === "away") {
              result.stopped = "away";
              return result;
            }
            if (answer.outcome === "refused") {
              head.state = "refused";
              head.errors = answer.data;
              return update(head).then(function () {
                result.stopped = "refused";
                result.item = head;
                return result;
              });
            }
            var after = Promise.resolve();
            if (answer.outcome === "recorded") {
              var notice = {kind: head.kind, number: answer.data.number || head.number};
              result.recorded.push(notice);
              after = note(scope, notice);
            }
            if (answer.data && answer.data.late) result.late.push(head.number);
            result.sent += 1;
            return after.then(function () { return remove(head.key); }).then(step);
          });
        });
      }
      return step();
    });
  }

  // Every table's queue (Background Sync): rejects while a server stays away, so that the
  // browser tries again later.
  function drainAll() {
    return list().then(function (items) {
      var scopes = [];
      items.forEach(function (item) { if (scopes.indexOf(item.scope) < 0) scopes.push(item.scope); });
      var results = [];
      return scopes.reduce(function (done, scope) {
        return done.then(function () { return drain(scope); }).then(function (r) { results.push(r); });
      }, Promise.resolve()).then(function () {
        if (results.some(function (r) { return r.stopped === "away"; })) throw new Error("the server is away");
        return results;
      });
    });
  }

  self.GupaiOutbox = {
    open: open, add: add, list: list, count: count, remove: remove, update: update,
    drain: drain, drainAll: drainAll, notices: notices, sequence: sequence, send: send
  };
})(self);
