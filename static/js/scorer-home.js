/* The phone's tables page (/s/, templates/scorer/home.html): the tables this phone opened (the
   "tables" store of static/js/gupai-db.js), newest first, each a link to its scorer page with
   how many items wait in its outbox. Its words come from the page (#phone-tables' data-text-*,
   in the user's language); without a table, or without IndexedDB, the page's own text says to
   open a table's link. Uses GupaiDB only once the page has loaded. */
(function () {
  "use strict";

  function words(list, name, count) {
    return list.getAttribute("data-text-" + name).replace("%(count)s", String(count));
  }

  function item(list, table, waiting) {
    var li = document.createElement("li");
    li.className = "card";
    var link = document.createElement("a");
    link.href = table.page;
    link.textContent = table.name || table.page;
    li.appendChild(link);
    if (table.tournament) {
      var where = document.createElement("span");
      where.className = "muted small";
      where.textContent = " " + table.tournament;
      li.appendChild(where);
    }
    var state = document.createElement("p");
    state.className = waiting ? "small waiting" : "muted small";
    state.textContent = waiting ? words(list, "waiting", waiting) : words(list, "none-waiting", 0);
    li.appendChild(state);
    return li;
  }

  function show(list, db) {
    return db.getAll("tables").then(function (tables) {
      tables.sort(function (a, b) { return (b.openedAt || 0) - (a.openedAt || 0); });
      return Promise.all(tables.map(function (table) {
        return db.countFromIndex("outbox", "scope", table.scope).then(function (waiting) {
          return item(list, table, waiting);
        });
      }));
    }).then(function (items) {
      if (!items.length) return;
      items.forEach(function (li) { list.appendChild(li); });
      list.hidden = false;
      document.getElementById("no-tables").hidden = true;
    });
  }

  function start() {
    var list = document.getElementById("phone-tables");
    if (!list || !window.GupaiDB) return;
    window.GupaiDB.open().then(function (db) { return show(list, db); })
      .catch(function (error) { console.warn("Gupai: the phone's tables could not be read", error); });
  }

  if (document.readyState === "complete") start();
  else window.addEventListener("load", start);
})();
