/* The tile picker's move log (input[data-moves]: "6:4@4 4:4@4 x3:1", the full log of a deal,
   which scoring/web/deal_text.py parse_moves reads): the layout so far, whose turn it is, Play or
   Pass, the pip to play on when a tile fits both ends (or to leave open on the lead), Undo.
   Typed text is read with window.GupaiTiles (static/js/tile-text.js) and written back the same way.

   Loaded by templates/scoring/_tile_picker.html (defer) after tile-text.js and before
   tile-picker.js, which makes these methods its Picker's: window.GupaiMoveLog(Picker, kit), kit
   being the picker's drawing helpers (el, button, fill, said). */
(function () {
  "use strict";

  var SVGNS = "http://www.w3.org/2000/svg";
  var readMoves = window.GupaiTiles.readMoves;

  function movesText(moves) {
    return moves.map(function (m) {
      if (m.bad) return m.bad;
      if (m.pass) return "x" + m.pass;
      var pip = m.open !== undefined ? m.open : m.to;
      return m.play + (pip !== undefined ? "@" + pip : "");
    }).join(" ");
  }

  function halves(tile) { return tile.split(":").map(Number); }

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

  // The move log's methods of a Picker (static/js/tile-picker.js), with its helpers.
  window.GupaiMoveLog = function (Picker, kit) {
    var el = kit.el, button = kit.button, fill = kit.fill, said = kit.said;

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
  };
})();
