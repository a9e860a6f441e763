"""POST /api/v1/evaluate/: the stateless engine endpoint (no login, stores nothing)."""

import json
from pathlib import Path

import pytest

from games.samples import SAMPLES

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

JIE_LONG = {"game": "jie_long", "seats": ["Anna", "Bob", "Celine", "Dominic"], "points": [2, 12, 34, 18]}


@pytest.fixture
def api(client):
    def post(payload, **extra):
        return client.post("/api/v1/evaluate/", data=json.dumps(payload), content_type="application/json", **extra)
    return post


@pytest.mark.django_db
def test_valid_record_gives_the_engine_result(api):
    response = api(JIE_LONG)
    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is True
    assert [s["net"] for s in body["seats"]] == [58, 18, -70, -6]


@pytest.mark.django_db
def test_invalid_record_gives_400_with_paths(api):
    record = json.loads((EXAMPLES / "invalid-bad-tile.json").read_text())["record"]
    response = api(record)
    assert response.status_code == 400
    body = response.json()
    assert body["ok"] is False
    assert "unplayed_tiles[1][0]" in [e["path"] for e in body["errors"]]
    assert all(set(e) == {"path", "code", "message"} for e in body["errors"])


@pytest.mark.django_db
def test_a_list_of_records_gives_a_list_of_results_in_order(api):
    bad = dict(JIE_LONG, points=[2, 12])
    response = api([JIE_LONG, bad, SAMPLES["Da Ling — three players"]])
    assert response.status_code == 200
    assert [r["ok"] for r in response.json()] == [True, False, True]


@pytest.mark.django_db
def test_garbage_is_refused_not_crashed(client):
    for payload in ("null", "42", '"text"', "[[[[[[]]]]]]", '{"game": {"x": [1, 2]}}'):
        response = client.post("/api/v1/evaluate/", data=payload, content_type="application/json")
        assert response.status_code in (200, 400), payload
    response = client.post("/api/v1/evaluate/", data="{not json", content_type="application/json")
    assert response.status_code == 400


@pytest.mark.django_db
def test_no_login_needed_and_nothing_stored(api, django_user_model):
    from django.apps import apps

    counts = {m: m.objects.count() for m in apps.get_app_config("scoring").get_models()}
    assert api(JIE_LONG).status_code == 200
    assert counts == {m: m.objects.count() for m in apps.get_app_config("scoring").get_models()}


@pytest.mark.django_db
def test_endpoint_is_in_the_openapi_schema(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    assert "/api/v1/evaluate/" in response.content.decode()
    assert client.get("/api/docs/").status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("body", [
    "[" * 100_000 + "]" * 100_000,
    '{"game": "jie_long", "seats": ' + "[" * 100_000 + "]" * 100_000 + "}",
])
def test_deeply_nested_json_is_a_400_not_a_crash(client, body):
    response = client.post("/api/v1/evaluate/", data=body, content_type="application/json")
    assert response.status_code == 400


@pytest.mark.django_db
def test_deeply_nested_json_on_an_authenticated_endpoint_is_a_400(director_client, jie_long):
    body = '{"points": ' + "[" * 100_000 + "]" * 100_000 + "}"
    response = director_client.post(f"/api/v1/tables/{jie_long.table.pk}/rounds/", data=body,
                                    content_type="application/json")
    assert response.status_code == 400
