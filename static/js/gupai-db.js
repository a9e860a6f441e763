/* The phone's IndexedDB database "gupai", opened in one place for the scorer pages and the
   service worker (static/vendor/idb/umd.js first: the global `idb`). Version 1, its stores:
     "outbox"  keyPath "key" (the Idempotency-Key drawn with the item), index "scope": what waits
               to be sent (static/js/outbox.js);
     "tables"  keyPath "page" (the scorer page's path): {page, scope, name, tournament,
               openedAt}, written by static/js/sw-register.js on every load of a table's page,
               read by the phone's tables page (static/js/scorer-home.js);
     "meta"    keyPath "name": small things ({name: "clock", offset}, ...).
   Exposed as self.GupaiDB (window or worker): open() → a promise of idb's database (one
   connection, opened on first use); persisted: whether the browser promised to keep this
   site's storage (true/false; null until static/js/sw-register.js has asked), announced by the
   "gupai-storage" event on window ({detail: {persisted}}). A service-worker update never opens
   it for an upgrade: its stores change only with a new version here. */
(function (self) {
  "use strict";

  var NAME = "gupai";
  var VERSION = 1;
  var opening = null;

  function upgrade(db, oldVersion) {
    if (oldVersion < 1) {
      db.createObjectStore("outbox", { keyPath: "key" }).createIndex("scope", "scope");
      db.createObjectStore("tables", { keyPath: "page" });
      db.createObjectStore("meta", { keyPath: "name" });
    }
  }

  function open() {
    if (!opening) {
      if (!self.idb || !self.indexedDB) return Promise.reject(new Error("no IndexedDB on this browser"));
      opening = self.idb.openDB(NAME, VERSION, {
        upgrade: upgrade,
        // A newer page wants to upgrade the database: let it, and open again when next asked.
        blocking: function () {
          var was = opening;
          opening = null;
          if (was) was.then(function (db) { db.close(); });
        },
        terminated: function () { opening = null; }
      });
      opening.catch(function () { opening = null; });  // asked again next time (a private window...)
    }
    return opening;
  }

  self.GupaiDB = { name: NAME, version: VERSION, open: open, persisted: null };
})(self);
