"""A game's log as exported: NDJSON, one stored event per line (docs/audit.md, "Export").

Each line is one JSON object with `seq` (from 1), `type`, `schema_version`, `payload`
(the event as stored), `hash` (its link of the chain) and, not hashed, `actor_kind` and
`created_at`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from games import rules
from games.audit.chain import Link
from games.audit.report import Discrepancy

#: the fields every line must carry, with their JSON types
LINE_FIELDS: dict[str, type | tuple[type, ...]] = {
    "seq": int,
    "type": str,
    "schema_version": int,
    "payload": dict,
    "hash": str,
}


class LogError(ValueError):
    """A line that is not an exported event; carries the discrepancy."""

    def __init__(self, discrepancy: Discrepancy) -> None:
        super().__init__(discrepancy.found)
        self.discrepancy = discrepancy


def parse_lines(lines: Iterable[str]) -> list[Mapping[str, Any]]:
    """The exported events of NDJSON text lines (blank lines skipped), or LogError."""
    parsed: list[Mapping[str, Any]] = []
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            value = json.loads(text)
        except json.JSONDecodeError as error:
            raise LogError(Discrepancy(number, "line", "a JSON object", str(error))) from error
        parsed.append(value)
    return parsed


def links(rows: Iterable[Mapping[str, Any]]) -> list[Link]:
    """The rows as chain links, or LogError naming the first malformed one (by its place)."""
    result = []
    for place, row in enumerate(rows, start=1):
        if not isinstance(row, Mapping):
            raise LogError(Discrepancy(place, "line", "a JSON object", type(row).__name__))
        for name, kind in LINE_FIELDS.items():
            value = row.get(name)
            if not isinstance(value, kind) or isinstance(value, bool):
                raise LogError(Discrepancy(place, "line", f"{name}: {_json_type(kind)}", value))
        result.append(
            Link(row["seq"], row["type"], row["schema_version"], row["payload"], row["hash"])
        )
    return result


def _json_type(kind: type | tuple[type, ...]) -> str:
    names = {int: "integer", str: "string", dict: "object"}
    return names.get(kind, "value") if isinstance(kind, type) else "value"


def event_of(link: Link) -> rules.Event:
    """The rules' event a link stores (raises what `rules.event_from_dict` raises)."""
    return rules.event_from_dict({**link.payload, "type": link.type, "v": link.schema_version})
