"""Cursor pagination: stable pages while games are created and finished under the reader."""

from rest_framework.pagination import CursorPagination


class CursorPage(CursorPagination):
    """Newest first by ``created_at``; a view may set its own ``ordering``."""

    page_size = 50
    max_page_size = 200
    page_size_query_param = "page_size"
    ordering = "-created_at"
