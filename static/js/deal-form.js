/* Deal forms of the connecting games (Jie Long, Ding Niu): the "Detail" radios (input name="level")
   choose between points and unplayed tiles; only the inputs and hints of the chosen level are shown
   (elements with data-level="points" or data-level="unplayed_tiles"). Without JavaScript every
   input stays visible and the server reads the level picked. Loaded with "defer": the forms are
   parsed when it runs. */
(function () {
  "use strict";

  function sync(form) {
    var picked = form.querySelector('input[name="level"]:checked');
    var level = picked ? picked.value : "points";
    form.querySelectorAll("[data-level]").forEach(function (el) {
      el.hidden = el.getAttribute("data-level") !== level;
    });
  }

  document.querySelectorAll("form").forEach(function (form) {
    var radios = form.querySelectorAll('input[name="level"]');
    if (!radios.length) return;
    radios.forEach(function (r) { r.addEventListener("change", function () { sync(form); }); });
    sync(form);
  });
})();
