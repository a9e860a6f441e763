"""Web Push (``scoring.services.push``), end to end through a real push service on this computer
(tests/scoring/push_service.py): the site's code encrypts and POSTs each message with pywebpush
(no mock), the test's push service records it, and the test's "browser" keys decrypt it, as a
phone would. Seating, the clock's last 5 minutes (beat's task), the standings released; 404/410
delete a subscription; nothing goes to a player who did not allow it, nor anything at all
without the site's VAPID keys."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone, translation

from scoring import tasks
from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict, ValidationFailed
from scoring.domain.push import new_key_pair
from scoring.models import ActionLog, PushNotice, PushSubscription, Seat, Session
from scoring.selectors.push import push_counts
from scoring.services.clubs import player_create
from scoring.services.push import push_clock_warnings, push_subscribe, push_unsubscribe
from scoring.services.seating import session_seat
from scoring.services.tournaments import entry_create, tournament_create, tournament_finish, tournament_start
from tests.scoring.push_service import Browser, PushService

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Bob", "Celine", "Dominic", "Eve", "Frank", "Grace", "Heidi"]


@pytest.fixture
def vapid(settings):
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = new_key_pair()
    settings.VAPID_SUBJECT = "mailto:director@example.org"
    return settings.VAPID_PUBLIC_KEY


@pytest.fixture
def push_service():
    service = PushService().start()
    yield service
    service.stop()


@pytest.fixture
def tournament(club, director_actor):
    t = tournament_create(actor=director_actor, club=club, name="Spring open", game="jie_long")
    for name in NAMES:
        entry_create(actor=director_actor, tournament=t, player=player_create(actor=director_actor, club=club, name=name))
    tournament_start(actor=director_actor, tournament=t)
    return t


def allow(tournament, name: str, push_service, *, language: str = "en") -> Browser:
    """``name``'s phone allows notifications (as the scorer page's POST does)."""
    entry = tournament.entries.get(player__name=name)
    browser = Browser(endpoint=push_service.url(name))
    push_subscribe(actor=Actor.system(), entry=entry, subscription=browser.subscription(), language=language)
    return browser


def seat(director_actor, tournament, capture):
    with capture(execute=True):
        return session_seat(actor=director_actor, tournament=tournament, method="random", table_size=4,
                            leftovers="sit_out", seed="1")


def test_a_seated_player_who_allowed_it_is_told_table_and_seat(vapid, push_service, tournament, director_actor,
                                                                django_capture_on_commit_callbacks):
    anna, bob = allow(tournament, "Anna", push_service), allow(tournament, "Bob", push_service)
    seated = seat(director_actor, tournament, django_capture_on_commit_callbacks)

    assert sorted(r.path for r in push_service.received) == ["/push/Anna", "/push/Bob"]   # no one else
    for name, browser in (("Anna", anna), ("Bob", bob)):
        where = Seat.objects.select_related("table").get(table__session=seated.session, entry__player__name=name)
        got = push_service.to(name)[0]
        message = browser.read(got)
        assert message["body"] == f"Session 1: {where.table.name}, seat {where.position + 1}"
        assert message["title"] == "Spring open" and message["kind"] == "seated"
        assert message["url"] == "/s/"   # a private tournament: the phone's tables page
        assert got.headers["ttl"] == "1800" and got.headers["content-encoding"] == "aes128gcm"
        assert got.headers["authorization"].startswith("vapid t=") and f"k={vapid}" in got.headers["authorization"]
    notice = PushNotice.objects.get(session=seated.session, kind="seated")
    assert (notice.sent, notice.delivered, notice.failed) == (2, 2, 0)
    assert push_counts(tournament) == {"sent": 2, "delivered": 2, "failed": 0}
    assert PushSubscription.objects.get(endpoint=anna.endpoint).last_result == "201"
    assert ActionLog.objects.filter(action="push_notice_send", tournament=tournament).count() == 1


def test_a_public_tournaments_message_opens_the_players_table(vapid, push_service, tournament, director_actor,
                                                              django_capture_on_commit_callbacks):
    tournament.public = True
    tournament.save(update_fields=["public"])
    anna = allow(tournament, "Anna", push_service)
    seated = seat(director_actor, tournament, django_capture_on_commit_callbacks)
    table = Seat.objects.get(table__session=seated.session, entry__player__name="Anna").table
    assert anna.read(push_service.to("Anna")[0])["url"] == f"/t/{tournament.slug}/tables/{table.pk}/"


def test_gone_subscriptions_are_deleted_and_failures_counted(vapid, push_service, tournament, director_actor,
                                                             django_capture_on_commit_callbacks):
    for name in ("Anna", "Bob", "Celine", "Dominic"):
        allow(tournament, name, push_service)
    push_service.answers.update({"/push/Anna": 410, "/push/Bob": 404, "/push/Celine": 500})
    unreachable = Browser(endpoint="http://127.0.0.1:9/push/nobody")   # nothing listens on port 9
    push_subscribe(actor=Actor.system(), entry=tournament.entries.get(player__name="Eve"),
                   subscription=unreachable.subscription())
    seated = seat(director_actor, tournament, django_capture_on_commit_callbacks)

    left = dict(PushSubscription.objects.values_list("player__name", "last_result"))
    assert left == {"Celine": "500", "Dominic": "201", "Eve": "unreachable"}   # Anna's and Bob's are gone
    notice = PushNotice.objects.get(session=seated.session)
    assert (notice.sent, notice.delivered, notice.failed) == (5, 1, 4)


def test_five_minutes_left_once_per_session(vapid, push_service, tournament, director_actor,
                                            django_capture_on_commit_callbacks):
    anna = allow(tournament, "Anna", push_service)
    seated = seat(director_actor, tournament, django_capture_on_commit_callbacks)
    push_service.received.clear()
    now = timezone.now()
    Session.objects.filter(pk=seated.session.pk).update(clock_started_at=now - timedelta(minutes=40),
                                                        clock_ends_at=now + timedelta(minutes=4, seconds=40))
    assert push_clock_warnings(now=now - timedelta(minutes=2)) == 0   # 6 minutes 40 left: not yet
    assert tasks.push_clock_warnings() == 1   # beat's task, at the real now
    assert anna.read(push_service.to("Anna")[0])["body"] == "Session 1: 5 minutes left"
    assert push_service.to("Anna")[0].headers["ttl"] == "240"
    assert tasks.push_clock_warnings() == 0 and len(push_service.received) == 1   # once
    # The clock started again, with 5 minutes left once more: still once.
    Session.objects.filter(pk=seated.session.pk).update(clock_ends_at=now + timedelta(minutes=4, seconds=50))
    assert tasks.push_clock_warnings() == 0 and len(push_service.received) == 1
    assert PushNotice.objects.filter(session=seated.session, kind="five_minutes").count() == 1


def test_no_warning_for_a_clock_of_five_minutes_or_less_or_too_late(vapid, push_service, tournament, director_actor,
                                                                    django_capture_on_commit_callbacks):
    allow(tournament, "Anna", push_service)
    seated = seat(director_actor, tournament, django_capture_on_commit_callbacks)
    push_service.received.clear()
    now = timezone.now()
    Session.objects.filter(pk=seated.session.pk).update(clock_started_at=now - timedelta(seconds=30),
                                                        clock_ends_at=now + timedelta(minutes=4, seconds=30))
    assert tasks.push_clock_warnings() == 0   # a 5-minute clock: the warning would say nothing new
    Session.objects.filter(pk=seated.session.pk).update(clock_started_at=now - timedelta(minutes=30),
                                                        clock_ends_at=now + timedelta(minutes=3))
    assert tasks.push_clock_warnings() == 0   # 3 minutes left: "5 minutes left" would be wrong
    assert push_service.received == []


def test_standings_released_when_the_tournament_finishes(vapid, push_service, tournament, director_actor,
                                                         django_capture_on_commit_callbacks):
    anna, eve = allow(tournament, "Anna", push_service), allow(tournament, "Eve", push_service)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_finish(actor=director_actor, tournament=tournament)
    for name, browser in (("Anna", anna), ("Eve", eve)):
        message = browser.read(push_service.to(name)[0])
        assert message["body"] == "Spring open: standings released" and message["kind"] == "standings"
        assert push_service.to(name)[0].headers["ttl"] == "86400"
    assert push_counts(tournament) == {"sent": 2, "delivered": 2, "failed": 0}


def test_the_message_is_in_the_language_the_player_allowed_it_in(vapid, push_service, tournament, director_actor,
                                                                 django_capture_on_commit_callbacks):
    mei = allow(tournament, "Anna", push_service, language="zh-hans")
    seated = seat(director_actor, tournament, django_capture_on_commit_callbacks)
    where = Seat.objects.select_related("table").get(table__session=seated.session, entry__player__name="Anna")
    with translation.override("zh-hans"):
        from django.utils.translation import gettext
        expected = gettext("Session %(session)s: %(table)s, seat %(seat)s") % {
            "session": 1, "table": where.table.name, "seat": where.position + 1}
    body = mei.read(push_service.to("Anna")[0])["body"]
    assert body == expected and not body.startswith("Session")


def test_without_vapid_keys_nothing_is_sent_or_kept(push_service, tournament, director_actor, settings,
                                                    django_capture_on_commit_callbacks):
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    with pytest.raises(Conflict) as refused:
        allow(tournament, "Anna", push_service)
    assert refused.value.errors[0]["code"] == "notifications_off"
    with django_capture_on_commit_callbacks(execute=True) as queued:
        session_seat(actor=director_actor, tournament=tournament, method="random", table_size=4,
                     leftovers="sit_out", seed="1")
    assert not any("push" in repr(c) for c in queued)
    assert tasks.push_clock_warnings() == 0
    assert push_service.received == [] and not PushNotice.objects.exists() and not PushSubscription.objects.exists()


def test_a_phone_moves_to_the_player_it_proves_and_stops(vapid, push_service, tournament):
    phone = allow(tournament, "Anna", push_service)
    bob = tournament.entries.get(player__name="Bob")
    push_subscribe(actor=Actor.system(), entry=bob, subscription=phone.subscription())
    assert list(PushSubscription.objects.values_list("player__name", flat=True)) == ["Bob"]
    anna = tournament.entries.get(player__name="Anna")
    assert push_unsubscribe(actor=Actor.system(), entry=anna, endpoint=phone.endpoint) == 0   # not Anna's any more
    assert push_unsubscribe(actor=Actor.system(), entry=bob, endpoint=phone.endpoint) == 1
    assert not PushSubscription.objects.exists()
    assert list(ActionLog.objects.filter(action__startswith="push_").order_by("id").values_list("action", flat=True)) == [
        "push_subscribe", "push_subscribe", "push_unsubscribe"]


@pytest.mark.parametrize("subscription, path", [
    ({"endpoint": "ftp://x/y", "keys": {"p256dh": "x", "auth": "y"}}, "endpoint"),
    ({"endpoint": "http://push.example.org/a", "keys": {}}, "endpoint"),   # http only on this computer
    ("not a dict", ""),
])
def test_a_bad_subscription_is_refused_and_nothing_kept(vapid, tournament, subscription, path):
    with pytest.raises(ValidationFailed) as refused:
        push_subscribe(actor=Actor.system(), entry=tournament.entries.first(), subscription=subscription)
    assert refused.value.errors[0]["path"] == path
    assert not PushSubscription.objects.exists()


def test_a_phone_allowed_in_one_tournament_hears_of_the_clubs_next(vapid, push_service, tournament, club,
                                                                   director_actor, django_capture_on_commit_callbacks):
    """The subscription is the club's Player's: the next tournament's seating and (public)
    standings reach the same phone."""
    anna = allow(tournament, "Anna", push_service)
    later = tournament_create(actor=director_actor, club=club, name="Autumn open", game="jie_long", public=True)
    for player in club.players.filter(name__in=NAMES[:4]):
        entry_create(actor=director_actor, tournament=later, player=player)
    tournament_start(actor=director_actor, tournament=later)
    seat(director_actor, later, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_finish(actor=director_actor, tournament=later)
    later.refresh_from_db()
    seated, released = (anna.read(r) for r in push_service.to("Anna"))
    assert seated["title"] == "Autumn open" and seated["body"].startswith("Session 1: Table ")
    assert released["body"] == "Autumn open: standings released" and released["url"] == f"/t/{later.slug}/"


def test_beat_looks_for_the_last_five_minutes_every_20_seconds(settings):
    assert settings.CELERY_BEAT_SCHEDULE["push-clock-warnings"] == {"task": "scoring.push_clock_warnings",
                                                                    "schedule": 20.0}


def test_a_table_made_by_hand_sends_nothing(vapid, push_service, tournament, director_actor,
                                            django_capture_on_commit_callbacks):
    from scoring.services.tables import table_create

    allow(tournament, "Anna", push_service)
    with django_capture_on_commit_callbacks(execute=True):
        table_create(actor=director_actor, tournament=tournament, name="Extra",
                     entries=list(tournament.entries.all()[:4]))
    assert push_service.received == [] and not PushNotice.objects.exists()
