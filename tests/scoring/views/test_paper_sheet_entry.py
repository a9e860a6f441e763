"""A table's whole paper score sheet typed in on one page (``/director/tables/<id>/paper-sheet/``):
one row per deal at the game's quick level, every row checked by the engine, all recorded in
order or none; a wrong row said at its row and input with the typed values kept; a form sent
twice records once; directors of the club only; a finished tournament refused."""

from __future__ import annotations

import re

import pytest

from scoring.models import ActionLog, IdempotencyKey, Round
from scoring.selectors.rounds import round_detail
from scoring.selectors.standings import standings_for
from scoring.selectors.tables import table_seats
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
    """A deal's nets by table seat (the record's seats start at its leader)."""
    players = round_detail(rnd, seats=table_seats(rnd.table))["players"]
    assert [p["position"] for p in players] == list(range(n))
    return [p["net"] for p in players]


def cell(page: str, name: str) -> str:
    """The grid's cell of input ``name`` (``r1-points_2``): its input and messages."""
    m = re.search(rf'<td[^>]*>(?:(?!</td>).)*id="f-{re.escape(name)}"(?:(?!</td>).)*</td>', page, re.S)
    assert m, name
    return m.group(0)


def test_a_wrong_row_is_refused_at_its_row_and_input_and_nothing_is_recorded(client, make_setup):
    s = make_setup("ding_niu")
    form = opened(client, s)
    rows = [per_seat("points", [10, 6, 6, 10]), per_seat("points", [10, 6, 5, 10]), per_seat("points", [4, 6, 6, 10])]
    response = client.post(url(s), sheet(rows, **form))
    assert response.status_code == 400
    page = response.content.decode()
    wrong = cell(page, "r1-points_2")
    assert 'aria-invalid="true"' in wrong and "5 is not possible with the 24-tile Ding Niu deck; 4 or 6 are." in wrong
    assert 'href="#row-2"' in page and "Nothing was recorded" in page
    # Only that input is marked; every typed value is kept, the same key carried again.
    assert page.count('aria-invalid="true"') == 1
    for r, row in enumerate(rows):
        for name, value in row.items():
            assert f'value="{value}"' in cell(page, f"r{r}-{name}")
    assert form_key(page) == form
    assert Round.objects.count() == 0 and IdempotencyKey.objects.count() == 0
    # Fixed at that row, the same form records the three deals.
    rows[1] = per_seat("points", [10, 6, 4, 10])
    assert client.post(url(s), sheet(rows, **form)).status_code == 302
    assert Round.objects.filter(table=s.table).count() == 3


def test_asked_for_json_the_errors_are_paths_inside_the_sheet(client, make_setup):
    s = make_setup("tau_ngau", names=["Bank", "Six", "One", "NoBull"], variant={"settlement": "v1"})
    form = opened(client, s)
    rows = [{**per_seat("value", [7, "none", 1, 9]), **per_seat("stake", [None, 2, 5, 1])},
            {**per_seat("value", [3, 5, "none", ""]), **per_seat("stake", [2, None, 5, 1])}]
    response = client.post(url(s), sheet(rows, **form), HTTP_ACCEPT="application/json")
    assert response.status_code == 400
    assert response.json() == {"errors": [{"path": "deals[1].values[3]", "code": "required",
                                           "message": "Choose this seat's value (or no bull)."}]}
    finished = make_setup("jie_long")
    tournament_finish(actor=finished.director_actor, tournament=finished.tournament)
    refused = client.post(url(finished), sheet([per_seat("points", [2, 12, 34, 18])], **opened(client, finished)),
                          HTTP_ACCEPT="application/json")
    assert refused.status_code == 409 and refused.json()["errors"][0]["code"] == "tournament_finished"
    assert Round.objects.count() == 0


def test_a_missing_stake_a_seat_out_of_range_and_a_half_filled_row_are_said_at_their_row(client, make_setup):
    s = make_setup("tau_ngau", names=["Bank", "Six", "One", "NoBull"])
    form = opened(client, s)
    rows = [{**per_seat("value", [7, "none", 0, 9]), **per_seat("stake", [None, 2, 5, 1])},
            {**per_seat("value", [3, 5, "none", 2]), **per_seat("stake", [2, None, 5, None])},
            {"banker": 9, **per_seat("value", [3, 5, "none", 2]), **per_seat("stake", [None, 2, 5, 1])},
            {**per_seat("value", [3, 2, 1, 2]), **per_seat("stake", [None, 2, 5, 1])}]
    page = client.post(url(s), sheet(rows, **form)).content.decode()
    assert "Enter this player&#x27;s stake." in cell(page, "r1-stake_3")
    assert "Choose the banker." in cell(page, "r2-banker")
    assert "field-error" not in cell(page, "r0-value_0") + cell(page, "r1-stake_0")
    assert [int(r) for r in re.findall(r'href="#row-([0-9]+)"', page)] == [2, 3]
    # Row 4's banker follows row 3's deal, which is wrong: it is checked once that one is right.
    assert "Row 4 is checked once the rows above it are right" in page
    assert Round.objects.count() == 0


def test_a_half_filled_row_is_said_at_its_empty_inputs(client, make_setup):
    s = make_setup("jie_long")
    form = opened(client, s)
    rows = [per_seat("points", [2, 12, 34, 18]), {"points_0": 4}]
    page = client.post(url(s), sheet(rows, **form)).content.decode()
    for seat in (1, 2, 3):
        assert "Enter the points (0 for a seat that played out)." in cell(page, f"r1-points_{seat}")
    assert "field-error" not in cell(page, "r1-points_0")
    assert 'value="4"' in cell(page, "r1-points_0")
    assert Round.objects.count() == 0


def test_a_winner_out_of_range_and_an_empty_row_between_deals(client, make_setup):
    s = make_setup("da_ling", names=["P1", "P2", "P3"])
    form = opened(client, s)
    page = client.post(url(s), sheet([{"absolute": 5}, {}, {"absolute": 1}], **form)).content.decode()
    assert "This is not a seat of the table." in cell(page, "r0-absolute")
    assert "Row 2: This row is empty but a later one is filled" in page
    assert Round.objects.count() == 0


def test_empty_trailing_rows_are_no_deals_and_an_empty_sheet_records_nothing(client, make_setup):
    s = make_setup("kko_li_but_i_gi")
    form = opened(client, s)
    empty = client.post(url(s), sheet([{}, {}], **form))
    assert empty.status_code == 400 and "fill in at least one row" in empty.content.decode()
    rows = [per_seat("points", [0, 12, 20, 8])] + [per_seat("points", ["", "", "", ""])] * 19
    assert client.post(url(s), sheet(rows, **form)).status_code == 302
    assert Round.objects.filter(table=s.table).count() == 1


def test_a_sheet_sent_twice_is_recorded_once(client, make_setup):
    s = make_setup("jie_long")
    form = opened(client, s)
    rows = GAMES["jie_long"][0]
    first = client.post(url(s), sheet(rows, **form))
    again = client.post(url(s), sheet(rows, **form))
    assert first.status_code == again.status_code == 302
    assert Round.objects.filter(table=s.table).count() == 3
    assert "already recorded (the form was sent twice): nothing more was recorded" in client.get(
        again["Location"]).content.decode()
    # The same form with other values (Back, changed, sent): refused, nothing more recorded.
    other = client.post(url(s), sheet([per_seat("points", [0, 12, 20, 8])], **form))
    assert other.status_code == 422 and "already recorded with other values" in other.content.decode()
    assert Round.objects.filter(table=s.table).count() == 3
    # A new form starts after the deals recorded.
    assert form_key(client.get(url(s)).content.decode())["number"] == "4"


def test_deals_recorded_meanwhile_refuse_a_sheet_opened_before(client, make_setup):
    s = make_setup("jie_long")
    form = opened(client, s)
    client.post(f"/director/tables/{s.table.pk}/paper-sheet/",
                sheet([per_seat("points", [2, 12, 34, 18])], **opened(client, s)))
    response = client.post(url(s), sheet([per_seat("points", [0, 12, 20, 8])], **form))
    assert response.status_code == 409 and "Deal 1 was already recorded at this table" in response.content.decode()
    assert Round.objects.filter(table=s.table).count() == 1


def test_only_the_clubs_directors_open_it(client, make_setup, other_director):
    s = make_setup("jie_long")
    anonymous = client.get(url(s))
    assert anonymous.status_code == 302 and "/login" in anonymous["Location"]
    client.force_login(other_director)
    assert client.get(url(s)).status_code == 404
    assert client.post(url(s), sheet([per_seat("points", [2, 12, 34, 18])], key="k-1", number="1")).status_code == 404
    assert Round.objects.count() == 0
    client.force_login(s.director)
    assert client.get("/director/tables/999999/paper-sheet/").status_code == 404


def test_a_finished_tournament_is_refused(client, make_setup):
    s = make_setup("jie_long")
    form = opened(client, s)
    tournament_finish(actor=s.director_actor, tournament=s.tournament)
    page = client.get(url(s)).content.decode()
    assert 'id="sheet-refusal"' in page and "This tournament is finished" in page
    response = client.post(url(s), sheet([per_seat("points", [2, 12, 34, 18])], **form))
    assert response.status_code == 409 and "This tournament is finished; it is read-only." in response.content.decode()
    assert Round.objects.count() == 0
    assert 'id="paper-sheet-entry"' not in client.get(f"/director/tables/{s.table.pk}/").content.decode()


def test_a_closed_sessions_sheet_is_recorded_late_as_the_deal_page_records(client, make_setup):
    s = make_setup("jie_long")
    session_close(actor=s.director_actor, session=s.table.session)
    form = opened(client, s)
    assert 'id="late-notice"' in client.get(url(s)).content.decode()
    assert client.post(url(s), sheet(GAMES["jie_long"][0], **form)).status_code == 302
    assert [r.late for r in Round.objects.filter(table=s.table)] == [True, True, True]


def test_the_table_page_and_the_sessions_sheet_link_to_it(client, make_setup):
    s = make_setup("jie_long")
    client.force_login(s.director)
    table_page = client.get(f"/director/tables/{s.table.pk}/").content.decode()
    assert f'href="{url(s)}"' in table_page
    sheet_page = client.get(f"/director/tournaments/{s.tournament.pk}/sessions/{s.table.session.number}/sheet/")
    assert f'href="{url(s)}"' in sheet_page.content.decode()


def test_the_grid_has_the_printed_sheets_rows_and_columns(client, make_setup):
    s = make_setup("tau_ngau", names=["Bank", "Six", "One", "NoBull"])
    client.force_login(s.director)
    page = client.get(url(s)).content.decode()
    assert len(re.findall(r'<tr id="row-[0-9]+"', page)) == 20
    # The printed sheet's columns: the banker, then each seat's value and stake.
    assert re.findall(r'name="r0-([a-z_0-9]+)"', page) == [
        "banker", "value_0", "stake_0", "value_1", "stake_1", "value_2", "stake_2", "value_3", "stake_3"]
    assert "1. Bank" in page and "4. NoBull" in page
    assert len(re.findall(r'scope="colgroup"', page)) == 4


def test_a_grid_with_nothing_per_seat_has_no_seat_columns(client, make_setup):
    """Da Ling's winners are typed once per deal: the grid is the deal's number and the four
    winners, with no empty column headed by each player."""
    s = make_setup("da_ling", names=["P1", "P2", "P3"])
    client.force_login(s.director)
    page = client.get(url(s)).content.decode()
    head = page.split("<thead>")[1].split("</thead>")[0]
    assert "colgroup" not in head and 'rowspan="2"' not in head and head.count("<tr>") == 1
    assert re.findall(r'name="r0-([a-z_0-9]+)"', page) == [
        "absolute", "group1_winner", "group2_winner", "group3_winner"]


@pytest.mark.parametrize("language, title, error", [
    ("zh-Hans", "输入纸质记分表", "请填写这位玩家的押注。"),
    ("zh-Hant", "輸入紙本記分表", "請填寫這位玩家的押注。"),
])
def test_the_page_and_its_errors_in_chinese(client, make_setup, language, title, error):
    s = make_setup("tau_ngau", names=["Bank", "Six", "One", "NoBull"])
    form = opened(client, s)
    rows = [{**per_seat("value", [7, "none", 0, 9]), **per_seat("stake", [None, 2, 5, ""])}]
    page = client.post(url(s), sheet(rows, **form), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert title in page and error in cell(page, "r0-stake_3")
    assert "Enter a paper score sheet" not in page and "Row 1," not in page
