"""Whole games played by the rules engine alone, and their logs as `export` writes them
(for the audit benchmark and tests/audit)."""

from __future__ import annotations

import json
import random
from typing import Any

from games import rules
from games.audit.chain import GENESIS, link
from games.audit.seeds import bot_seed
from games.rules import fairness


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


def fair_game(
    seed: int, client_seeds: tuple[str, str, str, str] = ("a", "", "b7", "zz")
) -> list[rules.Event]:
    """The events of a commit-reveal game (docs/fairness.md) to its end, random legal
    moves from `seed`: every seed derived from the chain of hand secrets as the service
    derives it (games/services/deals.py)."""
    rng = random.Random(seed)
    end = rng.randbytes(32)

    def material(hand: int) -> tuple[bytes, bytes]:
        secret = fairness.hand_secret(end, max(hand, 1))
        return fairness.hand_seed(secret, client_seeds, hand), secret

    (game_seed, _), (hand_seed, secret) = material(0), material(1)
    start = rules.StartGame(
        game_seed,
        hand_seed,
        rules.Options(),
        hand_secret=secret,
        secret_chain=fairness.commitment(end),
        client_seeds=client_seeds,
    )
    events = list(rules.decide(rules.new_game(), start))
    state = rules.replay(events)
    while rules.summary(state).status != "finished":
        seat = state.turn
        next_seed, next_secret = material(state.hand_number + 1)
        command = rules.PlayerAction(
            seat,
            rng.choice(rules.legal_moves(state, seat)),
            next_seed,
            next_hand_secret=next_secret,
        )
        decided = rules.decide(state, command)
        events.extend(decided)
        state = rules.replay(decided, state)
    return events


def bot_game(seed: int, levels: tuple[str, str, str, str]) -> list[dict[str, Any]]:
    """The exported rows of a game four bots play as the service has them play: each
    move chosen on the seat's view with its `bot_seed` (docs/bots.md)."""
    from games.bots import choose_action  # noqa: PLC0415

    rng = random.Random(seed)
    state = rules.new_game()
    events = list(rules.decide(state, rules.StartGame(rng.randbytes(32), rng.randbytes(32))))
    state = rules.replay(events)
    movers: dict[int, str] = {}
    while rules.summary(state).status != "finished":
        seat = state.turn
        version = len(events)
        chosen = choose_action(
            rules.view(state, seat),
            bot_seed(bytes.fromhex(state.hand_seed), version, seat),
            levels[seat],
        )
        command = rules.PlayerAction(seat, rules.parse_action(chosen), rng.randbytes(32))
        decided = rules.decide(state, command)
        movers[version + 1] = levels[seat]
        events.extend(decided)
        state = rules.replay(decided, state)
    rows = rows_of(events)
    for row in rows:
        level = movers.get(row["seq"])
        row["actor_kind"] = "system" if level is None else "bot"
        if level is not None:
            row["bot_level"] = level
    return rows


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


def forged(rows: list[dict[str, Any]], index: int, **payload: Any) -> list[dict[str, Any]]:
    """`rows` with event `index`'s payload changed and every hash recomputed."""
    changed = [dict(row) for row in rows]
    changed[index] = {**changed[index], "payload": {**changed[index]["payload"], **payload}}
    return rechained(changed)


def rechained(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`rows` with every hash recomputed: a log rewritten by someone who can write them all."""
    previous, out = GENESIS, []
    for row in rows:
        previous = link(previous, row["seq"], row["type"], row["schema_version"], row["payload"])
        out.append({**row, "hash": previous})
    return out


def ndjson(rows: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(row) + "\n" for row in rows)
