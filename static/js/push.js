/* "Allow notifications" on a scorer page (templates/scorer/_push.html), for the player this
   phone proved: Web Push through the app's service worker (/sw.js, scope /s/).
   - Shown only where the browser has a service worker, the Push API and notifications; else the
     section stays hidden and the page works as before.
   - Allow: the browser's permission asked, pushManager.subscribe with the site's VAPID key
     (data-key), and the subscription POSTed as JSON to data-subscribe (the server ties it to the
     player this phone proved). Stop: POSTed to data-unsubscribe, then unsubscribed here.
   - The service worker shows what arrives (templates/scorer/sw.js, "push"). */
(function () {
  "use strict";

  var section = document.getElementById("notifications");
  if (!section || !("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return;
  var allow = document.getElementById("notifications-allow");
  var stop = document.getElementById("notifications-stop");
  var status = document.getElementById("notifications-status");
  var csrf = section.querySelector('input[name="csrfmiddlewaretoken"]');

  function keyBytes(base64url) {
    var padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded);
    var out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }

  function show(on, text) {
    allow.hidden = on;
    stop.hidden = !on;
    status.textContent = text || section.getAttribute(on ? "data-text-on" : "data-text-off");
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf ? csrf.value : "" },
      body: JSON.stringify(body)
    }).then(function (response) {
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.json();
    });
  }

  function registration() {
    return navigator.serviceWorker.ready;
  }

  allow.addEventListener("click", function () {
    allow.disabled = true;
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") throw new Error("denied");
      return registration();
    }).then(function (reg) {
      return reg.pushManager.getSubscription().then(function (existing) {
        return existing || reg.pushManager.subscribe({
          userVisibleOnly: true, applicationServerKey: keyBytes(section.getAttribute("data-key"))
        });
      });
    }).then(function (subscription) {
      return post(section.getAttribute("data-subscribe"), subscription.toJSON());
    }).then(function () {
      show(true);
    }).catch(function (error) {
      console.warn("Gupai: notifications not turned on", error);
      show(false, section.getAttribute(error && error.message === "denied" ? "data-text-denied" : "data-text-failed"));
    }).then(function () { allow.disabled = false; });
  });

  stop.addEventListener("click", function () {
    stop.disabled = true;
    registration().then(function (reg) {
      return reg.pushManager.getSubscription();
    }).then(function (subscription) {
      if (!subscription) return null;
      return post(section.getAttribute("data-unsubscribe"), { endpoint: subscription.endpoint }).then(function () {
        return subscription.unsubscribe();
      });
    }).then(function () {
      show(false);
    }).catch(function (error) {
      console.warn("Gupai: notifications not stopped", error);
    }).then(function () { stop.disabled = false; });
  });

  section.hidden = false;
  registration().then(function (reg) {
    return reg.pushManager.getSubscription();
  }).then(function (subscription) {
    show(!!subscription && Notification.permission === "granted");
  }).catch(function () { show(false); });
})();
