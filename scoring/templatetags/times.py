"""``{{ deal.created_at|when:"H:i" }}``: Django's ``|date`` for a stored moment, which never
fails (``scoring.web.times``: in the current time zone, or in UTC where it cannot be shown)."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.template import defaultfilters

from scoring.web.times import local_or_utc

register = template.Library()


@register.filter(expects_localtime=False, is_safe=False)
def when(value, arg=None):
    """``value|date:arg``, converted here rather than by the template engine (whose
    conversion raises on the first and last days that a datetime holds)."""
    if isinstance(value, datetime):
        value = local_or_utc(value)
    return defaultfilters.date(value, arg)
