"""Directors' API tokens: made from a login, revoked.
"""


from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.api.base import NO_STORE, ApiView, error_responses, limit
from scoring.api.fields import DocumentedRegexValidator, InputSerializer, OutputSerializer, StrictCharField
from scoring.api.parsers import SafeJSONParser
from scoring.domain.errors import ValidationFailed
from scoring.domain.inputs import ANY_TEXT
from scoring.services.auth import auth_token_obtain, auth_tokens_revoke
from scoring.web import throttling
from scoring.web.auth import client_ip


class TokenInputSerializer(InputSerializer):
    # Any text without NUL (spaces can be a password): a wrong one is the credentials' refusal.
    username = StrictCharField(min_length=1, trim_whitespace=False, validators=[DocumentedRegexValidator(ANY_TEXT)])
    password = StrictCharField(min_length=1, trim_whitespace=False, validators=[DocumentedRegexValidator(ANY_TEXT)],
                               style={"input_type": "password"})


class TokenOutputSerializer(OutputSerializer):
    token = serializers.CharField(help_text="Shown only now: only its hash is stored.")
    expires_in = serializers.IntegerField(help_text="Seconds until it stops working.")


class RevokedSerializer(OutputSerializer):
    revoked = serializers.IntegerField(help_text="How many tokens stopped working.")


class AuthTokenView(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]
    parser_classes = [SafeJSONParser]

    @extend_schema(operation_id="auth_token", summary="Get a director's API token",
                   description="Send `{\"username\", \"password\"}`; use the answer as `Authorization: Token <token>`. "
                               "Each call makes a new token, shown only now; it expires (`expires_in` seconds). "
                               "Failed logins are limited per address and per account from an address (429 with "
                               "Retry-After); the right password from an address that has not failed gets in.",
                   request=TokenInputSerializer,
                   responses={200: TokenOutputSerializer, **error_responses(400, 403, 429)},
                   tags=["auth"])
    def post(self, request):
        data = request.data if isinstance(request.data, dict) else {}
        username, address = data.get("username"), client_ip(request) or "unknown"
        limit(lambda: throttling.login_check(request, username, address))
        try:
            credentials = TokenInputSerializer(data=request.data)
            credentials.is_valid(raise_exception=True)
            token = auth_token_obtain(**credentials.validated_data, ip=address)
        except (ValidationFailed, exceptions.ValidationError):
            throttling.login_failed(request, username, address)
            raise
        return Response(TokenOutputSerializer({"token": token,
                                                 "expires_in": int(settings.API_TOKEN_TTL.total_seconds())}).data,
                        headers=NO_STORE)


class AuthTokenRevokeView(ApiView):
    referee_auth = ("POST",)   # a referee logs out everywhere too
    @extend_schema(operation_id="auth_token_revoke", summary="Log out everywhere",
                   description="Every API token of the calling director stops working at once, and every "
                               "browser session of theirs ends (the director's pages ask for a login again), "
                               "but the browser session that sent this request, if it was one.",
                   request=None, responses={200: RevokedSerializer, **error_responses(401, 403, 429)}, tags=["auth"])
    def post(self, request):
        # Sent from a logged-in browser (session authentication): that browser stays logged in.
        by_session = isinstance(request.successful_authenticator, SessionAuthentication)
        keep = request.session.session_key if by_session else None
        revoked = auth_tokens_revoke(actor=self.actor, keep_session=keep)
        return Response(RevokedSerializer({"revoked": revoked}).data)
