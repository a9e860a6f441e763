"""``scoring.domain.push``: when a clock calls for "5 minutes left", what a push service's answer
means, and what a browser's subscription must look like. No database."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from scoring.domain.errors import ValidationFailed
from scoring.domain.push import result_of, subscription_checked, warning_due

T0 = datetime(2026, 11, 29, 20, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize("minutes, left, due", [
    (30, timedelta(minutes=5), True),
    (30, timedelta(minutes=4, seconds=1), True),
    (30, timedelta(minutes=4), False),          # too late: it would not be true any more
    (30, timedelta(minutes=5, seconds=1), False),
    (5, timedelta(minutes=4, seconds=30), False),  # a 5-minute clock: nothing new to say
    (6, timedelta(minutes=4, seconds=30), True),
])
def test_warning_due(minutes, left, due):
    ends = T0 + timedelta(minutes=minutes)
    assert warning_due(started_at=T0, ends_at=ends, now=ends - left) is due


def test_no_clock_no_warning():
    assert warning_due(started_at=None, ends_at=None, now=T0) is False


@pytest.mark.parametrize("status, result", [(201, "delivered"), (202, "delivered"), (404, "gone"), (410, "gone"),
                                            (413, "failed"), (500, "failed"), (None, "failed")])
def test_result_of(status, result):
    assert result_of(status) == result


def test_a_subscription_as_the_browser_gives_it():
    sub = {"endpoint": "https://fcm.googleapis.com/fcm/send/abc", "expirationTime": None,
           "keys": {"p256dh": "B" + "A" * 86, "auth": "A" * 22}}
    assert subscription_checked(sub) == {"endpoint": sub["endpoint"], "p256dh": sub["keys"]["p256dh"],
                                         "auth": sub["keys"]["auth"]}
    with pytest.raises(ValidationFailed) as refused:
        subscription_checked({**sub, "endpoint": "https://" + "x" * 1000})
    assert [e["code"] for e in refused.value.errors] == ["bad_endpoint"]
