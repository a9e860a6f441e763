"""Directors' API tokens: made from a login, revoked.
"""


from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.services.auth import auth_token_obtain, auth_tokens_revoke

from scoring.web import throttling
from scoring.web.auth import client_ip
from scoring.domain.errors import ValidationFailed
from scoring.api import serializers as s
from scoring.api.base import NO_STORE, ApiView, error_responses, limit
from scoring.api.parsers import SafeJSONParser


class AuthTokenView(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]
    parser_classes = [SafeJSONParser]

    @extend_schema(operation_id="auth_token", summary="Get a director's API token",
                   description="Send `{\"username\", \"password\"}`; use the answer as `Authorization: Token <token>`. "
                               "Each call makes a new token, shown only now; it expires (`expires_in` seconds). "
                               "Failed logins are limited per account and per address (429 with Retry-After).",
                   request=s.TokenInputSerializer,
                   responses={200: s.TokenOutputSerializer, **error_responses(400, 403, 429)},
                   tags=["auth"])
    def post(self, request):
        data = request.data if isinstance(request.data, dict) else {}
        username, address = data.get("username"), client_ip(request) or "unknown"
        account = username.lower()[:150] if isinstance(username, str) else ""
        limit(lambda: throttling.check(request, "login-address", address))
        limit(lambda: throttling.check(request, "login-account", account))
        try:
            credentials = s.TokenInputSerializer(data=request.data)
            credentials.is_valid(raise_exception=True)
            token = auth_token_obtain(**credentials.validated_data, ip=address)
        except (ValidationFailed, exceptions.ValidationError):
            throttling.count(request, "login-address", address)
            throttling.count(request, "login-account", account)
            raise
        return Response(s.TokenOutputSerializer({"token": token,
                                                 "expires_in": int(settings.API_TOKEN_TTL.total_seconds())}).data,
                        headers=NO_STORE)


class AuthTokenRevokeView(ApiView):
    @extend_schema(operation_id="auth_token_revoke", summary="Log out everywhere",
                   description="Every API token of the calling director stops working at once, and every "
                               "browser session of theirs ends (the director's pages ask for a login again), "
                               "but the browser session that sent this request, if it was one.",
                   request=None, responses={200: s.RevokedSerializer, **error_responses(401, 403, 429)}, tags=["auth"])
    def post(self, request):
        # Sent from a logged-in browser (session authentication): that browser stays logged in.
        by_session = isinstance(request.successful_authenticator, SessionAuthentication)
        keep = request.session.session_key if by_session else None
        revoked = auth_tokens_revoke(actor=self.actor, keep_session=keep)
        return Response(s.RevokedSerializer({"revoked": revoked}).data)
