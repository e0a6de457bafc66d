"""The load benchmark's yardstick: a trivial endpoint that authenticates and inserts one row.

It exists only on the benchmark's server (bench/server_settings.py routes it through
bench/urls.py); its table is created by the benchmark in the benchmark's own database
(bench/load_bench.py `prepare_database`). Nothing of the product imports this module.
"""

from django.db import connection
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bench.ceiling_table import CEILING_TABLE


class CeilingInsertApi(APIView):
    """Authenticate like every endpoint, insert one row, answer its id."""

    @extend_schema(exclude=True)
    def post(self, request: Request) -> Response:
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {CEILING_TABLE} (user_id) VALUES (%s) RETURNING id",
                [request.user.pk],
            )
            (row_id,) = cursor.fetchone() or (None,)
        return Response({"id": row_id}, status=201)
