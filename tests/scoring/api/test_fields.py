"""The API's strict fields (``scoring.api.fields``) take what the schema says and nothing else."""

from __future__ import annotations

from decimal import Decimal

import pytest
from rest_framework.exceptions import ValidationError

from scoring.api.fields import IdField, MoneyField, StrictIntegerField
from scoring.domain.inputs import MAX_ID


def bound(field, name="x"):
    field.bind(name, None)
    return field


@pytest.mark.parametrize("data", [3, 3.0])
def test_a_strict_integer_is_a_json_number_without_a_fraction(data):
    assert bound(StrictIntegerField()).run_validation(data) == 3


@pytest.mark.parametrize("data", [True, 3.5, "3", None])
def test_anything_else_is_no_strict_integer(data):
    with pytest.raises(ValidationError):
        bound(StrictIntegerField()).run_validation(data)


def test_an_id_is_a_64_bit_key():
    assert bound(IdField()).run_validation(MAX_ID) == MAX_ID
    for bad in (0, MAX_ID + 1):
        with pytest.raises(ValidationError):
            bound(IdField()).run_validation(bad)


@pytest.mark.parametrize("data", ["0.50", "12", "99999999.99"])
def test_money_is_digits_as_text(data):
    assert bound(MoneyField()).run_validation(data) == Decimal(data)


@pytest.mark.parametrize("data", [0.5, "1.234", "-1", "100000000", "1e3"])
def test_money_is_nothing_else(data):
    with pytest.raises(ValidationError):
        bound(MoneyField()).run_validation(data)
