"""A number sent to a page as no number (hand-made: "²", "٣", "１", "1e3", 30 digits, or nothing
where one is needed) is refused as any bad input is (400, the form shown again with the error;
the scorer's no-JavaScript form redirects to itself), never a 500, and stores nothing.

Each case is checked first with a good value, which is stored: the rest of its form is right,
so the bad value alone is what the page refuses."""

from __future__ import annotations

import pytest

from scoring.models import ActionLog, Entry, Round, RoundRevision, Session, Table, Tournament
from scoring.services.clubs import player_create
from scoring.services.rounds import round_record
from scoring.services.tournaments import entry_create, tournament_create

from ..bodies import JIE_LONG

pytestmark = pytest.mark.django_db

#: No number, though ``str.isdigit``, ``\d``, ``int`` or ``Decimal`` take some of them.
NOT_NUMBERS = ["²", "٣", "１", "1e3", "9" * 30]
#: For a field that must be given (an empty optional field means "not given", and is no error).
NOT_NUMBERS_OR_NOTHING = NOT_NUMBERS + [""]


@pytest.fixture
def house(client, director, jie_long, club, director_actor):
    """A running Jie Long tournament with a recorded deal (entered by seat 1), and a draft one
    with four entries and no table yet; the director logged in."""
    client.force_login(director)
    rnd = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body={**JIE_LONG, "entered_by": 1})
    draft = tournament_create(actor=director_actor, club=club, name="Draft cup", game="jie_long")
    entries = [entry_create(actor=director_actor, tournament=draft, player=e.player) for e in jie_long.entries]
    extra = player_create(actor=director_actor, club=club, name="Zoe")
    return {"s": jie_long, "round": rnd, "draft": draft, "entries": entries, "extra": extra, "club": club}


def _state():
    """Everything a page could store: rows, and the values the forms change."""
    return (ActionLog.objects.count(), Session.objects.count(), Table.objects.count(), Entry.objects.count(),
            Tournament.objects.count(), RoundRevision.objects.count(),
            sorted(Round.objects.values_list("pk", "status", "confirmed_by")),
            sorted(Tournament.objects.values_list("pk", "chip_value", "variant", "name")))


def _seat_session(h, v):
    t = h["s"].tournament
    return f"/director/tournaments/{t.pk}/sessions/new/", {"method": "balanced", "table_size": "4",
                                                            "leftovers": "sit_out", "seed": "7", "next_session": "2"}


def _table_create(h, v):
    seats = {f"seat_{i}": str(e.pk) for i, e in enumerate(h["entries"])}
    return f"/director/tournaments/{h['draft'].pk}/tables/new/", {"name": "Table 9", **seats}


def _correct(h, v):
    return f"/director/deals/{h['round'].pk}/correct/", {
        "level": "points", "leader": "0", "points_0": "2", "points_1": "12", "points_2": "30", "points_3": "18",
        "revision": "1", "reason": "referee", "action": "save"}


def _scorer_deal(h, v):
    return f"/s/{h['s'].token}/", {"level": "points", "leader": "0", "entered_by": "1", "idem_key": "k-7",
                                   "action": "submit", "number": "2", "points_0": "2", "points_1": "12",
                                   "points_2": "34", "points_3": "18"}


#: (name, the form: (url, data), the field given the value, its good value (None: the form's), the
#: answer to an empty field: 400, or OPTIONAL (not given, no error), or the page's own answer).
OPTIONAL = "optional"
POSTS = [
    ("seat a session: table size", _seat_session, "table_size", "4", 400),
    ("seat a session: its number", _seat_session, "next_session", "2", OPTIONAL),
    ("new table: a seat", _table_create, "seat_0", None, OPTIONAL),   # a smaller table
    ("enter a player", lambda h, v: (f"/director/tournaments/{h['draft'].pk}/entries/", {}), "player",
     lambda h: str(h["extra"].pk), 400),
    ("director confirms", lambda h, v: (f"/director/deals/{h['round'].pk}/confirm/", {}), "confirmed_by", "2", OPTIONAL),
    ("director corrects: points", _correct, "points_0", "2", 400),
    ("director corrects: leader", _correct, "leader", "0", 400),
    ("director corrects: revision", _correct, "revision", "1", 409),   # which revision? unknown: a conflict
    ("new tournament: chip value", lambda h, v: (f"/director/clubs/{h['club'].pk}/tournaments/new/",
                                                 {"name": "Cup", "game": "jie_long"}), "chip_value", "1.50", OPTIONAL),   # empty: 0
    ("new tournament: a rule option", lambda h, v: (f"/director/clubs/{h['club'].pk}/tournaments/new/",
                                                    {"name": "Cup", "game": "ce_deng"}),
     "variant-ce_deng-redeal_doubles", "6", 400),
    ("new tournament: a part of a rule option", lambda h, v: (
        f"/director/clubs/{h['club'].pk}/tournaments/new/",
        {"name": "Cup", "game": "da_ling", "variant-da_ling-stakes-1": "7", "variant-da_ling-stakes-2": "15"}),
     "variant-da_ling-stakes-0", "3", 400),
    ("settings: chip value", lambda h, v: (f"/director/tournaments/{h['draft'].pk}/settings/",
                                           {"name": "Draft cup", "currency": "EUR", "tie_break_0": "net"}),
     "chip_value", "2", OPTIONAL),
    ("scorer records: points", _scorer_deal, "points_0", "2", 400),
    ("scorer records: the deal number", _scorer_deal, "number", "2", OPTIONAL),
    ("scorer records: entered by", _scorer_deal, "entered_by", "1", 400),
    ("scorer records: leader", _scorer_deal, "leader", "0", 400),
    ("scorer confirms", lambda h, v: (f"/s/{h['s'].token}/deals/{h['round'].pk}/confirm/", {}), "confirmed_by", "2",
     400),
]
_JSON = {"HTTP_ACCEPT": "application/json"}


def _post(client, h, case, value, *, json_answer=True):
    _name, form, field, _good, _empty = case
    url, data = form(h, value)
    headers = _JSON if url.startswith("/s/") and json_answer else {}
    return client.post(url, {**data, field: value}, **headers)


def _good(h, case):
    good = case[3]
    if good is None:  # the form's own value
        return case[1](h, None)[1][case[2]]
    return good(h) if callable(good) else good


@pytest.mark.parametrize("case", POSTS, ids=[c[0] for c in POSTS])
def test_a_good_number_is_stored(client, house, case):
    before = _state()
    response = _post(client, house, case, _good(house, case))
    assert response.status_code in (200, 201, 302), response.content[:2000]
    assert _state() != before


#: Every form with every value that is no number (an empty optional field is not given: no error).
REFUSALS = [pytest.param(case, value, id=f"{case[0]}-{value!r}") for case in POSTS for value in NOT_NUMBERS_OR_NOTHING
            if value != "" or case[4] != OPTIONAL]


@pytest.mark.parametrize("case, value", REFUSALS)
def test_no_number_is_refused_and_stores_nothing(client, house, case, value):
    before = _state()
    response = _post(client, house, case, value)
    assert response.status_code == (case[4] if value == "" else 400), response.content[:2000]
    assert _state() == before


@pytest.mark.parametrize("value", NOT_NUMBERS_OR_NOTHING)
def test_the_scorers_form_without_javascript_shows_itself_again(client, house, value):
    """The no-JavaScript path answers every POST with a redirect to the page (the refusal is
    stashed and shown by the GET); nothing is stored."""
    case = next(c for c in POSTS if c[0] == "scorer records: points")
    before = _state()
    response = _post(client, house, case, value, json_answer=False)
    assert response.status_code == 302
    assert _state() == before
    page = client.get(response["Location"])
    assert page.status_code == 200 and 'f-points_0-errors"' in page.content.decode()   # the error at its field


@pytest.mark.parametrize("value", NOT_NUMBERS_OR_NOTHING)
def test_numbers_in_a_query_are_read_alike(client, house, value):
    s = house["s"]
    assert client.get(f"/s/{s.token}/", {"saved": value}).status_code == 200
    assert client.get("/calculator/", {"game": "jie_long", "players": value}).status_code == 400  # as for 9 players
    assert client.get(f"/t/{s.tournament.slug}/payouts/", {"session": value}).status_code == (200 if value == "" else 404)
    assert client.get(f"/api/v1/tournaments/{s.tournament.pk}/payouts/", {"session": value}).status_code == 400
    assert client.get(f"/api/v1/clubs/{house['club'].pk}/players/", {"page_size": value}).status_code == (
        200 if value == "9" * 30 else 400)   # a size asked too large is the largest


def test_ids_too_large_for_the_database_are_not_found(client, house):
    big = "9" * 30
    s = house["s"]
    for url in (f"/director/tables/{big}/", f"/director/deals/{big}/correct/", f"/director/clubs/{big}/",
                f"/director/tournaments/{s.tournament.pk}/sessions/{big}/sheet/", f"/director/audits/{big}/",
                f"/t/{s.tournament.slug}/players/{big}/", f"/t/{s.tournament.slug}/tables/{big}/"):
        assert client.get(url).status_code == 404, url
    assert client.post(f"/s/{s.token}/deals/{big}/confirm/", {"confirmed_by": "2"}).status_code in (302, 404)
    assert client.post(f"/director/deals/{big}/void/", {"reason": "x"}).status_code == 404
