"""Limits on guessing and flooding: 429 with Retry-After, one sentence saying the wait once, and
the usual errors body past the limit; a legitimate scorer's burst of retries passes; valid links,
tokens and passwords are not refused for others' failures from the same address (a venue's
phones share one); other addresses and tables are not touched; and with the cache down the
limits step aside instead of refusing everyone."""

from __future__ import annotations

import os
import re

import pytest
from rest_framework.test import APIClient

from scoring.services.auth import auth_token_obtain
from scoring.web.throttling import RATES

from ..bodies import JIE_LONG

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _day_long_windows(settings):
    """The same allowances counted over a day: a test's requests never straddle two windows
    (the counters are fixed windows; a minute's boundary could fall between two requests)."""
    settings.RATE_LIMITS = {group: rate.split("/")[0] + "/d" for group, rate in RATES.items()}


def allowance(group: str) -> int:
    return int(RATES[group].split("/")[0])


def client_from(address: str) -> APIClient:
    return APIClient(REMOTE_ADDR=address)


def assert_limited(response) -> str:
    """A 429 with Retry-After whose message is one sentence stating that wait once; the message."""
    assert response.status_code == 429, response.content
    seconds = int(response["Retry-After"])
    assert seconds >= 1
    if response["Content-Type"].startswith("application/json"):
        body = response.json()
        assert body["errors"][0]["code"] == "throttled" and body["errors"][0]["path"] == ""
        message = body["errors"][0]["message"]
        assert body["detail"] == message
    else:
        message = re.search(r'<p role="alert">(.*?)</p>', response.content.decode(), flags=re.S).group(1)
        assert str(seconds) not in response.content.decode().replace(message, "")
    assert message.count(str(seconds)) == 1, message
    assert re.fullmatch(rf"[^.]+: try again in {seconds} seconds?\.", message), message
    return message


def test_failed_api_logins_are_limited_per_account(director):
    c = client_from("10.0.0.1")
    for i in range(allowance("login-account")):
        r = c.post("/api/v1/auth/token/", {"username": "alice", "password": f"guess{i}"}, format="json")
        assert r.status_code == 400
    r = c.post("/api/v1/auth/token/", {"username": "alice", "password": "alice-secret-1"}, format="json")
    assert_limited(r)
    # Another account from the same address is not locked by alice's failures.
    assert client_from("10.0.0.1").post("/api/v1/auth/token/", {"username": "bruno", "password": "x"},
                                        format="json").status_code == 400


def test_failed_api_logins_are_limited_per_address(director):
    c = client_from("10.0.0.2")
    for i in range(allowance("login-address")):
        c.post("/api/v1/auth/token/", {"username": f"user{i}", "password": "x"}, format="json")
    assert_limited(c.post("/api/v1/auth/token/", {"username": "alice", "password": "alice-secret-1"}, format="json"))
    r = client_from("10.0.0.3").post("/api/v1/auth/token/", {"username": "alice", "password": "alice-secret-1"},
                                     format="json")
    assert r.status_code == 200


def test_failed_page_logins_are_limited(client, director):
    for i in range(allowance("login-account")):
        assert client.post("/director/login/", {"username": "alice", "password": f"guess{i}"}).status_code == 200
    r = client.post("/director/login/", {"username": "alice", "password": "alice-secret-1"})
    assert_limited(r)
    assert "Too many failed logins" in r.content.decode()


def test_guessing_a_password_from_one_address_does_not_lock_the_director_out(client, director):
    """Ten wrong passwords for alice from A: A is refused, alice from B gets in at once."""
    a = client_from("10.0.1.1")
    for i in range(allowance("login-account")):
        assert a.post("/api/v1/auth/token/", {"username": "alice", "password": f"guess{i}"},
                      format="json").status_code == 400
    assert_limited(a.post("/api/v1/auth/token/", {"username": "alice", "password": "alice-secret-1"}, format="json"))
    assert_limited(client.post("/director/login/", {"username": "alice", "password": "alice-secret-1"},
                               REMOTE_ADDR="10.0.1.1"))
    r = client_from("10.0.1.2").post("/api/v1/auth/token/", {"username": "alice", "password": "alice-secret-1"},
                                     format="json")
    assert r.status_code == 200 and r.json()["token"]
    r = client.post("/director/login/", {"username": "alice", "password": "alice-secret-1"}, REMOTE_ADDR="10.0.1.2")
    assert r.status_code == 302 and r["Location"] == "/director/"


def test_guessing_a_password_from_one_address_on_the_page_does_not_lock_the_director_out(client, director):
    for i in range(allowance("login-account")):
        assert client.post("/director/login/", {"username": "alice", "password": f"guess{i}"},
                           REMOTE_ADDR="10.0.1.3").status_code == 200
    assert_limited(client_from("10.0.1.3").post("/api/v1/auth/token/",
                                                {"username": "alice", "password": "alice-secret-1"}, format="json"))
    r = client.post("/director/login/", {"username": "alice", "password": "alice-secret-1"}, REMOTE_ADDR="10.0.1.4")
    assert r.status_code == 302


def test_failed_page_logins_are_limited_per_address_across_accounts(client, director):
    for i in range(allowance("login-address")):
        client.post("/director/login/", {"username": f"user{i}", "password": "x"}, REMOTE_ADDR="10.0.1.5")
    message = assert_limited(client.post("/director/login/", {"username": "alice", "password": "alice-secret-1"},
                                         REMOTE_ADDR="10.0.1.5"))
    assert "from this address" in message


def test_an_account_guessed_from_many_addresses_refuses_only_those_that_failed(client, director):
    """A spread-out attack: each address stays under its own allowance, the account's allowance
    from everywhere is used up. An address that failed for alice is refused; the right password
    from an address that has not been guessing gets in at once."""
    per_address = allowance("login-account") - 1
    addresses = [f"10.0.2.{n}" for n in range(-(-allowance("login-account-anywhere") // per_address))]
    for address in addresses:
        for i in range(per_address):
            client_from(address).post("/api/v1/auth/token/", {"username": "alice", "password": f"guess{i}"},
                                      format="json")
    r = client_from(addresses[0]).post("/api/v1/auth/token/", {"username": "alice", "password": "alice-secret-1"},
                                       format="json")
    assert "for this account, some from this address" in assert_limited(r)
    assert_limited(client.post("/director/login/", {"username": "alice", "password": "alice-secret-1"},
                               REMOTE_ADDR=addresses[-1]))
    # Other accounts from those addresses are not refused for alice's attack.
    assert client_from(addresses[0]).post("/api/v1/auth/token/", {"username": "bruno", "password": "x"},
                                          format="json").status_code == 400
    r = client_from("10.0.2.200").post("/api/v1/auth/token/", {"username": "alice", "password": "alice-secret-1"},
                                       format="json")
    assert r.status_code == 200
    r = client.post("/director/login/", {"username": "alice", "password": "alice-secret-1"}, REMOTE_ADDR="10.0.2.201")
    assert r.status_code == 302


def test_the_refusal_is_translated(client, director):
    for i in range(allowance("login-account")):
        client.post("/director/login/", {"username": "alice", "password": f"guess{i}"})
    r = client.post("/director/login/", {"username": "alice", "password": "x"}, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert r.status_code == 429
    message = re.search(r'<p role="alert">(.*?)</p>', r.content.decode(), flags=re.S).group(1)
    assert "Too many" not in message and message.count(r["Retry-After"]) == 1, message
    assert message.count("。") == 1 and message.endswith(f"请在 {r['Retry-After']} 秒后再试。"), message


def test_guessing_scorer_links_is_limited_per_address(client, jie_long):
    for i in range(allowance("scorer-token")):
        assert client.get(f"/s/guess-{i}/").status_code == 404
    assert_limited(client.get("/s/one-more-guess/"))
    assert client.get("/s/one-more-guess/", REMOTE_ADDR="10.0.0.9").status_code == 404


def test_a_valid_scorer_link_passes_from_an_address_over_its_unknown_links(client, jie_long):
    """One guesser behind the venue's shared address does not stop the other tables' phones."""
    for i in range(allowance("scorer-token") + 5):
        client.get(f"/s/guess-{i}/")
    assert client.get(f"/s/{jie_long.token}/").status_code == 200
    assert client.post(f"/s/{jie_long.token}/", {"level": "points", "leader": "0", "entered_by": "1",
                                                 "idem_key": "k", "action": "preview"}).status_code == 302
    assert_limited(client.get("/s/still-guessing/"))


def test_guessing_scorer_tokens_over_the_api_is_limited(jie_long):
    c = client_from("10.0.0.4")
    url = f"/api/v1/tables/{jie_long.table.pk}/"
    for i in range(allowance("scorer-token")):
        assert c.get(url, HTTP_AUTHORIZATION=f"Scorer guess-{i}").status_code == 401
    assert c.get(url, HTTP_AUTHORIZATION=f"Scorer {jie_long.token}").status_code == 200
    assert_limited(c.get(url, HTTP_AUTHORIZATION="Scorer another-guess"))
    assert c.get(url, HTTP_AUTHORIZATION=f"Scorer {jie_long.token}").status_code == 200


def test_guessing_director_tokens_is_limited(director):
    c = client_from("10.0.0.5")
    for i in range(allowance("director-token")):
        assert c.get("/api/v1/clubs/", HTTP_AUTHORIZATION=f"Token guess-{i}").status_code == 401
    assert_limited(c.get("/api/v1/clubs/", HTTP_AUTHORIZATION="Token another-guess"))
    # The director's own token, from the same address, is not refused for the guesses.
    token = auth_token_obtain(username="alice", password="alice-secret-1")
    assert c.get("/api/v1/clubs/", HTTP_AUTHORIZATION=f"Token {token}").status_code == 200


def test_a_scorers_burst_of_retries_passes_and_a_flood_is_stopped(jie_long, make_setup, scorer_client_for):
    scorer = scorer_client_for(jie_long.token)
    url = f"/api/v1/tables/{jie_long.table.pk}/rounds/"
    # A phone on bad wifi retrying the same deal twenty times: every retry answered, one deal.
    for _ in range(20):
        r = scorer.post(url, JIE_LONG, format="json", HTTP_IDEMPOTENCY_KEY="the-same-deal")
        assert r.status_code == 201
    assert jie_long.table.rounds.count() == 1
    # The retries of a stored deal do not count: the first one did.
    for i in range(allowance("round-create") - 1):
        assert scorer.post(url, JIE_LONG, format="json", HTTP_IDEMPOTENCY_KEY=f"deal-{i}").status_code == 201
    assert_limited(scorer.post(url, JIE_LONG, format="json", HTTP_IDEMPOTENCY_KEY="one-too-many"))
    # Another table is not slowed by this one.
    other = make_setup("jie_long", names=["W", "X", "Y", "Z"])
    r = scorer_client_for(other.token).post(f"/api/v1/tables/{other.table.pk}/rounds/", JIE_LONG, format="json")
    assert r.status_code == 201


def test_a_replayed_deal_is_answered_after_the_links_deals_are_used_up(jie_long, scorer_client_for):
    scorer = scorer_client_for(jie_long.token)
    url = f"/api/v1/tables/{jie_long.table.pk}/rounds/"
    first = scorer.post(url, JIE_LONG, format="json", HTTP_IDEMPOTENCY_KEY="deal-0")
    for i in range(1, allowance("round-create")):
        assert scorer.post(url, JIE_LONG, format="json", HTTP_IDEMPOTENCY_KEY=f"deal-{i}").status_code == 201
    assert_limited(scorer.post(url, JIE_LONG, format="json", HTTP_IDEMPOTENCY_KEY="a-new-deal"))
    r = scorer.post(url, JIE_LONG, format="json", HTTP_IDEMPOTENCY_KEY="deal-0")
    assert r.status_code == 201 and r["Idempotent-Replayed"] == "true"
    assert r.json() == first.json()
    assert_limited(scorer.post(url, JIE_LONG, format="json", HTTP_IDEMPOTENCY_KEY="a-new-deal"))
    assert jie_long.table.rounds.count() == allowance("round-create")


def test_a_deal_resent_from_the_page_is_answered_after_the_links_deals_are_used_up(client, jie_long,
                                                                                   scorer_client_for):
    form = {"level": "points", "leader": "0", "entered_by": "1", "idem_key": "page-deal", "action": "submit",
            "points_0": "2", "points_1": "12", "points_2": "34", "points_3": "18"}
    page = f"/s/{jie_long.token}/"
    assert client.post(page, form).status_code == 302
    scorer = scorer_client_for(jie_long.token)
    for i in range(1, allowance("round-create")):
        scorer.post(f"/api/v1/tables/{jie_long.table.pk}/rounds/", JIE_LONG, format="json",
                    HTTP_IDEMPOTENCY_KEY=f"deal-{i}")
    assert_limited(client.post(page, {**form, "idem_key": "a-new-deal"}))
    r = client.post(page, form, HTTP_ACCEPT="application/json")
    assert r.status_code == 201 and r.json()["status"] == "saved" and r.json()["replayed"] is True, r.content
    assert jie_long.table.rounds.count() == allowance("round-create")


def test_with_the_cache_down_the_limits_step_aside(director, jie_long, settings, client):
    """A real Redis client against a port where nothing listens: connection refused."""
    from tests.integration.stack import free_port

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
                                   "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2}}}
    c = client_from("10.0.0.6")
    for i in range(allowance("login-account") + 2):
        c.post("/api/v1/auth/token/", {"username": "alice", "password": f"guess{i}"}, format="json")
    r = c.post("/api/v1/auth/token/", {"username": "alice", "password": "alice-secret-1"}, format="json")
    assert r.status_code == 200
    assert client.get(f"/s/{jie_long.token}/").status_code == 200


def test_with_the_cache_down_deals_are_recorded(jie_long, settings, scorer_client_for):
    """The deal limit's one round trip to Redis (``throttling.hit``) steps aside too."""
    from tests.integration.stack import free_port

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
                                   "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2}}}
    r = scorer_client_for(jie_long.token).post(f"/api/v1/tables/{jie_long.table.pk}/rounds/", JIE_LONG,
                                               format="json", HTTP_IDEMPOTENCY_KEY="down")
    assert r.status_code == 201


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="counts in Redis: needs REDIS_URL")
def test_the_count_in_one_round_trip_to_redis_is_django_ratelimits(rf, settings):
    from scoring.web import throttling

    settings.RATE_LIMITS = {"round-create": "3/m"}   # counted under this test's own prefix (conftest)
    request = rf.post("/")
    for n in (1, 2, 3):
        throttling.hit(request, "round-create", "table-9")
        # The same key and count as django-ratelimit's own reading of it.
        assert throttling._usage(request, "round-create", "table-9", increment=False)["count"] == n
    with pytest.raises(throttling.Limited):
        throttling.hit(request, "round-create", "table-9")
    throttling.hit(request, "round-create", "table-10")   # another link: its own count


@pytest.mark.django_db(transaction=True)
def test_codes_typed_at_once_are_checked_no_more_often_than_the_allowance(make_setup, rf):
    """24 wrong codes for one player sent together: each takes its place in the count before it is
    checked, so only the allowance's worth are checked at all (against the cache the tests use:
    local memory, or Redis with REDIS_URL); the rest are refused unchecked."""
    import threading
    import time

    from scoring.domain.proof import PlayerProof
    from scoring.selectors.players import proven_entry
    from scoring.services.players import entry_code_issue
    from scoring.web import throttling

    from ..concurrency import run_concurrently

    s = make_setup("jie_long", require_proof=True)
    entry_code_issue(actor=s.director_actor, entry=s.entries[1])
    checked, lock = [], threading.Lock()

    def check(proof):
        with lock:
            checked.append(proof.code)
        time.sleep(0.05)   # the checks overlap, as password hashing makes them
        return proven_entry(table=s.table, seat=1, proof=proof, path="code", seat_path="seat")

    def guess(i):
        proof = PlayerProof(code=f"{i:04d}")   # never the 6-digit card
        return throttling.player_code_guarded(rf.post("/"), s.table, 1, proof, lambda: check(proof))

    answers = run_concurrently(24, guess)
    assert len(checked) == allowance("player-code")
    kinds = sorted(type(a).__name__ for a in answers)
    assert kinds == ["Limited"] * (24 - allowance("player-code")) + ["PermissionDenied"] * allowance("player-code")
