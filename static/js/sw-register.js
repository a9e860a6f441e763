/* The installed scorer app, on the scorer pages (templates/scorer/_app_head.html, after
   vendor/idb/umd.js and gupai-db.js):
   - registers the service worker (its script tag's data-worker, scope data-scope: /sw.js for
     /s/) where the browser has one, and has it keep this page when the page loaded without it.
     Service workers need a secure context: https, or localhost. A club served over plain http
     gets no worker, and the page works as it does without one;
   - asks the browser once a page load to keep this site's storage (navigator.storage.persist):
     GupaiDB.persisted says what it answered, and the "gupai-storage" event announces it
     (static/js/outbox.js shows #storage-warning when refused and deals wait);
   - records this table in the "tables" store (the #scorer-table element's data-page,
     data-scope, data-name, data-tournament), for the phone's tables page (/s/).
   Uses GupaiDB only once the page has loaded: the scripts' order does not matter. */
(function () {
  "use strict";

  var script = document.currentScript;

  if ("serviceWorker" in navigator && script) {
    // Loaded without the worker (the first visit): the worker keeps this page once it runs.
    var uncontrolled = !navigator.serviceWorker.controller;
    navigator.serviceWorker.register(script.getAttribute("data-worker"), {
      scope: script.getAttribute("data-scope"),
      // The worker's imported scripts are checked past the HTTP cache too.
      updateViaCache: "none"
    }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      if (uncontrolled && registration.active) registration.active.postMessage({ keep: location.pathname });
    }).catch(function (error) { console.warn("Gupai: no service worker", error); });
  }

  function announce(persisted) {
    if (window.GupaiDB) window.GupaiDB.persisted = persisted;
    window.dispatchEvent(new CustomEvent("gupai-storage", { detail: { persisted: persisted } }));
  }

  function askToKeep() {
    var storage = navigator.storage;
    if (!storage || !storage.persist) return announce(false);
    storage.persisted().then(function (already) {
      return already || storage.persist();
    }).then(function (granted) { announce(!!granted); }, function () { announce(false); });
  }

  function recordTable() {
    var table = document.getElementById("scorer-table");
    if (!table || !window.GupaiDB) return;
    window.GupaiDB.open().then(function (db) {
      return db.put("tables", {
        page: table.getAttribute("data-page"),
        scope: table.getAttribute("data-scope"),
        name: table.getAttribute("data-name"),
        tournament: table.getAttribute("data-tournament"),
        openedAt: Date.now()
      });
    }).catch(function (error) { console.warn("Gupai: this table is not listed on the phone", error); });
  }

  function start() {
    askToKeep();
    recordTable();
  }

  if (document.readyState === "complete") start();
  else window.addEventListener("load", start);
})();
