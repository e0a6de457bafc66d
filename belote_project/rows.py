"""Model instances from hand-written SELECTs, for the few reads every request makes.

Compiling a queryset costs more CPU than running its query (the ORM rebuilds the SQL on
every call); the hot reads (the bearer token, a game and its seats) write their SQL once
and turn each row into instances here, with the same conversions the ORM applies.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from django.db import connection, models

M = TypeVar("M", bound=models.Model)
Converter = Callable[[Any, Any, Any], Any]


class ModelColumns(Generic[M]):
    """All concrete columns of `model` in a SELECT list, and rows of them back to instances."""

    def __init__(self, model: type[M]) -> None:
        self.model = model
        self._fields = list(model._meta.concrete_fields)
        self._attnames = [field.attname for field in self._fields]
        # Concrete fields always have a column.
        self._columns = [str(field.column) for field in self._fields]
        self.width = len(self._fields)
        self._converters: dict[str, list[tuple[int, list[Converter], Any]]] = {}

    def select(self, alias: str) -> str:
        """`alias.col, alias.col, ...` in the order `instance` expects them."""
        quote = connection.ops.quote_name
        return ", ".join(f"{alias}.{quote(column)}" for column in self._columns)

    def instance(self, values: Sequence[Any]) -> M:
        """An instance from this model's slice of a row, as if the ORM had loaded it."""
        converted = list(values)
        for index, converters, column in self._converters_for_connection():
            for convert in converters:
                converted[index] = convert(converted[index], column, connection)
        return self.model.from_db(connection.alias, self._attnames, converted)

    def _converters_for_connection(self) -> list[tuple[int, list[Converter], Any]]:
        known = self._converters.get(connection.vendor)
        if known is None:
            known = []
            for index, field in enumerate(self._fields):
                column = field.get_col(self.model._meta.db_table)
                converters = [
                    *connection.ops.get_db_converters(column),
                    *field.get_db_converters(connection),
                ]
                if converters:
                    known.append((index, converters, column))
            self._converters[connection.vendor] = known
        return known


def table(model: type[models.Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)
