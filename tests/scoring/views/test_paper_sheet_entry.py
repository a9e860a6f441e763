"""A table's whole paper score sheet typed in on one page (``/director/tables/<id>/paper-sheet/``):
one row per deal at the game's quick level, every row checked by the engine, all recorded in
order or none; a wrong row said at its row and input with the typed values kept; a form sent
twice records once; directors of the club only; a finished tournament refused."""

from __future__ import annotations

import re

import pytest

from scoring.models import ActionLog, IdempotencyKey, Round
from scoring.selectors.standings import standings_for
from scoring.services.sessions import session_close
from scoring.services.tournaments import tournament_finish

pytestmark = pytest.mark.django_db


def url(s) -> str:
    return f"/director/tables/{s.table.pk}/paper-sheet/"


def sheet(rows: list[dict], **extra) -> dict:
    """The POST of a grid: each row's inputs (DealForm's names) as ``r{row}-{name}``."""
    data = {f"r{r}-{name}": str(value) for r, row in enumerate(rows) for name, value in row.items()}
    return {**data, **extra}


def per_seat(name: str, values: list) -> dict:
    return {f"{name}_{i}": "" if v is None else v for i, v in enumerate(values)}


def form_key(page: str) -> dict:
    """The hidden inputs the page's form carries: its idempotency key and first deal number."""
    return {"key": re.search(r'name="key" value="([^"]+)"', page).group(1),
            "number": re.search(r'name="number" value="([^"]+)"', page).group(1)}


def opened(client, s) -> dict:
    client.force_login(s.director)
    page = client.get(url(s))
    assert page.status_code == 200
    return form_key(page.content.decode())


def nets(rnd: Round) -> list[int]:
    return [p["net"] for p in rnd.current_revision.result["seats"]]


# Each game: its sheet (rows as typed) and options. Points: ROUND_RECORD §2a (and §2's worked
# Ding Niu deal); values: §3b's worked example; winners: §4b's.
GAMES = {
    "jie_long": ([
        per_seat("points", [2, 12, 34, 18]),
        per_seat("points", [0, 12, 20, 8]),
        {"leader": 2, **per_seat("points", [10, 6, 0, 6])},
    ], {}),
    "ding_niu": ([
        per_seat("points", [10, 6, 6, 10]),
        {**per_seat("points", [10, 6, 6, 10]), **per_seat("unplayed", [2, 1, 1, 2])},
    ], {}),
    "ce_deng": ([
        {**per_seat("points", [9, 30, 34, 0]), **per_seat("unplayed", [1, 8, 3, 0])},
        {**per_seat("points", [0, 12, 10, 7]), **per_seat("unplayed", [0, 3, 2, 1])},
    ], {}),
    "kko_li_but_i_gi": ([
        per_seat("points", [0, 12, 20, 8]),
        per_seat("points", [14, 0, 20, 8]),
    ], {}),
    "tau_ngau": ([
        {**per_seat("value", [7, "none", 0, 9]), **per_seat("stake", [None, 2, 5, 1])},
        # The bank passed to seat 2 (the banker had a bull): its stake is not asked.
        {**per_seat("value", [3, 5, "none", 2]), **per_seat("stake", [2, None, 5, 1])},
    ], {"names": ["Bank", "Six", "One", "NoBull"]}),
    "da_ling": ([
        {"group1_winner": 2, "group3_winner": 0},
        {"absolute": 1},
    ], {"names": ["P1", "P2", "P3"]}),
}


@pytest.mark.parametrize("game", list(GAMES))
def test_a_sheet_of_several_deals_is_recorded_with_the_engines_results(client, make_setup, game):
    rows, options = GAMES[game]
    s = make_setup(game, **options)
    n = len(s.names)
    form = opened(client, s)
    response = client.post(url(s), sheet(rows, **form))
    assert response.status_code == 302, response.content.decode()[:3000]
    assert response["Location"] == f"/director/tables/{s.table.pk}/#deal-1"
    deals = list(Round.objects.filter(table=s.table).order_by("number"))
    assert [d.number for d in deals] == list(range(1, len(rows) + 1))
    assert [nets_by_seat(d, n) for d in deals] == NETS[game]
    assert [(d.leader, d.banker) for d in deals] == ORDER[game]
    # Recorded as any deal: by the director, revision 1, one audit row each.
    assert all(d.current_revision.actor_label == s.director_actor.label for d in deals)
    assert ActionLog.objects.filter(action=ActionLog.Action.ROUND_RECORD).count() == len(rows)
    # The standings and the table's deal list show them.
    totals = [sum(col) for col in zip(*NETS[game])]
    by_name = {row["name"]: row for row in standings_for(s.tournament)}
    assert [by_name[name]["net"] for name in s.names] == totals
    assert [by_name[name]["deals"] for name in s.names] == [len(rows)] * n
    table_page = client.get(f"/director/tables/{s.table.pk}/").content.decode()
    for d in deals:
        assert f'id="deal-{d.number}"' in table_page


#: Each deal's nets by seat, as the engine gives them for those rows in order (the leader or
#: banker of a blank column following the deal before).
#: (Each checked against games.evaluate of the record with its seats from that leader.)
NETS: dict[str, list[list[int]]] = {
    "jie_long": [[58, 18, -70, -6], [40, -8, -40, 8], [-18, -2, 22, -2]],
    "ding_niu": [[-3, 6, -1, -2], [-2, 6, -1, -3]],
    "ce_deng": [[49, -154, -101, 206], [58, -31, -21, -6]],
    "kko_li_but_i_gi": [[1, 0, -1, 0], [0, 1, -1, 0]],
    "tau_ngau": [[6, -2, -5, 1], [-2, 8, -5, -1]],
    "da_ling": [[27, -18, -9], [-25, 50, -25]],
}
#: Each deal's (leader, banker): a blank column is the seat the deal before gives (its winner
#: leads; the bank passes as the variant says), a typed one is kept (Jie Long's third row).
ORDER: dict[str, list[tuple]] = {
    "jie_long": [(0, None), (0, None), (2, None)],
    "ding_niu": [(0, None), (1, None)],
    "ce_deng": [(0, None), (3, None)],
    "kko_li_but_i_gi": [(0, None), (0, None)],
    "tau_ngau": [(None, 0), (None, 1)],
    "da_ling": [(None, None), (None, None)],
}


def nets_by_seat(rnd: Round, n: int) -> list[int]:
    from scoring.selectors.tables import table_seats
    from scoring.selectors.rounds import round_detail

    detail = round_detail(rnd, seats=table_seats(rnd.table))
    return [p["net"] for p in detail["players"]]
