"""Project-level endpoints (health) and Django's error handlers, all answering JSON."""

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from belote_project.health import broker_error, database_error
from belote_project.problems import PROBLEM_CONTENT_TYPE, problem_body, problem_response
from belote_project.schema import problem_responses


class HealthApi(APIView):
    authentication_classes = ()
    permission_classes = (AllowAny,)

    @extend_schema(
        operation_id="healthz",
        summary="Database and broker reachability",
        responses={
            200: inline_serializer(
                "Health",
                {
                    "status": serializers.CharField(),
                    "checks": serializers.DictField(child=serializers.CharField()),
                },
            ),
            **problem_responses({503: "A dependency is unreachable; `checks` says which."}),
        },
    )
    def get(self, request: Request) -> Response:
        failures = {"database": database_error(), "broker": broker_error()}
        checks = {name: error or "ok" for name, error in failures.items()}
        broken = sorted(name for name, error in failures.items() if error)
        if not broken:
            return Response({"status": "ok", "checks": checks})
        body = problem_body(
            status=503,
            code="dependency_unreachable",
            detail=f"Unreachable: {', '.join(broken)}.",
            instance=request.path,
            extra={"checks": checks},
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
