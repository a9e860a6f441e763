"""Words for stored codes, in the page's language: ``{{ d.status|deal_status }}``."""

from __future__ import annotations

from django import template

from scoring.models import Round

register = template.Library()


@register.filter
def deal_status(value):
    """A deal's status ("recorded", …) as its translated label; an unknown value as it is."""
    try:
        return Round.Status(value).label
    except ValueError:
        return value
