"""A real push service for the tests, on this computer: a small HTTP server that takes a Web Push
message as a push service does (a POST of the encrypted body, with its VAPID Authorization and
TTL headers), answers 201 (or the status asked for a path: 410, 404, 500…) and records what it
got. And a "browser": a P-256 key pair and an auth secret, as ``pushManager.subscribe`` makes,
whose private half decrypts what was recorded (http_ece, aes128gcm), as a phone would.
No mock of pywebpush: the site's own sending code posts here over HTTP."""

from __future__ import annotations

import base64
import json
import os
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@dataclass
class Received:
    path: str
    headers: dict
    body: bytes


@dataclass
class PushService:
    """``url(name)``: an endpoint; ``answers[path]``: the status that path gets (default 201)."""

    received: list[Received] = field(default_factory=list)
    answers: dict[str, int] = field(default_factory=dict)
    server: ThreadingHTTPServer | None = None

    def start(self) -> PushService:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                service.received.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                status = service.answers.get(self.path, 201)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()

    def url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/push/{name}"

    def to(self, name: str) -> list[Received]:
        return [r for r in self.received if r.path == f"/push/{name}"]


@dataclass
class Browser:
    """A phone's subscription keys: what ``PushSubscription.toJSON()`` gives, and the means to
    read what its push service was given."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    secret: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self) -> dict:
        public = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                    serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "expirationTime": None, "keys": {"p256dh": b64(public), "auth": b64(self.secret)}}

    def read(self, received: Received) -> dict:
        """The message decrypted (aes128gcm, RFC 8291) and read as the service worker reads it."""
        plain = http_ece.decrypt(received.body, private_key=self.key, auth_secret=self.secret, version="aes128gcm")
        return json.loads(plain.decode())
