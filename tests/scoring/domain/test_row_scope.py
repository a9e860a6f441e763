"""The row scope: the settings each statement carries (row-level security on PostgreSQL)."""

from __future__ import annotations

import contextvars
from types import SimpleNamespace

import pytest

from scoring.domain import row_scope


@pytest.fixture(autouse=True)
def _a_scope_of_its_own():
    """Each test starts in a public scope of its own: code run outside a request elsewhere (a
    selector called by a test) may have widened the test thread's."""
    with row_scope.within(row_scope.public()):
        yield


def test_each_scope_sets_all_three_settings_for_the_transaction_only():
    assert row_scope.public().sql() == ("SELECT set_config('gupai.all', 'off', true), "
                                        "set_config('gupai.clubs', '{}', true), set_config('gupai.user', '', true)")
    assert "set_config('gupai.all', 'on', true)" in row_scope.system().sql()
    assert "set_config('gupai.clubs', '{3,12}', true)" in row_scope.of_clubs([12, 3]).sql()
    assert "set_config('gupai.user', '7', true)" in row_scope.Scope(user=7).sql()


def test_a_requests_user_is_asked_when_first_needed():
    asked = []
    director = SimpleNamespace(is_superuser=False, is_authenticated=True, pk=5)
    scope = row_scope.Scope(lazy_user=lambda: asked.append(1) or director)
    assert asked == []
    assert "set_config('gupai.user', '5', true)" in scope.sql() and asked == [1]
    scope.sql()
    assert asked == [1]
    admin = SimpleNamespace(is_superuser=True, is_authenticated=True, pk=1)
    assert row_scope.Scope(lazy_user=lambda: admin).sql() == row_scope.system().sql()
    visitor = SimpleNamespace(is_superuser=False, is_authenticated=False, pk=None)
    assert row_scope.Scope(lazy_user=lambda: visitor).sql() == row_scope.public().sql()


def test_widening_a_scope_never_widens_the_processs_default():
    def scorer_request():
        row_scope.admit_club(4)
        return row_scope.current().clubs

    # Contexts where nothing set a scope (a thread of a pool): they read the process's default.
    assert contextvars.Context().run(scorer_request) == {4}
    assert contextvars.Context().run(row_scope.current) == row_scope.public()


def test_a_scope_ends_with_its_block():
    with row_scope.within(row_scope.of_clubs([1])):
        row_scope.narrow_to_club(2)
        assert row_scope.current().clubs == {2}
    assert row_scope.current() == row_scope.public()
