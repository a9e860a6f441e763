"""``{% tile "6:5" %}`` draws one tile inline; ``{% tile_sprite %}`` puts every tile on the page
once as a ``<symbol id="tile-6-5">``, so scripts draw ``<svg><use href="#tile-6-5"/></svg>``
without building pips themselves. The drawing is ``scoring.web.tile_art``."""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.utils.safestring import mark_safe

from scoring.web.tile_art import tile_sprite_svg, tile_svg

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
