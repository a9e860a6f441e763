"""Web Push's settings (``gupai_site.settings`` imports them): the VAPID key pair the site signs
its messages with, from the environment. ``manage.py vapid_keys`` prints a new pair.

VAPID_PUBLIC_KEY   the public key, base64url (the browser subscribes with it)
VAPID_PRIVATE_KEY  the private key, base64url (the raw 32 bytes, or DER)
VAPID_SUBJECT      who runs the site, for the push services: ``mailto:…`` or ``https://…``
                   (default: mailto:director@localhost)

Without both keys, notifications are off: no page offers them and nothing is sent.
"""

from __future__ import annotations

import os

__all__ = ["VAPID_PRIVATE_KEY", "VAPID_PUBLIC_KEY", "VAPID_SUBJECT"]

VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "").strip()
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "").strip()
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "").strip() or "mailto:director@localhost"
