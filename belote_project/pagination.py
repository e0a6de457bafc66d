"""Cursor pagination: stable pages while games are created and finished under the reader."""

from collections.abc import Callable
from typing import Any, TypeVar

from django.db.models import Model, QuerySet
from rest_framework import serializers
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

M = TypeVar("M", bound=Model)


class CursorPage(CursorPagination):
    """Newest first by ``created_at``; a view may set its own ``ordering``."""

    page_size = 50
    max_page_size = 200
    page_size_query_param = "page_size"
    ordering = "-created_at"


class CursorPageQuery(serializers.Serializer[Any]):
    """The query parameters `CursorPage` reads itself, for a list's filter serializer to
    extend: checked there so that they are documented and a bad value is a 400 rather
    than silently the default."""

    cursor = serializers.RegexField(
        r"^[A-Za-z0-9+/=]+$",  # base64, as CursorPage encodes it
        required=False,
        help_text="Opaque: the `next` or `previous` link's cursor.",
    )
    page_size = serializers.IntegerField(
        min_value=1, max_value=CursorPage.max_page_size, required=False
    )


def page_response(
    rows: QuerySet[M], request: Request, view: APIView, line: Callable[[M], Any]
) -> Response:
    """One page of `rows`, each shown by `line`, with the links to the pages around it."""
    page = CursorPage()
    found = page.paginate_queryset(rows, request, view=view) or []
    return page.get_paginated_response([line(row) for row in found])
