/* What the next deal at a table starts from, kept on the phone: the inputs of the scorer's deal
   form marked data-remember (the level of detail, the stakes), under the tournament and table
   (the form's data-draft-scope, as the drafts are), put back in the form of the next deal when it
   has no draft. An empty one (the banker's stake) keeps the last, and so does a level chosen for
   one deal only (a redeal: its radio is not marked).

   Exposed as window.GupaiDealMemory (remember, recalled) for static/js/deal-drafts.js, which
   remembers once the server says a deal is saved and writes what is recalled into the form.
   Loaded by templates/scorer/table.html (defer) just before deal-drafts.js. */
(function () {
  "use strict";

  function key(form) { return "gupai-memory:" + form.getAttribute("data-draft-scope"); }

  function remembered(form, store) {
    try { return (store && JSON.parse(store.getItem(key(form)))) || {}; } catch (e) { return {}; }
  }

  // The form's marked inputs, kept (store: localStorage, or null when the phone has none).
  function remember(form, store) {
    if (!store) return;
    var kept = remembered(form, store);
    // A choice kept only when one to remember is chosen (not a redeal).
    form.querySelectorAll("[data-remember]").forEach(function (el) {
      if (el.type === "radio" ? el.checked : el.value) kept[el.name] = el.type === "radio" ? [el.value] : el.value;
    });
    try { store.setItem(key(form), JSON.stringify(kept)); } catch (e) { /* storage full */ }
  }

  // What was kept, as fields to write into the form: {name: value, or [values] for a choice}.
  function recalled(form, store) {
    var kept = remembered(form, store), fields = {};
    Object.keys(kept).forEach(function (name) {
      var el = form.elements[name];
      var radios = el && el.length !== undefined && !el.tagName ? Array.prototype.slice.call(el) : null;
      // A choice the form no longer offers is left as the page has it.
      if (!el || (radios && !radios.some(function (r) { return kept[name].indexOf(r.value) >= 0; }))) return;
      fields[name] = kept[name];
    });
    return fields;
  }

  window.GupaiDealMemory = { remember: remember, recalled: recalled };
})();
