"""Players' proof over the API: codes issued and reset by the director (shown once, no-store),
deals recorded with the enterer's code and confirmed with another player's, every refusal
(proof required, wrong code, self-confirmation) and the guessing limit per player."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.models import ActionLog, Entry, Round
from scoring.services.players import entry_code_set

from ..bodies import JIE_LONG

pytestmark = pytest.mark.django_db

CODES = ["1111", "2222", "3333", "4444"]   # Anna, Bob, Celine, Dominic


def errors_of(response):
    return [(e["path"], e["code"]) for e in response.json()["errors"]]


@pytest.fixture
def proof(make_setup):
    """A running Jie Long tournament that counts confirmed deals and requires proof; every player
    has a code."""
    s = make_setup("jie_long", require_confirmation=True, require_proof=True)
    for entry, code in zip(s.entries, CODES):
        entry_code_set(actor=s.director_actor, entry=entry, code=code)
    return s


def scorer(setup, address: str = "10.1.1.1") -> APIClient:
    c = APIClient(REMOTE_ADDR=address)
    c.credentials(HTTP_AUTHORIZATION=f"Scorer {setup.token}")
    return c


def record(setup, client=None, **extra):
    return (client or scorer(setup)).post(f"/api/v1/tables/{setup.table.pk}/rounds/", {**JIE_LONG, **extra},
                                          format="json")


def confirm(setup, round_id, client=None, **data):
    return (client or scorer(setup)).post(f"/api/v1/rounds/{round_id}/confirm/", data, format="json")


def test_a_deal_is_recorded_with_the_enterers_code_and_names_them_proven(proof):
    r = record(proof, entered_by=0)
    assert r.status_code == 403 and errors_of(r) == [("entered_by_code", "player_proof_required")]
    r = record(proof, entered_by=0, entered_by_code="9999")
    assert r.status_code == 403 and errors_of(r) == [("entered_by_code", "wrong_player_code")]
    r = record(proof, entered_by=0, entered_by_code="1111")
    assert r.status_code == 201, r.content
    assert r.json()["entered_by"] == 0 and r.json()["entered_by_entry"] == proof.entries[0].pk
    rnd = Round.objects.get(pk=r.json()["id"])
    assert rnd.entered_by_entry_id == proof.entries[0].pk
    # The code is no part of what is stored; the revision and the log name the proven player.
    assert "entered_by_code" not in rnd.current_revision.body
    assert rnd.current_revision.actor_label.endswith("entered by Anna (proven)")
    log = ActionLog.objects.get(action="round_record", target_id=str(rnd.pk))
    assert log.data["entered_by_entry"] == proof.entries[0].pk and "1111" not in str(log.data)


def test_a_code_needs_its_seat_and_its_shape(proof):
    r = record(proof, entered_by_code="1111")
    assert r.status_code == 400 and errors_of(r) == [("entered_by", "required")]
    r = record(proof, entered_by=0, entered_by_code="12ab")
    assert r.status_code == 400 and errors_of(r) == [("entered_by_code", "bad_code")]
    r = record(proof, entered_by=0, entered_by_code=1111)
    assert r.status_code == 400 and errors_of(r) == [("entered_by_code", "bad_code")]


def test_confirming_needs_another_players_code(proof):
    rnd = record(proof, entered_by=0, entered_by_code="1111").json()["id"]
    r = confirm(proof, rnd, confirmed_by=1)
    assert r.status_code == 403 and errors_of(r) == [("confirmed_by_code", "player_proof_required")]
    r = confirm(proof, rnd, confirmed_by=1, confirmed_by_code="1111")
    assert r.status_code == 403 and errors_of(r) == [("confirmed_by_code", "wrong_player_code")]
    # The enterer, even with their own right code: a conflict, not a proof problem.
    r = confirm(proof, rnd, confirmed_by=0, confirmed_by_code="1111")
    assert r.status_code == 409 and errors_of(r) == [("confirmed_by", "self_confirmation")]
    assert Round.objects.get(pk=rnd).status == "recorded"
    r = confirm(proof, rnd, confirmed_by=1, confirmed_by_code="2222")
    assert r.status_code == 200, r.content
    body = r.json()
    assert (body["status"], body["confirmed_by"], body["confirmed_by_entry"]) == ("confirmed", 1, proof.entries[1].pk)
    assert ActionLog.objects.get(action="round_confirm").actor_label.endswith("confirmed by Bob (proven)")


def test_the_wrong_code_limit_is_per_player(proof, settings):
    settings.RATE_LIMITS = {"player-code": "5/d"}   # a day's window: no test straddles two
    rnd = record(proof, entered_by=0, entered_by_code="1111").json()["id"]
    for _ in range(5):
        r = confirm(proof, rnd, confirmed_by=1, confirmed_by_code="0000")
        assert r.status_code == 403 and errors_of(r) == [("confirmed_by_code", "wrong_player_code")]
    # Past the allowance Bob's code is refused, even the right one: were it let
    # through, the refusals would tell a guesser which code is right.
    r = confirm(proof, rnd, confirmed_by=1, confirmed_by_code="2222")
    assert r.status_code == 429 and int(r["Retry-After"]) >= 1
    assert errors_of(r) == [("", "throttled")] and "wrong codes for this player:" in r.json()["detail"]
    # Another player's right code from the same address (the venue's) is not refused...
    r = confirm(proof, rnd, confirmed_by=2, confirmed_by_code="3333")
    assert r.status_code == 200, r.content
    # ... nor is Anna's right code recording the next deal from another phone at the same address.
    assert record(proof, scorer(proof, "10.1.1.1"), entered_by=0, entered_by_code="1111").status_code == 201


def test_without_proof_required_codes_are_optional_and_checked_when_sent(make_setup):
    s = make_setup("jie_long", require_confirmation=True, require_proof=False)
    entry_code_set(actor=s.director_actor, entry=s.entries[1], code="2222")
    rnd = record(s, entered_by=0).json()
    assert rnd["entered_by_entry"] is None
    r = confirm(s, rnd["id"], confirmed_by=0)
    assert r.status_code == 400 and errors_of(r) == [("confirmed_by", "same_seat")]   # as before
    r = confirm(s, rnd["id"], confirmed_by=1, confirmed_by_code="9999")
    assert r.status_code == 403 and errors_of(r) == [("confirmed_by_code", "wrong_player_code")]
    r = confirm(s, rnd["id"], confirmed_by=1, confirmed_by_code="2222")
    assert r.status_code == 200 and r.json()["confirmed_by_entry"] == s.entries[1].pk


def test_a_director_records_and_confirms_without_codes(proof, director_client):
    r = director_client.post(f"/api/v1/tables/{proof.table.pk}/rounds/", {**JIE_LONG, "entered_by": 0}, format="json")
    assert r.status_code == 201 and r.json()["entered_by_entry"] is None
    r = director_client.post(f"/api/v1/rounds/{r.json()['id']}/confirm/", {"confirmed_by": 0}, format="json")
    assert r.status_code == 409 and errors_of(r) == [("confirmed_by", "self_confirmation")]


def test_the_code_is_no_part_of_the_idempotency_keys_fingerprint(proof):
    c = scorer(proof)
    url = f"/api/v1/tables/{proof.table.pk}/rounds/"
    first = c.post(url, {**JIE_LONG, "entered_by": 0, "entered_by_code": "1111"}, format="json",
                   HTTP_IDEMPOTENCY_KEY="deal-1")
    assert first.status_code == 201
    again = c.post(url, {**JIE_LONG, "entered_by": 0, "entered_by_code": "1111"}, format="json",
                   HTTP_IDEMPOTENCY_KEY="deal-1")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json() and Round.objects.count() == 1


def test_the_director_issues_a_code_shown_once_and_resets_it(proof, director_client):
    anna = proof.entries[0]
    url = f"/api/v1/tournaments/{proof.tournament.pk}/entries/{anna.player_id}/code/"
    r = director_client.post(url)
    assert r.status_code == 200 and r["Cache-Control"] == "no-store"
    code = r.json()["code"]
    assert len(code) == 6 and code.isdigit() and r.json()["name"] == "Anna"
    assert record(proof, entered_by=0, entered_by_code="1111").status_code == 403   # the old code stops
    assert record(proof, entered_by=0, entered_by_code=code).status_code == 201
    entries = director_client.get(f"/api/v1/tournaments/{proof.tournament.pk}/entries/").json()["results"]
    assert {e["name"]: e["has_code"] for e in entries}["Anna"] is True
    assert director_client.delete(url).status_code == 204
    assert not Entry.objects.select_related("player").get(pk=anna.pk).player.code_hash
    r = record(proof, entered_by=0, entered_by_code=code)
    assert r.status_code == 403 and errors_of(r) == [("entered_by_code", "player_code_not_set")]
    assert set(ActionLog.objects.filter(target_id=str(anna.pk)).values_list("action", flat=True)) >= {
        "entry_code_issue", "entry_code_reset"}


def test_codes_are_the_directors_to_issue(proof, scorer_client_for, other_director):
    anna = proof.entries[0]
    url = f"/api/v1/tournaments/{proof.tournament.pk}/entries/{anna.player_id}/code/"
    assert scorer_client_for(proof.token).post(url).status_code in (403, 404)
    from scoring.services.auth import auth_token_obtain
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {auth_token_obtain(username='bruno', password='bruno-secret-1')}")
    assert other.post(url).status_code == 404 and other.delete(url).status_code == 404


def test_require_proof_follows_confirmation_at_creation_and_can_change(director_client, club):
    def create(**extra):
        r = director_client.post("/api/v1/tournaments/", {"club": club.pk, "name": f"T {len(extra)} {extra}",
                                                          "game": "jie_long", **extra}, format="json")
        assert r.status_code == 201, r.content
        return r.json()

    assert create()["require_proof"] is False
    assert create(require_confirmation=True)["require_proof"] is True
    t = create(require_confirmation=True, require_proof=False)
    assert t["require_proof"] is False
    r = director_client.patch(f"/api/v1/tournaments/{t['id']}/", {"require_proof": True}, format="json")
    assert r.status_code == 200 and r.json()["require_proof"] is True
