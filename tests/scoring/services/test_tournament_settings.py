"""The tournament's settings: ``tournament_update`` and the director's settings form."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from scoring.domain.errors import Conflict, ValidationFailed
from scoring.models import ActionLog, Tournament
from scoring.services.rounds import round_confirm, round_record
from scoring.services.tournaments import tournament_update

from ..bodies import JIE_LONG


def _updates(t):
    return list(ActionLog.objects.filter(tournament=t, action=ActionLog.Action.TOURNAMENT_UPDATE)
                .order_by("pk").values_list("data", flat=True))


# --- the service ----------------------------------------------------------------------------------

def test_the_log_keeps_before_and_after_of_what_changed_only(make_setup):
    s = make_setup("jie_long", start=False)
    tournament_update(actor=s.director_actor, tournament=s.tournament, name="Spring cup", public=True,
                               chip_value="2", currency="usd", variant={"arms": 2}, tie_breaks=["wins", "net"])
    assert _updates(s.tournament) == [{
        "name": {"before": "jie_long open 1", "after": "Spring cup"},
        "chip_value": {"before": "0.50", "after": "2.00"},
        "currency": {"before": "EUR", "after": "USD"},
        "tie_breaks": {"before": ["net", "wins", "average_place"], "after": ["wins", "net"]},
        "variant": {"before": {"voluntary_pass": False, "arms": 1, "settlement": "difference"},
                    "after": {"voluntary_pass": False, "arms": 2, "settlement": "difference"}},
    }]  # public was already True: not logged
    tournament_update(actor=s.director_actor, tournament=s.tournament, name="Spring cup", public=True)
    assert len(_updates(s.tournament)) == 1  # nothing changed, nothing written


def test_every_bad_field_is_reported_and_nothing_changes(make_setup):
    s = make_setup("ce_deng", names=["A", "B", "C", "D"], start=False)
    with pytest.raises(ValidationFailed) as e:
        tournament_update(actor=s.director_actor, tournament=s.tournament, name=" ", chip_value="x",
                                   currency="EURO", public=False, tie_breaks=["head_to_head", "net"],
                                   variant={"redeal_doubles": 9})
    assert [(p["path"], p["code"]) for p in e.value.errors] == [
        ("name", "required"), ("chip_value", "bad_type"), ("currency", "bad_currency"),
        ("tie_breaks[0]", "head_to_head_first"), ("variant.redeal_doubles", "bad_variant")]
    t = Tournament.objects.get(pk=s.tournament.pk)
    assert (t.name, t.public, t.chip_value, t.currency) == ("ce_deng open 1", True, Decimal("0.50"), "EUR")
    assert _updates(t) == []


def test_after_the_start_the_rules_stay_and_confirmation_moves_only_when_it_changes_no_standing(make_setup):
    s = make_setup("jie_long")
    actor = s.director_actor
    with pytest.raises(Conflict) as e:
        tournament_update(actor=actor, tournament=s.tournament, variant={"arms": 2})
    assert e.value.errors[0]["path"] == "variant"
    tournament_update(actor=actor, tournament=s.tournament, variant={"arms": 1})  # the same rules: fine
    rnd = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    with pytest.raises(Conflict) as e:
        tournament_update(actor=actor, tournament=s.tournament, require_confirmation=True, name="Renamed")
    assert (e.value.errors[0]["path"], e.value.errors[0]["code"]) == ("require_confirmation", "deals_unconfirmed")
    assert Tournament.objects.get(pk=s.tournament.pk).name != "Renamed"  # all or nothing
    round_confirm(actor=actor, round=rnd, confirmed_by=1)
    tournament_update(actor=actor, tournament=s.tournament, require_confirmation=True, name="Renamed",
                               public=False, chip_value="1", currency="CNY", tie_breaks=["deals"])
    t = Tournament.objects.get(pk=s.tournament.pk)
    assert (t.require_confirmation, t.name, t.public, t.currency, t.tie_breaks) == (True, "Renamed", False, "CNY",
                                                                                    ["deals"])


# --- the settings form ------------------------------------------------------------------------------

@pytest.fixture
def dclient(client, director):
    client.force_login(director)
    return client


def _form(t, **more):
    data = {"name": t.name, "chip_value": str(t.chip_value), "currency": t.currency,
            **{f"tie_break_{i}": k for i, k in enumerate(t.tie_breaks)}}
    if t.public:
        data["public"] = "on"
    if t.require_confirmation:
        data["require_confirmation"] = "on"
    data.update(more)
    return {k: v for k, v in data.items() if v is not None}


def test_the_settings_form_shows_controls_and_saves(dclient, make_setup):
    s = make_setup("tau_ngau", names=["Bank", "Ann", "Bo"], start=False)
    url = f"/director/tournaments/{s.tournament.pk}/"
    page = dclient.get(url).content.decode()
    assert f'action="/director/tournaments/{s.tournament.pk}/settings/"' in page
    assert '<select id="variant-settlement" name="variant-settlement"><option value="v2" selected>v2</option>' in page
    assert 'type="checkbox" name="variant-may_decline_bull"' in page
    assert '<select id="tie_break_0" name="tie_break_0">' in page
    assert re.search(r'<label for="tie_break_1">then by \(optional\)</label>', page)
    response = dclient.post(url + "settings/", _form(s.tournament, name="Bulls night", currency="hkd",
                                                     **{"variant-settlement": "v1", "variant-v1_no_bull_pays": "four",
                                                        "variant-bank_rotation": "fixed",
                                                        "variant-may_decline_bull": "on",
                                                        "tie_break_0": "wins", "tie_break_1": "head_to_head",
                                                        "tie_break_2": ""}))
    assert response.status_code == 302 and response["Location"] == url + "#settings"
    t = Tournament.objects.get(pk=s.tournament.pk)
    assert (t.name, t.currency, t.tie_breaks) == ("Bulls night", "HKD", ["wins", "head_to_head"])
    assert t.variant == {"settlement": "v1", "v1_no_bull_pays": "four", "bank_rotation": "fixed",
                         "may_decline_bull": True}


def test_settings_errors_sit_under_their_field_and_nothing_changes(dclient, make_setup):
    s = make_setup("da_ling", names=["A", "B", "C"], start=False)
    url = f"/director/tournaments/{s.tournament.pk}/settings/"
    response = dclient.post(url, _form(s.tournament, name="", chip_value="-1", tie_break_1="net",
                                       **{"variant-stakes-0": "3", "variant-stakes-1": "x", "variant-stakes-2": "15",
                                          "variant-absolute_tie": "push"}))
    assert response.status_code == 400
    page = response.content.decode()
    assert re.search(r'id="s-name"[^>]*aria-invalid="true" aria-describedby="s-name-error"', page)
    assert 'id="s-name-error">A tournament name is required.' in page
    assert 'id="s-chip-error">chip_value must be between' in page
    assert 'id="tie-breaks-error">net is already in the list.' in page
    assert 'id="variant-stakes-error">stakes must be three positive whole numbers' in page
    assert 'value="x"' in page and '<option value="push" selected>' in page  # as sent
    t = Tournament.objects.get(pk=s.tournament.pk)
    assert t.name == "da_ling open 1" and t.variant["absolute_tie"] == "groups" and _updates(t) == []


def test_after_the_start_the_form_shows_the_rules_without_controls(dclient, make_setup):
    s = make_setup("jie_long")
    url = f"/director/tournaments/{s.tournament.pk}/"
    page = dclient.get(url).content.decode()
    assert 'name="variant-arms"' not in page and "<dt>Open ends of the layout</dt><dd>1</dd>" in page
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    response = dclient.post(url + "settings/", _form(s.tournament, name="Late name", require_confirmation="on",
                                                     **{"variant-arms": "2"}))
    assert response.status_code == 409
    assert 'id="s-confirm-error">Confirmation can change only while no deal is waiting' in response.content.decode()
    response = dclient.post(url + "settings/", _form(s.tournament, name="Late name", **{"variant-arms": "2"}))
    assert response.status_code == 302  # the rule options are not read once started
    t = Tournament.objects.get(pk=s.tournament.pk)
    assert t.name == "Late name" and t.variant["arms"] == 1


# --- the level a new phone starts a deal on -------------------------------------------------------

def test_the_entry_level_is_one_of_the_games_ways_of_entering_and_is_logged(make_setup):
    s = make_setup("tau_ngau")  # running: the level may still change
    assert s.tournament.entry_level == "hands"  # the game's first
    with pytest.raises(ValidationFailed) as e:
        tournament_update(actor=s.director_actor, tournament=s.tournament, entry_level="points")  # not Tau Ngau's
    assert [(p["path"], p["code"]) for p in e.value.errors] == [("entry_level", "unknown_level")]
    tournament_update(actor=s.director_actor, tournament=s.tournament, entry_level="values")
    assert Tournament.objects.get(pk=s.tournament.pk).entry_level == "values"
    assert _updates(s.tournament) == [{"entry_level": {"before": "hands", "after": "values"}}]
    ce_deng = make_setup("ce_deng", names=["A", "B", "C", "D"])
    with pytest.raises(ValidationFailed):  # a redeal is one deal's event, not a way of entering
        tournament_update(actor=s.director_actor, tournament=ce_deng.tournament, entry_level="redeal")


def test_the_settings_form_sets_the_entry_level(dclient, make_setup):
    s = make_setup("da_ling", names=["A", "B", "C"])
    url = f"/director/tournaments/{s.tournament.pk}/"
    page = dclient.get(url).content.decode()
    assert re.search(r'<select id="s-entry-level" name="entry_level"><option value="groups" selected>Groups</option>'
                     r'<option value="winners">Winners only</option></select>', page)
    response = dclient.post(url + "settings/", _form(s.tournament, entry_level="winners"))
    assert response.status_code == 302
    assert Tournament.objects.get(pk=s.tournament.pk).entry_level == "winners"
    response = dclient.post(url + "settings/", _form(s.tournament, entry_level="moves"))
    assert response.status_code == 400
    assert 'id="s-entry-level-error">Choose one of this game' in response.content.decode()
