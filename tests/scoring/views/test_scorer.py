"""The scorer page /s/<token>/: one table, its deals, the deal form, preview, submit, correct,
confirm, dispute."""

from __future__ import annotations

import re

import pytest

from scoring.models import Round
from scoring.services.rounds import round_correct, round_dispute, round_record
from scoring.services.tables import table_scorer_token_rotate
from scoring.services.tournaments import tournament_finish, tournament_update
from scoring.web.deal_text import moves_text

from ..bodies import JIE_LONG, TAU_NGAU_V1

pytestmark = pytest.mark.django_db


def url(setup) -> str:
    return f"/s/{setup.token}/"


def jie_long_points(**extra) -> dict:
    data = {"level": "points", "leader": "0", "entered_by": "1", "idem_key": "key-1", "action": "preview",
            "points_0": "2", "points_1": "12", "points_2": "34", "points_3": "18"}
    data.update(extra)
    return data


def jie_long_tiles(**extra) -> dict:
    data = {"level": "unplayed_tiles", "leader": "0", "entered_by": "0", "idem_key": "key-2", "action": "preview",
            "tiles_0": "", "tiles_1": "6:4 3:1", "tiles_2": "[6:6]", "tiles_3": "21"}
    data.update(extra)
    return data


def field_block(page: str, name: str) -> str:
    """The HTML of the form field wrapper holding input ``name``."""
    for block in re.findall(r'<div class="field[^"]*"[^>]*>.*?</div>', page, flags=re.S):
        if f'name="{name}"' in block:
            return block
    raise AssertionError(f"no field {name}")


def record(setup, body=None, **kw) -> Round:
    body = dict(body or JIE_LONG)
    body.setdefault("entered_by", 1)
    return round_record(actor=setup.scorer_actor, table=setup.table, body=body, **kw)


# --- the link -----------------------------------------------------------------------------------

def test_page_renders_for_its_token(client, jie_long):
    response = client.get(url(jie_long))
    assert response.status_code == 200
    page = response.content.decode()
    assert jie_long.table.name in page and jie_long.tournament.name in page
    for name in jie_long.names:
        assert name in page
    assert 'name="idem_key"' in page and "csrfmiddlewaretoken" in page
    assert 'name="points_3"' in page and 'name="tiles_3"' in page
    assert 'name="viewport"' in page  # phones
    assert "no-store" in response["Cache-Control"]  # Back shows a fresh form (and a fresh key)


def test_the_scorers_pages_have_no_api_link_and_the_others_keep_it(client, jie_long):
    rnd = record(jie_long)
    api = 'href="/api/docs/"'
    for path in (url(jie_long), f"/s/{jie_long.token}/deals/{rnd.pk}/correct/", "/s/nope/"):
        assert api not in client.get(path).content.decode(), path
    assert api in client.get("/calculator/").content.decode()

@pytest.mark.parametrize("token", ["nope", "x" * 40, "%20"])
def test_unknown_token_is_a_404_page(client, jie_long, token):
    response = client.get(f"/s/{token}/")
    assert response.status_code == 404
    assert "not valid" in response.content.decode()


def test_rotated_token_is_a_404_and_the_new_one_works(client, jie_long):
    new = table_scorer_token_rotate(actor=jie_long.director_actor, table=jie_long.table)
    assert client.get(url(jie_long)).status_code == 404
    assert client.post(url(jie_long), jie_long_points(action="submit")).status_code == 404
    assert Round.objects.count() == 0
    assert client.get(f"/s/{new}/").status_code == 200


def test_another_tables_deal_is_not_reachable(client, make_setup):
    a = make_setup("jie_long", table_name="A")
    b = make_setup("jie_long", table_name="B")
    rnd = record(b)
    response = client.post(f"/s/{a.token}/deals/{rnd.pk}/dispute/", {"message": "hi"})
    assert response.status_code == 404
    assert client.get(f"/s/{a.token}/deals/{rnd.pk}/correct/").status_code == 404
    rnd.refresh_from_db()
    assert not rnd.disputed


# --- new deals ----------------------------------------------------------------------------------

def followed(client, to: str, data: dict) -> str:
    """POST the form without JavaScript: always a redirect; the page it leads to."""
    response = client.post(to, data)
    assert response.status_code == 302, response.content.decode()
    return client.get(response["Location"]).content.decode()


def test_points_deal_is_previewed_then_recorded(client, jie_long):
    response = client.post(url(jie_long), jie_long_points())
    assert response.status_code == 302  # Post/Redirect/Get: Back never posts the form again
    page = client.get(response["Location"]).content.decode()
    assert 'id="preview"' in page
    assert "Celine pays Anna 32" in page and "Bob pays Anna 10" in page
    assert 'value="34"' in page  # the form stays filled
    assert 'value="key-1"' in page  # and keeps its key
    assert Round.objects.count() == 0

    response = client.post(url(jie_long), jie_long_points(action="submit"))
    assert response.status_code == 302
    assert response["Location"].startswith(url(jie_long))
    rnd = Round.objects.get()
    assert rnd.entered_by == 1 and rnd.leader == 0
    assert rnd.current_revision.body["points"] == [2, 12, 34, 18]
    page = client.get(response["Location"]).content.decode()
    assert "Deal 1 recorded" in page
    assert "Celine pays Anna 32" in page  # in the list of last deals
    assert 'id="deal-1"' in page


def test_unplayed_tiles_deal_typed_as_text(client, jie_long):
    page = followed(client, url(jie_long), jie_long_tiles())
    assert "Bob pays Anna 14" in page
    assert 'value="6:4 3:1"' in page
    response = client.post(url(jie_long), jie_long_tiles(action="submit"))
    assert response.status_code == 302
    body = Round.objects.get().current_revision.body
    assert body["unplayed_tiles"] == [[], ["6:4", "3:1"], ["6:6"], ["2:1"]]


def test_a_move_log_typed_as_text_is_recorded_at_the_moves_level(client, ding_niu):
    """Without the tile picker: the move log typed on one line, as the picker writes it."""
    import games
    from games.simulate import simulate

    rec = next(simulate("ding_niu", deals=1, seed=4, level="moves"))
    data = {"level": "moves", "leader": "2", "suanzhang": "", "entered_by": "0", "idem_key": "mv",
            "action": "preview", "moves": moves_text(rec["moves"])}
    page = client.post(url(ding_niu), data, follow=True).content.decode()
    assert 'id="preview"' in page
    assert 'data-moves' in page and 'maxlength="1000"' in page
    data["action"] = "submit"
    assert client.post(url(ding_niu), data).status_code == 302
    revision = Round.objects.get().current_revision
    assert revision.body["moves"] == rec["moves"] and "left_in_hand" not in revision.body
    rec["seats"] = revision.record["seats"]
    assert revision.result["seats"] == games.evaluate(rec)["seats"]
    # a correction form shows the log again, at its level
    page = client.get(f"{url(ding_niu)}deals/{Round.objects.get().pk}/correct/").content.decode()
    assert 'value="moves" checked' in page
    assert f'value="{moves_text(rec["moves"])}"' in page


def test_a_new_leader_rotates_the_record(client, ding_niu):
    data = {"level": "points", "leader": "1", "suanzhang": "2", "entered_by": "0", "idem_key": "dn",
            "action": "submit", "points_0": "10", "points_1": "12", "points_2": "7", "points_3": "14"}
    assert client.post(url(ding_niu), data).status_code == 302
    rnd = Round.objects.get()
    assert rnd.current_revision.record["seats"][0] == ding_niu.names[1]
    assert rnd.current_revision.body["suanzhang"] == {"seat": 2}


def test_resubmitting_the_same_form_records_once(client, jie_long):
    first = client.post(url(jie_long), jie_long_points(action="submit"))
    second = client.post(url(jie_long), jie_long_points(action="submit"))
    assert first.status_code == second.status_code == 302
    assert Round.objects.count() == 1
    page = client.get(second["Location"]).content.decode()
    assert "not recorded twice" in page
    # a fresh form has a fresh key: the next deal is recorded
    fresh = re.search(r'name="idem_key" value="([^"]+)"', page).group(1)
    assert fresh != "key-1"
    client.post(url(jie_long), jie_long_points(action="submit", idem_key=fresh))
    assert Round.objects.count() == 2


def test_the_same_key_with_another_deal_is_refused(client, jie_long):
    client.post(url(jie_long), jie_long_points(action="submit"))
    page = followed(client, url(jie_long), jie_long_points(action="submit", points_0="0"))
    assert "already recorded a deal" in page
    assert Round.objects.count() == 1


def test_a_bad_tile_is_shown_at_its_field_and_nothing_is_stored(client, jie_long):
    page = followed(client, url(jie_long), jie_long_tiles(action="submit", tiles_1="7:1 3:1"))
    block = field_block(page, "tiles_1")
    assert "has-error" in block and "not a tile" in block
    assert "not a tile" not in field_block(page, "tiles_2")
    assert Round.objects.count() == 0
    # the same key works once the tile is fixed (nothing was stored under it)
    assert client.post(url(jie_long), jie_long_tiles(action="submit")).status_code == 302
    assert Round.objects.count() == 1


def test_engine_errors_land_at_their_inputs(client, ding_niu):
    data = {"level": "points", "leader": "0", "entered_by": "0", "idem_key": "k", "action": "preview",
            "points_0": "0", "points_1": "5", "points_2": "6", "points_3": "8"}
    page = followed(client, url(ding_niu), data)
    assert "5 is not possible" in field_block(page, "points_1")


def test_unreadable_inputs_are_refused_before_the_engine(client, jie_long):
    page = followed(client, url(jie_long), jie_long_points(action="submit", points_2="lots", entered_by=""))
    assert "whole number" in field_block(page, "points_2")
    assert "Choose who is entering" in field_block(page, "entered_by")
    assert Round.objects.count() == 0


def test_tau_ngau_form(client, tau_ngau):
    data = {"banker": "0", "entered_by": "1", "idem_key": "tn", "action": "preview"}
    for i, hand in enumerate(TAU_NGAU_V1["hands"]):
        data[f"hand_{i}"] = ", ".join(f"[{t}]" for t in hand)
    assert "Bank" in followed(client, url(tau_ngau), data)
    assert client.post(url(tau_ngau), {**data, "action": "submit"}).status_code == 302
    rnd = Round.objects.get()
    assert rnd.banker == 0
    assert [s["net"] for s in rnd.current_revision.result["seats"]] == [17, -4, -9, -4]


def test_the_stake_of_the_seat_the_bank_has_just_left_is_asked_for(client, make_setup):
    """v2: every player stakes; the phone keeps the last deal's stakes, none for the last banker."""
    setup = make_setup("tau_ngau")
    page = client.get(url(setup)).content.decode()
    assert " required" not in field_block(page, "stake_1")  # the first deal: no bank has moved
    record(setup, {**TAU_NGAU_V1, "stakes": [None, 1, 2, 3]})  # the banker's bull: the bank passes to seat 1
    page = client.get(url(setup)).content.decode()
    left = field_block(page, "stake_0")
    assert " required" in left and "data-left-behind" in left and "The bank has just left this seat" in left
    assert "hidden" in field_block(page, "stake_1").split(">")[0]  # the new banker's
    assert all(" required" not in field_block(page, f"stake_{i}") for i in (1, 2, 3))


def test_a_fresh_deal_starts_on_the_tournaments_entry_level(client, make_setup):
    setup = make_setup("tau_ngau")
    checked = re.compile(r'<input type="radio" name="level" value="(\w+)" checked')
    assert checked.findall(client.get(url(setup)).content.decode()) == ["hands"]
    tournament_update(actor=setup.director_actor, tournament=setup.tournament, entry_level="values")
    assert checked.findall(client.get(url(setup)).content.decode()) == ["values"]


def test_da_ling_form(client, make_setup):
    setup = make_setup("da_ling", names=["P1", "P2"])
    data = {"table_tiles": "6:6 3:2", "entered_by": "0", "idem_key": "dl", "action": "submit",
            "group1_0": "4:3", "group2_0": "6:5 5:1", "group3_0": "1:1 6:3 3:3",
            "group1_1": "5:2", "group2_1": "6:6 4:1", "group3_1": "2:2 2:2 5:4"}
    assert client.post(url(setup), data).status_code == 302
    assert [s["net"] for s in Round.objects.get().current_revision.result["seats"]] == [-25, 25]


def test_finished_tournament_is_read_only(client, jie_long):
    record(jie_long)
    tournament_finish(actor=jie_long.director_actor, tournament=jie_long.tournament)
    response = client.get(url(jie_long))
    assert response.status_code == 200
    page = response.content.decode()
    assert "finished" in page and 'name="idem_key"' not in page
    assert "Deal 1" in page
    assert "finished" in followed(client, url(jie_long), jie_long_points(action="submit"))
    assert Round.objects.count() == 1


# --- correct, confirm, dispute --------------------------------------------------------------------

def test_correct_is_prefilled_and_saves_a_revision(client, jie_long):
    rnd = record(jie_long)
    page = client.get(f"/s/{jie_long.token}/deals/{rnd.pk}/correct/").content.decode()
    assert 'name="revision" value="1"' in page and 'value="34"' in page
    data = jie_long_points(action="save", points_2="30", revision="1", reason="Celine recounted")
    response = client.post(f"/s/{jie_long.token}/deals/{rnd.pk}/correct/", data)
    assert response.status_code == 302
    rnd.refresh_from_db()
    assert rnd.current_revision.number == 2 and rnd.current_revision.reason == "Celine recounted"
    assert rnd.current_revision.body["points"] == [2, 12, 30, 18]


def test_correct_with_a_stale_revision_shows_the_conflict(client, jie_long):
    rnd = record(jie_long)
    round_correct(actor=jie_long.director_actor, round=rnd, body={**JIE_LONG, "points": [2, 12, 30, 18]},
                           reason="director", expected_revision=1)
    data = jie_long_points(action="save", points_2="26", revision="1", reason="late phone")
    response = client.post(f"/s/{jie_long.token}/deals/{rnd.pk}/correct/", data)
    assert response.status_code == 409
    page = response.content.decode()
    assert "Someone changed this deal" in page
    assert 'value="26"' in page  # the typed correction is kept to compare
    rnd.refresh_from_db()
    assert rnd.current_revision.number == 2 and rnd.current_revision.body["points"][2] == 30


def test_correct_needs_a_reason(client, jie_long):
    rnd = record(jie_long)
    response = client.post(f"/s/{jie_long.token}/deals/{rnd.pk}/correct/",
                           jie_long_points(action="save", revision="1", reason=""))
    assert response.status_code == 400
    assert "Say why" in response.content.decode()
    rnd.refresh_from_db()
    assert rnd.current_revision.number == 1


def test_confirm_by_another_seat(client, jie_long):
    rnd = record(jie_long)  # entered by seat 1
    response = client.post(f"/s/{jie_long.token}/deals/{rnd.pk}/confirm/", {"confirmed_by": "1"})
    assert response.status_code == 400
    assert "Another player" in response.content.decode()
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.RECORDED
    response = client.post(f"/s/{jie_long.token}/deals/{rnd.pk}/confirm/", {"confirmed_by": "2"})
    assert response.status_code == 302
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CONFIRMED and rnd.confirmed_by == 2
    page = client.get(url(jie_long)).content.decode()
    assert "Confirmed by Celine" in page
    # a confirmed deal is no longer correctable by the scorer
    assert "only a director" in client.get(f"/s/{jie_long.token}/deals/{rnd.pk}/correct/").content.decode()


def test_confirm_form_offers_only_other_seats(client, jie_long):
    rnd = record(jie_long)
    page = client.get(url(jie_long)).content.decode()
    select = re.search(rf'<select id="confirm-{rnd.pk}".*?</select>', page, flags=re.S).group(0)
    assert "Bob" not in select and "Anna" in select


def test_dispute(client, jie_long):
    rnd = record(jie_long)
    response = client.post(f"/s/{jie_long.token}/deals/{rnd.pk}/dispute/", {"message": "Bob had 6:6 left"})
    assert response.status_code == 302
    rnd.refresh_from_db()
    assert rnd.disputed and rnd.dispute_message == "Bob had 6:6 left"
    page = client.get(url(jie_long)).content.decode()
    assert "disputed" in page and "Bob had 6:6 left" in page


def test_get_only_where_it_should_be(client, jie_long):
    rnd = record(jie_long)
    assert client.get(f"/s/{jie_long.token}/deals/{rnd.pk}/confirm/").status_code == 405


def test_page_views_never_write_models_directly():
    """Views parse, authorise and call services; only services write (ARCHITECTURE.md)."""
    from pathlib import Path

    import scoring.views

    forbidden = re.compile(r"\.save\(|objects\.(create|update|delete|bulk_create|get_or_create|update_or_create)|"
                           r"\.delete\(\)|\)\.update\(")
    for path in Path(scoring.views.__file__).parent.glob("*.py"):
        assert not forbidden.search(path.read_text()), path.name


# --- a disputed deal is the director's ----------------------------------------------------------

def test_a_disputed_deal_is_neither_corrected_nor_confirmed_from_the_table(client, jie_long):
    rnd = record(jie_long)
    round_dispute(actor=jie_long.scorer_actor, round=rnd, message="Bob had 6:6")
    page = client.get(url(jie_long)).content.decode()
    # the row offers neither move, only what was said
    assert f'action="/s/{jie_long.token}/deals/{rnd.pk}/confirm/"' not in page
    assert f'href="/s/{jie_long.token}/deals/{rnd.pk}/correct/"' not in page
    correct = client.get(f"/s/{jie_long.token}/deals/{rnd.pk}/correct/").content.decode()
    assert "a director must settle it" in correct
    response = client.post(f"/s/{jie_long.token}/deals/{rnd.pk}/correct/",
                           jie_long_points(action="save", points_2="30", revision="1", reason="recount"))
    assert response.status_code == 409 and "a director must settle it" in response.content.decode()
    response = client.post(f"/s/{jie_long.token}/deals/{rnd.pk}/confirm/", {"confirmed_by": "2"})
    assert response.status_code == 409 and "a director must settle it" in response.content.decode()
    rnd.refresh_from_db()
    assert (rnd.status, rnd.disputed, rnd.current_revision.number) == (Round.Status.RECORDED, True, 1)


def test_optional_fields_say_so(client, jie_long):
    from django.utils import translation

    page = client.get(url(jie_long)).content.decode()
    assert re.search(r'<label for="f-unplayed_0">Tiles left \(optional\)</label>', page)
    assert "(optional)" not in field_block(page, "points_0")   # points are asked of every seat
    with translation.override("zh-hans"):
        page = client.get(url(jie_long), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "（可不填）" in page
