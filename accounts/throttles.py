"""Throttles on the account endpoints that check a password or make an account (rates in
REST_FRAMEWORK settings)."""

import hashlib

from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from accounts.usernames import canonical_username


class LoginThrottle(SimpleRateThrottle):
    """Attempts per (client address, username): guessing one account's password is slow,
    while other players behind the same address are not locked out. The username counts
    in its canonical form, the one login looks up (accounts/usernames.py), so every
    spelling of a name shares one allowance."""

    scope = "login"

    def get_cache_key(self, request: Request, view: APIView) -> str:
        data = request.data
        username = data.get("username", "") if isinstance(data, dict) else ""
        subject = f"{self.get_ident(request)}|{canonical_username(str(username).strip())}"
        # Runs before the body is validated: a lone surrogate must not stop the hashing.
        ident = hashlib.sha256(subject.encode(errors="surrogatepass")).hexdigest()
        return self.cache_format % {"scope": self.scope, "ident": ident}


class RegisterThrottle(SimpleRateThrottle):
    """New accounts per client address."""

    scope = "register"

    def get_cache_key(self, request: Request, view: APIView) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class PasswordConfirmationThrottle(SimpleRateThrottle):
    """Password confirmations per account, at the login rate: whoever holds a token
    guesses its account's password no faster than a login would let them."""

    scope = "login"

    def get_cache_key(self, request: Request, view: APIView) -> str:
        ident = f"password-confirmation:{request.user.pk}"
        return self.cache_format % {"scope": self.scope, "ident": ident}
