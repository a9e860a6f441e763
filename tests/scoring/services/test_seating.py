"""``session_seat``: a whole session (session, tables, seats, scorer links) in one
transaction, checked against the game, drawn from the history, and nothing made when refused."""

from __future__ import annotations

from collections import Counter

import pytest

from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict, PermissionDenied, ValidationFailed
from scoring.domain.seating import pair_counts
from scoring.models import ActionLog, Seat, Session, Table
from scoring.selectors.seating import seating_history
from scoring.selectors.standings import standings_for
from scoring.selectors.tables import table_by_scorer_token, table_seats
from scoring.services.clubs import player_create
from scoring.services.rounds import round_record
from scoring.services.seating import session_seat
from scoring.services.tournaments import entry_create, tournament_create, tournament_finish, tournament_start

from ..bodies import JIE_LONG

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Bob", "Celine", "Dominic", "Eve", "Frank", "Grace", "Heidi", "Ivan", "Judy", "Ken", "Lea",
         "Mei", "Nils", "Olga", "Pia"]


@pytest.fixture
def make_tournament(club, director_actor):
    """A tournament of ``game`` with ``n`` entries (the club's players, made once), no tables."""
    made = Counter()

    def make(game: str = "jie_long", n: int = 10, *, start: bool = True):
        made[game] += 1
        t = tournament_create(actor=director_actor, club=club, name=f"{game} {made[game]}", game=game,
                                       variant={"settlement": "v1"} if game == "tau_ngau" else None)
        for name in NAMES[:n]:
            player = club.players.filter(name=name).first() or player_create(
                actor=director_actor, club=club, name=name)
            entry_create(actor=director_actor, tournament=t, player=player)
        if start:
            tournament_start(actor=director_actor, tournament=t)
        return t

    return make


def seat(actor, t, **kw):
    args = {"method": "random", "table_size": 4, "leftovers": "sit_out", "seed": "1", **kw}
    return session_seat(actor=actor, tournament=t, **args)


def names(seated) -> list[list[str]]:
    return [[e.player.name for e in seated.seats[table.pk]] for table, _ in seated.tables]


def stored(seated) -> list[list[str]]:
    return [[s.entry.player.name for s in table_seats(table)] for table, _ in seated.tables]


def test_a_session_with_its_tables_seats_and_links(make_tournament, director_actor):
    t = make_tournament("jie_long", 10)
    seated = seat(director_actor, t, method="balanced", leftovers="smaller_tables", seed="spring")
    assert seated.session.number == 1 and seated.seed == "spring"
    assert [table.name for table, _ in seated.tables] == ["Table 1", "Table 2", "Table 3"]
    assert sorted(len(s) for s in names(seated)) == [3, 3, 4]
    assert stored(seated) == names(seated)                # the seats as planned, by position
    assert sorted(n for table in names(seated) for n in table) == sorted(NAMES[:10])
    assert seated.sit_outs == []
    for table, token in seated.tables:
        assert table_by_scorer_token(token) == table
    log = ActionLog.objects.get(action=ActionLog.Action.SESSION_SEAT)
    assert log.data["seed"] == "spring" and log.data["method"] == "balanced" and log.data["number"] == 1
    # One row for the whole seating: every table by id with its entries by seat, no row per table.
    assert log.data["table_ids"] == [table.pk for table, _ in seated.tables]
    assert log.data["tables"] == [[e.pk for e in seated.seats[table.pk]] for table, _ in seated.tables]
    assert not ActionLog.objects.filter(action=ActionLog.Action.TABLE_CREATE, tournament=t).exists()
    # the plain tokens are not stored anywhere: not in the tables, not in the audit log
    logs = str(list(ActionLog.objects.values_list("data", flat=True)))
    for table, token in seated.tables:
        assert token not in logs and token != table.scorer_token_hash


def test_the_same_seed_gives_the_same_seating_and_a_missing_one_is_drawn(make_tournament, director_actor):
    a, b = make_tournament("jie_long", 12), make_tournament("jie_long", 12)
    first = seat(director_actor, a, seed=42)
    again = seat(director_actor, b, seed="42")
    assert first.seed == again.seed == "42" and names(first) == names(again)
    drawn = seat(director_actor, a)
    assert drawn.seed.isdigit() and drawn.session.number == 2
    replay = seat(director_actor, make_tournament("jie_long", 12), seed=drawn.seed)
    assert names(replay) == names(drawn)


def test_sit_outs_are_spread_over_sessions(make_tournament, director_actor):
    t = make_tournament("ding_niu", 10)
    sat_out: Counter = Counter()
    for session in range(1, 6):
        seated = seat(director_actor, t, seed=f"s{session}")
        assert len(seated.tables) == 2 and len(seated.sit_outs) == 2
        sat_out.update(e.player.name for e in seated.sit_outs)
    assert set(sat_out) == set(NAMES[:10]) and set(sat_out.values()) == {1}


def test_balanced_avoids_earlier_opponents(make_tournament, director_actor):
    t = make_tournament("ding_niu", 16)
    seat(director_actor, t, method="standings")
    second = seat(director_actor, t, method="balanced", seed="x")
    history = seating_history(t, [])
    earlier = pair_counts(history.tables[:4])
    assert sum(earlier[frozenset((a.pk, b.pk))] for table, _ in second.tables
               for a in second.seats[table.pk] for b in second.seats[table.pk] if a.pk < b.pk) == 0


def test_standings_seats_the_leaders_at_table_1(make_tournament, director_actor):
    t = make_tournament("jie_long", 8)
    first = seat(director_actor, t, method="random", seed="a")
    for table, _ in first.tables:   # one deal at each table: nets 60, 20, -20, -60 by seat
        round_record(actor=director_actor, table=table, body={"leader": 0, "points": [0, 10, 20, 30]})
    ranking = [r["name"] for r in standings_for(t)]
    second = seat(director_actor, t, method="standings", seed="b")
    assert set(names(second)[0]) == set(ranking[:4]) and set(names(second)[1]) == set(ranking[4:])


def test_only_the_chosen_entries_play(make_tournament, director_actor):
    t = make_tournament("tau_ngau", 10)
    chosen = [e.pk for e in t.entries.order_by("pk")][:7]
    seated = seat(director_actor, t, table_size=6, leftovers="smaller_tables", entries=chosen)
    assert sorted(len(x) for x in names(seated)) == [3, 4]
    assert {e.pk for table, _ in seated.tables for e in seated.seats[table.pk]} == set(chosen)


@pytest.mark.parametrize("game, kw, path, code", [
    ("ding_niu", {"table_size": 3}, "table_size", "wrong_player_count"),
    ("jie_long", {"table_size": "4"}, "table_size", "bad_type"),
    ("tau_ngau", {"table_size": 7}, "table_size", "wrong_player_count"),
    ("ding_niu", {"leftovers": "smaller_tables"}, "leftovers", "no_smaller_tables"),
    ("tau_ngau", {"table_size": 3, "leftovers": "smaller_tables", "entries": "all"}, "entries", "bad_type"),
    ("jie_long", {"method": "alphabetical"}, "method", "invalid_choice"),
    ("jie_long", {"leftovers": "wait"}, "leftovers", "invalid_choice"),
    ("jie_long", {"seed": "x" * 65}, "seed", "too_long"),
    ("jie_long", {"seed": 1.5}, "seed", "bad_type"),
    ("jie_long", {"entries": [1, 1]}, "entries[1]", "duplicate_entry"),
    ("jie_long", {"entries": [999999]}, "entries[0]", "not_found"),
    ("da_ling", {"table_size": 5}, "entries", "too_few_players"),
    ("tau_ngau", {"table_size": 3, "leftovers": "smaller_tables", "entries": []}, "entries", "too_few_players"),
])
def test_refusals_create_nothing(make_tournament, director_actor, game, kw, path, code):
    t = make_tournament(game, 4)
    with pytest.raises(ValidationFailed) as e:
        seat(director_actor, t, **kw)
    assert (e.value.errors[0]["path"], e.value.errors[0]["code"]) == (path, code)
    assert not Session.objects.filter(tournament=t).exists() and not Table.objects.exists()


def test_every_shape_problem_is_reported_at_once(make_tournament, director_actor):
    t = make_tournament("ding_niu", 4)
    with pytest.raises(ValidationFailed) as e:
        seat(director_actor, t, method="x", table_size=5, leftovers="y")
    assert [x["path"] for x in e.value.errors] == ["method", "table_size", "leftovers"]


def test_a_failure_half_way_leaves_nothing(make_tournament, director_actor, monkeypatch):
    """Tables, seats and their log rows are written, then closing the earlier session fails:
    nothing of the new session is left."""
    from scoring.services import seating as seating_service

    t = make_tournament("jie_long", 12)
    seat(director_actor, t)
    before = ActionLog.objects.count(), Seat.objects.count(), Table.objects.count()

    def failing(**kw):
        assert Table.objects.filter(session__number=2).count() == 3   # half way: the tables are there
        raise Conflict("boom")

    monkeypatch.setattr(seating_service, "session_close", failing)
    with pytest.raises(Conflict):
        seat(director_actor, t)
    assert list(Session.objects.filter(tournament=t).values_list("number", "status")) == [(1, "open")]
    assert (ActionLog.objects.count(), Seat.objects.count(), Table.objects.count()) == before


def test_a_form_sent_twice_seats_once(make_tournament, director_actor):
    t = make_tournament("jie_long", 8)
    seat(director_actor, t, expected_number=1)
    with pytest.raises(Conflict) as e:
        seat(director_actor, t, expected_number=1)
    assert e.value.errors[0]["code"] == "session_exists" and "already seated" in e.value.message
    assert Session.objects.filter(tournament=t).count() == 1


def test_who_may_seat(make_tournament, director_actor, other_director):
    t = make_tournament("jie_long", 8)
    first = seat(director_actor, t)
    table = first.tables[0][0]
    for actor in (Actor(user=other_director), Actor(table=table), Actor()):
        with pytest.raises(PermissionDenied):
            seat(actor, t)
    round_record(actor=director_actor, table=table, body={**JIE_LONG, "leader": 0})
    tournament_finish(actor=director_actor, tournament=t)
    with pytest.raises(Conflict) as e:
        seat(director_actor, t)
    assert e.value.errors[0]["code"] == "tournament_finished"
    assert Session.objects.filter(tournament=t).count() == 1


def test_a_draft_tournament_may_be_seated(make_tournament, director_actor):
    t = make_tournament("kko_li_but_i_gi", 9, start=False)
    seated = seat(director_actor, t, leftovers="smaller_tables")
    assert sorted(len(x) for x in names(seated)) == [3, 3, 3]


def test_a_withdrawn_entry_is_seated_no_more_and_its_deals_still_count(make_tournament, director_actor):
    from scoring.services.roster import entry_reenter, entry_withdraw

    from ..bodies import JIE_LONG_NETS

    t = make_tournament("jie_long", 8)
    first = seat(director_actor, t)
    table = first.tables[0][0]
    round_record(actor=director_actor, table=table, body=JIE_LONG)
    leaver = first.seats[table.pk][0]
    entry_withdraw(actor=director_actor, entry=leaver)

    second = seat(director_actor, t, seed="2")
    everyone = [e.pk for seats in second.seats.values() for e in seats] + [e.pk for e in second.sit_outs]
    assert leaver.pk not in everyone and len(everyone) == 7      # neither seated nor sitting out
    row = next(r for r in standings_for(t) if r["entry"] == leaver.pk)
    assert (row["deals"], row["net"], row["withdrawn"]) == (1, JIE_LONG_NETS[0], True)
    with pytest.raises(ValidationFailed) as e:                   # nor seated by name
        seat(director_actor, t, entries=[leaver.pk] + [x for x in everyone[:3]])
    assert [(p["path"], p["code"]) for p in e.value.errors] == [("entries[0]", "withdrawn")]
    assert Session.objects.filter(tournament=t).count() == 2

    entry_reenter(actor=director_actor, entry=leaver)            # back: seated again from the next session
    third = seat(director_actor, t, seed="3")
    assert leaver.pk in [e.pk for seats in third.seats.values() for e in seats] + [e.pk for e in third.sit_outs]
