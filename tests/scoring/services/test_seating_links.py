"""Seating exactly once per Idempotency-Key, the links kept (encrypted) while the session is open
and erased when it closes, and a seating's queries that do not grow with its tables."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.domain import link_secrets
from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict, IdempotencyKeyReused, ValidationFailed
from scoring.models import ActionLog, IdempotencyKey, Seat, Session, Table
from scoring.selectors.seating import kept_token, session_sheet_tables
from scoring.selectors.tables import table_by_scorer_token
from scoring.services.rounds import round_record
from scoring.services.seating import session_seat
from scoring.services.sessions import session_close, session_reopen
from scoring.services.tables import session_scorer_tokens_rotate, table_scorer_token_rotate
from scoring.services.tournaments import tournament_create, tournament_start

from ..bodies import JIE_LONG
from ..bulk import bulk_entries

pytestmark = pytest.mark.django_db


@pytest.fixture
def make_tournament(club, director_actor):
    made = {"n": 0}

    def make(n: int = 12, game: str = "jie_long"):
        made["n"] += 1
        t = tournament_create(actor=director_actor, club=club, name=f"Big {made['n']}", game=game)
        bulk_entries(t, n, prefix=f"T{made['n']}-")
        tournament_start(actor=director_actor, tournament=t)
        return t

    return make


def seat(actor, t, **kw):
    args = {"method": "random", "table_size": 4, "leftovers": "sit_out", **kw}
    return session_seat(actor=actor, tournament=t, **args)


def counts() -> tuple[int, ...]:
    return (Session.objects.count(), Table.objects.count(), Seat.objects.count(), ActionLog.objects.count(),
            IdempotencyKey.objects.count())


def test_a_retry_with_the_same_key_answers_the_same_session_and_creates_nothing(make_tournament, director_actor):
    t = make_tournament(14)
    first = seat(director_actor, t, method="balanced", idempotency_key="seat-1")
    assert not first.replayed and len(first.tables) == 3 and len(first.sit_outs) == 2
    after = counts()
    again = seat(director_actor, t, method="balanced", idempotency_key="seat-1")
    assert again.replayed and counts() == after
    assert again.session.pk == first.session.pk and again.seed == first.seed   # a seed drawn once, not twice
    assert [(tb.pk, token) for tb, token in again.tables] == [(tb.pk, token) for tb, token in first.tables]
    assert again.seats == first.seats and again.sit_outs == first.sit_outs
    assert (again.method, again.table_size, again.leftovers, again.closed) == ("balanced", 4, "sit_out", [])


def test_the_same_key_with_another_request_is_refused_and_changes_nothing(make_tournament, director_actor):
    t = make_tournament(8)
    seat(director_actor, t, idempotency_key="k")
    after = counts()
    with pytest.raises(IdempotencyKeyReused) as e:
        seat(director_actor, t, method="standings", idempotency_key="k")
    assert e.value.errors[0]["code"] == "idempotency_key_reused" and counts() == after


def test_a_refused_request_keeps_no_key_and_keys_are_per_tournament(make_tournament, director_actor):
    t, other = make_tournament(8), make_tournament(8)
    with pytest.raises(ValidationFailed):
        seat(director_actor, t, table_size=9, idempotency_key="k")
    with pytest.raises(ValidationFailed):
        seat(director_actor, t, entries=[999_999, 999_998, 999_997, 999_996], idempotency_key="k")
    assert not IdempotencyKey.objects.exists()
    assert not seat(director_actor, t, idempotency_key="k").replayed          # a new request, evaluated again
    assert not seat(director_actor, other, idempotency_key="k").replayed      # another tournament's key
    for bad in ("", "   ", "x" * 256, 7):
        with pytest.raises(ValidationFailed) as e:
            seat(director_actor, t, idempotency_key=bad)
        assert e.value.errors[0]["code"] == "bad_idempotency_key"


def test_the_links_are_kept_encrypted_while_open_and_erased_when_closed(make_tournament, director_actor):
    t = make_tournament(8)
    seated = seat(director_actor, t)
    for table, token in seated.tables:
        table.refresh_from_db()
        assert table.scorer_token_secret and token not in table.scorer_token_secret
        assert kept_token(table) == token and table_by_scorer_token(token) == table
    assert [row.token for row in session_sheet_tables(seated.session)] == [tok for _, tok in seated.tables]
    # Seating the next session closes this one: its secrets go, its links stay refused as before.
    seat(director_actor, t)
    for table, token in seated.tables:
        table.refresh_from_db()
        assert table.scorer_token_secret is None and kept_token(table) is None
    assert [row.token for row in session_sheet_tables(seated.session)] == [None, None]
    table, token = seated.tables[0]
    scorer = table_by_scorer_token(token)
    with pytest.raises(Conflict) as e:
        round_record(actor=Actor(table=scorer), table=scorer, body=JIE_LONG)
    assert e.value.errors[0]["code"] == "session_closed"


def test_a_replay_after_the_session_closed_has_no_links(make_tournament, director_actor):
    t = make_tournament(8)
    first = seat(director_actor, t, idempotency_key="k")
    session_close(actor=director_actor, session=first.session)
    again = seat(director_actor, t, idempotency_key="k")
    assert again.replayed and [tok for _, tok in again.tables] == [None, None]
    session_reopen(actor=director_actor, session=first.session)     # reopened: the links stay erased
    assert [row.token for row in session_sheet_tables(Session.objects.get(pk=first.session.pk))] == [None, None]


def test_a_new_link_replaces_the_kept_one(make_tournament, director_actor):
    t = make_tournament(8)
    seated = seat(director_actor, t)
    table, old = seated.tables[0]
    new = table_scorer_token_rotate(actor=director_actor, table=table)
    table.refresh_from_db()
    assert kept_token(table) == new != old and table_by_scorer_token(old) is None
    made = dict((tb.pk, tok) for tb, tok in session_scorer_tokens_rotate(actor=director_actor, session=seated.session))
    assert {row.table.pk: row.token for row in session_sheet_tables(seated.session)} == made
    session_close(actor=director_actor, session=seated.session)
    for rotate in (lambda: session_scorer_tokens_rotate(actor=director_actor, session=seated.session),
                   lambda: table_scorer_token_rotate(actor=director_actor, table=Table.objects.get(pk=table.pk))):
        with pytest.raises(Conflict) as e:     # a closed session's links record nothing: refused, one table too
            rotate()
        assert e.value.errors[0]["code"] == "session_closed"
    assert Table.objects.get(pk=table.pk).scorer_token_secret is None


def test_another_key_makes_the_kept_links_unreadable(make_tournament, director_actor, settings):
    t = make_tournament(4)
    (table, token), = seat(director_actor, t).tables
    table.refresh_from_db()
    settings.LINK_KEY = "a dedicated link key, long and random"
    assert kept_token(table) is None and table_by_scorer_token(token) == table   # the link still works
    assert link_secrets.unseal(table.scorer_token_secret, secret_key=settings.SECRET_KEY) == token
    assert link_secrets.unseal("not a secret", secret_key=settings.SECRET_KEY) is None


@pytest.mark.parametrize("method", ["random", "standings", "balanced"])
def test_the_queries_of_a_seating_do_not_grow_with_its_tables(make_tournament, director_actor, method,
                                                              django_assert_max_num_queries):
    """Bulk inserts: the same statements for 2 tables as for 60 (with a session to close and a key)."""
    seen = []
    for n in (8, 240):
        t = make_tournament(n)
        seat(director_actor, t, keep_open=True)       # history, and a session to close
        with CaptureQueriesContext(connection) as ctx, django_assert_max_num_queries(30):
            seated = seat(director_actor, t, method=method, idempotency_key="k")
        assert len(seated.tables) == n // 4
        seen.append(len(ctx.captured_queries))
    assert seen[0] == seen[1]
