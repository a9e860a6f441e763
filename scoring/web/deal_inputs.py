"""The deal form's inputs that are tapped, not typed, and what a seat's number needs besides
its label (``number_extra``). Tapped: a per-seat choice of a value or none
(``SeatValue``: Tau Ngau's values, ROUND_RECORD §3b) and a seat or none put into an object
(``Winner``: Da Ling's winners, §4b). Both are a row of large buttons (radio inputs, so the
form works without JavaScript; templates/scoring/_field.html, kind ``choices``).

``scoring.web.deal_form`` calls these with itself (``form``): its ``values``, ``n``, ``names``,
``add_error`` and the game's variant with its defaults. Only text is reshaped here; the range
of a value and what a winner may be are the engine's to check (their errors come back at the
inputs through ``scoring.web.deal_paths``).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_noop

from games.entry import Input, Numbers, SeatChoice, SeatValue, Tiles, Winner
from scoring.domain.inputs import MAX_TYPED, parse_whole_number

#: The value of a SeatValue's null choice in the form ("" is nothing chosen yet).
NONE = "none"

#: A seat left without a value, in the page's language.
MISSING_VALUE = gettext_noop("Choose this seat's value (or %(none)s).")


def values_from_body(form, inp: SeatValue | Winner, body: dict) -> dict[str, str]:
    """The form's values of one input from a body (a correction, a stored deal)."""
    if isinstance(inp, SeatValue):
        items = body.get(inp.fills)
        if not isinstance(items, list) or len(items) != form.n:
            return {}
        return {f"{inp.name}_{i}": NONE if item is None else str(item) for i, item in enumerate(items)}
    obj = body.get(inp.fills)
    seat = obj.get(inp.key) if isinstance(obj, dict) else None
    if inp.part is not None:
        seat = seat[inp.part] if isinstance(seat, list) and inp.part < len(seat) else None
    return {inp.name: "" if seat is None else str(seat)}


def read_seat_values(form, inp: SeatValue, body: dict) -> None:
    """Each seat's choice: null for none, else the number as chosen (its range is the engine's)."""
    values: list[int | None] = []
    for i in range(form.n):
        name = f"{inp.name}_{i}"
        raw = (form.values.get(name) or "").strip()
        if raw == NONE:
            values.append(None)
            continue
        value = parse_whole_number(raw, low=-MAX_TYPED, high=MAX_TYPED, signed=True) if raw else None
        if value is None:
            form.add_error(name, gettext(MISSING_VALUE) % {"none": gettext(inp.none)})
        values.append(value)
    body[inp.fills] = values


def read_winner(form, inp: Winner, body: dict) -> None:
    """A seat or none, put at its key (or at its place in the list at its key)."""
    raw = (form.values.get(inp.name) or "").strip()
    seat = None
    if raw:
        seat = parse_whole_number(raw, low=0, high=form.n - 1)
        if seat is None:
            form.add_error(inp.name, gettext("This is not a seat of the table."))
        else:
            _refuse_excluded(form, inp)
    obj: dict[str, Any] = body.setdefault(inp.fills, {})
    if inp.part is None:
        obj[inp.key] = seat
        return
    row = obj.setdefault(inp.key, [])
    row.extend([None] * (inp.part + 1 - len(row)))
    row[inp.part] = seat


def _refuse_excluded(form, inp: Winner) -> None:
    """Told here, before the engine: a seat beside a seat in an input it excludes (the game's
    fact, ``Winner.excludes``). Only the later of the two is told, once."""
    labels = {other.name: other.label for other in form.entry.inputs}
    names = [inp_.name for inp_ in form.entry.inputs]
    for other in inp.excludes:
        if names.index(other) < names.index(inp.name) and (form.values.get(other) or "").strip():
            form.add_error(inp.name, gettext("Leave this at none, or “%(other)s” at none: not both.")
                           % {"other": gettext(labels[other])})
            return


def choice_extra(form, inp: SeatValue | Winner) -> dict[str, Any]:
    """What the template needs of a row of buttons: its ``options`` and, for a winner that
    excludes others (Da Ling's absolute and group winners), their names (``excludes``:
    static/js/deal-form.js sets those to none when a seat is tapped here)."""
    extra: dict[str, Any] = {"options": choices(form, inp)}
    if isinstance(inp, Winner) and inp.excludes:
        extra["excludes"] = " ".join(inp.excludes)
    return extra


def choices(form, inp: SeatValue | Winner) -> list[tuple[str, str]]:
    """(value, label) of each button, the null one first, in the page's language (only the null
    one is a word; a player's name is never looked up in the catalogs)."""
    if isinstance(inp, SeatValue):
        return [(NONE, gettext(inp.none))] + [(str(v), label) for v, label in inp.choices(form.full_variant)[1:]]
    return [("", gettext(inp.blank))] + [(str(i), f"{i + 1}. {name}") for i, name in enumerate(form.names)]


def number_extra(form, inp: Numbers, name: str) -> dict[str, Any]:
    """What the template needs of a seat's number besides its name and label: kept on the
    phone (``remember``), hidden at the seat chosen in ``not_for`` (``skip_for``, ``skipped``:
    static/js/deal-form.js follows the choice), and asked for before sending at the seat that
    choice has just left (``left_behind``: the seat's hint, and ``required`` while another seat
    is chosen)."""
    extra: dict[str, Any] = {"min": str(inp.minimum)}
    if inp.remember:
        extra["remember"] = True
    if not inp.not_for:
        return extra
    chosen = form.seat_of(inp.not_for)
    extra["skip_for"] = inp.not_for
    extra["skipped"] = name == f"{inp.name}_{chosen}"
    # Whichever seat is chosen now (the script follows a change), the seat left is the same.
    if name in {f"{inp.name}_{seat}" for seat in inp.seats_needing(form.previous.get(inp.not_for), None, form.variant)}:
        extra["left_behind"] = gettext(inp.left_behind) if inp.left_behind else ""
        extra["required"] = not extra["skipped"]
    return extra


__all__ = ["NONE", "choices", "number_extra", "read_seat_values", "read_winner", "values_from_body"]


def optional(inp: Input, variant: dict) -> bool:
    """Whether the deal form may leave ``inp`` empty (its label then says "(optional)")."""
    if isinstance(inp, SeatChoice):
        return not inp.required
    if isinstance(inp, Numbers):
        return inp.together and inp.is_optional(variant)
    return isinstance(inp, Tiles) and inp.omit_empty
