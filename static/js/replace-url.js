/* A page that answers a form with something shown only once (a new scorer link and its QR code)
   names the address it should have: <h1 data-replace-url="/director/tables/7/link/">. The browser
   takes that address instead of the form's, without loading anything, so that a reload asks for
   that page (which does not show the link again) instead of sending the form a second time.
   Without JavaScript the server refuses the second sending itself (scoring/views/director/). */
(function () {
  "use strict";
  var el = document.querySelector("[data-replace-url]");
  if (el && window.history && window.history.replaceState) {
    window.history.replaceState(null, "", el.getAttribute("data-replace-url"));
  }
})();
