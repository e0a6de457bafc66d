"""The real URLs plus views that fail on purpose, for the error-shape tests."""

from django.http import HttpRequest, HttpResponse
from django.urls import path
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from belote_project.errors import ConflictError, FieldError
from belote_project.urls import urlpatterns as real_urlpatterns


class SeatTakenError(ConflictError):
    code = "seat_taken"
    title = "Seat taken"


class RaisingApi(APIView):
    authentication_classes = ()
    permission_classes = (AllowAny,)

    def get(self, request: Request) -> Response:
        raise RuntimeError("a bug")

    def post(self, request: Request) -> Response:
        raise SeatTakenError(
            "Seat 2 is taken.",
            errors=[FieldError("seat", "taken", "Seat 2 is taken.")],
            extra={"current_version": 7},
        )


def raising_django_view(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug outside DRF")


urlpatterns = [
    path("test/raising-api", RaisingApi.as_view()),
    path("test/raising-view", raising_django_view),
    *real_urlpatterns,
]
