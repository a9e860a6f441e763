/* The scorer's deal form as plain data, for static/js/deal-drafts.js (a draft kept on the phone,
   a deal queued in the outbox and opened again in the form) — window.GupaiDealFields:
   - read(form, skip) / write(form, fields, skip): {name: value, or [values] for a choice};
     writing dispatches "change" so the other scripts (the level switch, the tile picker) follow;
     `skip`: names left alone (the page's own hidden inputs);
   - defaults(form, skip): the form as the server rendered it (a fresh deal starts from it);
   - pairs(form) / fromPairs(form, pairs): the [name, value] pairs FormData sends, as the outbox
     keeps them, and back;
   - clearErrors / showErrors: the server's errors at their fields, as the server renders them;
   - newKey(): an Idempotency-Key.
   Loaded by templates/scorer/table.html (defer) before deal-drafts.js. */
(function () {
  "use strict";

  function kept(el, skip) {
    return el.name && !(skip && skip[el.name]) && el.type !== "submit" && el.type !== "button";
  }

  function read(form, skip) {
    var out = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!kept(el, skip)) return;
      if (el.type === "radio" || el.type === "checkbox") {
        if (!Array.isArray(out[el.name])) out[el.name] = [];
        if (el.checked) out[el.name].push(el.value);
      } else {
        out[el.name] = el.value;
      }
    });
    return out;
  }

  function write(form, fields, skip) {
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!kept(el, skip) || !(el.name in fields)) return;
      var value = fields[el.name];
      if (el.type === "radio" || el.type === "checkbox") {
        el.checked = Array.isArray(value) && value.indexOf(el.value) >= 0;
      } else {
        el.value = value;
      }
      el.dispatchEvent(new Event("change", {bubbles: true}));
    });
  }

  function defaults(form, skip) {
    var out = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!kept(el, skip)) return;
      if (el.type === "radio" || el.type === "checkbox") {
        if (!Array.isArray(out[el.name])) out[el.name] = [];
        if (el.defaultChecked) out[el.name].push(el.value);
      } else if (el.tagName === "SELECT") {
        var chosen = Array.prototype.filter.call(el.options, function (o) { return o.defaultSelected; })[0];
        out[el.name] = chosen ? chosen.value : (el.options[0] ? el.options[0].value : "");
      } else {
        out[el.name] = el.defaultValue;
      }
    });
    return out;
  }

  function pairs(form) {
    var out = [];
    new FormData(form).forEach(function (value, name) { out.push([name, value]); });
    return out;
  }

  function fromPairs(form, list) {
    var out = {};
    list.forEach(function (pair) {
      var el = form.elements[pair[0]];
      var many = el && el.length !== undefined && !el.tagName;
      if (many || (el && (el.type === "radio" || el.type === "checkbox"))) {
        (out[pair[0]] = out[pair[0]] || []).push(pair[1]);
      } else {
        out[pair[0]] = pair[1];
      }
    });
    return out;
  }

  function clearErrors(form, problemsBox) {
    form.querySelectorAll("[data-js-error], .field-error").forEach(function (el) { el.remove(); });
    form.querySelectorAll("[aria-describedby]").forEach(function (el) { el.removeAttribute("aria-describedby"); });
    form.querySelectorAll(".has-error").forEach(function (el) { el.classList.remove("has-error"); });
    form.querySelectorAll("[aria-invalid]").forEach(function (el) { el.removeAttribute("aria-invalid"); });
    problemsBox.textContent = "";
  }

  function problem(problemsBox, message) {
    var p = document.createElement("p");
    p.className = "card errors";
    p.setAttribute("role", "alert");
    p.textContent = message;
    problemsBox.appendChild(p);
    return p;
  }

  // data: the server's "invalid" answer ({errors: {name: [messages]}, section_errors}).
  function showErrors(form, problemsBox, data, heading) {
    clearErrors(form, problemsBox);
    var first = problem(problemsBox, heading);
    (data.section_errors || []).forEach(function (message) { problem(problemsBox, message); });
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

  function newKey() {
    // crypto.randomUUID needs a secure context; a club's local network is plain http.
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  window.GupaiDealFields = {
    read: read, write: write, defaults: defaults, pairs: pairs, fromPairs: fromPairs,
    clearErrors: clearErrors, showErrors: showErrors, newKey: newKey
  };
})();
