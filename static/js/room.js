/* The room display (templates/public/room.html): where everybody sits, a page at a time when the
   list is longer than the screen.

     <div data-room-every="ms"> … <ol data-room-pager><li>…</li>…</ol>
                                    <p data-room-page data-text="Page %(page)s of %(pages)s" hidden></p>

   The list fills the height it is given (site.css: .room-seat-list), in as many columns as its
   grid has, top to bottom then the next column. The players that fit are shown; every few
   seconds (data-room-every, 8 s unless it says) the next ones, round and round; "Page 2 of 3"
   says where it is (empty when all fit). When live.js brings a new list (a new seating) or the
   window changes size, the pages are counted again and the page shown stays where it was when
   there are still that many.

   The standings' rows and the latest deals ([data-room-fit]) show as many of their items as fit
   whole in the column ([data-room-fit-in]), the rest hidden: never a row cut in half. */
(function () {
  "use strict";

  var page = 0;
  var timer = null;

  function root() { return document.querySelector("[data-room-every]"); }
  function list() { return document.querySelector("[data-room-pager]"); }

  function every() {
    var r = root();
    return (r && parseInt(r.getAttribute("data-room-every"), 10)) || 8000;
  }

  function columns(ol) {
    var template = getComputedStyle(ol).gridTemplateColumns || "";
    return Math.max(1, template.split(" ").filter(function (t) { return t && t !== "none"; }).length);
  }

  // How many players a page holds: rows that fit the list's height, times its columns.
  function perPage(ol, items) {
    ol.style.gridTemplateRows = "";
    items.forEach(function (li, i) { li.hidden = i > 0; });
    var row = items[0].getBoundingClientRect().height || 1;
    var gap = parseFloat(getComputedStyle(ol).rowGap) || 0;
    var rows = Math.max(1, Math.floor((ol.clientHeight + gap) / (row + gap)));
    ol.style.gridTemplateRows = "repeat(" + rows + ", auto)";
    return rows * columns(ol);
  }

  function fit() {
    document.querySelectorAll("[data-room-fit]").forEach(function (el) {
      var box = el.closest("[data-room-fit-in]");
      var items = Array.prototype.slice.call(el.children);
      items.forEach(function (item) { item.hidden = false; });
      if (!box) return;
      var bottom = box.getBoundingClientRect().bottom;
      items.forEach(function (item) { item.hidden = item.getBoundingClientRect().bottom > bottom + 0.5; });
    });
  }

  function show() {
    window.clearTimeout(timer);
    fit();
    var ol = list();
    if (!ol) return;
    var items = Array.prototype.slice.call(ol.children);
    if (!items.length) return;
    var size = perPage(ol, items);
    var pages = Math.max(1, Math.ceil(items.length / size));
    if (page >= pages) page = 0;
    items.forEach(function (li, i) { li.hidden = Math.floor(i / size) !== page; });
    ol.setAttribute("data-room-shown", String(page + 1));
    ol.setAttribute("data-room-pages", String(pages));
    var label = document.querySelector("[data-room-page]");
    if (label) {
      // Its line is always there (empty for one page): showing it does not shrink the list.
      label.textContent = pages < 2 ? "" : label.getAttribute("data-text").replace("%(page)s", page + 1)
        .replace("%(pages)s", pages);
    }
    if (pages > 1) {
      timer = window.setTimeout(function () { page = (page + 1) % pages; show(); }, every());
    }
  }

  var resized = null;
  window.addEventListener("resize", function () {
    window.clearTimeout(resized);
    resized = window.setTimeout(show, 200);
  });
  document.addEventListener("live:updated", show);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", show);
  else show();
})();
