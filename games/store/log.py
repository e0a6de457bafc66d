"""A game's log as stored, row by row: what `export` writes and the audit verifies."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.db import connection

from games.store.sql import datetime_column, json_column, uuid_param

_LOG = """
SELECT seq, type, schema_version, payload, hash, actor_kind, created_at
FROM games_gameevent
WHERE game_id = %s
ORDER BY seq
"""


def stored_rows(game_id: UUID) -> list[dict[str, Any]]:
    """Every event of the game as stored (not upcast), in seq order, JSON-ready:
    `seq`, `type`, `schema_version`, `payload`, `hash`, `actor_kind`, `created_at`."""
    with connection.cursor() as cursor:
        cursor.execute(_LOG, [uuid_param(game_id)])
        rows = cursor.fetchall()
    return [
        {
            "seq": seq,
            "type": kind,
            "schema_version": version,
            "payload": json_column(payload),
            "hash": link,
            "actor_kind": actor,
            "created_at": datetime_column(at).isoformat().replace("+00:00", "Z"),
        }
        for seq, kind, version, payload, link, actor, at in rows
    ]
