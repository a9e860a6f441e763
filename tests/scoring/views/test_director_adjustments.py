"""Adjustments on the director's tournament page (scoring/views/director/adjustments.py): the
form records one, the list shows it with a delete button, a refusal shows at its field; the
public standings show the marker and the reason."""

from __future__ import annotations

import pytest

from scoring.models import Adjustment, Standing
from scoring.services.adjustments import adjustment_create

pytestmark = pytest.mark.django_db


def add_url(s) -> str:
    return f"/director/tournaments/{s.tournament.pk}/adjustments/"


def test_the_form_records_one_and_the_list_deletes_it(client, jie_long):
    s = jie_long
    client.force_login(s.director)
    page = client.get(f"/director/tournaments/{s.tournament.pk}/").content.decode()
    assert 'id="new-adjustment"' in page and f'action="{add_url(s)}"' in page
    r = client.post(add_url(s), {"entry": s.entries[1].pk, "amount": "-10", "reason": "late arrival"})
    assert r.status_code == 302 and r["Location"].endswith("#adjustments")
    adj = Adjustment.objects.get()
    assert (adj.entry, adj.amount, adj.reason) == (s.entries[1], -10, "late arrival")
    page = client.get(f"/director/tournaments/{s.tournament.pk}/").content.decode()
    delete = f"/director/tournaments/{s.tournament.pk}/adjustments/{adj.pk}/delete/"
    assert "late arrival" in page and f'action="{delete}"' in page
    assert "-10: late arrival" in page                       # under Bob's standings row
    assert client.post(delete).status_code == 302
    assert Standing.objects.get(entry=s.entries[1]).total == 0
    page = client.get(f"/director/tournaments/{s.tournament.pk}/").content.decode()
    assert "<del>late arrival</del>" in page and f'action="{delete}"' not in page


@pytest.mark.parametrize(("form", "field", "message"), [
    ({"entry": "", "amount": "5", "reason": "x"}, "adj-entry", "Choose a player."),
    ({"amount": "abc", "reason": "x"}, "adj-amount", "A whole number of chips or points"),
    ({"amount": "0", "reason": "x"}, "adj-amount", "An adjustment of 0 changes nothing"),
    ({"amount": "5", "reason": "  "}, "adj-reason", "Say why"),
])
def test_a_refusal_shows_at_its_field(client, jie_long, form, field, message):
    s = jie_long
    client.force_login(s.director)
    r = client.post(add_url(s), {"entry": s.entries[0].pk, **form})
    assert r.status_code == 400
    page = r.content.decode()
    box = page.split('id="new-adjustment"', 1)[1]
    assert message in box.split(f'id="{field}"', 1)[1].split("</div>", 1)[0]
    assert not Adjustment.objects.exists()


def test_a_finished_tournament_offers_no_form_and_refuses(client, jie_long):
    from scoring.services.tournaments import tournament_finish

    s = jie_long
    adj = adjustment_create(actor=s.director_actor, tournament=s.tournament, entry=s.entries[0], amount=5,
                            reason="bonus")
    tournament_finish(actor=s.director_actor, tournament=s.tournament)
    client.force_login(s.director)
    page = client.get(f"/director/tournaments/{s.tournament.pk}/").content.decode()
    assert 'id="new-adjustment"' not in page and "bonus" in page
    r = client.post(add_url(s), {"entry": s.entries[0].pk, "amount": "5", "reason": "x"})
    assert r.status_code == 409
    r = client.post(f"/director/tournaments/{s.tournament.pk}/adjustments/{adj.pk}/delete/")
    assert r.status_code == 409 and Adjustment.objects.get().deleted_at is None


def test_another_clubs_director_gets_nothing(client, jie_long, other_director):
    s = jie_long
    client.force_login(other_director)
    assert client.post(add_url(s), {"entry": s.entries[0].pk, "amount": "5", "reason": "x"}).status_code == 404
    assert not Adjustment.objects.exists()


def test_the_public_standings_show_the_marker_and_the_reason(client, jie_long):
    s = jie_long
    adjustment_create(actor=s.director_actor, tournament=s.tournament, entry=s.entries[2], amount=-10,
                      reason="late arrival")
    page = client.get(f"/t/{s.tournament.slug}/").content.decode()
    row = page.split(f'data-entry="{s.entries[2].pk}"', 1)[1].split("</tr>", 1)[0]
    assert 'class="adjusted"' in row and "-10: late arrival" in row
    assert ">-10<" in row                                      # the net includes it
    other = page.split(f'data-entry="{s.entries[0].pk}"', 1)[1].split("</tr>", 1)[0]
    assert 'class="adjusted"' not in other
