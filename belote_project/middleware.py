"""Request guards and the last line that keeps every error answer in problem+json.

All work in sync and async mode: under ASGI one sync-only middleware would make every
async view (the live feed) hold a thread while it waits.
"""

from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.middleware import security
from django.utils import translation
from django.utils.cache import patch_vary_headers

from belote_project.problems import problem_response
from belote_project.request_size import content_length_problem

# Headers an error answer must keep when its body is replaced.
_KEPT_HEADERS = ("Allow", "Retry-After", "WWW-Authenticate", "Vary", "Content-Language")


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
        # frame-ancestors says it to browsers that read CSP; this, to the older ones
        # (what Django's XFrameOptionsMiddleware would add, as a thread hop under ASGI).
        response.setdefault("X-Frame-Options", "DENY")
        return response


class HostAndLengthMiddleware(_BeforeAfterMiddleware):
    """What Django's CommonMiddleware still did here: refuse a Host that is not in
    ALLOWED_HOSTS (400), and give an answer that is not streamed its Content-Length.

    Its other work is off in these settings (APPEND_SLASH, PREPEND_WWW,
    DISALLOWED_USER_AGENTS), and as a MiddlewareMixin it cost each feed answer two thread
    hops under ASGI (`./scripts/bench feedcost`). `get_host` is Django's own check; the
    DisallowedHost it raises becomes Django's 400, a problem like every error.
    """

    def before(self, request: HttpRequest) -> HttpResponseBase | None:
        request.get_host()
        return None

    def after(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if isinstance(response, HttpResponse) and not response.has_header("Content-Length"):
            response["Content-Length"] = str(len(response.content))
        return response


class SecurityMiddleware(_BeforeAfterMiddleware):
    """Django's SecurityMiddleware (the HTTPS redirect, HSTS, nosniff, Referrer-Policy,
    Cross-Origin-Opener-Policy), its two hooks called in line.

    It is a MiddlewareMixin, whose hooks Django runs through `sync_to_async` on an async
    request: two thread hops on every feed request for work that only reads settings
    and sets headers. Here they run where the request runs.
    """

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        super().__init__(get_response)
        self.stock = security.SecurityMiddleware(get_response)

    def before(self, request: HttpRequest) -> HttpResponseBase | None:
        return self.stock.process_request(request)

    def after(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        # django-stubs type it HttpResponse; Django's code takes any answer (streams too).
        return self.stock.process_response(request, response)  # type: ignore[arg-type]


class RequestSizeGuardMiddleware(_BeforeAfterMiddleware):
    """Refuse a Content-Length over MAX_REQUEST_BODY_BYTES, or unreadable, up front.

    For Django served by WSGI (runserver, the test client), which reads the body only
    when a view asks for it. Under ASGI the limit is enforced before Django, by
    belote_project/request_size.py; this is the same check.
    """

    def before(self, request: HttpRequest) -> HttpResponseBase | None:
        problem = content_length_problem(request.META.get("CONTENT_LENGTH"))
        if problem is None:
            return None
        return problem_response(request, problem.status, code=problem.code, detail=problem.detail)


class LanguageMiddleware(_BeforeAfterMiddleware):
    """Speak the client's language: the best of settings.LANGUAGES for its Accept-Language.

    What Django's LocaleMiddleware does for a site without language prefixes in its URLs,
    with the same public functions: activate the language for the request, then say on
    the answer which one it is in (``Content-Language``) and that it depends on
    ``Accept-Language`` (``Vary``). LocaleMiddleware itself is a MiddlewareMixin, which
    on an async request runs each hook in a worker thread: two thread hops per feed
    request, which this one does not take. Unsupported languages fall back to
    LANGUAGE_CODE (English). Error titles and details follow it; codes never do.
    """

    def before(self, request: HttpRequest) -> HttpResponseBase | None:
        translation.activate(translation.get_language_from_request(request))
        return None

    def after(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        patch_vary_headers(response, ("Accept-Language",))
        response.setdefault("Content-Language", translation.get_language())
        return response
