"""Issue 16, the import: a document is believed only once checked, and what it names is nobody.

Each attack of the issue, exactly as reported: an old ``engine_version`` over a forged net of
+1,000,000; dates whose moment in UTC falls outside the years 1–9999; ``finished_at`` before
``started_at``; 900-deep junk inside a result; another club's director named as a revision's
author. Each refusal names its path and its code (the failed import's error, or a 400 at once for
what cannot even be kept for the worker), and nothing is stored."""

from __future__ import annotations

import copy
from datetime import datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games
from scoring.domain import document_reader
from scoring.domain.errors import Conflict, ValidationFailed
from scoring.models import ActionLog, Round, RoundRevision, Tournament
from scoring.selectors.exports import tournament_export
from scoring.services.exports import tournament_import
from scoring.services.tournaments import tournament_update

from .test_exports import as_imported, export, followed, import_, imported, play, rehash, without_time

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(make_setup, director_client):
    """The document of a running Jie Long tournament with deals of every kind (``play``)."""
    s = make_setup("jie_long")
    play(s)
    return export(director_client, s.tournament)


def refused(client, club, doc) -> list[tuple[str, str]]:
    """The refusal of ``doc`` as (path, code) pairs: a 400 at once (what cannot even be kept for
    the worker) or the failed import's error; asserts that nothing was stored (but the upload's
    own row and its log line)."""
    def stored():
        return (Tournament.objects.count(), Round.objects.count(), RoundRevision.objects.count(),
                ActionLog.objects.exclude(action=ActionLog.Action.TOURNAMENT_IMPORT_QUEUE).count())

    before = stored()
    response = import_(client, club, doc)
    if response.status_code == 400:
        found = [(e["path"], e["code"]) for e in response.json()["errors"]]
    else:
        job = followed(client, response)
        assert job["status"] == "failed", job
        found = [(job["error"]["path"], job["error"]["code"])]
    assert stored() == before
    return found


def old_engine(doc: dict, version: str = "0.9.0") -> dict:
    for r in doc["rounds"]:
        for rev in r["revisions"]:
            rev["engine_version"] = version
    return doc


# --- every revision re-evaluated by today's engine ----------------------------------------------

def test_an_old_engine_version_does_not_let_a_forged_net_in(played, director_client, club):
    """The attack: every revision says engine 0.9.0 and one net is +1,000,000 (the nets no longer
    sum to zero), hashed again. It was imported (201) and shown on the public standings."""
    doc = old_engine(copy.deepcopy(played))
    doc["rounds"][1]["revisions"][0]["result"]["seats"][0]["net"] += 1_000_000
    assert refused(director_client, club, rehash(doc)) == [("document.rounds[1].revisions[0].result",
                                                             "not_zero_sum")]


def test_an_old_engine_version_does_not_let_a_balanced_forgery_in(played, director_client, club):
    """Forged so that the nets still sum to zero: today's engine gives another result."""
    doc = old_engine(copy.deepcopy(played))
    seats = doc["rounds"][1]["revisions"][0]["result"]["seats"]
    seats[0]["net"] += 1_000_000
    seats[1]["net"] -= 1_000_000
    assert refused(director_client, club, rehash(doc)) == [("document.rounds[1].revisions[0].result",
                                                             "engine_result_differs")]


def test_an_older_engines_results_are_refused_when_todays_engine_differs(played, director_actor, club):
    """The choice (``domain.document_revisions``): an import never changes a result. Revisions of
    another engine version that today's engine agrees with come in, their version kept; one it
    does not (here an extra field the old engine wrote) is refused. Until issue 16 an older
    engine's results were kept unchecked."""
    doc = old_engine(copy.deepcopy(played))
    assert doc["rounds"][0]["revisions"][0]["engine_version"] != games.ENGINE_VERSION
    copy_ = tournament_import(actor=director_actor, club=club, document=rehash(copy.deepcopy(doc)))
    assert without_time(tournament_export(copy_)) == without_time(as_imported(doc))
    assert set(RoundRevision.objects.filter(round__table__session__tournament=copy_)
               .values_list("engine_version", flat=True)) == {"0.9.0"}

    doc["rounds"][1]["revisions"][0]["result"]["seats"][0]["note"] = "as the old engine said"
    with pytest.raises(ValidationFailed) as e:
        tournament_import(actor=director_actor, club=club, document=rehash(doc))
    assert [(x["path"], x["code"]) for x in e.value.errors] == [("document.rounds[1].revisions[0].result",
                                                                 "engine_result_differs")]
    assert Tournament.objects.count() == 2


def test_the_result_stored_is_the_engines_own(played, director_actor, club):
    copy_ = tournament_import(actor=director_actor, club=club, document=played)
    for rev in RoundRevision.objects.filter(round__table__session__tournament=copy_):
        assert rev.result == games.evaluate(rev.record)


# --- bounded JSON -------------------------------------------------------------------------------

def nested(depth: int):
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return value


def test_900_deep_junk_in_a_result_is_refused(played, director_client, director_actor, club):
    """The attack: junk 900 levels deep beside the result, hashed again; it was stored. Over
    HTTP the JSON parser may refuse it first (how deep it can go depends on the stack it is
    given: ``parse_error``); past the parser, the document's bounds do (``too_deep``)."""
    doc = copy.deepcopy(played)
    doc["rounds"][1]["revisions"][0]["result"]["junk"] = nested(900)
    rehash(doc)
    [(path, code)] = refused(director_client, club, doc)
    assert (path, code) in {("", "parse_error"), ("document.rounds[1].revisions[0].result.junk" + "[0]" * 19,
                                                  "too_deep")}
    with pytest.raises(ValidationFailed) as e:
        tournament_import(actor=director_actor, club=club, document=doc)
    assert [(x["path"], x["code"]) for x in e.value.errors] == [
        ("document.rounds[1].revisions[0].result.junk" + "[0]" * 19, "too_deep")]
    assert Tournament.objects.count() == 1


@pytest.mark.parametrize("where, change, path, code", [
    ("a body", lambda d: d["rounds"][1]["revisions"][0]["body"].__setitem__("x", nested(21)),
     "document.rounds[1].revisions[0].body.x" + "[0]" * 19, "too_deep"),
    ("a variant", lambda d: d["tournament"]["variant"].__setitem__("x", nested(20)),
     "document.tournament.variant.x" + "[0]" * 19, "too_deep"),
    ("a long text in a result", lambda d: d["rounds"][1]["revisions"][0]["result"]["seats"][0].__setitem__(
        "note", "x" * 2001), "document.rounds[1].revisions[0].result.seats[0].note", "too_long"),
    ("a long list in a record", lambda d: d["rounds"][1]["revisions"][0]["record"].__setitem__(
        "points", list(range(1001))), "document.rounds[1].revisions[0].record.points", "too_long"),
])
def test_free_json_is_bounded(played, director_client, club, where, change, path, code):
    doc = copy.deepcopy(played)
    change(doc)
    assert refused(director_client, club, rehash(doc)) == [(path, code)]


def test_twenty_levels_are_fine():
    from scoring.domain.document_values import free_json
    assert free_json({"x": nested(19)}, "v") == {"x": nested(19)}


# --- dates --------------------------------------------------------------------------------------

EXTREMES = ["0001-01-01T00:30:00+01:00", "9999-12-31T23:59:59-01:00"]
PLACES = {
    "exported_at": lambda d, v: d.__setitem__("exported_at", v),
    "tournament.created_at": lambda d, v: d["tournament"].__setitem__("created_at", v),
    "tournament.started_at": lambda d, v: d["tournament"].__setitem__("started_at", v),
    "rounds[0].created_at": lambda d, v: d["rounds"][0].__setitem__("created_at", v),
    "rounds[0].confirmed_at": lambda d, v: d["rounds"][0].__setitem__("confirmed_at", v),
    "rounds[3].disputed_at": lambda d, v: d["rounds"][3].__setitem__("disputed_at", v),
    "rounds[0].revisions[1].created_at": lambda d, v: d["rounds"][0]["revisions"][1].__setitem__("created_at", v),
}


@pytest.mark.parametrize("value", EXTREMES)
@pytest.mark.parametrize("place", sorted(PLACES))
def test_a_date_outside_the_years_1_to_9999_in_utc_is_refused(played, director_client, club, place, value):
    """The attack: valid with its offset, year 0 or 10000 in UTC. It answered 500 (SQLite), or
    201 and then 500 on every public table page, export and rounds API read (PostgreSQL)."""
    doc = copy.deepcopy(played)
    PLACES[place](doc, value)
    assert refused(director_client, club, rehash(doc)) == [(f"document.{place}", "date_out_of_range")]


def test_the_first_and_last_moments_in_utc_are_dates(played, director_actor, club):
    doc = copy.deepcopy(played)
    doc["tournament"]["created_at"] = "0001-01-01T00:00:00+00:00"
    doc["rounds"][4]["disputed_at"] = "9999-12-31T23:59:59.999999+00:00"
    copy_ = tournament_import(actor=director_actor, club=club, document=doc)
    assert without_time(tournament_export(copy_)) == without_time(as_imported(doc))


def test_finished_before_it_started_is_refused(make_setup, director_client, club):
    """The attack: ``finished_at`` before ``started_at``; it was stored."""
    doc = export(director_client, play(make_setup("jie_long"), finish=True))
    doc["tournament"]["finished_at"] = "2000-01-01T00:00:00+00:00"
    assert refused(director_client, club, doc) == [("document.tournament.finished_at", "date_order")]


def earlier(revision: dict) -> str:
    return (datetime.fromisoformat(revision["created_at"]) - timedelta(seconds=1)).isoformat()


ORDER = {
    "started before it was created": (lambda d: d["tournament"].__setitem__("started_at", "2000-01-01T00:00:00Z"),
                                      "document.tournament.started_at"),
    "a deal before the tournament": (lambda d: d["rounds"][2].__setitem__("created_at", "2000-01-01T00:00:00Z"),
                                     "document.rounds[2].created_at"),
    "a first revision before its deal": (
        lambda d: d["rounds"][2]["revisions"][0].__setitem__("created_at", "2000-01-01T00:00:00Z"),
        "document.rounds[2].revisions[0].created_at"),
    "a correction before the revision it corrects": (
        lambda d: d["rounds"][0]["revisions"][2].__setitem__("created_at", earlier(d["rounds"][0]["revisions"][1])),
        "document.rounds[0].revisions[2].created_at"),
}


@pytest.mark.parametrize("case", sorted(ORDER))
def test_dates_out_of_order_are_refused(played, director_client, club, case):
    change, path = ORDER[case]
    doc = copy.deepcopy(played)
    change(doc)
    assert refused(director_client, club, rehash(doc)) == [(path, "date_order")]


def test_the_reader_checks_the_same_without_the_api(played):
    doc = copy.deepcopy(played)
    doc["tournament"]["created_at"] = EXTREMES[1]
    with pytest.raises(ValidationFailed) as e:
        document_reader.read_document(doc)
    assert [(x["path"], x["code"]) for x in e.value.errors] == [("document.tournament.created_at",
                                                                 "date_out_of_range")]


# --- names are nobody ---------------------------------------------------------------------------

def test_a_named_director_of_another_club_is_kept_as_imported_text(played, director_client, club, other_director,
                                                                  director, client):
    """The attack: revisions naming another club's director as their author. Their history named
    him; now it says the name came with an import, and no user is attached to any revision or
    confirmation of the import (not even the importing club's own director, named as confirming)."""
    doc = copy.deepcopy(played)
    doc["rounds"][1]["revisions"][0]["actor"] = f"director {other_director.username}"
    assert doc["rounds"][0]["confirmed_by_director"] == "alice"   # a director of this very club
    copy_ = imported(director_client, club, rehash(doc))
    revisions = RoundRevision.objects.filter(round__table__session__tournament=copy_)
    assert not revisions.filter(actor_user__isnull=False).exists()
    assert all(label.startswith("imported: ") for label in revisions.values_list("actor_label", flat=True))
    rnd = Round.objects.filter(table__session__tournament=copy_).order_by("table_id", "number")[1]
    assert rnd.revisions.get().actor_label == "imported: director bruno"
    shown = director_client.get(f"/api/v1/rounds/{rnd.pk}/revisions/").json()["revisions"]
    assert [r["actor"] for r in shown] == ["imported: director bruno"]
    client.force_login(director)
    # the director's revisions of the deal (the table page fetches them when asked)
    assert "imported: director bruno" in client.get(f"/director/deals/{rnd.pk}/revisions/").content.decode()

    rounds = list(Round.objects.filter(table__session__tournament=copy_).order_by("table_id", "number"))
    assert rounds[0].status == "confirmed" and not any(r.confirmed_by_user_id for r in rounds)
    log = ActionLog.objects.get(action=ActionLog.Action.TOURNAMENT_IMPORT, tournament=copy_)
    assert log.data["confirmed_by_directors"] == {str(r.pk): "imported: director alice"
                                                  for r, d in zip(rounds, doc["rounds"]) if d["confirmed_by_director"]}
    assert len(log.data["confirmed_by_directors"]) == 2


# --- private until published --------------------------------------------------------------------

def public_answers(client, t) -> list[int]:
    table = t.sessions.order_by("number").first().tables.order_by("pk").first()
    urls = [f"/t/{t.slug}/", f"/t/{t.slug}/tables/{table.pk}/", f"/t/{t.slug}/payouts/",
            f"/api/v1/tournaments/{t.pk}/standings/", f"/api/v1/tournaments/{t.pk}/standings.csv",
            f"/api/v1/tournaments/{t.pk}/payouts/"]
    return [client.get(url).status_code for url in urls]


@pytest.mark.parametrize("finish", [False, True])
def test_an_import_is_private_until_its_director_publishes_it(make_setup, director_client, director_actor,
                                                               anon_client, club, finish):
    doc = export(director_client, play(make_setup("jie_long"), finish=finish))
    assert doc["tournament"]["public"] is True
    t = imported(director_client, club, doc)
    assert not t.public and t.status == doc["tournament"]["status"]
    assert public_answers(anon_client, t) == [404] * 6
    assert f"/t/{t.slug}/" not in anon_client.get("/").content.decode()

    tournament_update(actor=director_actor, tournament=t, public=True)
    t.refresh_from_db()
    assert t.public and public_answers(anon_client, t) == [200] * 6
    assert f"/t/{t.slug}/" in anon_client.get("/").content.decode()


def test_a_finished_import_takes_publishing_and_nothing_else(make_setup, director_client, director_actor, club,
                                                             client):
    doc = export(director_client, play(make_setup("jie_long"), finish=True))
    t = imported(director_client, club, doc)
    for change in ({"name": "Renamed"}, {"public": True, "name": "Renamed"}, {"public": False}):
        with pytest.raises(Conflict):
            tournament_update(actor=director_actor, tournament=t, **change)
    client.force_login(director_actor.user)
    page = client.get(f"/director/tournaments/{t.pk}/").content.decode()
    assert "stays private until you publish it" in page
    client.post(f"/director/tournaments/{t.pk}/settings/", {"public": "on"})
    t.refresh_from_db()
    assert t.public
    with pytest.raises(Conflict):   # published, it is read-only like any finished tournament
        tournament_update(actor=director_actor, tournament=t, public=False)
    assert "stays private until you publish it" not in client.get(f"/director/tournaments/{t.pk}/").content.decode()


# --- whatever is sent (moved from test_exports.py) --------------------------------------------------

JSON = st.recursive(st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                    max_leaves=6)


def places(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from places(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from places(v, path + (i,))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_change_anywhere_is_refused_cleanly_or_read(played, data):
    """Whatever is put wherever in a document, reading it refuses with a path or reads it: never
    another exception (which would be a 500)."""
    doc = copy.deepcopy(played)
    spots = [p for p in places(doc) if p]
    path = data.draw(st.sampled_from(spots))
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = data.draw(JSON)
    if data.draw(st.booleans()):   # hashed again, so that the checks behind the hashes are reached
        try:
            rehash(doc)
        except (KeyError, TypeError, ValueError, AttributeError):
            pass
    try:
        document_reader.read_document(doc)
    except ValidationFailed as e:
        assert e.errors[0]["path"].startswith("document")


def test_a_direct_caller_gets_the_same_checks(played, director_actor, club):
    doc = copy.deepcopy(played)
    doc["rounds"][0]["revisions"][0]["reason"] = "\ud800"
    with pytest.raises(ValidationFailed) as e:
        tournament_import(actor=director_actor, club=club, document=doc)
    assert e.value.errors[0]["path"] == "document.rounds[0].revisions[0].reason"
