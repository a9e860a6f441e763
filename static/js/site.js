/* Small behaviours of every page, declared in the HTML instead of inline handlers (the pages carry
   no inline script, for a strict Content-Security-Policy):
     <form data-confirm="Question?">   asks before submitting; Cancel keeps the page as it is.
     <select data-autosubmit>          submits its form as soon as an option is picked.
     <button data-print>               opens the browser's print dialog (a sheet to print).
     <select data-rules-choice> + <fieldset data-rules-for="KEY">
                                       shows only the fieldset of the chosen option (a
                                       game's rule options); without JavaScript all show,
                                       and the server reads the chosen game's only.
     <details data-revisions-src="URL">  fetches URL into its [data-revisions-body] the first time
                                       it opens (a deal's revisions on the director's table
                                       page); without JavaScript its link leads to their page.
   What keeps parts of a page up to date (data-poll, data-live-src) is live.js, the one poller. */
(function () {
  "use strict";

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form.getAttribute && form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) event.preventDefault();
  });

  document.addEventListener("change", function (event) {
    var el = event.target;
    if (el.matches && el.matches("select[data-autosubmit]") && el.form) el.form.submit();
  });

  document.addEventListener("click", function (event) {
    var el = event.target.closest && event.target.closest("[data-print]");
    if (el) window.print();
  });

  function showRules(select) {
    Array.prototype.forEach.call(select.form.querySelectorAll("[data-rules-for]"), function (set) {
      set.hidden = set.getAttribute("data-rules-for") !== select.value;
    });
  }
  document.addEventListener("change", function (event) {
    if (event.target.matches && event.target.matches("select[data-rules-choice]")) showRules(event.target);
  });
  Array.prototype.forEach.call(document.querySelectorAll("select[data-rules-choice]"), showRules);

  // "toggle" does not bubble: listened for on the way down.
  document.addEventListener("toggle", function (event) {
    var box = event.target;
    if (!box.open || !box.matches || !box.matches("details[data-revisions-src]") || box.hasAttribute("data-loaded")) return;
    var body = box.querySelector("[data-revisions-body]");
    if (!body) return;
    box.setAttribute("data-loaded", "");
    fetch(box.getAttribute("data-revisions-src"), {credentials: "same-origin"})
      .then(function (response) { if (!response.ok) throw new Error(response.status); return response.text(); })
      .then(function (html) { body.innerHTML = html; })
      .catch(function () { box.removeAttribute("data-loaded"); });   // the link stays: it still works
  }, true);
})();
