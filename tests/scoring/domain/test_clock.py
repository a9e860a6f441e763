"""A session's clock read at a moment (``scoring.domain.clock``): seconds left rounded up, never
below zero; still playing once time is up means no deal since the end."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from scoring.domain.clock import clock_state, seconds_left, still_playing

END = datetime(2026, 5, 1, 20, 0, tzinfo=timezone.utc)


def test_seconds_left():
    assert seconds_left(None, END) is None
    assert seconds_left(END, END - timedelta(minutes=2)) == 120
    assert seconds_left(END, END - timedelta(seconds=0.2)) == 1   # rounded up: 0 only once time is up
    assert seconds_left(END, END) == 0
    assert seconds_left(END, END + timedelta(hours=1)) == 0


def test_clock_state():
    start = END - timedelta(minutes=90)
    assert clock_state(None, None, END) is None
    assert clock_state(start, END, END - timedelta(seconds=30)) == {
        "started_at": start, "ends_at": END, "seconds_left": 30, "ended": False, "warn": True}
    assert clock_state(start, END, END)["ended"] is True


def test_the_warning_comes_five_minutes_before_the_end_and_goes_when_time_is_up():
    start = END - timedelta(minutes=90)
    assert clock_state(start, END, END - timedelta(seconds=301))["warn"] is False
    assert clock_state(start, END, END - timedelta(seconds=300))["warn"] is True
    assert clock_state(start, END, END - timedelta(seconds=1))["warn"] is True
    assert clock_state(start, END, END)["warn"] is False       # "Time is up" instead


def test_still_playing():
    after = END + timedelta(minutes=1)
    assert not still_playing(None, None, after)                         # no clock
    assert not still_playing(END, None, END - timedelta(seconds=1))     # time not up yet
    assert still_playing(END, None, after)                              # no deal at all
    assert still_playing(END, END - timedelta(minutes=5), after)        # its last deal before the end
    assert not still_playing(END, END + timedelta(seconds=10), after)   # a deal since: finished
