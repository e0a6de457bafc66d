"""Snapshots: a rules state kept after a hand's end, so a load replays one hand at most.

A snapshot is a cache, never the truth: a row that does not decode, or was written by
another engine version, is ignored and the state is rebuilt from the events.

The encoding is JSON, and decoding it can only build values of the rules package's own
types (docs/storage.md, "Snapshots"): no code runs on load, unlike a pickle.

- `null`, booleans, integers and strings stand for themselves;
- a tuple is a JSON array;
- an instance of a rules type (a NamedTuple or a frozen dataclass defined in
  `games.rules`) is `{"type": "<module>.<name>", "fields": {<field>: <value>, ...}}`,
  the module named relative to `games.rules` (e.g. `"state.GameState"`);
- bytes are `{"bytes": "<hex>"}`, a frozenset `{"frozenset": [<value>, ...]}` and a
  dict `{"dict": [[<key>, <value>], ...]}`.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from collections.abc import Callable
from datetime import datetime
from functools import cache
from typing import Any
from uuid import UUID

from django.db.models import OuterRef, Subquery

from games import rules
from games.models import GameEvent, GameSnapshot
from games.store.records import LoadedGame

JSON = Any  # what json.loads may return
_PACKAGE = "games.rules"


class UndecodableSnapshotError(ValueError):
    """The stored value is not the encoding of a rules state."""


def store(game_id: UUID, loaded: LoadedGame, now: datetime) -> None:
    GameSnapshot.objects.create(
        game_id=game_id,
        seq=loaded.version,
        engine_version=rules.ENGINE_VERSION,
        state=encode(loaded.state),
        created_at=now,
    )


def latest(game_id: UUID, *, up_to: int | None = None) -> LoadedGame | None:
    """The newest usable snapshot of this engine version (at or before `up_to`)."""
    rows = GameSnapshot.objects.filter(game_id=game_id, engine_version=rules.ENGINE_VERSION)
    if up_to is not None:
        rows = rows.filter(seq__lte=up_to)
    # The head of the chain at the snapshot: the hash of its event, in the same query.
    head = GameEvent.objects.filter(game_id=OuterRef("game_id"), seq=OuterRef("seq"))
    rows = rows.annotate(head_hash=Subquery(head.values("hash")[:1]))
    newest = rows.order_by("-seq").values_list("seq", "state", "head_hash")[:1]
    for seq, value, head_hash in newest:
        try:
            state = decode(value)
        except UndecodableSnapshotError:
            return None
        if isinstance(state, rules.GameState) and head_hash:
            return LoadedGame(state=state, version=seq, head_hash=head_hash)
    return None


def encode(value: object) -> JSON:
    """`value` (a rules state or any part of one) as JSON-ready data."""
    if value is None or isinstance(value, bool | int | str):
        return value
    kind = type(value)
    if _tag(kind) is not None:
        return {"type": _tag(kind), "fields": {k: encode(v) for k, v in _fields(value).items()}}
    if isinstance(value, tuple):
        return [encode(item) for item in value]
    if isinstance(value, bytes):
        return {"bytes": value.hex()}
    if isinstance(value, frozenset):
        return {"frozenset": [encode(item) for item in value]}
    if isinstance(value, dict):
        return {"dict": [[encode(k), encode(v)] for k, v in value.items()]}
    raise TypeError(f"a snapshot cannot hold a {kind.__name__}")


def decode(data: JSON) -> Any:
    """The value `encode` turned into `data`; UndecodableSnapshotError if it is not one."""
    try:
        return _decode(data)
    except (TypeError, ValueError, KeyError) as error:
        raise UndecodableSnapshotError(str(error)) from error


def _decode(data: JSON) -> Any:
    if data is None or isinstance(data, bool | int | str):
        return data
    if isinstance(data, list):
        return tuple(_decode(item) for item in data)
    if not isinstance(data, dict) or len(data) not in (1, 2):
        raise ValueError(f"not a snapshot value: {data!r:.80}")
    if "type" in data:
        kind = _types()[data["type"]]
        return kind(**{name: _decode(value) for name, value in data["fields"].items()})
    ((form, value),) = data.items()
    decoders: dict[str, Callable[[Any], Any]] = {
        "bytes": bytes.fromhex,
        "frozenset": lambda items: frozenset(_decode(item) for item in items),
        "dict": lambda pairs: {_decode(k): _decode(v) for k, v in pairs},
    }
    return decoders[form](value)


def _fields(value: Any) -> dict[str, Any]:
    if dataclasses.is_dataclass(value):
        return {field.name: getattr(value, field.name) for field in dataclasses.fields(value)}
    return dict(value._asdict())  # a NamedTuple's documented accessor


def _tag(kind: type) -> str | None:
    tag = f"{kind.__module__.removeprefix(_PACKAGE + '.')}.{kind.__qualname__}"
    return tag if _types().get(tag) is kind else None


@cache
def _types() -> dict[str, type]:
    """The rules package's record types by tag: the only types a snapshot may build."""
    found: dict[str, type] = {}
    package = importlib.import_module(_PACKAGE)
    for module_info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{_PACKAGE}.{module_info.name}")
        for kind in vars(module).values():
            if not isinstance(kind, type) or kind.__module__ != module.__name__:
                continue
            is_record = dataclasses.is_dataclass(kind) or (
                issubclass(kind, tuple) and hasattr(kind, "_fields")
            )
            if is_record:
                found[f"{module_info.name}.{kind.__qualname__}"] = kind
    return found
