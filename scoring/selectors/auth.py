"""Who an API token belongs to."""

from __future__ import annotations

from django.utils import timezone

from scoring.domain.chain import sha256_hex
from scoring.models import ApiToken


def user_by_api_token(token: str | None):
    """The active director whose unexpired API token this is, or None."""
    if not token or not isinstance(token, str) or len(token) > 200:
        return None
    row = (ApiToken.objects.select_related("user").filter(key_hash=sha256_hex(token), expires_at__gt=timezone.now())
           .first())
    if row is None or not row.user.is_active:
        return None
    return row.user
