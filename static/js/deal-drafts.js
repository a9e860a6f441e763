/* The scorer's deal form (<form data-deal-drafts>, templates/scorer/table.html) on flaky wifi:

   - a draft is kept in localStorage as typed: every named input of the form (so the inputs other
     scripts add, like the tile picker's, are kept too), with the deal number and an
     Idempotency-Key made once per draft. Its key names the tournament and the table
     (data-draft-scope), not the link: a draft typed on a link the director replaced is offered
     on the new link;
   - Preview and Submit are sent with fetch (the page answers JSON), so Back never posts the form
     again; Submit is retried with backoff until the server answers, always with the draft's key
     (the server records the deal once per key) and its number (the server refuses a number
     another phone recorded meanwhile: 409, both deals shown side by side);
   - the draft is dropped only when the server says the deal is saved;
   - what the next deal at the table starts from (the level of detail, the stakes) is kept once a
     deal is saved, and put back in the form of the next deal when it has no draft:
     window.GupaiDealMemory (static/js/deal-memory.js);
   - with the network gone, this table's outbox not empty, or no answer within 4 s, Submit puts
     the deal in the phone's outbox (static/js/outbox.js, shown and sent by outbox-view.js) with
     its key, number and the time it was drawn, and the form opens on the next deal: its number,
     a new key, what the next deal starts from, and the leader, banker and enterer of the last
     deal queued (the scorer can change them). A deal the server refuses from the outbox opens in
     the form with its errors (or both deals side by side when its number was taken); Submit puts
     it back at its place in the queue. A page older than the deals queued (served by the
     service worker) starts after the last one queued;
   - a table whose session has ended (409 session_closed, or the page of a closed session: its
     form is marked data-draft-readonly) shows the draft read-only, to hand to the director; it
     stays on the phone.

   The texts come from the form's data-text-* attributes (translated in the template). Loaded by
   templates/scorer/table.html (defer), after outbox-view.js, deal-fields.js and deal-memory.js. */
(function () {
  "use strict";

  var form = document.querySelector("form[data-deal-drafts]");
  var Fields = window.GupaiDealFields;
  if (!form || !Fields || !window.fetch || !window.FormData) return;

  var store = null;
  try {
    store = window.localStorage;
    store.setItem("gupai-probe", "1");
    store.removeItem("gupai-probe");
  } catch (e) {
    store = null;  // private mode without storage: the form still works, without drafts
  }

  // Not form.action: the buttons are named "action" and would shadow it.
  var pageUrl = form.getAttribute("action");
  var PREFIX = "gupai-draft:" + form.getAttribute("data-draft-scope") + ":";
  var pageNumber = parseInt(form.getAttribute("data-number"), 10);
  var heading = document.getElementById("new-deal-title");
  var outbox = window.GupaiOutboxPage || null;  // none: no IndexedDB, the old retries
  var fixing = null;  // the outbox's refused deal open in the form
  var keyInput = form.querySelector('input[name="idem_key"]');
  var numberInput = form.querySelector('input[name="number"]');
  var statusBox = document.getElementById("draft-status");
  var takenBox = document.getElementById("taken");
  var problemsBox = document.getElementById("form-problems");
  var resultBox = document.getElementById("result");
  var offerBox = document.getElementById("draft-offer");
  // Not part of the deal: the page's own hidden inputs and the buttons.
  var NOT_KEPT = {csrfmiddlewaretoken: true, idem_key: true, number: true, action: true};
  var draft = null;
  var sending = false;
  var retryTimer = null;
  var wait = 1000;
  var restoring = false;

  if (form.hasAttribute("data-draft-readonly")) {
    showUnsent();
    return;
  }

  function text(name, values) {
    var s = form.getAttribute("data-text-" + name) || "";
    Object.keys(values || {}).forEach(function (k) { s = s.replace("%(" + k + ")s", values[k]); });
    return s;
  }

  var newKey = Fields.newKey;

  // --- the draft ------------------------------------------------------------------------------

  function readFields() { return Fields.read(form, NOT_KEPT); }

  function writeFields(fields) {
    restoring = true;
    Fields.write(form, fields, NOT_KEPT);
    restoring = false;
  }

  function storageKey(d) { return PREFIX + d.number; }

  // What the next deal starts from (static/js/deal-memory.js).
  var memory = window.GupaiDealMemory;

  function keep() {
    if (!draft) draft = {number: pageNumber, key: keyInput.value || newKey(), fields: {}, sending: false};
    draft.fields = readFields();
    draft.savedAt = Date.now();
    keyInput.value = draft.key;
    numberInput.value = draft.number;
    if (store) {
      try { store.setItem(storageKey(draft), JSON.stringify(draft)); } catch (e) { /* storage full */ }
    }
  }

  function forget(d) {
    if (store && d) store.removeItem(storageKey(d));
  }

  function storedDrafts() {
    var out = [];
    if (!store) return out;
    for (var i = 0; i < store.length; i++) {
      var k = store.key(i);
      if (k && k.indexOf(PREFIX) === 0) {
        try {
          var d = JSON.parse(store.getItem(k));
          if (d && d.key && d.fields && typeof d.number === "number") out.push(d);
        } catch (e) { /* not ours */ }
      }
    }
    return out;
  }

  // The page of a closed session: the oldest draft of this table in the disabled form, shown.
  function showUnsent() {
    var drafts = storedDrafts().sort(function (a, b) { return a.number - b.number; });
    var box = document.getElementById("unsent-draft");
    if (!drafts.length || !box) return;
    writeFields(drafts[0].fields);
    box.hidden = false;
  }

  // --- what the scorer sees ---------------------------------------------------------------------

  function say(message, kind) {
    statusBox.textContent = message;
    statusBox.hidden = !message;
    statusBox.className = "card " + (kind || "warnings");
  }

  function clearErrors() { Fields.clearErrors(form, problemsBox); }

  function showErrors(data) { Fields.showErrors(form, problemsBox, data, text("invalid")); }

  // --- sending --------------------------------------------------------------------------------

  function post(action) {
    var body = new FormData(form);
    body.set("action", action);
    if (draft) {
      body.set("idem_key", draft.key);
      body.set("number", String(draft.number));
    }
    var headers = {"Accept": "application/json"};
    if (outbox) headers["X-Gupai-Outbox"] = outbox.headers()["X-Gupai-Outbox"];
    // Not answered within 4 s: the deal goes to the outbox (the same key: recorded once).
    var controller = window.AbortController ? new AbortController() : null;
    var timer = controller && outbox ? window.setTimeout(function () { controller.abort(); }, 4000) : null;
    return fetch(pageUrl, {method: "POST", body: body, credentials: "same-origin", headers: headers,
                           signal: controller ? controller.signal : undefined})
      .then(function (response) {
        return response.json().then(function (data) { return {status: response.status, data: data}; },
                                    function () { return {status: response.status, data: null}; });
      })
      .then(function (answer) { window.clearTimeout(timer); return answer; },
            function (e) { window.clearTimeout(timer); throw e; });
  }

  function preview() {
    keep();
    post("preview").then(function (answer) {
      var data = answer.data || {};
      if (data.status === "preview") {
        clearErrors();
        resultBox.innerHTML = data.html;  // rendered and escaped by the server
        resultBox.scrollIntoView({block: "start"});
      } else if (data.status === "invalid") {
        resultBox.textContent = "";
        showErrors(data);
      } else {
        answered(answer);
      }
    }, function () {
      say(text("preview-offline"));
    });
  }

  function submit() {
    if (sending) return;  // a double tap: the first one is on its way
    if (outbox && (fixing || outbox.count() || !navigator.onLine)) return queueDeal();
    keep();
    draft.sending = true;
    keep();
    sending = true;
    wait = 1000;
    takenBox.hidden = true;
    say(text("sending"), "notice");
    attempt();
  }

  function attempt() {
    retryTimer = null;
    post("submit").then(answered, retryLater);
  }

  function retryLater() {
    if (outbox) return queueDeal();
    // The network (or the server) is away: try again, less and less often, keeping the draft.
    say(text("waiting"));
    if (retryTimer) window.clearTimeout(retryTimer);
    retryTimer = window.setTimeout(attempt, wait);
    wait = Math.min(wait * 2, 30000);
  }

  function stop() {
    sending = false;
    if (draft) {
      draft.sending = false;
      keep();
    }
  }

  // Another phone recorded this number meanwhile: both deals side by side (rendered and escaped
  // by the server), to drop this one or record it as the next deal.
  function showTaken(html) {
    say("");
    takenBox.innerHTML = html;
    takenBox.hidden = false;
    takenBox.scrollIntoView({block: "start"});
  }

  function answered(answer) {
    var data = answer.data || {};
    var away = answer.status >= 500 || answer.status === 429 || (!answer.data && answer.status !== 403);
    if (sending && away) return retryLater();
    if (data.status === "saved") {
      memory.remember(form, store);
      forget(draft);
      draft = null;
      window.location.replace(data.redirect);  // the page of the next deal, this one in view
      return;
    }
    stop();
    if (data.status === "invalid") {
      say(text("kept"));
      showErrors(data);
    } else if (data.status === "taken") {
      showTaken(data.html);
    } else if (data.status === "link_invalid") {
      say(text("replaced"), "errors");
    } else if (data.status === "session_closed") {
      // Kept (stop() stored it): the ended page shows it, with where everyone sits now.
      window.location.replace(pageUrl);
    } else if (data.status === "key_reused") {
      // Recorded once already from this draft, and changed since: a new deal needs a new key.
      draft.key = newKey();
      keep();
      say(data.message, "errors");
    } else if (data.message) {
      say(data.message, "errors");
    } else {
      say(text("refused"), "errors");
    }
  }

  // --- the outbox ------------------------------------------------------------------------------

  function queuedDeals() {
    return outbox.items().filter(function (i) { return i.kind === "deal"; });
  }

  function nextNumber() {
    return queuedDeals().reduce(function (n, i) { return Math.max(n, i.number + 1); }, pageNumber);
  }

  function showNumber(number) {
    numberInput.value = number;
    if (heading) heading.textContent = text("heading", {number: number});
  }

  function queueDeal() {
    keep();
    sending = false;
    var item = {key: draft.key, kind: "deal", url: pageUrl, number: draft.number, fields: Fields.pairs(form)};
    if (fixing && fixing.key === draft.key) {  // fixed: back at its place in the queue
      item.seq = fixing.seq;
      item.drawnAt = fixing.drawnAt;
    }
    var queued = draft;
    return outbox.queue(item).then(function () {
      memory.remember(form, store);
      forget(queued);
      fixing = null;
      nextDeal();
      say(text("queued", {number: item.number}), "notice");
    });
  }

  // The form opens on the next deal: its own draft if one was typed, else a fresh form with what
  // the next deal starts from and the leader, banker and enterer of the last deal queued.
  function nextDeal() {
    clearErrors();
    takenBox.hidden = true;
    resultBox.textContent = "";
    var number = pageNumber = nextNumber();
    draft = storedDrafts().filter(function (d) { return d.number === number; })[0] || null;
    if (draft) {
      writeFields(draft.fields);
    } else {
      writeFields(pristine);
      writeFields(memory.recalled(form, store));
      var last = queuedDeals().sort(function (a, b) { return b.seq - a.seq; })[0];
      if (last) {
        var carried = {}, fields = Fields.fromPairs(form, last.fields);
        ["leader", "banker", "entered_by"].forEach(function (name) { if (name in fields) carried[name] = fields[name]; });
        writeFields(carried);
      }
    }
    keyInput.value = draft ? draft.key : newKey();
    showNumber(number);
  }

  // A deal the server refused from the outbox: in the form, with its errors.
  function openRefused(item) {
    if (fixing && fixing.key === item.key) return;
    if (draft && !fixing) keep();  // the next deal typed so far stays a draft
    fixing = item;
    draft = {number: item.number, key: item.key, fields: Fields.fromPairs(form, item.fields), sending: false};
    writeFields(draft.fields);
    keyInput.value = item.key;
    showNumber(item.number);
    var data = item.errors || {};
    if (data.status === "invalid") {
      say(text("outbox-refused", {number: item.number}), "errors");
      showErrors(data);
    } else if (data.status === "taken") {
      showTaken(data.html);
    } else {
      say(data.message || text("refused"), "errors");
    }
  }

  // "Record mine as deal M": this deal and every deal queued behind it move by as many numbers.
  function renumber(item, number) {
    var shift = number - item.number;
    var behind = queuedDeals().filter(function (i) { return i.seq > item.seq; });
    // Those behind first: the refused one still holds the queue meanwhile.
    return Promise.all(behind.map(function (i) { i.number += shift; return outbox.put(i); })).then(function () {
      return outbox.drop(item.key);
    }).then(function () {
      draft.number = number;
      draft.key = newKey();  // on purpose: the same hands as another deal, under a new key
      showNumber(number);
      fixing = {key: draft.key, seq: item.seq, drawnAt: item.drawnAt};
      return queueDeal();
    });
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var action = event.submitter && event.submitter.value;
    // A required input left empty (the stake of the seat the bank has just left) is asked for
    // here, before anything is sent; a preview shows the server's word on everything.
    if (action === "submit" && !form.reportValidity()) return;
    if (action === "submit") submit(); else preview();
  });

  form.addEventListener("input", keep);
  form.addEventListener("change", function () { if (!restoring) keep(); });
  // Scripts that fill inputs without events (a picker) are caught when the page is left.
  window.addEventListener("pagehide", function () { if (draft) keep(); });
  window.addEventListener("online", function () {
    if (sending && retryTimer) {
      window.clearTimeout(retryTimer);
      attempt();
    }
  });

  takenBox.addEventListener("click", function (event) {
    var drop = event.target.closest("[data-draft-drop]");
    var next = event.target.closest("[data-record-next]");
    if (drop && fixing) {
      // On purpose: the other phone's deal is this one; the deals behind it go on.
      var dropped = fixing;
      fixing = null;
      forget(draft);
      outbox.drop(dropped.key).then(function () { nextDeal(); outbox.drain(); });
    } else if (next && fixing) {
      takenBox.hidden = true;
      renumber(fixing, parseInt(next.getAttribute("data-record-next"), 10));
    } else if (drop) {
      forget(draft);
      draft = null;
      window.location.replace(pageUrl);
    } else if (next) {
      // On purpose: the same hands as the next deal, under a new key.
      forget(draft);
      draft.number = parseInt(next.getAttribute("data-record-next"), 10);
      draft.key = newKey();
      takenBox.hidden = true;
      submit();
    }
  });

  // --- on load: this deal's draft back in the form, an older one offered ----------------------

  // The form as the server rendered it: a fresh deal starts from it.
  var pristine = Fields.defaults(form, NOT_KEPT);

  if (outbox) {
    outbox.onRefused = function (item) { if (item.kind === "deal") openRefused(item); };
    outbox.ready.then(function () {
      // A page older than what is queued (the worker's copy): it starts after the last deal queued.
      if (nextNumber() !== pageNumber && (!draft || draft.number < nextNumber())) nextDeal();
    });
  }

  var drafts = storedDrafts();
  var current = drafts.filter(function (d) { return d.number === pageNumber; })[0];
  var older = drafts.filter(function (d) { return d.number !== pageNumber; })
    .sort(function (a, b) { return a.number - b.number; })[0];
  if (current) {
    draft = current;
    writeFields(current.fields);
    keyInput.value = current.key;
    say(text("restored"));
  } else if (!problemsBox.textContent.trim()) {
    writeFields(memory.recalled(form, store));  // not over a form the server sent back with its errors
  }
  if (older) {
    offerBox.querySelector("[data-offer-text]").textContent = text("offer", {number: older.number});
    offerBox.hidden = false;
    offerBox.addEventListener("click", function (event) {
      if (event.target.closest("[data-draft-discard]")) {
        forget(older);
        offerBox.hidden = true;
      } else if (event.target.closest("[data-draft-restore]")) {
        // Sent under its own number and key: saved already → the stored answer; taken by
        // another phone → both deals side by side.
        if (draft && draft !== older) forget(draft);
        draft = older;
        writeFields(older.fields);
        offerBox.hidden = true;
        submit();
      }
    });
  }
})();
