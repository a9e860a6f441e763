/* The tile picker: tap tiles instead of typing them (scorer page, correction page, calculator).

   Progressive enhancement of the deal form (templates/scoring/_deal_fields.html): every input
   stays a text field the server reads as typed, and the picker only writes into it. It reads
   what it needs from the page, never from a game's name:
   - .tile-picker-data: data-config (JSON: the deck of this game and player count, tiles each,
     the seats by table position, the name of the leader's input, the layout's open ends) and
     the words it shows (data-t-*, translated in the template);
   - input[data-tiles]: a list of tiles (data-count: exactly so many, data-most: at most so many;
     data-source + data-declared: a bull chosen among another input's tiles, "-" for none);
   - input[data-moves]: the full move log, "6:4@4 4:4@4 x3:1" (scoring/web/deal_text.py parse_moves reads it).
   Typed text is read as the server reads it (scoring/web/deal_text.py: NFKC, "6:5", "65", "[6-5]", ...),
   and that reading is window.GupaiTiles (parseTiles, readTile, readTiles, readMoves,
   readDeclared) for the tests that hold it to the server's (tests/browser/test_tile_text.py).
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

  // ---- tiles as text, read as scoring/web/deal_text.py reads them (the reference: parse_tiles,
  // parse_moves, parse_declared; tests/browser/test_tile_text.py holds both to the same answers):
  // NFKC first (full-width "６：５" is 6:5, "²" is 2), then Python's whitespace (str.isspace,
  // which JavaScript's \s is not: no U+FEFF, but U+001C-U+001F and U+0085), commas and semicolons
  // (also the ideographic and full-width ones) between tokens.
  var SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
  var SPLIT = new RegExp("[" + SPACE + ",;\\u3001\\uff0c\\uff1b]+");
  var STRIP = new RegExp("^[" + SPACE + "]+|[" + SPACE + "]+$", "g");
  var TILE = new RegExp("^\\[?\\(?([1-6])[" + SPACE + "]*[:\\-/.|xX]?[" + SPACE + "]*([1-6])\\)?\\]?$");
  var MOVE = /^([xXpP-])?(.+?)(?:@([1-6]))?$/;
  var NO_BULL = "-";

  function nfkc(text) { return typeof text === "string" ? text.normalize("NFKC") : ""; }

  // One token → "6:4" (the high half first), or null when it is no tile.
  function readTile(token) {
    var m = TILE.exec(nfkc(token));
    if (!m) return null;
    var a = +m[1], b = +m[2];
    return Math.max(a, b) + ":" + Math.min(a, b);
  }

  function tokens(text) {
    return nfkc(text).split(SPLIT).filter(function (t) { return t; });
  }

  // forms.parse_tiles: every token, a tile normalized, anything else as typed.
  function parseTiles(text) {
    return tokens(text).map(function (t) { return readTile(t) || t; });
  }

  // The tiles alone (what the picker counts and draws).
  function readTiles(text) {
    return tokens(text).map(readTile).filter(function (t) { return t; });
  }

  // forms.parse_moves, but a move that cannot be read is {bad: token}, kept as typed.
  function readMoves(text) {
    var out = [];
    tokens(text).forEach(function (token) {
      var tile = readTile(token);
      if (tile) { out.push({ play: tile }); return; }
      var m = MOVE.exec(token);
      tile = m && readTile(m[2]);
      if (!tile) { out.push({ bad: token }); return; }
      if (m[1]) { out.push({ pass: tile }); return; }
      var move = { play: tile };
      if (m[3]) move[out.length ? "to" : "open"] = +m[3];
      out.push(move);
    });
    return out;
  }

  // forms.parse_declared: null when empty, {bull: null} for "-" (or "0"), else {bull: tiles}.
  function readDeclared(text) {
    text = nfkc(text).replace(STRIP, "");
    if (text === "") return null;
    if (text === NO_BULL || text === "0") return { bull: null };
    return { bull: parseTiles(text) };
  }

  function saysNoBull(input) {
    var d = input.hasAttribute("data-declared") && readDeclared(input.value);
    return !!d && d.bull === null;
  }

  // For the tests (tests/browser/test_tile_text.py) and any other script of the page.
  window.GupaiTiles = { readTile: readTile, parseTiles: parseTiles, readTiles: readTiles,
                        readMoves: readMoves, readDeclared: readDeclared };

  function movesText(moves) {
    return moves.map(function (m) {
      if (m.bad) return m.bad;
      if (m.pass) return "x" + m.pass;
      var pip = m.open !== undefined ? m.open : m.to;
      return m.play + (pip !== undefined ? "@" + pip : "");
    }).join(" ");
  }

  function halves(tile) { return tile.split(":").map(Number); }
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

  // A tile lying in the layout, `left` the pip facing left: the upright symbol turned a quarter.
  function flatSvg(tile, left) {
    var svg = document.createElementNS(SVGNS, "svg");
    svg.setAttribute("class", "tile-flat");
    svg.setAttribute("viewBox", "0 0 80 40");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("focusable", "false");
    var use = document.createElementNS(SVGNS, "use");
    use.setAttribute("href", "#tile-" + tile.replace(":", "-"));
    use.setAttribute("width", "40");
    use.setAttribute("height", "80");
    // The symbol's top half holds the high pip: turn it left (-90°) to show it on the left.
    use.setAttribute("transform", halves(tile)[0] === left ? "translate(0 40) rotate(-90)" : "translate(80 0) rotate(90)");
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

  // ---- the layout of a move log ---------------------------------------------------------------
  // Replays the moves: the chain from left to right as [tile, left pip], the open ends, and
  // whether each move fits (a typed log may not; the engine says why).
  function replay(moves, arms) {
    var chain = [], ends = [];
    moves.forEach(function (m, k) {
      if (!m.play) return;
      var h = halves(m.play);
      if (!chain.length) {
        if (arms === 2) { chain.push([m.play, h[0]]); ends = [h[0], h[1]]; return; }
        var open = m.open !== undefined ? m.open : h[0];
        var closed = h[0] === open ? h[1] : h[0];
        chain.push([m.play, closed]);
        ends = [open];
        return;
      }
      var i = -1;
      if (m.to !== undefined) i = ends.indexOf(m.to);
      if (i < 0) i = ends.findIndex(function (p) { return h.indexOf(p) >= 0; });
      if (i < 0) return;
      var pip = ends[i], other = h[0] === pip ? h[1] : h[0];
      if (arms === 2 && i === 0) { chain.unshift([m.play, other]); ends[0] = other; }
      else { chain.push([m.play, pip]); ends[i] = other; }
    });
    return { chain: chain, ends: ends };
  }

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

  // ---- the move log ---------------------------------------------------------------------------
  Picker.prototype.enhanceMoves = function (input) {
    var self = this;
    var panel = el("div", "move-log");
    this.turn = el("p", "turn");
    this.turn.setAttribute("aria-live", "polite");
    var modes = el("div", "modes");
    this.playButton = button("mode", this.t.play);
    this.passButton = button("mode", this.t.pass);
    [this.playButton, this.passButton].forEach(function (b, i) {
      b.addEventListener("click", function () { self.mode = i ? "pass" : "play"; self.pending = null; self.refresh(); });
      modes.appendChild(b);
    });
    this.undoButton = button("secondary undo", this.t.undo);
    this.undoButton.addEventListener("click", function () {
      var moves = readMoves(input.value);
      moves.pop();
      self.pending = null;
      self.write(input, movesText(moves));
    });
    modes.appendChild(this.undoButton);
    this.layout = el("div", "layout");
    this.layout.setAttribute("role", "img");
    this.ends = el("p", "ends muted small");
    this.choice = el("div", "choice");
    this.choice.setAttribute("aria-live", "polite");
    this.movePalette = el("div", "palette");
    this.movePalette.setAttribute("role", "group");
    this.lastMove = el("p", "last-move muted small");
    this.lastMove.setAttribute("aria-live", "polite");
    [this.turn, modes, this.layout, this.ends, this.choice, this.lastMove, this.movePalette].forEach(function (x) { panel.appendChild(x); });
    (input.closest(".field") || input.parentNode).appendChild(panel);
  };

  Picker.prototype.leader = function () {
    var field = this.cfg.leader && this.form.querySelector('[name="' + this.cfg.leader + '"]');
    var v = field ? parseInt(field.value, 10) : 0;
    return isNaN(v) ? 0 : v;
  };

  Picker.prototype.seatOf = function (k) {
    var n = this.cfg.seats.length;
    return (this.leader() + k) % n;
  };

  Picker.prototype.addMove = function (move) {
    var moves = readMoves(this.movesInput.value);
    moves.push(move);
    this.pending = null;
    this.write(this.movesInput, movesText(moves));
  };

  Picker.prototype.tapMove = function (tile, moves, state) {
    var h = halves(tile), arms = this.cfg.arms;
    if (this.mode === "pass") { this.addMove({ pass: tile }); return; }
    if (!state.chain.length) {
      if (arms === 2 || h[0] === h[1]) { this.addMove({ play: tile }); return; }
      this.pending = { tile: tile, key: "open", choices: [h[0], h[1]] };  // which pip stays open
      this.refresh();
      return;
    }
    var fits = state.ends.filter(function (p, i, all) { return h.indexOf(p) >= 0 && all.indexOf(p) === i; });
    if (!fits.length) {
      this.pending = { tile: tile, key: "none", choices: [] };
      this.refresh();
      return;
    }
    if (arms !== 2) { this.addMove({ play: tile }); return; }
    if (fits.length === 1) { this.addMove({ play: tile, to: fits[0] }); return; }
    this.pending = { tile: tile, key: "to", choices: fits };
    this.refresh();
  };

  Picker.prototype.drawMoves = function (used) {
    var self = this, input = this.movesInput;
    var moves = readMoves(input.value);
    var n = this.cfg.seats.length, total = this.cfg.deal * n;
    var state = replay(moves, this.cfg.arms);
    var done = total > 0 && moves.length >= total;
    // CG-12: a pass by every seat in a row blocks the deal; the tiles still held are typed below.
    var blocked = !done && moves.length >= n && moves.slice(-n).every(function (m) { return m.pass; });
    this.turn.textContent = done ? this.t.done : blocked ? this.t.blocked
      : fill(this.t.turn, { n: moves.length + 1, seat: (this.seatOf(moves.length) + 1) + ". " + this.cfg.seats[this.seatOf(moves.length)] });
    this.playButton.setAttribute("aria-pressed", String(this.mode === "play"));
    this.passButton.setAttribute("aria-pressed", String(this.mode === "pass"));
    this.undoButton.disabled = !moves.length;
    // The layout, left to right.
    this.layout.textContent = "";
    this.layout.setAttribute("aria-label", this.t.layout + ": " + state.chain.map(function (c) { return said(c[0]); }).join(", "));
    if (!state.chain.length) this.layout.appendChild(el("span", "muted small", this.t.empty));
    state.chain.forEach(function (c) { self.layout.appendChild(flatSvg(c[0], c[1])); });
    this.ends.textContent = state.ends.length ? fill(this.t["open-ends"], { pips: state.ends.join(" · ") }) : "";
    // The last move, said with its seat.
    var last = moves[moves.length - 1];
    this.lastMove.textContent = !last || last.bad ? "" : fill(last.pass ? this.t.passed : this.t.played, {
      seat: this.cfg.seats[this.seatOf(moves.length - 1)], tile: said(last.play || last.pass) });
    // A question about the tile just tapped.
    this.choice.textContent = "";
    var p = this.pending;
    this.asked = p ? p.tile : null;  // the choice's tile, for focus once it is answered
    if (p) {
      var ask = p.key === "open" ? this.t.open : p.key === "to" ? this.t.end : this.t["no-fit"];
      this.choice.appendChild(el("p", "", fill(ask, { tile: said(p.tile) })));
      p.choices.forEach(function (pip) {
        var b = button("", fill(self.t.pip, { pip: pip }));
        b.setAttribute("data-pip", String(pip));
        b.addEventListener("click", function () {
          var move = { play: p.tile };
          move[p.key] = pip;
          self.addMove(move);
        });
        self.choice.appendChild(b);
      });
      if (p.key === "none") {
        var pass = button("", self.t.pass);
        pass.setAttribute("data-act", "pass");
        pass.addEventListener("click", function () { self.addMove({ pass: p.tile }); });
        this.choice.appendChild(pass);
      }
      var cancel = button("secondary", this.t.cancel);
      cancel.setAttribute("data-act", "cancel");
      cancel.addEventListener("click", function () { self.pending = null; self.refresh(); });
      this.choice.appendChild(cancel);
    }
    // The tiles: a used-up kind is greyed out.
    this.movePalette.textContent = "";
    this.kinds.forEach(function (tile) {
      var b = self.tileButton(tile, self.left(tile, used));
      if (done || blocked) b.disabled = true;
      b.addEventListener("click", function () { self.tapMove(tile, readMoves(input.value), replay(readMoves(input.value), self.cfg.arms)); });
      self.movePalette.appendChild(b);
    });
  };

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
