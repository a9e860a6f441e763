"""The home page and the rules calculator."""

import json

import pytest

import games
from games.samples import SAMPLES


@pytest.mark.django_db
def test_home_lists_every_game_and_the_samples(client):
    response = client.get("/")
    assert response.status_code == 200
    page = response.content.decode()
    for name in games.GAME_NAMES.values():
        assert name in page
    assert "calculator/?sample=" in page


@pytest.mark.parametrize("name", list(SAMPLES))
def test_every_sample_record_is_valid(name):
    result = games.evaluate(SAMPLES[name])
    assert result["ok"], result.get("errors")
    assert sum(s["net"] for s in result["seats"]) + result.get("house", 0) == 0


@pytest.mark.django_db
def test_calculator_loads_a_sample_and_shows_who_pays_whom(client):
    name = "Jie Long — quick entry (points)"
    page = client.get("/calculator/", {"sample": name}).content.decode()
    assert "&quot;jie_long&quot;" in page
    response = client.post("/calculator/", {"record": json.dumps(SAMPLES[name])})
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="result"' in page
    # Li has 27 points: the most, so Li pays each other player the difference.
    assert "Li pays Mei 23" in page


@pytest.mark.django_db
def test_calculator_shows_errors_with_their_paths(client):
    record = {"game": "jie_long", "seats": ["A", "B", "C", "D"], "unplayed_tiles": [["6:6"], ["7:1"], [], []]}
    response = client.post("/calculator/", {"record": json.dumps(record)})
    assert response.status_code == 400
    page = response.content.decode()
    assert "unplayed_tiles[1][0]" in page
    assert 'id="result"' not in page


@pytest.mark.django_db
def test_calculator_refuses_broken_json_clearly(client):
    response = client.post("/calculator/", {"record": '{"game": '})
    assert response.status_code == 400
    assert "not valid JSON" in response.content.decode()


@pytest.mark.django_db
def test_calculator_builds_a_deal_from_the_form(client):
    page = client.get("/calculator/", {"game": "jie_long", "players": "4"}).content.decode()
    assert 'name="tiles_0"' in page and "data-tiles" in page and 'id="tile-6-5"' in page
    data = {"game": "jie_long", "players": "4", "build": "1", "level": "unplayed_tiles", "leader": "1",
            "tiles_0": "6:4 3:1", "tiles_1": "", "tiles_2": "5:5", "tiles_3": "2:1"}
    response = client.post("/calculator/", data)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Seat 1 pays Seat 2 14" in page
    assert "&quot;unplayed_tiles&quot;" in page  # the record it built, in the JSON box


@pytest.mark.django_db
def test_calculator_builder_shows_errors_at_their_inputs(client):
    data = {"game": "jie_long", "players": "4", "build": "1", "level": "unplayed_tiles", "leader": "0",
            "tiles_0": "7:1", "tiles_1": "", "tiles_2": "", "tiles_3": ""}
    response = client.post("/calculator/", data)
    assert response.status_code == 400
    assert 'aria-invalid="true"' in response.content.decode()
    response = client.get("/calculator/", {"game": "ding_niu", "players": "3"})
    assert response.status_code == 400
    assert "Ding Niu" in response.content.decode()
