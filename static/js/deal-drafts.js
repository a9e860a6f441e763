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
   - a table whose session has ended (409 session_closed, or the page of a closed session: its
     form is marked data-draft-readonly) shows the draft read-only, to hand to the director; it
     stays on the phone.

   The texts come from the form's data-text-* attributes (translated in the template). Loaded by
   templates/scorer/table.html (defer), after deal-memory.js. */
(function () {
  "use strict";

  var form = document.querySelector("form[data-deal-drafts]");
  if (!form || !window.fetch || !window.FormData) return;

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

  function newKey() {
    // crypto.randomUUID needs a secure context; a club's local network is plain http.
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  // --- the draft ------------------------------------------------------------------------------

  function readFields() {
    var out = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || NOT_KEPT[el.name] || el.type === "submit" || el.type === "button") return;
      if (el.type === "radio" || el.type === "checkbox") {
        if (!Array.isArray(out[el.name])) out[el.name] = [];
        if (el.checked) out[el.name].push(el.value);
      } else {
        out[el.name] = el.value;
      }
    });
    return out;
  }

  function writeFields(fields) {
    restoring = true;
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || NOT_KEPT[el.name] || !(el.name in fields)) return;
      var value = fields[el.name];
      if (el.type === "radio" || el.type === "checkbox") {
        el.checked = Array.isArray(value) && value.indexOf(el.value) >= 0;
      } else if (el.type !== "submit" && el.type !== "button") {
        el.value = value;
      }
      // Other scripts (the level switch, the tile picker) follow the input's value.
      el.dispatchEvent(new Event("change", {bubbles: true}));
    });
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

  function clearErrors() {
    form.querySelectorAll("[data-js-error], .field-error").forEach(function (el) { el.remove(); });
    form.querySelectorAll("[aria-describedby]").forEach(function (el) { el.removeAttribute("aria-describedby"); });
    form.querySelectorAll(".has-error").forEach(function (el) { el.classList.remove("has-error"); });
    form.querySelectorAll("[aria-invalid]").forEach(function (el) { el.removeAttribute("aria-invalid"); });
    problemsBox.textContent = "";
  }

  function problem(message) {
    var p = document.createElement("p");
    p.className = "card errors";
    p.setAttribute("role", "alert");
    p.textContent = message;
    problemsBox.appendChild(p);
    return p;
  }

  function showErrors(data) {
    clearErrors();
    var first = problem(text("invalid"));
    (data.section_errors || []).forEach(problem);
    Object.keys(data.errors || {}).forEach(function (name) {
      var el = form.elements[name];
      if (!el) return;
      var input = el.length !== undefined && !el.tagName ? el[0] : el;
      var field = input.closest(".field");
      if (!field) return;
      field.classList.add("has-error");
      input.setAttribute("aria-invalid", "true");
      // As the server renders them (templates/scoring/_field.html): read with the input.
      var box = document.createElement("div");
      box.id = (input.id || name) + "-errors";
      box.setAttribute("data-js-error", "");
      data.errors[name].forEach(function (message) {
        var p = document.createElement("p");
        p.className = "field-error";
        p.setAttribute("role", "alert");
        p.textContent = message;
        box.appendChild(p);
      });
      // Right under the input, above the tile picker's panel (as the server places them); under
      // the whole row of a choice tapped among buttons (a value, a winner).
      (input.closest("fieldset.choices") || input).insertAdjacentElement("afterend", box);
      input.setAttribute("aria-describedby", box.id);
    });
    first.scrollIntoView({block: "start"});
  }

  // --- sending --------------------------------------------------------------------------------

  function post(action) {
    var body = new FormData(form);
    body.set("action", action);
    if (draft) {
      body.set("idem_key", draft.key);
      body.set("number", String(draft.number));
    }
    return fetch(pageUrl, {method: "POST", body: body, credentials: "same-origin",
                               headers: {"Accept": "application/json"}})
      .then(function (response) {
        return response.json().then(function (data) { return {status: response.status, data: data}; },
                                    function () { return {status: response.status, data: null}; });
      });
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
      say("");
      takenBox.innerHTML = data.html;  // rendered and escaped by the server
      takenBox.hidden = false;
      takenBox.scrollIntoView({block: "start"});
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
    if (drop) {
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
