/* Small behaviours of every page, declared in the HTML instead of inline handlers (the pages carry
   no inline script, for a strict Content-Security-Policy):
     <form data-confirm="Question?">   asks before submitting; Cancel keeps the page as it is.
     <select data-autosubmit>          submits its form as soon as an option is picked.
     <button data-print>               opens the browser's print dialog (a sheet to print).
     <div data-poll="URL">             is replaced by the HTML fragment at URL every second
                                       (data-poll-every="ms" to change that) until a fragment
                                       comes back without data-poll: a job's progress, shown
                                       without a reload.
     <select data-rules-choice> + <fieldset data-rules-for="KEY">
                                       shows only the fieldset of the chosen option (a
                                       game's rule options); without JavaScript all show,
                                       and the server reads the chosen game's only. */
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

  function poll(el, wait) {
    window.setTimeout(function () {
      fetch(el.getAttribute("data-poll"), {credentials: "same-origin", headers: {"Accept": "text/html"}})
        .then(function (response) {
          // (redirected: to the login page, the session ended)
          if (!response.ok || response.redirected) throw new Error("HTTP " + response.status);
          return response.text();
        })
        .then(function (html) {
          var holder = document.createElement("template");
          holder.innerHTML = html.trim();
          var next = holder.content.firstElementChild;
          if (!next) return;
          el.replaceWith(next);
          if (next.hasAttribute("data-poll")) poll(next, every(next));
        })
        .catch(function () {
          // The server or the network is away for a moment: ask again, less and less often.
          if (el.isConnected) poll(el, Math.min(wait * 2, 30000));
        });
    }, wait);
  }

  function every(el) {
    return parseInt(el.getAttribute("data-poll-every"), 10) || 1000;
  }

  function showRules(select) {
    Array.prototype.forEach.call(select.form.querySelectorAll("[data-rules-for]"), function (set) {
      set.hidden = set.getAttribute("data-rules-for") !== select.value;
    });
  }
  document.addEventListener("change", function (event) {
    if (event.target.matches && event.target.matches("select[data-rules-choice]")) showRules(event.target);
  });
  Array.prototype.forEach.call(document.querySelectorAll("select[data-rules-choice]"), showRules);

  Array.prototype.forEach.call(document.querySelectorAll("[data-poll]"), function (el) { poll(el, every(el)); });
})();
