/* Tiles as text, read as the server reads them (scoring/web/deal_text.py: parse_tiles,
   parse_moves, parse_declared are the reference; tests/browser/test_tile_text.py holds both to the
   same answers): "6:5", "65", "[6-5]", "６：５", ... → "6:5", the high half first.

   Exposed as window.GupaiTiles (readTile, tokens, parseTiles, readTiles, readMoves, readDeclared)
   for the tile picker (static/js/tile-picker.js, static/js/tile-moves.js) and the tests. Loaded
   by templates/scoring/_tile_picker.html (defer) before those, which use it as they run. */
(function () {
  "use strict";

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

  window.GupaiTiles = { readTile: readTile, tokens: tokens, parseTiles: parseTiles, readTiles: readTiles,
                        readMoves: readMoves, readDeclared: readDeclared, NO_BULL: NO_BULL };
})();
