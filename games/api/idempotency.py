"""`Idempotency-Key` for POSTs that create something.

Same user + same key + same request: the stored response is replayed (same status,
the same body byte for byte, and the headers that describe it: Location, ETag,
caching) and nothing runs again. The body is stored as the bytes first sent, not as
JSON the database may reorder. Same key with another request: 422
`idempotency_key_reused`. Only successful answers are stored, in the same
transaction as the work, so a failed attempt can be retried with its key.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from typing import Concatenate, ParamSpec, TypeVar

from django.db import IntegrityError, transaction
from django.http import HttpResponse, HttpResponseBase
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from belote_project.errors import ConflictError, UnprocessableError
from games.models import IdempotencyRecord

HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 255
#: headers of an answer that a replay repeats (the rest is set per response anyway)
REPLAYED_HEADERS = ("Location", "ETag", "Cache-Control", "Vary")

IDEMPOTENCY_PARAMETER = OpenApiParameter(
    name=HEADER,
    location=OpenApiParameter.HEADER,
    required=False,
    # What _check_key accepts, as it arrives: HTTP strips a value's outer spaces.
    type={
        "type": "string",
        "minLength": 1,
        "maxLength": MAX_KEY_LENGTH,
        "pattern": "^[!-~]([ -~]*[!-~])?$",
    },
    description=(
        "Any unique string (e.g. a UUID) chosen per intended operation, 1 to 255 "
        "printable ASCII characters. Retrying with the same key and body replays the "
        "first answer instead of doing the work twice."
    ),
)

P = ParamSpec("P")
V = TypeVar("V", bound=APIView)


class IdempotencyKeyReusedError(UnprocessableError):
    code = "idempotency_key_reused"
    title = _("This Idempotency-Key was used for another request")


class IdempotencyKeyInvalidError(UnprocessableError):
    code = "idempotency_key_invalid"
    title = _("Idempotency-Key must be 1 to 255 printable ASCII characters")


class IdempotencyKeyInFlightError(ConflictError):
    code = "idempotency_key_in_flight"
    title = _("A request with this Idempotency-Key is being processed; retry shortly")


def idempotent(
    handler: Callable[Concatenate[V, Request, P], Response],
) -> Callable[Concatenate[V, Request, P], HttpResponseBase]:
    """Decorate an APIView's `post`: replay by `Idempotency-Key`, store new answers."""

    @functools.wraps(handler)
    def wrapper(view: V, request: Request, *args: P.args, **kwargs: P.kwargs) -> HttpResponseBase:
        key = request.headers.get(HEADER)
        if key is None:
            return handler(view, request, *args, **kwargs)
        _check_key(key)
        user = request.user
        assert isinstance(user, User)  # the views require authentication
        digest = _request_digest(request)
        with transaction.atomic():
            record = IdempotencyRecord.objects.filter(user=user, key=key).first()
            if record is not None:
                return _replay(record, digest)
            response = handler(view, request, *args, **kwargs)
            if not 200 <= response.status_code < 300:
                return response
            # Sent as it is stored, so that a replay is the same bytes on every database.
            answer = _answer(
                response.status_code,
                JSONRenderer().render(response.data),
                {name: response[name] for name in REPLAYED_HEADERS if response.has_header(name)},
            )
            _store(request, user, key, digest, answer)
            return answer

    return wrapper  # type: ignore[return-value]


def _check_key(key: str) -> None:
    if not 0 < len(key) <= MAX_KEY_LENGTH or not key.isascii() or not key.isprintable():
        raise IdempotencyKeyInvalidError()


def _request_digest(request: Request) -> str:
    body = json.dumps(request.data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(f"{request.method} {request.path}\n{body}".encode()).hexdigest()


def _answer(status: int, content: bytes, headers: dict[str, str]) -> HttpResponse:
    # The headers in REPLAYED_HEADERS' order, whatever order the database kept them in.
    ordered = {name: headers[name] for name in REPLAYED_HEADERS if name in headers}
    return HttpResponse(content, status=status, content_type="application/json", headers=ordered)


def _replay(record: IdempotencyRecord, digest: str) -> HttpResponse:
    if record.request_hash != digest:
        raise IdempotencyKeyReusedError()
    response = _answer(record.status_code, record.response_body.encode(), record.response_headers)
    response["Idempotent-Replayed"] = "true"
    return response


def _store(request: Request, user: User, key: str, digest: str, response: HttpResponse) -> None:
    try:
        with transaction.atomic():
            IdempotencyRecord.objects.create(
                user=user,
                key=key,
                method=request.method or "POST",
                path=request.path[:512],
                request_hash=digest,
                status_code=response.status_code,
                response_body=response.content.decode(),
                response_headers={
                    name: response[name] for name in REPLAYED_HEADERS if response.has_header(name)
                },
            )
    except IntegrityError as exc:
        # A concurrent request with the same key committed first: undo this one's work.
        raise IdempotencyKeyInFlightError() from exc
