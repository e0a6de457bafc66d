"""The RFC 9457 problem document every error answer carries."""

from collections.abc import Iterable, Mapping
from typing import Any

from django.http import HttpRequest, JsonResponse

from belote_project.errors import FieldError
from belote_project.http_titles import status_title

PROBLEM_CONTENT_TYPE = "application/problem+json"
PROBLEM_TYPE_PREFIX = "urn:belote:problem:"
# The WWW-Authenticate challenge every 401 carries.
BEARER_CHALLENGE = 'Bearer realm="api"'

# Stable codes for errors that carry no code of their own (Django-level answers).
CODE_FOR_STATUS = {
    400: "bad_request",
    401: "not_authenticated",
    403: "permission_denied",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    413: "request_too_large",
    415: "unsupported_media_type",
    429: "throttled",
    500: "server_error",
    503: "service_unavailable",
}


def problem_body(
    *,
    status: int,
    code: str | None = None,
    detail: str | None = None,
    title: str | None = None,
    instance: str | None = None,
    errors: Iterable[FieldError] = (),
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    code = code or CODE_FOR_STATUS.get(status, "error")
    title = str(title or status_title(status))
    body: dict[str, Any] = {
        "type": PROBLEM_TYPE_PREFIX + code,
        "title": title,
        "status": status,
        "detail": detail or title,
        "code": code,
    }
    if instance:
        body["instance"] = instance
    field_errors = [error.as_dict() for error in errors]
    if field_errors:
        body["errors"] = field_errors
    for key, value in (extra or {}).items():
        body.setdefault(key, value)
    return body


def problem_response(request: HttpRequest | None, status: int, **fields: Any) -> JsonResponse:
    """A plain Django response (no DRF) holding a problem document."""
    instance = request.path if request is not None else None
    body = problem_body(status=status, instance=instance, **fields)
    return JsonResponse(body, status=status, content_type=PROBLEM_CONTENT_TYPE)
