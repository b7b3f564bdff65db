"""Seat tokens: random bearer tokens, stored only as their SHA-256.

A token carries 256 bits from the operating system's generator, so a fast hash is
enough to store it safely; comparison happens by looking the hash up.
"""

from __future__ import annotations

import hashlib
import secrets


def new_token() -> str:
    """Return a fresh seat token."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """Return the stored form of a token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()
