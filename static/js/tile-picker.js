/* The tile picker: tap tiles instead of typing them (scorer page, correction page, calculator).

   Progressive enhancement of the deal form (templates/scoring/_deal_fields.html): every input
   stays a text field the server reads as typed, and the picker only writes into it. It reads
   what it needs from the page, never from a game's name:
   - .tile-picker-data: data-config (JSON: the deck of this game and player count, tiles each,
     the seats by table position, the name of the leader's input, the layout's open ends) and
     the words it shows (data-t-*, translated in the template);
   - input[data-tiles]: a list of tiles (data-count: exactly so many, data-most: at most so many;
     data-source + data-declared: a bull chosen among another input's tiles, "-" for none);
   - input[data-moves]: the full move log, "6:4@4 4:4@4 x3:1" (static/js/tile-moves.js).
   Loaded by templates/scoring/_tile_picker.html (defer) after the scripts it uses, in order:
   static/js/tile-text.js (window.GupaiTiles: typed text read as the server reads it, NFKC,
   "6:5", "65", "[6-5]", ...) and static/js/tile-moves.js (window.GupaiMoveLog: the move log's
   methods, made this Picker's).

   A tile kind is greyed out when the deck has no copy left: its copies minus those entered
   anywhere in the deal (inputs of the level not chosen are hidden and do not count).
   Tiles are drawn with <use href="#tile-6-5"> from the page's sprite ({% tile_sprite %}).
   A list of exactly so many tiles (a hand, a group) filled by a tap moves the palette on to the
   next such list not yet full (the next seat's hand), or closes it after the last one: an open
   palette under a full hand would only push the next seat off the screen. A bull is optional:
   the palette closes when it is set aside.
   Every tap redraws the buttons; focus goes back to the same control (or the nearest one still
   enabled) without scrolling, so a keyboard or screen-reader user keeps their place, and a
   polite status per picker says what changed. */
(function () {
  "use strict";

  var SVGNS = "http://www.w3.org/2000/svg";
  var T = window.GupaiTiles;
  var readTile = T.readTile, tokens = T.tokens, readTiles = T.readTiles, readMoves = T.readMoves,
      readDeclared = T.readDeclared, NO_BULL = T.NO_BULL;

  function saysNoBull(input) {
    var d = input.hasAttribute("data-declared") && readDeclared(input.value);
    return !!d && d.bull === null;
  }

  function said(tile) { return tile.replace(":", "-"); }
  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (all, key) { return key in values ? values[key] : all; });
  }

  // ---- drawing ------------------------------------------------------------------------------
  function tileSvg(tile, cls) {
    var svg = document.createElementNS(SVGNS, "svg");
    svg.setAttribute("class", cls || "tile");
    svg.setAttribute("viewBox", "0 0 40 80");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("focusable", "false");
    var use = document.createElementNS(SVGNS, "use");
    use.setAttribute("href", "#tile-" + tile.replace(":", "-"));
    svg.appendChild(use);
    return svg;
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function button(cls, text) {
    var b = el("button", cls, text);
    b.type = "button";
    return b;
  }

  function shown(input) { return !input.closest("[hidden]"); }

  // ---- one form -------------------------------------------------------------------------------
  function Picker(form, data) {
    this.form = form;
    this.cfg = JSON.parse(data.getAttribute("data-config"));
    this.t = {};
    for (var i = 0; i < data.attributes.length; i++) {
      var a = data.attributes[i];
      if (a.name.indexOf("data-t-") === 0) this.t[a.name.slice(7)] = a.value;
    }
    this.kinds = Object.keys(this.cfg.deck);
    this.inputs = Array.prototype.slice.call(form.querySelectorAll("input[data-tiles]"));
    this.movesInput = form.querySelector("input[data-moves]");
    this.active = null;
    this.mode = "play";
    this.pending = null;  // a play waiting for its pip: {tile, choices, key}
    this.palette = el("div", "palette");
    this.palette.setAttribute("role", "group");
    this.paletteNote = el("p", "palette-note muted small");
    this.paletteNote.setAttribute("aria-live", "polite");
    // Made before any change, so screen readers watch it; it sits just after the (hidden) data.
    this.status = el("p", "picker-status visually-hidden");
    this.status.setAttribute("role", "status");
    this.status.setAttribute("aria-live", "polite");
    data.insertAdjacentElement("afterend", this.status);
    var self = this;
    this.inputs.forEach(function (input) { self.enhanceTiles(input); });
    if (this.movesInput) this.enhanceMoves(this.movesInput);
    form.addEventListener("input", function () { self.refresh(); });
    form.addEventListener("change", function () { self.refresh(); });
    this.refresh();
  }

  Picker.prototype.used = function () {
    var used = {};
    function count(tile) { used[tile] = (used[tile] || 0) + 1; }
    this.inputs.forEach(function (input) {
      if (input.hasAttribute("data-declared") || !shown(input)) return;
      readTiles(input.value).forEach(count);
    });
    if (this.movesInput && shown(this.movesInput)) {
      readMoves(this.movesInput.value).forEach(function (m) { if (m.play || m.pass) count(m.play || m.pass); });
    }
    return used;
  };

  Picker.prototype.left = function (tile, used) {
    return (this.cfg.deck[tile] || 0) - (used[tile] || 0);
  };

  Picker.prototype.announce = function (text) {
    this.status.textContent = text || "";
  };

  Picker.prototype.write = function (input, value) {
    input.value = value;
    input.dispatchEvent(new Event("input", { bubbles: true }));  // other scripts see a change
  };

  // A tile button: the drawing and how many are left.
  Picker.prototype.tileButton = function (tile, left, cls) {
    var b = button(cls || "pal-tile");
    b.setAttribute("data-tile", tile);
    b.appendChild(tileSvg(tile, "tile"));
    if (left !== null) {
      b.appendChild(el("span", "left-count", String(Math.max(left, 0))));
      b.setAttribute("aria-label", fill(left > 0 ? this.t.left : this.t["none-left"], { tile: said(tile), left: left }));
      if (left <= 0) { b.disabled = true; b.classList.add("used-up"); }
    } else {
      b.setAttribute("aria-label", said(tile));
    }
    return b;
  };

  // ---- a list of tiles: the tiles entered (tap to remove) and a palette to add ---------------
  Picker.prototype.enhanceTiles = function (input) {
    var self = this;
    var box = el("div", "picked-box");
    var picked = el("div", "picked");
    var toggle = button("secondary pick-toggle", this.t.pick);
    toggle.setAttribute("aria-expanded", "false");
    toggle.setAttribute("aria-controls", input.id + "-palette");
    box.appendChild(picked);
    box.appendChild(toggle);
    // After the input's errors, which stay right under it.
    (input.closest(".field") || input.parentNode).appendChild(box);
    input._picked = picked;
    input._toggle = toggle;
    toggle.addEventListener("click", function () {
      self.open(self.active === input ? null : input);
    });
    picked.addEventListener("click", function (e) {
      var b = e.target.closest("button[data-index]");
      if (!b) return;
      var list = tokens(input.value);
      list.splice(+b.getAttribute("data-index"), 1);
      self.write(input, list.join(" "));
      self.announce(fill(self.t.removed, { tile: said(b.getAttribute("data-tile")) }));
    });
  };

  Picker.prototype.open = function (input) {
    if (this.active) this.active._toggle.setAttribute("aria-expanded", "false");
    if (this.active) this.active._toggle.textContent = this.t.pick;
    this.active = input;
    if (!input) { this.palette.remove(); this.paletteNote.remove(); return; }
    input._toggle.setAttribute("aria-expanded", "true");
    input._toggle.textContent = this.t.close;
    this.palette.id = input.id + "-palette";
    input._toggle.parentNode.insertAdjacentElement("afterend", this.palette);
    this.palette.insertAdjacentElement("afterend", this.paletteNote);
    this.refresh();
  };

  function exactly(input) { return +(input.getAttribute("data-count") || 0); }
  function isFull(input) { return exactly(input) > 0 && readTiles(input.value).length >= exactly(input); }

  // After a tap: a full list hands the palette on to the next list of the same sort still to fill.
  Picker.prototype.moveOn = function (input) {
    if (!isFull(input)) return;
    var declared = input.hasAttribute("data-declared");
    var next = declared ? null : this.inputs.slice(this.inputs.indexOf(input) + 1).filter(function (x) {
      return shown(x) && exactly(x) > 0 && !x.hasAttribute("data-declared") && !isFull(x);
    })[0];
    this.open(next || null);
    if (!next) { focus(input._toggle); return; }
    var tile = this.palette.querySelector("button.pal-tile:enabled");
    if (tile) focus(tile);
    (next.closest(".field") || next).scrollIntoView({ block: "nearest" });
  };

  Picker.prototype.drawPicked = function (input) {
    var picked = input._picked;
    picked.textContent = "";
    var self = this;
    tokens(input.value).forEach(function (token, i) {
      var tile = readTile(token);
      if (!tile) return;  // typed nonsense stays in the text, where the server will name it
      var b = self.tileButton(tile, null, "picked-tile");
      b.setAttribute("data-index", String(i));
      b.setAttribute("aria-label", fill(self.t.remove, { tile: said(tile) }));
      picked.appendChild(b);
    });
    if (saysNoBull(input)) picked.appendChild(el("span", "muted small", this.t["no-bull"]));
  };

  Picker.prototype.drawPalette = function (used) {
    var input = this.active, self = this;
    if (!input || !shown(input)) { if (input) this.open(null); return; }
    var have = readTiles(input.value);
    var most = +(input.getAttribute("data-count") || input.getAttribute("data-most") || 0);
    var full = most > 0 && have.length >= most;
    this.palette.textContent = "";
    var offer;
    if (input.hasAttribute("data-declared")) {
      // A bull is set aside from the seat's own hand: offer the hand's tiles not yet chosen.
      var hand = readTiles((document.getElementById(input.getAttribute("data-source")) || {}).value || "");
      have.forEach(function (t) { var i = hand.indexOf(t); if (i >= 0) hand.splice(i, 1); });
      var counts = {};
      hand.forEach(function (t) { counts[t] = (counts[t] || 0) + 1; });
      offer = Object.keys(counts).map(function (t) { return [t, counts[t]]; });
      var none = button("secondary no-bull", this.t["no-bull"]);
      none.setAttribute("data-act", "no-bull");
      none.addEventListener("click", function () { self.write(input, NO_BULL); self.announce(self.t["no-bull"]); });
      this.palette.appendChild(none);
    } else {
      offer = this.kinds.map(function (t) { return [t, self.left(t, used)]; });
    }
    offer.forEach(function (pair) {
      var b = self.tileButton(pair[0], pair[1]);
      if (full && !b.disabled) b.disabled = true;
      b.addEventListener("click", function () {
        var text = saysNoBull(input) ? "" : input.value.trim();
        self.write(input, (text ? text + " " : "") + pair[0]);
        // A bull comes from the seat's own hand: the deck's count says nothing there.
        self.announce(input.hasAttribute("data-declared") ? fill(self.t["set-aside"], { tile: said(pair[0]) })
          : fill(self.t.added, { tile: said(pair[0]), left: Math.max(self.left(pair[0], self.used()), 0) }));
        self.moveOn(input);
      });
      self.palette.appendChild(b);
    });
    var clear = button("secondary", this.t.clear);
    clear.setAttribute("data-act", "clear");
    clear.addEventListener("click", function () { self.write(input, ""); self.announce(self.t.cleared); });
    this.palette.appendChild(clear);
    this.paletteNote.textContent = full ? fill(this.t.full, { count: most }) : "";
  };

  // ---- the move log (static/js/tile-moves.js) -------------------------------------------------
  window.GupaiMoveLog(Picker, { el: el, button: button, fill: fill, said: said });

  // ---- focus across a redraw ------------------------------------------------------------------
  function buttons(box) { return Array.prototype.slice.call(box.querySelectorAll("button")); }
  function usable(b) { return b && b.isConnected && !b.disabled && !b.closest("[hidden]"); }
  function keyOf(b) {
    // A removable tile is known by its place (its copies look alike), any other button by what it does.
    if (b.hasAttribute("data-index")) return null;
    return b.getAttribute("data-tile") || b.getAttribute("data-act") || b.getAttribute("data-pip");
  }
  function focus(b) { b.focus({ preventScroll: true }); }

  // Where focus is before a redraw: the box of buttons it is in, the button's key and place.
  Picker.prototype.focusSpot = function () {
    var a = document.activeElement;
    if (!a || a.tagName !== "BUTTON" || !this.form.contains(a)) return null;
    var boxes = [this.palette, this.movePalette, this.choice].concat(this.inputs.map(function (i) { return i._picked; }));
    var box = boxes.filter(function (x) { return x && x.contains(a); })[0] || null;
    return { el: a, box: box, key: keyOf(a), index: box ? buttons(box).indexOf(a) : -1,
             asked: this.asked };
  };

  Picker.prototype.restoreFocus = function (spot) {
    if (!spot) return;
    if (usable(spot.el)) { if (document.activeElement !== spot.el) focus(spot.el); return; }
    var box = spot.box, key = spot.key, index = spot.index;
    if (box === this.movePalette && this.pending && this.choice.querySelector("button")) {
      focus(this.choice.querySelector("button"));  // the tile asks a question: answer it next
      return;
    }
    if (box === this.choice) {  // the question is answered or cancelled: back to its tile
      box = this.movePalette;
      key = spot.asked;
      index = buttons(box).findIndex(function (b) { return b.getAttribute("data-tile") === key; });
    }
    var target = null;
    if (box && box.isConnected) {
      var all = buttons(box);
      target = key && all.filter(function (b) { return keyOf(b) === key && usable(b); })[0];
      // The same button is gone or disabled (the tile is used up): the next enabled one, else the one before.
      for (var i = Math.max(index, 0); !target && i < all.length; i++) if (usable(all[i])) target = all[i];
      for (var j = Math.min(index, all.length) - 1; !target && j >= 0; j--) if (usable(all[j])) target = all[j];
    }
    if (!target && spot.box === this.movePalette) target = usable(this.undoButton) ? this.undoButton : this.playButton;
    if (!target && spot.box === this.choice) target = this.playButton;
    if (!target && spot.box) {  // the last removable tile is gone: its input's toggle
      var owner = this.inputs.filter(function (i) { return i._picked === spot.box; })[0];
      if (owner) target = owner._toggle;
    }
    if (!target && spot.el === this.undoButton) target = this.playButton;  // nothing left to undo
    if (usable(target)) focus(target);
  };

  Picker.prototype.refresh = function () {
    var used = this.used(), self = this, spot = this.focusSpot();
    this.inputs.forEach(function (input) { self.drawPicked(input); });
    this.drawPalette(used);
    if (this.movesInput) this.drawMoves(used);
    this.restoreFocus(spot);
  };

  document.querySelectorAll(".tile-picker-data").forEach(function (data) {
    var form = data.closest("form");
    if (form && !form._tilePicker) form._tilePicker = new Picker(form, data);
  });
})();
