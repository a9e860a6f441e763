"""The director's grid of a whole paper score sheet (``scoring.web.paper_sheets`` prints it):
one row per deal, the game's deal form at its quick level in the printed sheet's columns (the
inputs typed once per deal, then each seat's), read back into one body per filled row.

Each row is read by the deal form itself (``scoring.web.deal_form.DealForm``, its fields named
``r{row}-{name}`` here) and checked by the engine (``preview``: a body and the deal's defaults
→ ``RoundPreview``), in row order: the seat an order input names (who leads, who banks) may be
left blank, and is then the one the previous deal gives (its ``next_leader`` / ``next_banker``,
as the scorer's form is pre-filled; the first row: the table's next deal's). Nothing here knows
a game by name: the inputs come from ``games.get_game(key).entry``.

Errors have the one shape ``{path, code, message}``, their paths inside the sheet
(``deals[3].values[1]``: row 4, the second seat's value), and are shown at their row and input.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from django.utils.translation import gettext

import games
from games.entry import Input, Numbers, SeatChoice, SeatValue, Winner
from scoring.domain.records import RoundPreview
from scoring.services.paper_sheet_entry import MAX_SHEET_DEALS, row_path
from scoring.web import deal_inputs
from scoring.web.deal_form import DealForm
from scoring.web.deal_paths import NON_FIELD, field_for_path
from scoring.web.paper_sheets import ROWS
from scoring.web.rule_messages import translate_message

#: The body fields an order input fills that the game's flow gives when left blank
#: (``selectors.tables.round_defaults`` names them alike).
FLOW_FIELDS = ("leader", "banker")

_ROW_PATH = re.compile(r"^deals\[([0-9]+)\]\.?(.*)$")

Preview = Callable[[dict, dict], RoundPreview]


def _input_path(inp: Input, seat: int | None) -> str:
    """The body path of one input (of one seat): where the engine's errors about it point."""
    if isinstance(inp, Winner):
        return f"{inp.fills}.{inp.key}" + (f"[{inp.part}]" if inp.part is not None else "")
    if seat is not None:
        return f"{inp.fills}[{seat}]"
    return inp.fills


class SheetForm:
    """The grid of one table's sheet. ``seats``: the table's seats by position (``Seat`` rows or
    dicts with ``name``); ``data``: the POST, or None for an empty grid; ``rows``: how many rows
    are shown (the printed sheet's, or as many as were sent)."""

    def __init__(self, *, game: str, variant: dict, seats: list, data: Any = None, rows: int = ROWS):
        self.game = game
        self.spec = games.get_game(game)
        self.variant = variant or {}
        self.full_variant = {**self.spec.variant_defaults(), **self.variant}
        self.level = self.spec.entry.quick_level()
        self.inputs = self.spec.entry.inputs_at(self.level)
        self.seats = seats
        self.names = [s.entry.player.name if hasattr(s, "entry") else s["name"] for s in seats]
        self.n = len(self.names)
        self.top_inputs = [i for i in self.inputs if not i.per_seat and i.label]
        self.seat_inputs = [i for i in self.inputs if i.per_seat]
        #: ``field_names()``, asked for every row and every error.
        self.fields = self.field_names()
        self.rows = rows
        if data is not None:
            self.rows = max(rows, self._rows_sent(data))
        self.values: dict[str, str] = {}
        for r in range(self.rows):
            for name in self.fields:
                self.values[f"r{r}-{name}"] = (data.get(f"r{r}-{name}") or "").strip()[:20] if data is not None else ""
        #: (row, input name) → messages; row → messages about the whole deal.
        self.field_errors: dict[tuple[int, str], list[str]] = {}
        self.row_errors: dict[int, list[str]] = {}
        #: Every error, ``{path, code, message}``, paths inside the sheet.
        self.problems: list[dict] = []
        #: (row, input name) → the seat the flow gave a blank order input.
        self.derived: dict[tuple[int, str], int] = {}
        #: Rows not checked: their order follows a row that is wrong.
        self.unchecked: list[int] = []
        self.bodies: list[dict] = []

    # -- names ----------------------------------------------------------------------------------
    def field_names(self) -> list[str]:
        """The input names of one row (DealForm's: ``leader``, ``points_2``, ...)."""
        out = []
        for inp in self.inputs:
            if inp.per_seat:
                out += [f"{inp.name}_{i}" for i in range(self.n)]
            elif inp.label:
                out.append(inp.name)
        return out

    def _rows_sent(self, data: Any) -> int:
        """Rows as many as the highest row number sent (a longer grid sent back), bounded."""
        most = 0
        for key in data.keys():
            m = re.match(r"^r([0-9]{1,3})-", key)
            if m:
                most = max(most, int(m.group(1)) + 1)
        return min(most, MAX_SHEET_DEALS)

    def sent(self) -> dict[str, str]:
        """What was typed (every input not left empty): what a form sent again is compared by."""
        return {name: value for name, value in self.values.items() if value}

    def _row_values(self, r: int) -> dict[str, str]:
        return {name: self.values[f"r{r}-{name}"] for name in self.fields}

    def filled_rows(self) -> list[int]:
        """The rows with anything typed in, in order."""
        return [r for r in range(self.rows) if any(self._row_values(r).values())]

    # -- errors ---------------------------------------------------------------------------------
    def _problem(self, row: int, field: str, path: str, code: str, message: str) -> None:
        self.problems.append({"path": row_path(row, path), "code": code, "message": message})
        if field in self.fields:
            found = self.field_errors.setdefault((row, field), [])
        else:
            found = self.row_errors.setdefault(row, [])
        if message not in found:
            found.append(message)

    def add_problem(self, error: dict) -> None:
        """An error of the service (its path inside the sheet) at its row and input; one outside
        any row (the sheet's key, a number taken) at the top of the grid (row -1)."""
        m = _ROW_PATH.match(error.get("path") or "")
        message = translate_message(str(error.get("code", "")), error.get("message") or "")
        if m is None:
            self.problems.append(error)
            self.row_errors.setdefault(-1, []).append(message)
            return
        row, path = int(m.group(1)), m.group(2)
        self._problem(row, field_for_path(path, self.game), path, str(error.get("code", "")), message)

    @property
    def has_errors(self) -> bool:
        return bool(self.problems)

    def error_rows(self) -> list[int]:
        return sorted({int(_ROW_PATH.match(p["path"]).group(1)) for p in self.problems if _ROW_PATH.match(p["path"])})

    # -- reading --------------------------------------------------------------------------------
    def _deal_form(self, r: int) -> DealForm:
        data = {**self._row_values(r), "level": self.level or ""}
        return DealForm(game=self.game, variant=self.variant, seats=[{"name": n} for n in self.names], data=data,
                        require_entered_by=False)

    def _flow_inputs(self) -> list[SeatChoice]:
        return [i for i in self.top_inputs if isinstance(i, SeatChoice) and i.required and i.fills in FLOW_FIELDS]

    def check(self, *, defaults: dict, preview: Preview) -> list[dict] | None:
        """Read and check every filled row, in order; the bodies (one per deal, in row order), or
        None when a row is wrong (``problems`` says where). ``defaults``: the table's next deal's
        (``selectors.tables.round_defaults``). Empty rows after the last filled one are no deals;
        an empty row before it is an error."""
        self.problems, self.field_errors, self.row_errors, self.derived, self.unchecked = [], {}, {}, {}, []
        filled = self.filled_rows()
        if not filled:
            self.problems.append({"path": "deals", "code": "required",
                                  "message": gettext("The sheet has no deals: fill in at least one row.")})
            self.row_errors[-1] = [self.problems[-1]["message"]]
            return None
        flow: dict | None = {k: defaults.get(k) for k in FLOW_FIELDS if k in defaults}
        bodies = []
        for r in range(filled[-1] + 1):
            if r not in filled:
                self._problem(r, NON_FIELD, "", "empty_row",
                              gettext("This row is empty but a later one is filled: fill it in, or move the later rows "
                                      "up."))
                continue
            body, flow = self._check_row(r, flow, preview)
            if body is not None:
                bodies.append(body)
        self.bodies = bodies
        return None if self.problems else bodies

    def _check_row(self, r: int, flow: dict | None, preview: Preview) -> tuple[dict | None, dict | None]:
        """One row's body (None when wrong) and the flow the next row follows (None: unknown,
        this row being wrong or unchecked)."""
        form = self._deal_form(r)
        for inp in self._flow_inputs():
            if form.values.get(inp.name, "") == "":
                if flow is None or flow.get(inp.fills) is None:
                    # Who leads here follows a wrong row above: checked once that one is right.
                    self.unchecked.append(r)
                    return None, None
                form.values[inp.name] = str(flow[inp.fills])
                self.derived[(r, inp.name)] = flow[inp.fills]
        body = form.body()
        if body is None:
            for field, messages in form.errors.items():
                raw = form.values.get(field, "")
                for message in messages:
                    self._problem(r, field, self._path_of(field), "invalid" if raw else "required", message)
            return None, None
        result = preview(body, {**(flow or {}), "entered_by": None})
        if not result.ok:
            for e in result.errors:
                path = e.get("path") or ""
                self._problem(r, field_for_path(path, self.game), path, str(e.get("code", "")),
                              translate_message(str(e.get("code", "")), e.get("message") or ""))
            return None, None
        nxt = {"leader": result.next_leader, "banker": result.next_banker}
        return body, {k: nxt[k] for k in FLOW_FIELDS if nxt[k] is not None}

    def _path_of(self, field: str) -> str:
        for inp in self.inputs:
            if inp.per_seat:
                for i in range(self.n):
                    if field == f"{inp.name}_{i}":
                        return _input_path(inp, i)
            elif field == inp.name:
                return _input_path(inp, None)
        return field

    # -- for the template -----------------------------------------------------------------------
    def _seat_options(self, blank: str) -> list[tuple[str, str]]:
        return [("", blank)] + [(str(i), f"{i + 1}. {name}") for i, name in enumerate(self.names)]

    def _label(self, inp: Input) -> str:
        """A column's words; "(optional)" where a deal may leave it empty, as on the scorer's form."""
        label = gettext(inp.label)
        return gettext("%(label)s (optional)") % {"label": label} if deal_inputs.optional(inp, self.variant) else label

    def _cell(self, r: int, inp: Input, seat: int | None) -> dict:
        name = inp.name if seat is None else f"{inp.name}_{seat}"
        field = f"r{r}-{name}"
        label = self._label(inp)
        if seat is not None:
            aria = gettext("Row %(row)s, %(label)s, %(seat)s") % {
                "row": r + 1, "label": label, "seat": f"{seat + 1}. {self.names[seat]}"}
        else:
            aria = gettext("Row %(row)s, %(label)s") % {"row": r + 1, "label": label}
        cell: dict[str, Any] = {"name": field, "id": f"f-{field}", "value": self.values.get(field, ""), "aria": aria,
                                "errors": self.field_errors.get((r, name), [])}
        if isinstance(inp, SeatChoice):
            blank = gettext(inp.blank) if inp.blank else gettext("(follows the deal before)")
            cell.update(kind="select", options=self._seat_options(blank))
            seat_given = self.derived.get((r, name))
            if seat_given is not None:
                cell["derived"] = f"{seat_given + 1}. {self.names[seat_given]}"
        elif isinstance(inp, Winner):
            cell.update(kind="select", options=self._seat_options(gettext(inp.blank)))
        elif isinstance(inp, SeatValue):
            cell.update(kind="select", options=[("", "–")] + deal_inputs.choices(self, inp))
        else:  # Numbers
            cell.update(kind="number")
        return cell

    def legend(self) -> list[str]:
        """How each box is filled (as on the printed sheet), and what a blank order input means."""
        lines = []
        for inp in self.inputs:
            label = gettext(inp.label)
            if isinstance(inp, SeatChoice) and inp.required and inp.fills in FLOW_FIELDS:
                lines.append(gettext("%(label)s: left blank, the seat the previous deal gives (as on the scorer's "
                                     "form).") % {"label": label})
            elif isinstance(inp, SeatValue):
                low, high = inp.bounds(self.full_variant)
                lines.append(gettext("%(label)s: %(low)s–%(high)s, or %(none)s.") % {
                    "label": label, "low": low, "high": high, "none": gettext(inp.none)})
            elif isinstance(inp, Numbers):
                lines.append(gettext("%(label)s: a whole number, %(minimum)s or more.") % {
                    "label": label, "minimum": inp.minimum})
        return lines

    def context(self) -> dict:
        error_rows = self.error_rows()
        rows = []
        for r in range(self.rows):
            rows.append({
                "number": r + 1, "index": r,
                "top": [self._cell(r, inp, None) for inp in self.top_inputs],
                "seats": [[self._cell(r, inp, s) for inp in self.seat_inputs] for s in range(self.n)],
                "errors": self.row_errors.get(r, []),
                "unchecked": r in self.unchecked and self.has_errors,
                "wrong": r in error_rows,
            })
        return {"top_labels": [self._label(i) for i in self.top_inputs],
                "seat_labels": [self._label(i) for i in self.seat_inputs],
                "players": [f"{i + 1}. {name}" for i, name in enumerate(self.names)],
                "rows": rows, "legend": self.legend(), "has_errors": self.has_errors,
                "general_errors": self.row_errors.get(-1, []), "error_rows": [r + 1 for r in error_rows],
                "columns": 1 + len(self.top_inputs) + self.n * len(self.seat_inputs)}


__all__ = ["FLOW_FIELDS", "SheetForm"]
