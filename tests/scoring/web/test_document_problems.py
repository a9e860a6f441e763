"""A refused document's problem as a page shows it: the path in words, the message in the page's
language (a general sentence per document code, the engine's codes by ``rule_messages``)."""

from __future__ import annotations

import pytest
from django.utils import translation

from scoring.web.document_problems import DOCUMENT_CODES, path_in_words, problem_in_words


@pytest.mark.parametrize("path, words", [
    ("document.rounds[3].revisions[1].hash", "deal no. 4 › revision 2 › hash"),
    ("document.tournament.variant.arms", "the tournament › variant › arms"),
    ("document.tables[0].seats[2]", "table no. 1 › seat 3"),
    ("document.players[9].name", "player no. 10 › name"),
    ("document.rounds[0].revisions[0].body.points[2]", "deal no. 1 › revision 1 › body › points[2]"),
    ("document", ""), ("", ""),
])
def test_a_path_in_words(path, words):
    assert path_in_words(path) == words


def test_in_english_the_message_is_as_written():
    found = problem_in_words({"path": "document.rounds[0].revisions[0].result", "code": "not_zero_sum",
                              "message": "The nets sum to 1, not 0: every deal sums to zero."})
    assert found == {"path": "document.rounds[0].revisions[0].result", "code": "not_zero_sum",
                     "where": "deal no. 1 › revision 1 › result",
                     "message": "The nets sum to 1, not 0: every deal sums to zero."}


def test_in_chinese_a_document_code_has_its_sentence_and_an_engine_code_the_engines():
    with translation.override("zh-hans"):
        found = problem_in_words({"path": "document.rounds[0].revisions[0].hash", "code": "hash_mismatch",
                                  "message": "The revision does not match its hash."})
        assert found["where"] == "第 1 局 › 修订 1 › hash"
        assert found["message"] == translation.gettext(DOCUMENT_CODES["hash_mismatch"]) != DOCUMENT_CODES["hash_mismatch"]
        engine = problem_in_words({"path": "document.tournament.variant.arms", "code": "bad_variant",
                                   "message": "arms is not one of the allowed values."})
        assert engine["message"] == translation.gettext("This rule option has a value it does not allow.")
        assert engine["message"] != "This rule option has a value it does not allow."


def test_every_code_has_a_chinese_sentence():
    for language in ("zh-hans", "zh-hant"):
        with translation.override(language):
            assert [c for c, s in DOCUMENT_CODES.items() if translation.gettext(s) == s] == []


def test_a_message_already_translated_is_kept():
    with translation.override("zh-hans"):
        found = problem_in_words({"path": "", "code": "required", "message": "请选择文件。"}, translated=True)
    assert found["message"] == "请选择文件。" and found["where"] == ""


def test_nothing_is_no_problem():
    assert problem_in_words(None) is None
