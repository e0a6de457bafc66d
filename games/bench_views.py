"""A trivial endpoint for the load benchmark (bench/load_bench.py): the ceiling to compare
game actions with. It is routed only when BELOTE_BENCH_ENDPOINTS is on, which only the
benchmark's own server sets; its table exists only in the benchmark's database.
"""

from django.db import connection
from django.urls import URLPattern, path
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from belote_project.env import env_bool

BENCH_TABLE = "bench_row"


class BenchInsertApi(APIView):
    """Authenticate like every endpoint, insert one row, answer its id."""

    @extend_schema(exclude=True)
    def post(self, request: Request) -> Response:
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {BENCH_TABLE} (user_id) VALUES (%s) RETURNING id",  # noqa: S608
                [request.user.pk],
            )
            (row_id,) = cursor.fetchone() or (None,)
        return Response({"id": row_id}, status=201)


def bench_urlpatterns() -> list[URLPattern]:
    if not env_bool("BELOTE_BENCH_ENDPOINTS", default=False):
        return []
    return [path("bench/insert", BenchInsertApi.as_view(), name="bench-insert")]
