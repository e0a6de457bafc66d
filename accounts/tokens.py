"""Opaque bearer tokens: random strings handed out once, stored only as SHA-256 digests."""

import hashlib
import secrets

TOKEN_PREFIX = "blt_"  # noqa: S105 - a marker that makes leaked tokens greppable


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
