"""Stored moments as pages and the API show them: in the current time zone, or in UTC where that
zone cannot hold the moment. ``datetime(1, 1, 1, tzinfo=UTC)`` is still year 0 in New York,
and ``datetime(9999, 12, 31, 23, 59, tzinfo=UTC)`` already year 10000 in Shanghai: Django's
``localtime`` (templates' ``|date``, DRF's fields) raises OverflowError on them, which made a
page answer 500 (and the API 400) for every later visit. No stored moment may do that."""

from __future__ import annotations

from datetime import datetime
from datetime import timezone as dt_timezone

from django.utils import timezone


def local_or_utc(value: datetime) -> datetime:
    """An aware ``value`` in the current time zone, or in UTC when that zone overflows (a naive
    one, or one no zone can hold, as it is)."""
    if timezone.is_naive(value):
        return value
    try:
        return timezone.localtime(value)
    except OverflowError:
        try:
            return value.astimezone(dt_timezone.utc)
        except OverflowError:
            return value
