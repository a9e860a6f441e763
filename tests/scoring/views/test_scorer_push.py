"""The scorer page's notifications (``scoring.views.scorer_push``): offered only to the player this
phone proved, only where the site has VAPID keys; the subscription POSTed is tied to that player;
refused without proof, with bad JSON or a bad subscription (nothing kept); stopped on request.
And the director's console: the counts, only where notifications are on."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from scoring.domain.push import new_key_pair
from scoring.models import ActionLog, PushNotice, PushSubscription
from tests.scoring.push_service import Browser

pytestmark = pytest.mark.django_db

HANS = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


@pytest.fixture
def proof(make_setup):
    return make_setup("jie_long", require_proof=True)


@pytest.fixture
def vapid(settings):
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = new_key_pair()
    return settings.VAPID_PUBLIC_KEY


def proven_phone(setup, seat: int = 0) -> Client:
    phone = Client()
    assert phone.post(f"/s/{setup.token}/who/", {"seat": str(seat), "code": "4821", "code_again": "4821"}).status_code == 302
    return phone


def post(phone, url, body, **extra):
    return phone.post(url, json.dumps(body) if not isinstance(body, str) else body,
                      content_type="application/json", **extra)


def test_without_keys_the_page_says_nothing_of_notifications(proof, settings):
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    page = proven_phone(proof).get(f"/s/{proof.token}/").content.decode()
    assert 'id="notifications"' not in page and "push.js" not in page and "otification" not in page


def test_the_proven_player_is_offered_notifications(proof, vapid):
    page = proven_phone(proof).get(f"/s/{proof.token}/").content.decode()
    assert 'id="notifications"' in page and f'data-key="{vapid}"' in page and "js/push.js" in page
    assert "Allow notifications" in page and "Stop notifications" in page
    stranger = Client().get(f"/s/{proof.token}/").content.decode()
    assert 'id="notifications"' not in stranger and "push.js" not in stranger   # proves nobody


def test_the_subscription_is_tied_to_the_proven_player(proof, vapid, django_assert_max_num_queries):
    phone = proven_phone(proof, seat=1)
    browser = Browser(endpoint="https://push.example.org/send/abc")
    with django_assert_max_num_queries(16):
        r = post(phone, f"/s/{proof.token}/notifications/", browser.subscription(), **HANS)
    assert r.status_code == 201 and r.json() == {"status": "subscribed"}
    sub = PushSubscription.objects.get()
    assert sub.player_id == proof.entries[1].player_id and sub.endpoint == browser.endpoint
    assert sub.language == "zh-hans"
    assert ActionLog.objects.filter(action="push_subscribe", tournament=proof.tournament).count() == 1
    r = post(phone, f"/s/{proof.token}/notifications/stop/", {"endpoint": browser.endpoint})
    assert r.status_code == 200 and r.json() == {"status": "unsubscribed", "deleted": 1}
    assert not PushSubscription.objects.exists()


def test_a_phone_that_proves_nobody_is_refused(proof, vapid):
    r = post(Client(), f"/s/{proof.token}/notifications/", Browser(endpoint="https://push.example.org/x").subscription())
    assert r.status_code == 403 and r.json()["errors"][0]["code"] == "player_proof_required"
    assert set(r.json()["errors"][0]) == {"path", "code", "message"}
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize("body, code", [
    ("{not json", "bad_json"),
    ("[1, 2]", "bad_type"),
    ({"endpoint": "https://push.example.org/x", "keys": {"p256dh": "AAAA", "auth": "AAAA"}}, "bad_key"),
    ({"endpoint": "javascript:alert(1)", "keys": {}}, "bad_endpoint"),
])
def test_bad_input_is_refused_and_nothing_kept(proof, vapid, body, code):
    r = post(proven_phone(proof), f"/s/{proof.token}/notifications/", body)
    assert r.status_code == 400 and r.json()["errors"][0]["code"] == code
    assert not PushSubscription.objects.exists()


def test_without_keys_a_subscription_is_refused(proof, settings):
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    r = post(proven_phone(proof), f"/s/{proof.token}/notifications/", Browser(endpoint="https://p.example/x").subscription())
    assert r.status_code == 409 and r.json()["errors"][0]["code"] == "notifications_off"


def test_an_unknown_link_is_a_404(vapid):
    r = post(Client(), "/s/no-such-link/notifications/", {})
    assert r.status_code == 404 and not PushSubscription.objects.exists()


def test_the_console_shows_the_counts_only_when_notifications_are_on(client, jie_long, settings):
    client.login(username="alice", password="alice-secret-1")
    url = f"/director/tournaments/{jie_long.tournament.pk}/"
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    assert 'id="push-counts"' not in client.get(url).content.decode()
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = new_key_pair()
    PushNotice.objects.create(tournament=jie_long.tournament, kind="standings", sent=5, delivered=3, failed=2)
    page = client.get(url).content.decode()
    assert '<dd id="push-sent">5</dd>' in page and '<dd id="push-delivered">3</dd>' in page
    assert '<dd id="push-failed">2</dd>' in page
