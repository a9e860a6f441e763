"""A phone's outbox as the server counts it: which deals were drawn while their session was open,
which minute each counts in for the link's allowance, when a phone's word is worth writing."""

from __future__ import annotations

from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

from hypothesis import given
from hypothesis import strategies as st

from scoring.domain.outbox import (
    HEARD_EVERY,
    LATE_GRACE,
    MAX_DRAWN_MS,
    SILENT_AFTER,
    as_ms,
    drawn_time,
    drawn_while_open,
    drawn_window,
    heard_is_news,
    is_silent,
)

UTC = dt_timezone.utc
OPENED = datetime(2026, 5, 1, 18, 0, tzinfo=UTC)
CLOSED = OPENED + timedelta(hours=3)

moments = st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1),
                       timezones=st.just(UTC))
offsets = st.integers(min_value=-10 * 3600 * 1000, max_value=10 * 3600 * 1000).map(lambda ms: timedelta(milliseconds=ms))


@given(st.integers(min_value=0, max_value=MAX_DRAWN_MS))
def test_ms_and_times_are_one_another(ms):
    assert as_ms(drawn_time(ms)) == ms


def test_the_latest_drawn_time_is_the_last_ms_of_9999():
    assert drawn_time(MAX_DRAWN_MS) == datetime(9999, 12, 31, 23, 59, 59, 999000, tzinfo=UTC)


@given(offsets)
def test_drawn_while_open_is_between_the_opening_and_the_close_with_its_grace(offset):
    drawn = OPENED + offset
    inside = OPENED <= drawn <= CLOSED + LATE_GRACE
    assert drawn_while_open(drawn, opened_at=OPENED, closed_at=CLOSED) is inside


def test_the_edges_of_the_open_time():
    assert drawn_while_open(OPENED, opened_at=OPENED, closed_at=CLOSED)
    assert not drawn_while_open(OPENED - timedelta(milliseconds=1), opened_at=OPENED, closed_at=CLOSED)
    assert drawn_while_open(CLOSED + LATE_GRACE, opened_at=OPENED, closed_at=CLOSED)
    assert not drawn_while_open(CLOSED + LATE_GRACE + timedelta(milliseconds=1), opened_at=OPENED, closed_at=CLOSED)
    # never closed: any time since it opened
    assert drawn_while_open(OPENED + timedelta(days=2), opened_at=OPENED, closed_at=None)


@given(offsets, st.integers(min_value=1, max_value=86400))
def test_a_deal_counts_in_the_window_it_was_drawn_in_held_between_the_opening_and_now(offset, period):
    now = OPENED + timedelta(hours=1)
    drawn = OPENED + offset
    window = drawn_window(drawn, opened_at=OPENED, now=now, period_seconds=period)
    held = min(max(drawn, OPENED), now)
    assert window == as_ms(held) // (period * 1000)
    # never a window before the session's, nor one still to come
    assert drawn_window(OPENED, opened_at=OPENED, now=now, period_seconds=period) <= window
    assert window <= drawn_window(now, opened_at=OPENED, now=now, period_seconds=period)


def test_thirty_deals_drawn_over_three_minutes_fall_in_three_minutes():
    now = OPENED + timedelta(minutes=10)
    windows = {drawn_window(OPENED + timedelta(seconds=6 * i), opened_at=OPENED, now=now, period_seconds=60)
               for i in range(30)}
    assert len(windows) == 3


@given(moments, st.integers(min_value=0, max_value=100), st.one_of(st.none(), st.integers(min_value=0, max_value=100)),
       st.integers(min_value=0, max_value=60_000))
def test_a_phone_is_written_down_when_never_heard_after_ten_seconds_or_when_its_outbox_changed(heard, was, said, ms):
    now = heard + timedelta(milliseconds=ms)
    news = heard_is_news(heard_at=heard, outbox_was=was, outbox=said, now=now)
    assert news is ((said is not None and said != was) or now - heard >= HEARD_EVERY)
    assert heard_is_news(heard_at=None, outbox_was=was, outbox=said, now=now)


def test_a_phone_is_silent_after_five_minutes_unheard_and_never_before_it_was_heard():
    now = OPENED + timedelta(hours=1)
    assert not is_silent(None, now=now)
    assert not is_silent(now - SILENT_AFTER, now=now)
    assert is_silent(now - SILENT_AFTER - timedelta(seconds=1), now=now)
