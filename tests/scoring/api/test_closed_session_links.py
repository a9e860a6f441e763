"""A closed session's table gets no new scorer link (issue 26), through the API or the director's
page: 409 ``session_closed`` (``domain.lifecycle.SESSION_CLOSED_NO_LINKS``), nothing changed. Its
links record no deals, so a new one would only be a secret handed out for nothing."""

from __future__ import annotations

import pytest

from scoring.domain.lifecycle import SESSION_CLOSED_NO_LINKS
from scoring.models import ActionLog, Table
from scoring.services.sessions import session_close, session_reopen

pytestmark = pytest.mark.django_db


def test_a_closed_sessions_table_gets_no_new_link(jie_long, director_client, client, director):
    table = jie_long.table
    session_close(actor=jie_long.director_actor, session=table.session)
    before = Table.objects.values_list("scorer_token_hash", flat=True).get(pk=table.pk)

    r = director_client.post(f"/api/v1/tables/{table.pk}/scorer-token/")
    assert r.status_code == 409
    assert r.json()["errors"] == [{"path": "", "code": "session_closed", "message": SESSION_CLOSED_NO_LINKS.message}]

    client.force_login(director)
    page = client.get(f"/director/tables/{table.pk}/").content.decode()
    assert f"/director/tables/{table.pk}/rotate/" not in page      # no button offered
    dashboard = client.get(f"/director/tournaments/{table.session.tournament_id}/").content.decode()
    assert f"/director/tables/{table.pk}/rotate/" not in dashboard  # nor on its card
    r = client.post(f"/director/tables/{table.pk}/rotate/", follow=True)
    assert r.redirect_chain[-1][0] == f"/director/tables/{table.pk}/"
    assert SESSION_CLOSED_NO_LINKS.message in r.content.decode()
    assert Table.objects.values_list("scorer_token_hash", flat=True).get(pk=table.pk) == before
    assert not ActionLog.objects.filter(action="table_scorer_token_rotate").exists()

    session_reopen(actor=jie_long.director_actor, session=table.session)   # open again: a new link
    dashboard = client.get(f"/director/tournaments/{table.session.tournament_id}/").content.decode()
    assert f"/director/tables/{table.pk}/rotate/" in dashboard
    assert director_client.post(f"/api/v1/tables/{table.pk}/scorer-token/").status_code == 200
