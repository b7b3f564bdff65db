"""Seat tokens: random bearer tokens, stored only as their SHA-256.

A token carries 256 bits from the operating system's generator, so a fast hash is
enough to store it safely; comparison happens by looking the hash up. A game created
under an Idempotency-Key derives its tokens from that key instead (``derived_token``:
HMAC-SHA-256 keyed by the client's key), so that a repeat of the creation answers the same
tokens without the service keeping them: they are as secret as the key, which the
service keeps only as a hash too (service/games/creation.py).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets


def new_token() -> str:
    """Return a fresh seat token."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """Return the stored form of a token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def derived_token(key: str, *parts: str) -> str:
    """Return the token the client's secret ``key`` derives for ``parts`` (a game, a purpose, a seat)."""
    digest = hmac.new(key.encode("utf-8"), "\x00".join(parts).encode("utf-8"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")
