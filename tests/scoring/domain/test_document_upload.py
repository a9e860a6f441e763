"""What the upload needs of a document before any check (``domain.document_shape``): how many
revisions it holds (the progress's total), and whether it can be kept as it is until a worker
reads it."""

from __future__ import annotations

import json

import pytest

from scoring.domain.document_shape import MAX_DOCUMENT_DEPTH, revision_count, storable_problem


@pytest.mark.parametrize("document, count", [
    ({"rounds": [{"revisions": [{}, {}]}, {"revisions": [{}]}]}, 3),
    ({"rounds": [{"revisions": "no"}, 7, {"revisions": [1]}]}, 1),   # as far as the shape can be read
    ({"rounds": {}}, 0), ([], 0), (None, 0), ({}, 0),
])
def test_revision_count(document, count):
    assert revision_count(document) == count


def test_a_real_depth_is_kept_and_an_absurd_one_is_not():
    assert storable_problem(json.loads("[" * MAX_DOCUMENT_DEPTH + "]" * MAX_DOCUMENT_DEPTH)) is None
    deep = json.loads("[" * (MAX_DOCUMENT_DEPTH + 1) + "]" * (MAX_DOCUMENT_DEPTH + 1))
    assert storable_problem(deep) == {"path": "document" + "[0]" * MAX_DOCUMENT_DEPTH, "code": "too_deep",
                                      "message": f"At most {MAX_DOCUMENT_DEPTH} levels of lists and objects."}


@pytest.mark.parametrize("document, path", [
    ({"a": [1, {"b": "x\x00"}]}, "document.a[1].b"),
    ({"tournament": {"name": "\ud800"}}, "document.tournament.name"),
])
def test_text_no_database_stores_is_found_at_its_path(document, path):
    found = storable_problem(document)
    assert (found["path"], found["code"]) == (path, "bad_text")


def test_a_document_of_plain_values_can_be_kept():
    assert storable_problem({"format": "gupai-club.tournament", "rounds": [{"revisions": [{"n": 1.5}]}]}) is None
