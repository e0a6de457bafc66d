"""Request guards, the last line that keeps every error answer in problem+json, and
Django's browser middlewares made to step aside on the API.

All work in sync and async mode: under ASGI one sync-only middleware would make every
async view (the live feed) hold a thread while it waits.
"""

from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.contrib.auth import middleware as auth
from django.contrib.messages import middleware as messages
from django.contrib.sessions import middleware as sessions
from django.http import HttpRequest, HttpResponseBase
from django.middleware import csrf
from django.utils.deprecation import MiddlewareMixin

from belote_project.problems import problem_response

# Headers an error answer must keep when its body is replaced.
_KEPT_HEADERS = ("Allow", "Retry-After", "WWW-Authenticate", "Vary")


class _BeforeAfterMiddleware:
    """A middleware made of two plain hooks, usable in sync and async stacks alike."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)

    def before(self, request: HttpRequest) -> HttpResponseBase | None:
        """An answer that short-circuits the request, or None to go on."""
        return None

    def after(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        return response

    def __call__(self, request: HttpRequest) -> Any:
        if iscoroutinefunction(self):
            return self._acall(request)
        early = self.before(request)
        if early is not None:
            return self.after(request, early)
        return self.after(request, self.get_response(request))

    async def _acall(self, request: HttpRequest) -> HttpResponseBase:
        early = self.before(request)
        if early is not None:
            return self.after(request, early)
        get_response: Callable[[HttpRequest], Awaitable[HttpResponseBase]] = self.get_response
        return self.after(request, await get_response(request))


class ProblemResponseMiddleware(_BeforeAfterMiddleware):
    """Replace any non-JSON 4xx/5xx (Django's HTML 404/500, CSRF, DEBUG pages) with a problem."""

    def after(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if response.status_code < 400 or "json" in response.get("Content-Type", ""):
            return response
        replacement = problem_response(request, response.status_code)
        for header in _KEPT_HEADERS:
            if header in response:
                replacement[header] = response[header]
        return replacement


class ContentSecurityPolicyMiddleware(_BeforeAfterMiddleware):
    """A Content-Security-Policy on every answer, and ``nosniff`` where none was set.

    A JSON answer loads nothing, so its policy forbids everything (should a browser ever
    render one, nothing in it can run or frame it). The HTML pages, Swagger UI and the
    admin, load only their own static files and call only this origin; Swagger UI's page
    keeps one inline <style> block, hence 'unsafe-inline' for styles (never for scripts).
    Outermost, so that answers made by the middlewares below it get the headers too
    (Django's SecurityMiddleware sets nosniff only on what passes through it). Django 6
    has a CSP middleware of its own; this one serves Django 5.2 as well.
    """

    API_POLICY = "default-src 'none'; frame-ancestors 'none'"
    PAGE_POLICY = (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    )

    def after(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        page = response.get("Content-Type", "").startswith("text/html")
        response.setdefault(
            "Content-Security-Policy", self.PAGE_POLICY if page else self.API_POLICY
        )
        response.setdefault("X-Content-Type-Options", "nosniff")
        return response


class RequestSizeGuardMiddleware(_BeforeAfterMiddleware):
    """Refuse bodies over MAX_REQUEST_BODY_BYTES and unreadable Content-Length up front.

    DRF's parsers read the stream directly, past Django's DATA_UPLOAD_MAX_MEMORY_SIZE,
    so the limit is enforced here, before anything reads the body.
    """

    def before(self, request: HttpRequest) -> HttpResponseBase | None:
        raw_length = request.META.get("CONTENT_LENGTH") or "0"
        try:
            length = int(raw_length)
        except ValueError:
            length = -1
        if length < 0:
            return problem_response(
                request,
                400,
                code="malformed_request",
                detail="The Content-Length header is not a non-negative integer.",
            )
        if length > settings.MAX_REQUEST_BODY_BYTES:
            return problem_response(
                request,
                413,
                code="request_too_large",
                detail=f"The body may hold at most {settings.MAX_REQUEST_BODY_BYTES} bytes.",
            )
        return None


# --- Django's browser middlewares, skipped on the API ---------------------------------
API_PATH_PREFIX = "/api/"


class _BrowserOnly(MiddlewareMixin):
    """A Django middleware that steps aside on the API's paths.

    Sessions, CSRF tokens, the session's user and flash messages serve the pages a
    browser signs in to (the admin). The API authenticates each request by its bearer
    token (DRF) and reads no cookie: there these middlewares only cost CPU (together
    some 160,000 instructions a request, 6% of the trivial insert endpoint's). The
    classes below keep Django's names and are subclasses of its own, so that the admin's
    checks still find them. Only their request and response hooks step aside: Django
    still calls CSRF's process_view, which lets DRF's csrf_exempt views through at once.
    """

    def __call__(self, request: HttpRequest) -> Any:
        if request.path_info.startswith(API_PATH_PREFIX):
            return self.get_response(request)  # in async mode a coroutine, for the caller to await
        return super().__call__(request)


class SessionMiddleware(_BrowserOnly, sessions.SessionMiddleware):
    pass


class CsrfViewMiddleware(_BrowserOnly, csrf.CsrfViewMiddleware):
    pass


class AuthenticationMiddleware(_BrowserOnly, auth.AuthenticationMiddleware):
    pass


class MessageMiddleware(_BrowserOnly, messages.MessageMiddleware):
    pass
