"""Hostile and broken input is answered with a 4xx and a path, never a 500, and changes nothing:
text the database cannot store, oversized numbers and bodies, absurd headers, and whatever
hypothesis can make of JSON (arbitrary, and near-valid deals)."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import ActionLog, Club, Player, Round, RoundRevision, Table, Tournament, TournamentImport

from .bodies import JIE_LONG

pytestmark = pytest.mark.django_db

SURROGATE = '"\\ud800"'   # JSON text of a lone surrogate, as a hostile client sends it


def post_raw(client, url, text, **headers):
    return client.post(url, text, content_type="application/json", **headers)


def errors_of(r):
    return [(e["path"], e["code"]) for e in r.json()["errors"]]


def test_a_lone_surrogate_anywhere_is_a_400_with_its_path(anon_client, jie_long, scorer_client_for):
    r = post_raw(anon_client, "/api/v1/evaluate/", '{"game": "jie_long", "seats": ["A", %s]}' % SURROGATE)
    assert r.status_code == 400 and errors_of(r) == [("seats[1]", "bad_text")]
    r = post_raw(anon_client, "/api/v1/evaluate/", "[%s]" % SURROGATE)
    assert r.status_code == 400 and errors_of(r) == [("[0]", "bad_text")]
    scorer = scorer_client_for(jie_long.token)
    r = post_raw(scorer, f"/api/v1/tables/{jie_long.table.pk}/rounds/", '{"points": [1, 2, 3, 4], "x": {%s: 1}}'
                 % SURROGATE)
    assert r.status_code == 400 and errors_of(r)[0][1] == "bad_text"
    assert not Round.objects.exists()


def test_nul_in_a_correction_reason_is_a_400(jie_long, scorer_client_for):
    scorer = scorer_client_for(jie_long.token)
    created = scorer.post(f"/api/v1/tables/{jie_long.table.pk}/rounds/", JIE_LONG, format="json").json()
    r = scorer.put(f"/api/v1/rounds/{created['id']}/", {**JIE_LONG, "reason": "typo\u0000"}, format="json",
                   HTTP_IF_MATCH='"1"')
    assert r.status_code == 400 and errors_of(r) == [("reason", "bad_text")]
    assert RoundRevision.objects.count() == 1


def test_nul_in_a_page_form_reason_is_refused(client, jie_long):
    from scoring.services.rounds import round_record
    rnd = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    r = client.post(f"/s/{jie_long.token}/deals/{rnd.pk}/correct/",
                    {"level": "points", "leader": "0", "points_0": "2", "points_1": "12", "points_2": "34",
                     "points_3": "18", "reason": "typo\x00", "revision": "1", "action": "save"})
    assert r.status_code == 400
    assert RoundRevision.objects.count() == 1


@pytest.mark.parametrize("if_match", ['"' + "9" * 5000 + '"', "9" * 40, '"１"', "W/", '"-1"', "*", '""3""',
                                      '"3", "4"', "3\n"])
def test_absurd_if_match_is_a_400(jie_long, scorer_client_for, if_match):
    scorer = scorer_client_for(jie_long.token)
    created = scorer.post(f"/api/v1/tables/{jie_long.table.pk}/rounds/", JIE_LONG, format="json").json()
    r = scorer.put(f"/api/v1/rounds/{created['id']}/", {**JIE_LONG, "reason": "x"}, format="json",
                   HTTP_IF_MATCH=if_match)
    assert r.status_code == 400 and errors_of(r) == [("", "bad_if_match")]


@pytest.mark.parametrize("session", [2**31, 2**63, -1, 0])
def test_session_numbers_out_of_range_are_a_400(director_client, jie_long, session):
    r = director_client.post(f"/api/v1/tournaments/{jie_long.tournament.pk}/tables/",
                             {"name": "T9", "entries": [e.pk for e in jie_long.entries], "session": session},
                             format="json")
    assert r.status_code == 400 and errors_of(r)[0][0] == "session"


@pytest.mark.parametrize("entry", [2**63, 2**70, -5])
def test_entry_ids_out_of_range_are_a_400(director_client, jie_long, entry):
    r = director_client.post(f"/api/v1/tournaments/{jie_long.tournament.pk}/tables/",
                             {"name": "T9", "entries": [entry] + [e.pk for e in jie_long.entries[1:]], "session": 2},
                             format="json")
    assert r.status_code == 400 and errors_of(r)[0][0].startswith("entries")


@pytest.mark.parametrize("text", ['{"game": "jie_long", "points": [NaN, 1]}', "Infinity", '{"a": -Infinity}'])
def test_non_json_numbers_are_a_400(anon_client, text):
    r = post_raw(anon_client, "/api/v1/evaluate/", text)
    assert r.status_code == 400 and errors_of(r)[0][1] == "parse_error"


def test_an_oversized_body_is_a_json_413(anon_client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    r = post_raw(anon_client, "/api/v1/evaluate/", json.dumps({"game": "jie_long", "x": "a" * 20_000}))
    assert r.status_code == 413 and errors_of(r) == [("", "too_large")]


def test_a_nul_in_a_form_login_is_refused_before_the_database(anon_client, director):
    """Form bodies skipped the JSON parser's check for unstorable text: a NUL in the username
    reached the user look-up, a 500 on PostgreSQL. The API takes JSON only now."""
    r = anon_client.post("/api/v1/auth/token/", {"username": "al\x00ice", "password": "x"})
    assert r.status_code == 415
    r = anon_client.post("/api/v1/auth/token/", {"username": "al\x00ice", "password": "x"}, format="json")
    assert r.status_code == 400 and errors_of(r) == [("username", "bad_text")]


# --- a NUL in the director's page forms (issue 16) ----------------------------------------------
# PostgreSQL refuses a NUL in text: the pages answered 500 where the API refuses with a path.
# ``postgres_refuses_nul`` makes SQLite refuse it too, so each test fails where the NUL would
# reach the database.

NUL_REFUSED = "Text may not contain NUL characters."


@pytest.fixture
def dclient(client, director, postgres_refuses_nul):
    client.force_login(director)
    return client


def field_has_error(page: str, field_id: str) -> bool:
    """The form field labelled ``field_id`` is marked and carries the NUL refusal below it."""
    m = re.search(rf'<div class="field[^"]* has-error"><label for="{field_id}">(.*?)</div>', page, re.S)
    return bool(m) and NUL_REFUSED in m.group(1)


@pytest.mark.parametrize("field", ["name", "currency"])
def test_a_nul_in_the_new_tournament_form_is_refused_under_its_field(dclient, club, field):
    form = {"name": "Spring open", "game": "jie_long", "currency": "EUR", field: "E\x00R"}
    r = dclient.post(f"/director/clubs/{club.pk}/tournaments/new/", form)
    assert r.status_code == 400 and field_has_error(r.content.decode(), f"t-{field}")
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("field", ["name", "currency"])
def test_a_nul_in_the_settings_form_is_refused_under_its_field(dclient, jie_long, field):
    t = jie_long.tournament
    form = {"name": t.name, "public": "on", "chip_value": "0.50", "currency": "EUR", "tie_break_0": "net",
            field: "E\x00R"}
    r = dclient.post(f"/director/tournaments/{t.pk}/settings/", form)
    assert r.status_code == 400 and field_has_error(r.content.decode(), f"s-{field}")
    t.refresh_from_db()
    assert (t.name, t.currency) == ("jie_long open 1", "EUR")
    assert not ActionLog.objects.filter(action="tournament_update").exists()


def test_a_nul_in_the_table_form_is_refused_under_its_field(dclient, make_setup):
    setup = make_setup("jie_long", start=False)
    seats = {f"seat_{i}": e.pk for i, e in enumerate(setup.entries)}
    r = dclient.post(f"/director/tournaments/{setup.tournament.pk}/tables/new/", {"name": "T\x002", **seats})
    assert r.status_code == 400 and field_has_error(r.content.decode(), "table-name")
    assert Table.objects.count() == 1


def test_a_nul_in_the_club_player_and_seating_forms_is_refused(dclient, club, jie_long):
    r = dclient.post("/director/clubs/new/", {"name": "Jade\x00"})
    assert r.status_code == 400 and field_has_error(r.content.decode(), "club-name")
    r = dclient.post(f"/director/clubs/{club.pk}/players/", {"names": "Wu\x00\nXi"})
    assert r.status_code == 400 and NUL_REFUSED in r.content.decode()
    assert Club.objects.count() == 1 and list(Player.objects.filter(name__startswith="Wu")) == []
    r = dclient.post(f"/director/tournaments/{jie_long.tournament.pk}/sessions/new/",
                     {"method": "random", "table_size": "4", "leftovers": "sit_out", "seed": "4\x002",
                      "next_session": "2"})
    assert r.status_code == 400 and field_has_error(r.content.decode(), "seat-seed")
    assert jie_long.tournament.sessions.count() == 1


def test_the_services_refuse_a_nul_whoever_calls_them(director_actor, club, postgres_refuses_nul):
    """The API's parser refuses a NUL before any service; a page, a command or a task does not
    go through it, so the services refuse it themselves, with the field's path."""
    from scoring.domain.errors import ValidationFailed
    from scoring.services.auth import auth_token_obtain
    from scoring.services.tournaments import tournament_create

    with pytest.raises(ValidationFailed) as e:
        tournament_create(actor=director_actor, club=club, name="Open", game="jie_long", currency="\x00")
    assert [(x["path"], x["code"]) for x in e.value.errors] == [("currency", "bad_text")]
    with pytest.raises(ValidationFailed) as e:
        auth_token_obtain(username="al\x00ice", password="alice-secret-1")
    assert [(x["path"], x["code"]) for x in e.value.errors] == [("username", "bad_text")]
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("path", ["/api/v1/tournaments/%0A/standings/", "/api/v1/tables/1%0A/",
                                  "/api/v1/rounds/%C2%BB%0A%08/confirm/", "/api/v1/%0A/"])
def test_a_line_break_in_an_api_path_is_a_json_404(director_client, path):
    r = director_client.get(path)
    assert r.status_code == 404 and r["Content-Type"] == "application/json"
    assert errors_of(r) == [("", "not_found")]


@pytest.mark.parametrize("body, path", [({"player": 2**63}, "player"), ({"player": 2**80}, "player"),
                                        ({"player": 0}, "player"), ({"player": -1}, "player")])
def test_ids_out_of_range_in_a_body_are_a_400(director_client, jie_long, body, path):
    r = director_client.post(f"/api/v1/tournaments/{jie_long.tournament.pk}/entries/", body, format="json")
    assert r.status_code == 400 and errors_of(r)[0][0] == path


# ---------------------------------------------------------------------------------------------
# Fuzzing

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**80), max_value=2**80) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5),
    max_leaves=25)

FUZZ = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                       HealthCheck.too_slow])


@FUZZ
@given(body=JSON)
def test_the_evaluate_endpoint_never_fails(anon_client, body):
    r = anon_client.post("/api/v1/evaluate/", body, format="json")
    assert r.status_code in (200, 400), r.content
    assert isinstance(r.json(), (dict, list))


@st.composite
def near_valid_bodies(draw):
    """A real deal's body with one field replaced, added or removed."""
    body = dict(draw(st.sampled_from([JIE_LONG, {**JIE_LONG, "leader": 1, "entered_by": 2},
                                      {"unplayed_tiles": [["6:6"], [], ["5:1", "3:3"], ["2:1"]]}])))
    key = draw(st.sampled_from(["points", "leader", "entered_by", "unplayed", "unplayed_tiles", "moves",
                                "suanzhang", "reason", "game", "x"]))
    if draw(st.booleans()):
        body[key] = draw(JSON)
    else:
        body.pop(key, None)
    return body


@FUZZ
@given(body=near_valid_bodies() | JSON)
def test_recording_and_previewing_never_fail(director_client, jie_long, body):
    url = f"/api/v1/tables/{jie_long.table.pk}/rounds/"
    created = director_client.post(url, body, format="json")
    assert created.status_code in (201, 400), created.content
    preview = director_client.post(url + "preview/", body, format="json")
    assert preview.status_code in (200, 400), preview.content
    assert (created.status_code == 201) == (preview.status_code == 200)


@pytest.mark.parametrize("body, path", [
    ('{%s: 1}' % SURROGATE, ""),                                           # a key of the body itself
    ('{"club": %%d, %s: 1, "document": {}}' % SURROGATE, ""),
    ('{"club": %%d, "document": {%s: 1}}' % SURROGATE, "document"),        # a key of the document
    ('{"club": %%d, "document": {"tournament": {%s: 1}}}' % SURROGATE, "document.tournament"),
])
def test_a_lone_surrogate_in_an_imports_key_is_a_400_with_its_path(director_client, club, body, path):
    """Issue 26: a key (not only a value) holding a lone surrogate, at any level of the import's
    body, was named in the 400's path and answered an HTML 500 (the answer cannot be written)."""
    r = post_raw(director_client, "/api/v1/tournaments/import/", body.replace("%d", str(club.pk)))
    assert r.status_code == 400 and r["Content-Type"] == "application/json"
    assert errors_of(r) == [(path, "bad_text")]
    assert not TournamentImport.objects.exists()


@pytest.mark.parametrize("text, path", [('{%s: 1}' % SURROGATE, "document"),
                                        ('{"rounds": [{%s: 1}]}' % SURROGATE, "document.rounds[0]")])
def test_a_lone_surrogate_in_an_uploaded_documents_key_is_refused_at_its_path(client, director, club, text, path):
    from django.core.files.uploadedfile import SimpleUploadedFile
    client.force_login(director)
    r = client.post(f"/director/clubs/{club.pk}/imports/", {"document": SimpleUploadedFile("t.json", text.encode())})
    assert r.status_code == 400 and "text/html" in r["Content-Type"]
    assert not TournamentImport.objects.exists()
