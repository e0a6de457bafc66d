"""Whole games played by the rules engine alone, and their logs as `export` writes them
(for the audit benchmark and tests/audit)."""

from __future__ import annotations

import json
import random
from typing import Any

from games import rules
from games.audit.chain import GENESIS, link


def played_game(
    seed: int, *, options: rules.Options | None = None, presence: bool = True
) -> list[rules.Event]:
    """The events of a game to its end, random legal moves from `seed`; with `presence`,
    some timeouts, seats left and taken back, so that every kind of command is there."""
    rng = random.Random(seed)
    state = rules.new_game()
    start = rules.StartGame(rng.randbytes(32), rng.randbytes(32), options or rules.Options())
    events = list(rules.decide(state, start))
    state = rules.replay(events)
    while rules.summary(state).status != "finished":
        seat = state.turn
        roll = rng.random()
        if presence and roll < 0.01:
            absent = [s for s in range(4) if state.absent[s]]
            command: rules.Command = (
                rules.ReturnSeat(absent[0]) if absent else rules.LeaveSeat(rng.randrange(4))
            )
        else:
            action = rng.choice(rules.legal_moves(state, seat))
            timed = presence and roll < 0.03 and not state.absent[seat]
            command = rules.PlayerAction(seat, action, rng.randbytes(32), timed_out=timed)
        decided = rules.decide(state, command)
        events.extend(decided)
        state = rules.replay(decided, state)
    return events


def rows_of(events: list[rules.Event]) -> list[dict[str, Any]]:
    """The exported rows of `events`, chained from the start."""
    rows, previous = [], GENESIS
    for seq, event in enumerate(events, start=1):
        wire = rules.event_to_dict(event)
        kind, version = wire.pop("type"), wire.pop("v")
        previous = link(previous, seq, kind, version, wire)
        rows.append(
            {"seq": seq, "type": kind, "schema_version": version, "payload": wire, "hash": previous}
        )
    return rows


def rechained(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`rows` with every hash recomputed: a log rewritten by someone who can write them all."""
    previous, out = GENESIS, []
    for row in rows:
        previous = link(previous, row["seq"], row["type"], row["schema_version"], row["payload"])
        out.append({**row, "hash": previous})
    return out


def ndjson(rows: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(row) + "\n" for row in rows)
