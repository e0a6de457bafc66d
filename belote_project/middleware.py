"""Request guards and the last line that keeps every error answer in problem+json."""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase

from belote_project.problems import problem_response

# Headers an error answer must keep when its body is replaced.
_KEPT_HEADERS = ("Allow", "Retry-After", "WWW-Authenticate", "Vary")

Handler = Callable[[HttpRequest], HttpResponseBase]


class ProblemResponseMiddleware:
    """Replace any non-JSON 4xx/5xx (Django's HTML 404/500, CSRF, DEBUG pages) with a problem."""

    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if response.status_code < 400 or "json" in response.get("Content-Type", ""):
            return response
        replacement = problem_response(request, response.status_code)
        for header in _KEPT_HEADERS:
            if header in response:
                replacement[header] = response[header]
        return replacement


class RequestSizeGuardMiddleware:
    """Refuse bodies over MAX_REQUEST_BODY_BYTES and unreadable Content-Length up front.

    DRF's parsers read the stream directly, past Django's DATA_UPLOAD_MAX_MEMORY_SIZE,
    so the limit is enforced here, before anything reads the body.
    """

    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
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
        return self.get_response(request)
