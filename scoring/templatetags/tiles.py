"""``{% tile "6:5" %}`` draws one tile inline; ``{% laid_tile "4:6" %}`` one tile of a layout,
lying as it was played (by reference to the sprite); ``{% tile_sprite %}`` puts every tile on the page
once as a ``<symbol id="tile-6-5">``, so scripts draw ``<svg><use href="#tile-6-5"/></svg>``
without building pips themselves. The drawing is ``scoring.web.tile_art``."""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from scoring.web.tile_art import laid_turn, tile_ref_svg, tile_sprite_svg, tile_svg

register = template.Library()


@register.simple_tag
def tile(value, css_class: str = "tile"):
    """One tile, inline (safe markup; its size comes from the CSS class)."""
    return mark_safe(tile_svg(value, css_class=css_class))


@lru_cache(maxsize=1)
def _sprite() -> str:
    return tile_sprite_svg()


@register.simple_tag
def tile_sprite():
    """One hidden <svg> with a symbol per tile."""
    return mark_safe(_sprite())


@register.simple_tag
def laid_tile(text):
    """A tile of a layout, its pips as laid left to right ("4:6"): a double across the line,
    others along it with the joined halves touching (``tile_art.laid_turn``)."""
    label = gettext("tile %(text)s") % {"text": text}
    return mark_safe(tile_ref_svg(text, label=label, turn=laid_turn(text)))
