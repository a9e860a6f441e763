"""The director's settings form leaves a tournament out of the club's ratings (and back)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_the_settings_form_switches_rated(jie_long, client, director):
    client.force_login(director)
    t = jie_long.tournament
    page = client.get(f"/director/tournaments/{t.pk}/").content.decode()
    assert 'name="rated" id="s-rated" checked' in page
    form = {"name": t.name, "public": "on", "chip_value": "0.50", "currency": "EUR", "tie_break_0": "net"}
    assert client.post(f"/director/tournaments/{t.pk}/settings/", form).status_code == 302
    t.refresh_from_db()
    assert t.rated is False
    assert client.post(f"/director/tournaments/{t.pk}/settings/", {**form, "rated": "on"}).status_code == 302
    t.refresh_from_db()
    assert t.rated is True
