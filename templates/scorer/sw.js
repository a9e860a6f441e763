{% autoescape off %}/* Gupai Club's service worker: the scorer pages (/s/) open with no network.
   Rendered by scoring/views/scorer_app.py; what it keeps and its VERSION come from
   scoring/web/scorer_app.py (a hash of this text and of every file kept).

   Written by hand, not with Workbox: Workbox generates its worker and precache manifest with a
   Node build step, which this project does not have (its static files are plain files, given
   content-hashed names by collectstatic); and workbox-sw loads its modules from a CDN by default,
   which the pages' CSP (script-src 'self') and a phone without network both refuse. What is
   needed is small and below:

   - install: every static file the scorer pages need into "gupai-static-<VERSION>", then the
     phone's tables page and every scorer page this phone kept under an earlier version, fetched
     anew into "gupai-pages-<VERSION>". Any of them failing (offline, the server in trouble)
     fails the install: the old worker and its caches stay, whole. A page whose link is gone
     (404) is not carried over.
   - activate: the other versions' caches are deleted, then this worker takes the open pages.
     IndexedDB (the outbox, the tables, the clock) is never touched by an update.
   - fetch: a scorer page's navigation (/s/, /s/<token>/, /s/<token>/deals/<id>/correct/) goes
     to the network first; after the timeout, or when the network fails or the server answers
     5xx, the copy kept from the last good answer is shown. Every good answer is kept (by path,
     without its query). A kept static file is answered from the cache. Anything else (posts,
     the API, other pages) is left to the network.
   - message {keep: path}: a scorer page that loaded without this worker (the first visit) is
     fetched into the pages' cache, so that it opens offline from then on.
   - push: a message of the site (scoring/services/push.py: JSON {title, body, url, tag}, sent
     encrypted through the phone's push service) shown as a notification; notificationclick
     opens its url (a window of the site already open is focused and taken there).
   - sync: the tag "gupai-outbox" sends the outbox (static/js/outbox.js, the page's own code).
     The worker loads its scripts as it starts: a browser lets a worker import only the scripts
     it imported before it was installed. */
"use strict";

var VERSION = "{{ version }}";
var STATIC_CACHE = "gupai-static-" + VERSION;
var PAGES_CACHE = "gupai-pages-" + VERSION;
var PRECACHE = {{ precache }};
var PAGES = {{ pages }};
var HOME = {{ home }};
var TIMEOUT_MS = {{ timeout }};
var SYNC_TAG = {{ sync_tag }};
// A table's page and a deal's correction, under the scorer link.
var SCORER_PAGE = /^\/s\/[^/]+\/(?:deals\/\d+\/correct\/)?$/;
var OURS = /^gupai-(?:static|pages)-/;

try {
  importScripts.apply(self, {{ scripts }});
} catch (error) {
  // The pages still open from the caches; only the background sending is missing.
  console.error("Gupai: the worker's scripts did not load", error);
}

var precached = {};
PRECACHE.forEach(function (url) { precached[new URL(url, self.location).pathname] = true; });

function fresh(url) {
  // Past the browser's HTTP cache: a file not yet renamed by collectstatic keeps its URL.
  return fetch(new Request(url, { cache: "reload", credentials: "same-origin" }));
}

function pageKey(url) {
  var u = new URL(url, self.location);
  return u.origin + u.pathname;
}

// The pages kept by the earlier versions, and the tables page.
function pagesToKeep() {
  return caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("gupai-pages-") === 0 && name !== PAGES_CACHE;
    }).map(function (name) {
      return caches.open(name).then(function (cache) { return cache.keys(); });
    }));
  }).then(function (lists) {
    var urls = {};
    PAGES.forEach(function (url) { urls[pageKey(url)] = true; });
    lists.forEach(function (requests) {
      requests.forEach(function (request) { urls[pageKey(request.url)] = true; });
    });
    return Object.keys(urls);
  });
}

function install() {
  return caches.open(STATIC_CACHE).then(function (cache) {
    return Promise.all(PRECACHE.map(function (url) {
      return fresh(url).then(function (response) {
        if (!response.ok) throw new Error(url + " answered " + response.status);
        return cache.put(url, response);
      });
    }));
  }).then(pagesToKeep).then(function (urls) {
    return caches.open(PAGES_CACHE).then(function (cache) {
      return Promise.all(urls.map(function (url) {
        return fresh(url).then(function (response) {
          if (response.ok && !response.redirected) return cache.put(url, response);
          if (response.status >= 500) throw new Error(url + " answered " + response.status);
          return undefined;  // the link is gone: nothing to keep
        });
      }));
    });
  });
}

self.addEventListener("install", function (event) {
  event.waitUntil(install().then(function () { return self.skipWaiting(); }, function (error) {
    // Half-filled caches of a version that will not run.
    return Promise.all([caches.delete(STATIC_CACHE), caches.delete(PAGES_CACHE)]).then(function () { throw error; });
  }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return OURS.test(name) && name !== STATIC_CACHE && name !== PAGES_CACHE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function page(request) {
  var key = pageKey(request.url);
  return caches.open(PAGES_CACHE).then(function (cache) {
    return new Promise(function (resolve) {
      var answered = false;
      function answer(response) {
        if (!answered) { answered = true; resolve(response); }
      }
      function kept(orElse) {
        return cache.match(key, { ignoreVary: true }).then(function (copy) {
          if (copy) answer(copy);
          else if (orElse) answer(orElse);
        });
      }
      var timer = setTimeout(function () { kept(null); }, TIMEOUT_MS);
      fetch(request).then(function (response) {
        clearTimeout(timer);
        if (response.ok && !response.redirected && response.type === "basic") {
          cache.put(key, response.clone());
          answer(response);
        } else if (response.status >= 500) {
          kept(response);  // the server in trouble: the kept copy, else its answer
        } else {
          answer(response);
        }
      }, function () {
        clearTimeout(timer);
        kept(Response.error());  // no network: the kept copy, else the browser's offline page
      });
    });
  });
}

function keptFile(request) {
  return caches.open(STATIC_CACHE).then(function (cache) {
    return cache.match(request, { ignoreVary: true });
  }).then(function (copy) { return copy || fetch(request); });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && (url.pathname === HOME || SCORER_PAGE.test(url.pathname))) {
    event.respondWith(page(request));
  } else if (precached[url.pathname]) {
    event.respondWith(keptFile(request));
  }
});

// A page opened before this worker controlled it (the first visit, a reload past the worker)
// asks to be kept: fetched again, as its navigation would have been. And taken: a page still
// loading when the worker activated is not among the clients its activation claimed.
self.addEventListener("message", function (event) {
  var asked = event.data && event.data.keep;
  if (typeof asked !== "string") return;
  var url = new URL(asked, self.location);
  if (url.origin !== self.location.origin || !(url.pathname === HOME || SCORER_PAGE.test(url.pathname))) return;
  event.waitUntil(self.clients.claim());
  event.waitUntil(caches.open(PAGES_CACHE).then(function (cache) {
    return fresh(url.pathname).then(function (response) {
      if (response.ok && !response.redirected) return cache.put(pageKey(url.href), response);
      return undefined;
    });
  }).catch(function (error) { console.warn("Gupai: page not kept", error); }));
});

self.addEventListener("sync", function (event) {
  if (event.tag === SYNC_TAG && self.GupaiOutbox) event.waitUntil(self.GupaiOutbox.drainAll());
});

self.addEventListener("push", function (event) {
  var message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch (error) {
    message = { body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(self.registration.showNotification(message.title || "Gupai Club", {
    body: message.body || "", tag: message.tag || "gupai", data: { url: message.url || HOME },
    icon: PRECACHE.filter(function (url) { return /app-192/.test(url); })[0]
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var target = new URL((event.notification.data && event.notification.data.url) || HOME, self.location).href;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
    for (var i = 0; i < windows.length; i++) {
      if (windows[i].url === target && "focus" in windows[i]) return windows[i].focus();
    }
    return self.clients.openWindow(target);
  }));
});
{% endautoescape %}
