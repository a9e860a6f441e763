"""The tournament document's JSON Schema, public at ``/api/v1/schema/tournament-document.json``
(``scoring.domain.document_schema.json_schema``): cacheable, the same as the copy in docs/, and a
real export (every kind of deal, sessions closed and open, a withdrawal, late and after-time
deals) is valid under it; what it refuses, the import's shape check refuses too
(tests/scoring/domain/test_document_shape.py walks every place)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from scoring.domain.document_schema import json_schema
from scoring.domain.document_shape import check_shape
from scoring.domain.errors import ValidationFailed

from ..services.test_exports import export, play
from ..services.test_exports_restore import evening

pytestmark = pytest.mark.django_db

URL = "/api/v1/schema/tournament-document.json"
DOCS_COPY = Path(__file__).resolve().parents[3] / "docs" / "features" / "tournament-document.schema.json"


def served(anon_client) -> dict:
    response = anon_client.get(URL)
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    assert response["Cache-Control"] == "public, max-age=86400"
    return response.json()


def test_the_schema_is_public_cacheable_and_the_docs_copy(anon_client):
    schema = served(anon_client)
    Draft202012Validator.check_schema(schema)
    assert schema == json_schema() and schema["$id"] == URL
    assert json.loads(DOCS_COPY.read_text()) == schema, (
        "docs/features/tournament-document.schema.json is stale: write json_schema() there again")


def test_real_exports_are_valid_under_the_served_schema(anon_client, make_setup, director_client, director_actor):
    validator = Draft202012Validator(served(anon_client))
    full = export(director_client, evening(make_setup, director_actor).tournament)
    played = export(director_client, play(make_setup("ding_niu"), finish=True))
    for doc in (full, played):
        assert [e.message for e in validator.iter_errors(doc)] == []
    # what it refuses, the import refuses at once, at the same place
    for change, path in [(lambda d: d["sessions"][0].pop("status"), "document.sessions[0].status"),
                         (lambda d: d["entries"][0].update(withdrawn_at="yesterday"), "document.entries[0].withdrawn_at"),
                         (lambda d: d["rounds"][0].update(late="no"), "document.rounds[0].late"),
                         (lambda d: d["tournament"].update(tie_breaks=["luck"]), "document.tournament.tie_breaks[0]"),
                         (lambda d: d["adjustments"].append({"player": 1}), "document.adjustments[1].amount"),
                         (lambda d: d["entries"][0].update(withdrawn="no"), "document.entries[0].withdrawn")]:
        doc = copy.deepcopy(full)
        change(doc)
        assert not validator.is_valid(doc)
        with pytest.raises(ValidationFailed) as e:
            check_shape(doc)
        assert e.value.errors[0]["path"] == path
