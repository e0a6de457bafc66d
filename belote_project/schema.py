"""OpenAPI: the problem documents and the error answers every operation documents.

Every error answer is `application/problem+json` with a `code` from a closed set: each
operation's responses name a problem component per status whose `code` is an enum of
exactly the codes that status can carry there. `ProblemAutoSchema` adds the answers any
operation of its kind can give (400/413/415 for a body, 401 when authentication is
required, 404 for a path parameter, 429 when throttled); a view declares its own with
``extend_schema(responses={..., **problem(409, "SeatConflict", codes, "...")})``.
"""

from collections.abc import Iterable, Mapping
from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse, extend_schema_serializer
from rest_framework import serializers
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.permissions import AllowAny

from belote_project.problems import PROBLEM_CONTENT_TYPE

_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})

Responses = dict[tuple[int, str], OpenApiResponse]


class FieldErrorSerializer(serializers.Serializer[Any]):
    field = serializers.CharField(
        help_text="Dotted path of the input field, e.g. `options.target`."
    )
    code = serializers.CharField(help_text="Stable machine-readable code of this field's problem.")
    message = serializers.CharField(help_text="A sentence for people.")


class ProblemSerializer(serializers.Serializer[Any]):
    """RFC 9457 problem details. Switch on `code`; `title` and `detail` are for people."""

    type = serializers.CharField(help_text="`urn:belote:problem:` followed by the `code`.")
    title = serializers.CharField(
        help_text="What went wrong, in a few words, in the language of `Accept-Language`."
    )
    status = serializers.IntegerField(help_text="The HTTP status, repeated.")
    detail = serializers.CharField(
        help_text="What went wrong this time, in a sentence, in the language of "
        "`Accept-Language` (English or French)."
    )
    code = serializers.CharField(help_text="Stable machine-readable code; switch on this.")
    instance = serializers.CharField(required=False, help_text="The request's path.")
    # The metaclass moves declared fields off the class, so this does not shadow .errors.
    errors = FieldErrorSerializer(  # type: ignore[assignment]
        many=True, required=False, help_text="One entry per invalid input field."
    )


#: problem component name -> (its class, its codes): one class per name, one name per set
_PROBLEMS: dict[str, tuple[type[ProblemSerializer], frozenset[str]]] = {}


def problem_serializer(
    name: str, codes: Iterable[str], fields: Mapping[str, serializers.Field[Any, Any, Any, Any]]
) -> type[ProblemSerializer]:
    """The problem component `name` (suffixed `Problem`) whose `code` is one of `codes`,
    with more members `fields`. Asking again for a name returns the same class."""
    code_set = frozenset(codes)
    known = _PROBLEMS.get(name)
    if known is not None:
        if known[1] != code_set:
            raise ValueError(f"problem {name} is already declared with other codes")
        return known[0]
    if any(other == code_set for _, other in _PROBLEMS.values()):
        raise ValueError(f"problem {name}: another problem has the same codes; reuse it")
    members: dict[str, Any] = {
        "code": serializers.ChoiceField(
            choices=sorted(code_set), help_text="Stable machine-readable code; switch on this."
        ),
        **fields,
    }
    cls = type(f"{name}ProblemSerializer", (ProblemSerializer,), members)
    extend_schema_serializer(component_name=f"{name}Problem")(cls)
    _PROBLEMS[name] = (cls, code_set)
    return cls


def problem(
    status: int,
    name: str,
    codes: Iterable[str],
    description: str,
    **fields: serializers.Field[Any, Any, Any, Any],
) -> dict[tuple[int, str], OpenApiResponse]:
    """An ``extend_schema`` response entry: a problem answer with this status."""
    serializer = problem_serializer(name, codes, fields)
    return {(status, PROBLEM_CONTENT_TYPE): OpenApiResponse(serializer, description=description)}


#: What any request can be refused with before a view runs: a Host this service does not
#: serve (Django's `bad_request`) or a malformed Content-Length.
MALFORMED_REQUEST_CODES = ("bad_request", "malformed_request")
INVALID_REQUEST_CODES = (
    *MALFORMED_REQUEST_CODES,
    "validation_failed",
    "parse_error",
    "json_too_deep",
    "invalid_unicode",
)
NOT_AUTHENTICATED_CODES = (
    "not_authenticated",
    "authentication_failed",
    "invalid_token",
    "malformed_token",
)


def invalid_request(description: str, *more_codes: str, name: str = "InvalidRequest") -> Responses:
    """400 for a request whose body or query is malformed or invalid (see `errors`)."""
    return problem(400, name, (*INVALID_REQUEST_CODES, *more_codes), description)


#: a cursor-paged list's 404 for a cursor it never issued (DRF's CursorPagination says so)
CURSOR_NOT_FOUND = problem(404, "NotFound", ["not_found"], "`cursor` is not one this list issued.")


def throttled(description: str, *codes: str, name: str = "Throttled") -> Responses:
    """429 with the seconds to wait, in the body as in the `Retry-After` header."""
    retry_after = serializers.IntegerField(
        required=False, help_text="Seconds to wait before retrying (the `Retry-After` header)."
    )
    return problem(429, name, codes or ("throttled",), description, retry_after=retry_after)


class ProblemAutoSchema(AutoSchema):
    """Adds to the responses an operation declares the problem answers its kind implies.

    `get_operation` is the schema class's public entry point: drf-spectacular's generator
    calls it once per operation, and its own `extend_schema` extends a view's schema class
    by overriding it and calling `super()`, as this does. The narrower hooks do not fit:
    `get_response_serializers` is replaced outright by `extend_schema(responses=...)`, and
    a postprocessing hook sees the finished document, not the view whose permissions,
    throttles and content negotiation say which answers apply. Only public names are read
    (`view`, `path`, `method`, `resolve_serializer`).
    """

    def get_operation(
        self, path: str, path_regex: str, path_prefix: str, method: str, registry: Any
    ) -> dict[str, Any] | None:
        operation: dict[str, Any] | None = super().get_operation(
            path, path_regex, path_prefix, method, registry
        )
        if operation is None:
            return None
        responses = operation.setdefault("responses", {})
        for (status, media_type), answer in self._implied_problems().items():
            if str(status) not in responses:
                component = self.resolve_serializer(answer.response, "response")
                responses[str(status)] = {
                    "content": {media_type: {"schema": component.ref}},
                    "description": answer.description,
                }
        operation["responses"] = dict(sorted(responses.items()))
        return operation

    def _implied_problems(self) -> dict[tuple[int, str], OpenApiResponse]:
        implied = problem(
            400,
            "MalformedRequest",
            MALFORMED_REQUEST_CODES,
            "A Host this service does not serve, or a malformed Content-Length.",
        )
        if isinstance(self.view.get_content_negotiator(), DefaultContentNegotiation):
            implied |= problem(
                406, "NotAcceptable", ["not_acceptable"], "`Accept` names no JSON type."
            )
        if self.method in _BODY_METHODS:
            implied |= invalid_request("The body is not JSON, or a field is invalid (`errors`).")
            implied |= problem(413, "RequestTooLarge", ["request_too_large"], "Body too large.")
            implied |= problem(
                415, "UnsupportedMediaType", ["unsupported_media_type"], "Send application/json."
            )
        if any(not isinstance(p, AllowAny) for p in self.view.get_permissions()):
            implied |= problem(
                401,
                "NotAuthenticated",
                NOT_AUTHENTICATED_CODES,
                "Missing, malformed, expired or revoked bearer token.",
            )
        if "{" in self.path:
            implied |= problem(404, "NotFound", ["not_found"], "Nothing lives at this address.")
        if self.view.get_throttles():
            implied |= throttled("Too many requests; retry after `retry_after` seconds.")
        return implied


def document_retry_after(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: every 429 documents its `Retry-After` header."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            throttled_answer = operation.get("responses", {}).get("429")
            if throttled_answer is not None:
                throttled_answer["headers"] = {
                    "Retry-After": {
                        "schema": {"type": "integer", "minimum": 0},
                        "description": "Seconds to wait before retrying.",
                    }
                }
    return result
