"""The one DRF exception handler: every API error leaves as application/problem+json."""

import math
from collections.abc import Iterator
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.serializers import as_serializer_error
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from belote_project.errors import ApplicationError, FieldError
from belote_project.problems import BEARER_CHALLENGE, PROBLEM_CONTENT_TYPE, problem_body

NON_FIELD = "non_field_errors"


def problem_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Map ApplicationError, DRF's exceptions and Django's ValidationError to problems.

    Anything else returns None, so Django logs it and answers 500 through handler500.
    """
    request = context.get("request")
    instance = request.path if request is not None else None
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(as_serializer_error(exc))
    if isinstance(exc, ApplicationError):
        set_rollback()
        body = problem_body(
            status=exc.status,
            code=exc.code,
            title=exc.problem_title,
            detail=exc.detail,
            instance=instance,
            errors=exc.errors,
            extra=exc.extra,
        )
        response = Response(body, status=exc.status, content_type=PROBLEM_CONTENT_TYPE)
    else:
        drf_response = drf_exception_handler(exc, context)
        if drf_response is None:
            return None
        response = drf_response
        assert isinstance(exc, exceptions.APIException)
        response.data = _api_exception_problem(exc, response.status_code, instance)
        response.content_type = PROBLEM_CONTENT_TYPE
    if response.status_code == 401 and "WWW-Authenticate" not in response:
        response["WWW-Authenticate"] = BEARER_CHALLENGE
    return response


def _api_exception_problem(
    exc: exceptions.APIException, status: int, instance: str | None
) -> dict[str, Any]:
    if isinstance(exc, exceptions.ValidationError):
        errors = list(_field_errors(exc.detail, prefix=""))
        detail = (
            errors[0].message
            if len(errors) == 1
            else ngettext(
                "%(count)d field is invalid.", "%(count)d fields are invalid.", len(errors)
            )
            % {"count": len(errors)}
        )
        return problem_body(
            status=status,
            code="validation_failed",
            title=_("Invalid request"),
            detail=detail,
            instance=instance,
            errors=errors,
        )
    extra: dict[str, Any] = {}
    wait = getattr(exc, "wait", None)
    if isinstance(exc, exceptions.Throttled) and wait is not None:
        extra["retry_after"] = math.ceil(wait)
    return problem_body(
        status=status,
        code=str(getattr(exc.detail, "code", None) or exc.default_code),
        detail=str(exc.detail),
        instance=instance,
        extra=extra,
    )


def _field_errors(detail: Any, *, prefix: str) -> Iterator[FieldError]:
    """Flatten DRF's nested error detail into dotted field paths."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            yield from _field_errors(value, prefix=f"{prefix}.{key}" if prefix else str(key))
    elif isinstance(detail, list):
        for index, item in enumerate(detail):
            if isinstance(item, dict | list):
                yield from _field_errors(item, prefix=f"{prefix}.{index}" if prefix else str(index))
            else:
                yield from _field_errors(item, prefix=prefix)
    else:
        code = getattr(detail, "code", None) or "invalid"
        yield FieldError(field=prefix or NON_FIELD, code=str(code), message=str(detail))
