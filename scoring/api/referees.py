"""A tournament's referees: ``GET`` / ``POST /api/v1/tournaments/{id}/referees/`` and ``DELETE
/api/v1/tournaments/{id}/referees/{user_id}/``. Directors of the club only: a referee's token is
refused (403), as every endpoint but a referee's is (``ApiView.referee_auth``)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.response import Response

from scoring.api.base import LIST_ERRORS, WRITE_ERRORS, ApiView
from scoring.api.fields import InputSerializer, OutputModelSerializer
from scoring.domain.inputs import MAX_ID, MAX_USERNAME, is_int
from scoring.models import TournamentReferee
from scoring.selectors.referees import referee_list
from scoring.services.referees import referee_add, referee_remove

_WHAT = ("A referee settles the tournament's disputes, records and deletes its adjustments and substitutes its "
         "players, over the API (their own token) and on the referee's page; nothing else.")


@extend_schema_field({"oneOf": [{"type": "string", "minLength": 1, "maxLength": MAX_USERNAME},
                                {"type": "integer", "minimum": 1, "maximum": MAX_ID}]})
class UserField(serializers.Field):
    """A user by username (text) or by id (a whole number)."""

    default_error_messages = {"invalid": "A username (text) or a user id (a whole number)."}

    def to_internal_value(self, data):
        if isinstance(data, str) and 0 < len(data) <= MAX_USERNAME:
            return data
        if is_int(data) and 0 < data <= MAX_ID:
            return data
        self.fail("invalid")

    def to_representation(self, value):
        return value


class RefereeInputSerializer(InputSerializer):
    user = UserField(help_text="An existing user: their username, or their id. Not found: 400 `not_found` at "
                               "`user`.")


class RefereeSerializer(OutputModelSerializer):
    user = serializers.IntegerField(source="user_id", help_text="The referee's user id.")
    username = serializers.CharField(source="user.username")
    added_by = serializers.CharField(source="added_by.username", default=None, allow_null=True,
                                     help_text="The director who added them (null once that user is gone).")

    class Meta:
        model = TournamentReferee
        fields = ["user", "username", "tournament", "added_by", "created_at"]


class TournamentRefereesView(ApiView):
    @extend_schema(operation_id="tournaments_referees_list", summary="The tournament's referees",
                   description=_WHAT, responses={200: RefereeSerializer(many=True), **LIST_ERRORS},
                   tags=["tournaments"])
    def get(self, request, pk: int):
        return self.paginated(referee_list(self.tournament(pk)), RefereeSerializer)

    @extend_schema(operation_id="tournaments_referees_create", summary="Add a referee (an existing user)",
                   description=_WHAT + " Directors of the club only (a referee: 403). A user already its referee: 409 "
                                       "`already_referee`; a director of the club: 409 `already_director`.",
                   request=RefereeInputSerializer, responses={201: RefereeSerializer, **WRITE_ERRORS},
                   examples=[OpenApiExample("By username", request_only=True, value={"user": "mei"})],
                   tags=["tournaments"])
    def post(self, request, pk: int):
        t = self.tournament(pk)
        data = self.parse(RefereeInputSerializer)
        referee = referee_add(actor=self.actor, tournament=t, user=data["user"])
        return Response(RefereeSerializer(referee).data, status=status.HTTP_201_CREATED)


class TournamentRefereeDetailView(ApiView):
    @extend_schema(operation_id="tournaments_referees_delete", summary="Take a referee away",
                   description="Their pages and token stop reaching the tournament at once; the audit log keeps "
                               "what they did. Not its referee: 404.",
                   request=None, responses={204: None, **WRITE_ERRORS}, tags=["tournaments"])
    def delete(self, request, pk: int, user_id: int):
        referee_remove(actor=self.actor, tournament=self.tournament(pk), user_id=user_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
