/* Deal forms of the connecting games (Jie Long, Ding Niu): the "Detail" radios (input name="level")
   choose between points and unplayed tiles; only the inputs and hints of the chosen level are shown
   (elements with data-level="points" or data-level="unplayed_tiles"). Without JavaScript every
   input stays visible and the server reads the level picked. Loaded with "defer": the forms are
   parsed when it runs.
   A seat role (the banker): .seats[data-role-select] names the select choosing the seat and
   data-role-word the badge's word; the badge moves to the legend of fieldset[data-position]
   chosen, so it never shows the role of a seat that was chosen before.
   A seat's input that the chosen seat does not give (the banker's stake): .field[data-skip-for]
   names the select; the field is hidden in the fieldset of the seat chosen there, shown in the
   others (the server hides it so at first, and ignores what the chosen seat holds). The seat that
   choice has just left (.field[data-left-behind]: no stake kept for it on the phone) is required,
   with its hint, while another seat is chosen; static/js/deal-drafts.js asks before Submit.
   Choices that exclude each other (Da Ling's absolute winner and group winners):
   fieldset[data-excludes] names the inputs set back to none ("") when a seat is tapped here. */
(function () {
  "use strict";

  function sync(form) {
    var picked = form.querySelector('input[name="level"]:checked');
    var level = picked ? picked.value : "points";
    form.querySelectorAll("[data-level]").forEach(function (el) {
      el.hidden = el.getAttribute("data-level") !== level;
    });
  }

  function syncRole(seats, select) {
    var chosen = select.value;
    seats.querySelectorAll("fieldset[data-position]").forEach(function (box) {
      var legend = box.querySelector("legend");
      var badge = legend && legend.querySelector(".badge.role");
      var banks = box.getAttribute("data-position") === chosen;
      if (badge && !banks) {
        var gap = badge.previousSibling;  // the space this script put before it
        if (gap && gap.nodeType === 3 && !gap.nodeValue.trim()) gap.remove();
        badge.remove();
      }
      if (legend && banks && !badge) {
        badge = document.createElement("span");
        badge.className = "badge role";
        badge.textContent = seats.getAttribute("data-role-word");
        legend.appendChild(document.createTextNode(" "));
        legend.appendChild(badge);
      }
    });
  }

  function syncSkipped(form, select) {
    form.querySelectorAll('.field[data-skip-for="' + select.name + '"]').forEach(function (field) {
      var box = field.closest("fieldset[data-position]");
      field.hidden = !!box && box.getAttribute("data-position") === select.value;
      if (field.hasAttribute("data-left-behind")) {
        // The seat the choice has just left: asked for (required, its hint shown) unless chosen again.
        var input = field.querySelector("input"), hint = field.querySelector("p[id$='-hint']");
        if (input) input.required = !field.hidden;
        if (hint) hint.hidden = field.hidden;
      }
    });
  }

  document.querySelectorAll("form").forEach(function (form) {
    var names = {};
    form.querySelectorAll(".field[data-skip-for]").forEach(function (f) { names[f.getAttribute("data-skip-for")] = true; });
    Object.keys(names).forEach(function (name) {
      var select = form.querySelector('select[name="' + name + '"]');
      if (!select) return;
      select.addEventListener("change", function () { syncSkipped(form, select); });
      syncSkipped(form, select);
    });
  });

  document.querySelectorAll("fieldset[data-excludes]").forEach(function (box) {
    var form = box.closest("form");
    if (!form) return;
    box.addEventListener("change", function (event) {
      if (!event.target.value) return;
      box.getAttribute("data-excludes").split(" ").forEach(function (name) {
        var none = form.querySelector('input[name="' + name + '"][value=""]');
        if (none) none.checked = true;
      });
    });
  });

  document.querySelectorAll(".seats[data-role-select]").forEach(function (seats) {
    var form = seats.closest("form");
    var select = form && form.querySelector('select[name="' + seats.getAttribute("data-role-select") + '"]');
    if (!select) return;
    select.addEventListener("change", function () { syncRole(seats, select); });
    syncRole(seats, select);
  });

  document.querySelectorAll("form").forEach(function (form) {
    var radios = form.querySelectorAll('input[name="level"]');
    if (!radios.length) return;
    radios.forEach(function (r) { r.addEventListener("change", function () { sync(form); }); });
    sync(form);
  });
})();
