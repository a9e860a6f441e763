"""The tournament settings form: the rule options and the levels a phone may start a deal on
(from the game's catalog entry) and the tie-breaks as form controls, never typed JSON; and the service's errors put under their controls."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy

import games
from scoring.domain.inputs import MAX_TYPED, whole_number_or_text
from scoring.domain.standings import TIE_BREAK_FACTS

TIE_BREAK_POSITIONS = (gettext_lazy("Ranked first by"), gettext_lazy("then by"), gettext_lazy("then by"),
                       gettext_lazy("then by"), gettext_lazy("then by"))


def setting_errors(errors: list[dict]) -> dict[str, list[str]]:
    """Service errors by control: ``variant.arms`` stays itself, ``tie_breaks[1]`` → ``tie_breaks``,
    a path naming no control → ``general``."""
    out: dict[str, list[str]] = {}
    for e in errors:
        path = e.get("path") or ""
        key = path if path.startswith("variant.") else path.split("[")[0].split(".")[0]
        out.setdefault(key or "general", []).append(e.get("message", ""))
    return out


def _choice_text(value: Any) -> str:
    return str(value).replace("_", " ")


def variant_fields(game: str, values: dict, errors: dict[str, list[str]], *, prefix: str = "variant") -> list[dict]:
    """One dict per rule option of ``game`` (from the catalog): ``name`` (the control's name),
    ``label``, ``kind`` (flag, choice, whole, wholes), ``value``, ``options`` / ``parts``,
    ``errors``. ``values``: the variant shown (the stored one, or what was sent back)."""
    fields = []
    for v in games.get_game(game).variants.values():
        value = values.get(v.key, v.default)
        f = {"key": v.key, "name": f"{prefix}-{v.key}", "label": gettext(v.label or v.key), "kind": v.kind,
             "value": value, "low": v.low, "high": v.high, "default": v.default,
             "errors": errors.get(f"variant.{v.key}", [])}
        if v.kind == "choice":
            f["options"] = [{"value": str(x), "label": _choice_text(x), "selected": str(x) == str(value)}
                            for x in v.values]
            f["shown"] = _choice_text(value)
        elif v.kind == "wholes":
            parts = value if isinstance(value, list) else []
            f["parts"] = [{"name": f"{prefix}-{v.key}-{i}", "value": parts[i] if i < len(parts) else "",
                           "label": gettext("%(option)s, %(number)d of %(count)d")
                           % {"option": f["label"], "number": i + 1, "count": v.count}} for i in range(v.count)]
            f["shown"] = ", ".join(str(x) for x in parts)
        elif v.kind == "flag":
            f["shown"] = gettext("yes") if value else gettext("no")
        else:
            f["shown"] = str(value)
        fields.append(f)
    return fields


def _whole_or_text(raw: str) -> Any:
    """A whole number, or the text itself for the engine to refuse with its message."""
    return whole_number_or_text((raw or "").strip(), low=-MAX_TYPED, high=MAX_TYPED, signed=True)


def variant_from_post(game: str, post, *, prefix: str = "variant") -> dict:
    """The variant the controls of ``variant_fields`` sent; a checkbox sent nothing when unticked.
    Values are only reshaped: the engine checks them (``services.tournaments.tournament_variant_check``)."""
    variant: dict[str, Any] = {}
    for v in games.get_game(game).variants.values():
        name = f"{prefix}-{v.key}"
        if v.kind != "flag" and name not in post and f"{name}-0" not in post:
            continue  # not offered: the default stands (an unticked checkbox sends nothing, though)
        if v.kind == "flag":
            variant[v.key] = post.get(name) == "on"
        elif v.kind == "choice":
            raw = post.get(name, "")
            variant[v.key] = next((x for x in v.values if str(x) == raw), raw)
        elif v.kind == "whole":
            variant[v.key] = _whole_or_text(post.get(name, ""))
        elif v.kind == "wholes":
            variant[v.key] = [_whole_or_text(post.get(f"{name}-{i}", "")) for i in range(v.count)]
    return variant


def entry_level_options(game: str) -> list[tuple[str, str]]:
    """(level, label) of the levels a new phone may start a deal on, in the page's language."""
    return [(level, gettext(label)) for level, label in games.get_game(game).entry.ways_of_entering()]


def tie_break_fields(chosen: list, errors: dict[str, list[str]]) -> list[dict]:
    """One select per position; an empty select ends the list."""
    return [{"name": f"tie_break_{i}", "label": TIE_BREAK_POSITIONS[i], "value": chosen[i] if i < len(chosen) else "",
             "optional": i > 0,
             "options": [{"value": k, "label": f.choice} for k, f in TIE_BREAK_FACTS.items()]}
            for i in range(len(TIE_BREAK_FACTS))]


def tie_breaks_from_post(post) -> list[str]:
    """The chosen keys in order, blanks skipped (the service refuses repeats and unknown keys)."""
    return [k for k in (post.get(f"tie_break_{i}", "").strip() for i in range(len(TIE_BREAK_FACTS))) if k]
