"""Errors the service answers with, as values with stable codes.

Raise a subclass of ``ApplicationError`` from any service, selector or view; the one
DRF exception handler (``belote_project.exception_handler``) turns it into an RFC 9457
``application/problem+json`` answer::

    {"type": "urn:belote:problem:<code>", "title": "...", "status": 409,
     "detail": "...", "code": "<code>", "instance": "/api/v1/...",
     "errors": [{"field": "...", "code": "...", "message": "..."}],  # optional
     ...extra}                                                        # optional

Subclass it once per kind of failure and give the class its ``status``, ``code`` and
``title``; pass ``detail`` (a human sentence), ``errors`` (per-field problems) and
``extra`` (more machine-readable members, e.g. ``{"current_version": 12}``) per raise::

    class StaleVersion(ConflictError):
        code = "stale_version"
        title = "The game has moved on"

    raise StaleVersion("Expected version 11, the game is at 12.", extra={"current_version": 12})

``code`` and ``title`` may also be given per raise (e.g. a rules error carrying its own
code). Titles are lazy translations (``gettext_lazy``) and details are translated where
they are raised, so both reach the client in the request's language (docs/api.md).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any, ClassVar

from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from belote_project.http_titles import status_title


@dataclass(frozen=True)
class FieldError:
    """One problem with one input field (``field`` is a dotted path, e.g. ``seats.0``)."""

    field: str
    code: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"field": self.field, "code": self.code, "message": self.message}


class ApplicationError(Exception):
    """Base of every error that becomes a problem+json answer (see the module docstring)."""

    status: ClassVar[int] = HTTPStatus.BAD_REQUEST
    code: str = "bad_request"
    title: ClassVar[StrOrPromise | None] = None

    def __init__(
        self,
        detail: StrOrPromise | None = None,
        *,
        code: str | None = None,
        title: StrOrPromise | None = None,
        errors: Sequence[FieldError] = (),
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        # Kept lazy until the answer is written: an error raised where no language is
        # active (the feed reads in a context of its own) still speaks the client's.
        self.given_title = title
        self.given_detail = detail
        if code is not None:
            self.code = code
        self.errors = tuple(errors)
        self.extra = dict(extra or {})
        super().__init__(str(detail or self.default_title()))

    @classmethod
    def default_title(cls) -> str:
        return str(cls.title or status_title(cls.status))

    @property
    def problem_title(self) -> str:
        return str(self.given_title or self.default_title())

    @property
    def detail(self) -> str:
        return str(self.given_detail or self.problem_title)


class NotFoundError(ApplicationError):
    status = HTTPStatus.NOT_FOUND
    code = "not_found"


class ForbiddenError(ApplicationError):
    status = HTTPStatus.FORBIDDEN
    code = "forbidden"


class ConflictError(ApplicationError):
    status = HTTPStatus.CONFLICT
    code = "conflict"


class PreconditionFailedError(ApplicationError):
    status = HTTPStatus.PRECONDITION_FAILED
    code = "precondition_failed"


class UnprocessableError(ApplicationError):
    status = HTTPStatus.UNPROCESSABLE_ENTITY
    code = "unprocessable"


class InvalidCredentialsError(ApplicationError):
    status = HTTPStatus.UNAUTHORIZED
    code = "invalid_credentials"
    title = _("Invalid credentials")


class WrongPasswordError(ApplicationError):
    status = HTTPStatus.FORBIDDEN
    code = "wrong_password"
    title = _("Wrong password")
