/* Replaying a full-log deal move by move: <div data-replay data-total="N"> holds the line of
   tiles (each [data-step="k"]: the move that laid it), the log (li[data-step]) and buttons
   [data-replay-go="first|prev|next|last"]. Without JavaScript the whole deal shows; with it
   the buttons appear and step 0..N shows the tiles laid so far. Listeners sit on the document,
   so a replay that live.js swaps in works as well. */
(function () {
  "use strict";

  function show(box, step) {
    var total = parseInt(box.getAttribute("data-total"), 10) || 0;
    step = Math.max(0, Math.min(total, step));
    box.setAttribute("data-step", String(step));
    box.querySelectorAll(".replay-line [data-step]").forEach(function (tile) {
      var k = parseInt(tile.getAttribute("data-step"), 10);
      tile.hidden = k > step;
      tile.classList.toggle("current", k === step);
    });
    var moves = box.querySelectorAll(".replay-log li[data-step]");
    moves.forEach(function (li) {
      li.classList.toggle("current", parseInt(li.getAttribute("data-step"), 10) === step);
    });
    var status = box.querySelector("[data-replay-status]");
    if (status) {
      if (step === 0) {
        status.textContent = box.getAttribute("data-text-start");
      } else {
        var words = box.getAttribute("data-text-step").replace("{step}", step).replace("{total}", total);
        status.textContent = words + ": " + moves[step - 1].textContent;
      }
    }
    var go = function (name) { return box.querySelector('[data-replay-go="' + name + '"]'); };
    go("first").disabled = go("prev").disabled = step === 0;
    go("next").disabled = go("last").disabled = step === total;
  }

  function ready(root) {
    root.querySelectorAll("[data-replay]").forEach(function (box) {
      var controls = box.querySelector("[data-replay-controls]");
      if (controls && controls.hidden) {
        controls.hidden = false;
        show(box, parseInt(box.getAttribute("data-total"), 10) || 0);
      }
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-replay-go]");
    if (!button) return;
    var box = button.closest("[data-replay]");
    var step = parseInt(box.getAttribute("data-step"), 10) || 0;
    var total = parseInt(box.getAttribute("data-total"), 10) || 0;
    var to = { first: 0, prev: step - 1, next: step + 1, last: total }[button.getAttribute("data-replay-go")];
    show(box, to);
  });
  document.addEventListener("live:updated", function (event) { ready(event.target); });
  ready(document);
})();
