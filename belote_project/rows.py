"""Model instances from hand-written SELECTs, for the few reads every request makes.

Compiling a queryset costs more CPU than running its query (the ORM rebuilds the SQL on
every call); the hot reads (the bearer token, a game and its seats) write their SQL once
and turn each row into instances here, with the same conversions the ORM applies.

An instance is built as `Model.from_db` would leave it (its columns in `__dict__`, the
columns not read left deferred, `_state` saying loaded from the default database), but
without running `Model.__init__`, which sends `pre_init` and `post_init` and walks every
field: that was most of the cost of a game request's ~11 instances. A model that has
receivers for those signals still goes through `from_db`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models.base import ModelState
from django.db.models.signals import post_init, pre_init

M = TypeVar("M", bound=models.Model)
Converter = Callable[[Any, Any, Any], Any]


class ModelColumns(Generic[M]):
    """Columns of `model` in a SELECT list (all concrete ones unless `names` are given),
    and rows of them back to converted values or to instances."""

    def __init__(self, model: type[M], names: Sequence[str] = ()) -> None:
        self.model = model
        self._fields: list[models.Field[Any, Any]] = (
            [_concrete(model, name) for name in names]
            if names
            else list(model._meta.concrete_fields)
        )
        self._attnames = [field.attname for field in self._fields]
        # Concrete fields always have a column.
        self._columns = [str(field.column) for field in self._fields]
        self.width = len(self._fields)
        self._converters: dict[str, list[tuple[int, list[Converter], Any]]] = {}

    def quoted(self) -> list[str]:
        """The column names, quoted for the database."""
        return [connection.ops.quote_name(column) for column in self._columns]

    def select(self, alias: str) -> str:
        """`alias.col, alias.col, ...` in the order `values` and `instance` expect them."""
        return ", ".join(f"{alias}.{column}" for column in self.quoted())

    def db_types(self) -> list[str]:
        """The columns' database types (e.g. for CASTs)."""
        return [str(field.db_type(connection)) for field in self._fields]

    def prepared(self, values: Sequence[Any]) -> list[Any]:
        """Values in column order as the ORM would send them to the database."""
        return [
            field.get_db_prep_save(value, connection)
            for field, value in zip(self._fields, values, strict=True)
        ]

    def values(self, rows: Iterable[Sequence[Any]]) -> list[list[Any]]:
        """This model's slice of each row, converted as the ORM would return the values."""
        db = connections[DEFAULT_DB_ALIAS]  # resolved once: the proxy costs a lookup per use
        converters = self._converters_for(db)
        converted = []
        for row in rows:
            values = list(row)
            for index, field_converters, column in converters:
                for convert in field_converters:
                    values[index] = convert(values[index], column, db)
            converted.append(values)
        return converted

    def instances(self, rows: Iterable[Sequence[Any]]) -> list[M]:
        """Instances from this model's slice of each row, as if the ORM had loaded them."""
        model, names = self.model, self._attnames
        if pre_init.has_listeners(model) or post_init.has_listeners(model):
            return [model.from_db(DEFAULT_DB_ALIAS, names, values) for values in self.values(rows)]
        built = []
        for values in self.values(rows):
            instance = model.__new__(model)
            instance.__dict__.update(zip(names, values, strict=True))
            state = instance._state = ModelState()
            state.adding, state.db = False, DEFAULT_DB_ALIAS
            built.append(instance)
        return built

    def _converters_for(self, db: BaseDatabaseWrapper) -> list[tuple[int, list[Converter], Any]]:
        known = self._converters.get(db.vendor)
        if known is None:
            known = []
            for index, field in enumerate(self._fields):
                column = field.get_col(self.model._meta.db_table)
                converters = [*db.ops.get_db_converters(column), *field.get_db_converters(db)]
                if converters:
                    known.append((index, converters, column))
            self._converters[db.vendor] = known
        return known


Statement = tuple[str, Sequence[Any]]  # SQL with %s placeholders, and its parameters


def read_together(statements: Sequence[Statement]) -> list[list[tuple[Any, ...]]]:
    """The rows of each SELECT, in order, read in one round trip on PostgreSQL.

    Django's psycopg cursor binds parameters on the client and sends the text with the
    simple query protocol, which runs several statements at once (outside a transaction,
    as one implicit transaction; inside one, in it) and returns one result each. Other
    databases run them one by one.
    """
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql" or len(statements) < 2:
            results = []
            for sql, params in statements:
                cursor.execute(sql, params)
                results.append(cursor.fetchall())
            return results
        cursor.execute(
            ";\n".join(sql for sql, _ in statements),
            [value for _, params in statements for value in params],
        )
        results = [cursor.fetchall()]
        while cursor.nextset():
            results.append(cursor.fetchall())
    assert len(results) == len(statements)
    return results


def param(model: type[models.Model], name: str, value: Any) -> Any:
    """`value` as the ORM would send it to the database for `model`'s field `name`."""
    return _concrete(model, name).get_db_prep_save(value, connection)


def _concrete(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)  # a column, not the other end of a relation
    return field


def table(model: type[models.Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)
