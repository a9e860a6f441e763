"""The API's strict fields and base serializers, which every domain's serializers are made of.

Inputs are parsed with these, then handed to services, which do the real checking. Every
answer is rendered by an output serializer (on a model or a selector's dict), so that the
OpenAPI schema describes exactly what is sent. The rules of what can be stored (text, whole
numbers, money) are ``scoring.domain.inputs``'s, shared with the tournament document.

The drf-spectacular extensions (``*Schema``) are defined here, beside the classes they target:
they register when this module is imported, which every module using those classes does."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from decimal import Decimal

from django.core.serializers.json import DjangoJSONEncoder
from django.core.validators import RegexValidator
from django.db import models
from django.utils import timezone
from drf_spectacular.extensions import OpenApiSerializerExtension, OpenApiSerializerFieldExtension
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail

from scoring.domain.inputs import ANY_TEXT, MAX_ID, MAX_SEATS, MIN_SEATS, MONEY, NON_BLANK, ecma, is_int  # noqa: F401
from scoring.domain.proof import CODE_PATTERN
from scoring.web.times import local_or_utc


class DateTimeField(serializers.DateTimeField):
    """ISO 8601 to the millisecond, UTC as "Z": what DjangoJSONEncoder writes into the stored
    answer of an idempotent request, so that a replay equals a fresh read of the same deal.
    Any stored moment can be written (``scoring.web.times``): DRF's own conversion answers 400
    "Datetime value out of range" to a GET for one the current time zone cannot hold."""

    def to_representation(self, value):
        if isinstance(value, datetime):
            aware = timezone.is_aware(value)
            return DjangoJSONEncoder().default(local_or_utc(value) if aware else self.enforce_timezone(value))
        return super().to_representation(value)


# (The base classes here say why in comments: drf-spectacular would take a docstring as the
# description of every schema component made from a subclass.)

class OutputModelSerializer(serializers.ModelSerializer):
    # A model as answered: every field read-only, so always sent and required in the schema.

    serializer_field_mapping = {**serializers.ModelSerializer.serializer_field_mapping,
                                models.DateTimeField: DateTimeField}

    def get_extra_kwargs(self):
        extra = super().get_extra_kwargs()
        for name in self.Meta.fields:
            extra.setdefault(name, {})["read_only"] = True
        return extra


class OutputSerializer(serializers.Serializer):
    # A selector's dict as answered. A field that is not required is left out when the dict has
    # no such key (DRF would send null for a nullable one): "not required" in the schema means
    # "only for some games" (leader, banker, ...).

    def to_representation(self, instance):
        data = super().to_representation(instance)
        if isinstance(instance, Mapping):
            for name, field in self.fields.items():
                if not field.required and field.source not in instance:
                    data.pop(name, None)
        return data


class OpenSerializer(OutputSerializer):
    # The declared fields, plus whatever else the engine's answer holds for the game, sent as is
    # (the schema says additionalProperties: true).

    def to_representation(self, instance):
        data = super().to_representation(instance)
        return {**data, **{k: v for k, v in instance.items() if k not in self.fields}}


class OpenSerializerSchema(OpenApiSerializerExtension):
    target_class = OpenSerializer
    match_subclasses = True

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        return {**schema, "additionalProperties": True}


class ProblemSerializer(OutputSerializer):
    path = serializers.CharField(help_text='Where in the request body, like "points[2]" ("" = the whole body).')
    code = serializers.CharField()
    message = serializers.CharField()


class ErrorsSerializer(OutputSerializer):
    """Every error answer of the API."""

    errors = ProblemSerializer(many=True)
    detail = serializers.CharField(required=False, help_text="The first error's message (answers other than 400).")


# --- inputs -------------------------------------------------------------------------------------
# Input fields take what the schema says and nothing else: JSON strings for text (not numbers
# turned into text), JSON integers for ids, true/false for flags. Text is measured as sent, not
# trimmed first, so that maxLength means what it says; the services strip it afterwards.

# Seats at a table (MIN_SEATS, MAX_SEATS, imported above for the API's modules): scoring.domain.inputs's,
# which the document's reader shares.


class DocumentedRegexValidator(RegexValidator):
    """A pattern the schema shows (drf-spectacular reads ``regex.pattern``). NUL is left to DRF's
    own validator, so that text with NUL gets one error, not two."""

    def __call__(self, value):
        if "\x00" not in str(value):
            super().__call__(value)


class InputSerializer(serializers.Serializer):
    # A request body: the declared fields and no others (code "unknown_field", as the engine and
    # the services say it), so that the schema can close it (additionalProperties: false) and a
    # misspelt field is not silently ignored.

    def to_internal_value(self, data):
        unknown = {}
        if isinstance(data, Mapping):
            unknown = {key: [ErrorDetail(f"{key} is not a field of this request.", code="unknown_field")]
                       for key in data if key not in self.fields}
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as e:
            if unknown and isinstance(e.detail, Mapping):
                raise serializers.ValidationError({**e.detail, **unknown}) from None
            raise
        if unknown:
            raise serializers.ValidationError(unknown)
        return value


class StrictCharField(serializers.CharField):
    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class TextField(StrictCharField):
    # Not blank (NON_BLANK), or with allow_blank any text without NUL (ANY_TEXT). The empty text
    # is allowed apart: drf-spectacular shows it as a oneOf, which is why fields with it have no
    # default "" either (a default must match its schema).

    def __init__(self, **kwargs):
        kwargs.setdefault("trim_whitespace", False)
        if not kwargs.get("allow_blank", False):
            kwargs.setdefault("min_length", 1)
        super().__init__(**kwargs)
        if self.allow_blank:
            self.validators.append(DocumentedRegexValidator(ANY_TEXT))
        else:
            self.validators.append(DocumentedRegexValidator(NON_BLANK, message="This field may not be blank.",
                                                            code="blank"))


class SlugInputField(serializers.SlugField):
    def __init__(self, **kwargs):
        kwargs.setdefault("trim_whitespace", False)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictIntegerField(serializers.IntegerField):
    def to_internal_value(self, data):
        # A JSON number without a fraction: 3.0 too, which JSON Schema's "integer" takes.
        if not (is_int(data) or isinstance(data, float) and data.is_integer()):
            self.fail("invalid")
        return super().to_internal_value(data)


class IdField(StrictIntegerField):
    def __init__(self, **kwargs):
        super().__init__(min_value=1, max_value=MAX_ID, **kwargs)


class SeatField(StrictIntegerField):
    def __init__(self, **kwargs):
        super().__init__(min_value=0, max_value=MAX_SEATS - 1, **kwargs)


class PlayerCodeField(StrictCharField):
    """A player's personal code: text of 4 to 6 ASCII digits (``scoring.domain.proof``)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("trim_whitespace", False)
        super().__init__(min_length=4, max_length=6, **kwargs)
        self.validators.append(DocumentedRegexValidator(CODE_PATTERN, message="A personal code is 4 to 6 digits.",
                                                        code="bad_code"))


class StrictBooleanField(serializers.BooleanField):
    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class UniqueListField(serializers.ListField):
    """A list without repeats (the schema says uniqueItems; the service refuses repeats)."""


class UniqueListFieldSchema(OpenApiSerializerFieldExtension):
    target_class = UniqueListField

    def map_serializer_field(self, auto_schema, direction):
        schema = auto_schema._map_serializer_field(self.target, direction, bypass_extensions=True)
        return {**schema, "uniqueItems": True}


class MoneyField(serializers.DecimalField):
    """An amount as a string of digits with up to two decimals ("0.50"), from 0 to 99999999.99."""

    def __init__(self, **kwargs):
        super().__init__(max_digits=10, decimal_places=2, min_value=Decimal(0), **kwargs)

    def to_internal_value(self, data):
        if not isinstance(data, str) or not re.match(MONEY, data):
            self.fail("invalid")
        return super().to_internal_value(data)


class MoneyFieldSchema(OpenApiSerializerFieldExtension):
    target_class = MoneyField

    def map_serializer_field(self, auto_schema, direction):
        schema = auto_schema._map_serializer_field(self.target, direction, bypass_extensions=True)
        return {**schema, "pattern": ecma(MONEY)}


# --- bodies the services read whole -------------------------------------------------------------

class OpenInputSerializer(serializers.Serializer):
    # Schema only: the declared fields, plus fields the schema cannot list (a deal's record fields
    # for the table's game: additionalProperties).
    pass


class OpenInputSerializerSchema(OpenApiSerializerExtension):
    target_class = OpenInputSerializer
    match_subclasses = True

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        return {**schema, "additionalProperties": {}}
