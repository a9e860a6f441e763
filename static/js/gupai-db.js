/* The phone's IndexedDB database "gupai" (version 1), opened with the idb library
   (static/vendor/idb/umd.js, global `idb`: promises over IndexedDB's events, nothing more), in a
   window and in the service worker alike. Its stores:
   - "outbox" (keyPath "key", index "scope"): what waits to be sent (static/js/outbox.js);
   - "tables" (keyPath "page"): the scorer pages this phone has opened, for /s/;
   - "meta" (keyPath "name"): small things, e.g. {name: "clock", offset}.
   A later version adds stores in `upgrade` and never drops one: what is queued survives.

   self.GupaiDB: open() (one connection per context, reused), persist() (a window asks the
   browser to keep the data under storage pressure; `persisted` then holds its answer: true,
   false, or null where the browser cannot say). */
(function (self) {
  "use strict";

  var NAME = "gupai", VERSION = 1;
  var opened = null;

  function open() {
    if (!opened) {
      opened = self.idb.openDB(NAME, VERSION, {
        upgrade: function (db) {
          if (!db.objectStoreNames.contains("outbox")) {
            db.createObjectStore("outbox", {keyPath: "key"}).createIndex("scope", "scope");
          }
          if (!db.objectStoreNames.contains("tables")) db.createObjectStore("tables", {keyPath: "page"});
          if (!db.objectStoreNames.contains("meta")) db.createObjectStore("meta", {keyPath: "name"});
        },
        // Another tab (or a new worker) opening a later version: let it, and open again when asked.
        blocking: function () { if (opened) opened.then(function (db) { db.close(); }); opened = null; },
        terminated: function () { opened = null; }
      });
      opened.catch(function () { opened = null; });
    }
    return opened;
  }

  var GupaiDB = {name: NAME, version: VERSION, open: open, persisted: null};

  GupaiDB.persist = function () {
    var storage = self.navigator && self.navigator.storage;
    if (!storage || !storage.persisted) return Promise.resolve(null);
    return storage.persisted().then(function (already) {
      return already || !storage.persist ? already : storage.persist();
    }).then(function (answer) {
      GupaiDB.persisted = !!answer;
      return GupaiDB.persisted;
    }, function () { return null; });
  };

  self.GupaiDB = GupaiDB;
})(self);
