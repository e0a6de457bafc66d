"""OpenAPI: the Problem component and an AutoSchema that documents error answers.

Every operation gets the problem responses that can happen to it (400/413/415 for a
body, 401 when authentication is required, 404 for a path parameter, 429 when
throttled, and a ``default`` for the rest). Declare domain errors on a view with
``extend_schema(responses={..., **problem_responses({409: "Seat taken"})})``.
"""

from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.permissions import AllowAny

from belote_project.problems import PROBLEM_CONTENT_TYPE

_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


class FieldErrorSerializer(serializers.Serializer[Any]):
    field = serializers.CharField(help_text="Dotted path of the input field.")
    code = serializers.CharField(help_text="Stable machine-readable code.")
    message = serializers.CharField()


class ProblemSerializer(serializers.Serializer[Any]):
    """RFC 9457 problem details; extension members (e.g. ``retry_after``) may be added."""

    type = serializers.CharField(help_text="URI naming the problem: urn:belote:problem:<code>.")
    title = serializers.CharField()
    status = serializers.IntegerField()
    detail = serializers.CharField()
    code = serializers.CharField(help_text="Stable machine-readable code; switch on this.")
    instance = serializers.CharField(required=False, help_text="The request path.")
    # The metaclass moves declared fields off the class, so this does not shadow .errors.
    errors = FieldErrorSerializer(many=True, required=False)  # type: ignore[assignment]


def problem_responses(descriptions: dict[int, str]) -> dict[tuple[int, str], OpenApiResponse]:
    """``extend_schema`` response entries for problem answers with these statuses."""
    return {
        (status, PROBLEM_CONTENT_TYPE): OpenApiResponse(ProblemSerializer, description=text)
        for status, text in descriptions.items()
    }


class ProblemAutoSchema(AutoSchema):
    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        for status, description in self._implied_problems().items():
            if status not in responses:
                responses[status] = self._get_response_for_code(  # type: ignore[no-untyped-call]
                    ProblemSerializer, status, media_types=[PROBLEM_CONTENT_TYPE]
                )
                responses[status]["description"] = description
        return responses

    def _implied_problems(self) -> dict[str, str]:
        problems: dict[str, str] = {}
        if self.method in _BODY_METHODS:
            problems["400"] = (
                "Malformed JSON (`parse_error`; `json_too_deep`, `invalid_unicode`) or "
                "invalid fields (see `errors`)."
            )
            problems["413"] = "Body too large."
            problems["415"] = "Body is not application/json."
        if any(not isinstance(p, AllowAny) for p in self.view.get_permissions()):
            problems["401"] = "Missing, invalid, expired or revoked bearer token."
        if "{" in self.path:
            problems["404"] = "No such resource."
        if self.view.get_throttles():
            problems["429"] = "Throttled; retry after the `Retry-After` header's seconds."
        problems["default"] = "Any other error, as a problem document."
        return problems
