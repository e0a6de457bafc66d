"""Project-level endpoints (health) and Django's error handlers, all answering JSON."""

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import BearerTokenAuthentication
from belote_project.health import CHECKS, caller_is_staff, failed_checks
from belote_project.problems import PROBLEM_CONTENT_TYPE, problem_body, problem_response
from belote_project.schema import problem


class HealthApi(APIView):
    # Staff may sign in either way (a bearer token, the admin's session) to read why a
    # check failed; anyone may call it.
    authentication_classes = (BearerTokenAuthentication, SessionAuthentication)
    permission_classes = (AllowAny,)

    def perform_authentication(self, request: Request) -> None:
        """Authenticate lazily (DRF's documented way): only caller_is_staff asks, and
        only when a check failed, so a bad token is never a 401 and a database that is
        down never fails the health check a second time."""

    @extend_schema(
        tags=["health"],
        operation_id="get_health",
        summary="Database and broker reachability",
        description=(
            "`checks` names each check `ok` or `error`. Why a check failed is logged; "
            "only a staff user (bearer token or admin session) also gets it, in `details`."
        ),
        responses={
            200: inline_serializer(
                "Health",
                {
                    "status": serializers.CharField(),
                    "checks": serializers.DictField(child=serializers.CharField()),
                },
            ),
            **problem(
                503,
                "DependencyUnreachable",
                ["dependency_unreachable"],
                "A dependency is unreachable; `checks` says which.",
                checks=serializers.DictField(
                    child=serializers.ChoiceField(choices=("ok", "error"))
                ),
                details=serializers.DictField(
                    child=serializers.CharField(),
                    required=False,
                    help_text="Why each failed check failed (staff only).",
                ),
            ),
        },
    )
    def get(self, request: Request) -> Response:
        failures = failed_checks()
        checks = {name: "error" if name in failures else "ok" for name in CHECKS}
        if not failures:
            return Response({"status": "ok", "checks": checks})
        extra: dict[str, Any] = {"checks": checks}
        if caller_is_staff(request):
            extra["details"] = failures
        body = problem_body(
            status=503,
            code="dependency_unreachable",
            detail=f"Unreachable: {', '.join(sorted(failures))}.",
            instance=request.path,
            extra=extra,
        )
        return Response(body, status=503, content_type=PROBLEM_CONTENT_TYPE)


def _problem_handler(status: int, detail: str) -> Callable[..., HttpResponse]:
    def handler(request: HttpRequest, exception: Any = None) -> HttpResponse:
        return problem_response(request, status, detail=detail)

    return handler


bad_request = _problem_handler(400, "The request could not be understood.")
permission_denied = _problem_handler(403, "You may not do this.")
page_not_found = _problem_handler(404, "Nothing lives at this address.")
server_error = _problem_handler(500, "Something went wrong on our side; it has been logged.")
