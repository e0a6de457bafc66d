"""The audit endpoints: the NDJSON export, the audit report, the game as of any event."""

from __future__ import annotations

import contextlib
import json
from uuid import UUID

import pytest
from django.db import connection
from django.utils import timezone

from bench.audit_games import played_game, rechained, rows_of
from games import services
from games.audit.verify import audit_text
from games.models import Game, GameEvent
from games.services.stale_tables import table_close
from tests.audit.stored import play_stored, seated_table
from tests.games.helpers import GAMES
from tests.games.test_bot_turns import play_bots_until

pytestmark = [pytest.mark.services, pytest.mark.django_db]

TRIGGER = "games_gameevent_no_update_delete"


def _export(client, game_id):
    answer = client.get(f"{GAMES}/{game_id}/export")
    assert answer.status_code == 200, answer.content
    assert answer["Content-Type"] == "application/x-ndjson"
    return answer.content.decode()


def _audit(client, game_id, **query):
    answer = client.get(f"{GAMES}/{game_id}/audit", query)
    assert answer.status_code == 200, answer.content
    return answer.json()


@contextlib.contextmanager
def _append_only_lifted():
    """The append-only trigger (games/migrations/0002) off, inside this test's transaction
    only (rolled back with it). The deferred foreign-key checks of the rows inserted so
    far run first: PostgreSQL alters no table with trigger events pending."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute(f"ALTER TABLE games_gameevent DISABLE TRIGGER {TRIGGER}")
        yield cursor
        if connection.vendor == "postgresql":
            cursor.execute(f"ALTER TABLE games_gameevent ENABLE TRIGGER {TRIGGER}")


def _rewrite(game_id, seq, payload=None, hashes=None):
    """Change stored rows behind the append-only trigger's back: event `seq`'s payload,
    and/or the hashes of `hashes` (seq -> hash)."""
    with _append_only_lifted() as cursor:
        if payload is not None:
            cursor.execute(
                "UPDATE games_gameevent SET payload = %s WHERE game_id = %s AND seq = %s",
                [json.dumps(payload), game_id, seq],
            )
        for at, link in (hashes or {}).items():
            cursor.execute(
                "UPDATE games_gameevent SET hash = %s WHERE game_id = %s AND seq = %s",
                [link, game_id, at],
            )


def test_a_finished_games_export_round_trips_through_the_verifier(finished, auth_client):
    text = _export(auth_client(), finished)
    lines = [json.loads(line) for line in text.splitlines()]
    stored = GameEvent.objects.filter(game_id=finished).order_by("seq")
    assert [line["seq"] for line in lines] == list(range(1, stored.count() + 1))
    assert [line["hash"] for line in lines] == [row.hash for row in stored]
    report = audit_text(text.splitlines())
    assert report.valid
    assert report.finished
    api = _audit(auth_client(), finished)
    assert api["valid"] is True
    assert api["discrepancy"] is None
    assert (api["events"], api["head_hash"]) == (report.events, report.head_hash)
    assert api["scores"] == list(Game.objects.get(pk=finished).scores)


def test_a_running_games_log_is_staffs_alone(players, auth_client, make_user):
    game_id = seated_table(players)
    play_stored(game_id, 5, actions=10)
    for path in ("export", "audit"):
        answer = auth_client(players[0]).get(f"{GAMES}/{game_id}/{path}")
        assert answer.status_code == 409
        assert answer.json()["code"] == "game_not_over"
        assert "seed" not in answer.content.decode()
    staff = make_user()
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    report = audit_text(_export(auth_client(staff), game_id).splitlines())
    assert report.valid
    assert not report.finished
    assert _audit(auth_client(staff), game_id)["valid"] is True


def test_an_unknown_game_is_a_404(auth_client):
    client = auth_client()
    for path in ("export", "audit", "replay?seq=0"):
        answer = client.get(f"{GAMES}/{UUID(int=7)}/{path}")
        assert answer.status_code == 404
        assert answer.json()["code"] == "game_not_found"


def test_altering_any_one_stored_event_is_found_at_that_seq(finished, auth_client):
    client = auth_client()
    rows = GameEvent.objects.filter(game_id=finished).order_by("seq")
    originals = {row.seq: row.payload for row in rows}
    for seq, payload in originals.items():
        _rewrite(finished, seq, payload={**payload, "altered": 1})
        found = _audit(client, finished)["discrepancy"]
        assert (found["seq"], found["what"]) == (seq, "chain")
        offline = audit_text(_export(client, finished).splitlines()).discrepancy
        assert offline is not None
        assert (offline.seq, offline.what) == (seq, "chain")
        _rewrite(finished, seq, payload=payload)
    assert _audit(client, finished)["valid"] is True


def _rechained_from(game_id, seq, payload):
    """Event `seq` changed and every hash from there recomputed: a forger's log."""
    rows = [
        {"seq": r.seq, "type": r.type, "schema_version": r.schema_version, "payload": r.payload}
        for r in GameEvent.objects.filter(game_id=game_id).order_by("seq")
    ]
    rows[seq - 1]["payload"] = payload
    chained = rechained(rows)
    _rewrite(game_id, seq, payload=payload, hashes={r["seq"]: r["hash"] for r in chained})


@pytest.mark.parametrize(
    ("kind", "change", "what"),
    [
        ("trick_won", lambda p: {**p, "points": p["points"] + 1}, "event"),
        ("hand_scored", lambda p: {**p, "game_scores": [0, 0]}, "hand_score"),
        ("hand_scored", lambda p: {**p, "seed": "11" * 32}, "seed_reveal"),
        ("hand_dealt", lambda p: {**p, "seed_commitment": "22" * 32}, "seed_commitment"),
        ("hand_dealt", lambda p: {**p, "turned_card": p["stock"][0]}, "deal"),
        ("game_finished", lambda p: {**p, "scores": [1, 2]}, "result"),
    ],
)
def test_a_log_rewritten_with_its_hashes_is_caught_by_the_replay(
    finished, auth_client, kind, change, what
):
    target = GameEvent.objects.filter(game_id=finished, type=kind).order_by("seq")
    row = target[len(target) // 2]
    _rechained_from(finished, row.seq, change(row.payload))
    client = auth_client()
    found = _audit(client, finished)["discrepancy"]
    assert (found["seq"], found["what"]) == (row.seq, what)
    offline = audit_text(_export(client, finished).splitlines()).discrepancy
    assert offline is not None
    assert (offline.seq, offline.what) == (row.seq, what)


def test_a_receipt_kept_by_a_player_catches_a_rewritten_log(players, auth_client):
    game_id = seated_table(players)
    play_stored(game_id, 8, actions=30)
    table_view = auth_client(players[1]).get(f"{GAMES}/{game_id}").json()
    receipt = (table_view["version"], table_view["head_hash"])
    play_stored(game_id, 8)  # to the end (the same moves again would be illegal: new seed)
    # The operator swaps in a whole other game that follows the rules, chained anew.
    forged = rows_of(played_game(99))
    stored = GameEvent.objects.filter(game_id=game_id).count()
    with _append_only_lifted() as cursor:
        cursor.execute("DELETE FROM games_gameevent WHERE game_id = %s", [game_id])
        for row in forged:
            cursor.execute(
                "INSERT INTO games_gameevent (game_id, seq, type, schema_version, payload,"
                " actor_kind, created_at, hash) VALUES (%s, %s, %s, %s, %s, 'system', now(), %s)",
                [
                    game_id,
                    row["seq"],
                    row["type"],
                    row["schema_version"],
                    json.dumps(row["payload"]),
                    row["hash"],
                ],
            )
        if connection.vendor == "postgresql":
            cursor.execute(f"ALTER TABLE games_gameevent ENABLE TRIGGER {TRIGGER}")
    assert stored != 0
    text = _export(auth_client(), game_id)
    assert audit_text(text.splitlines()).valid  # a consistent forgery, on its own
    report = audit_text(text.splitlines(), receipts=[receipt])
    assert report.discrepancy is not None
    assert (report.discrepancy.seq, report.discrepancy.what) == (receipt[0], "receipt")
    assert report.discrepancy.expected == receipt[1]


def test_a_bot_games_audit_re_derives_every_bot_move_on_request(user, auth_client):
    game = services.bot_game_create(
        user=user, options={"target": 1}, levels=("random", "basic", "expert", "random")
    )
    play_bots_until(game.id, lambda current: current.status == "finished")
    client = auth_client()
    plain = _audit(client, game.id)
    assert plain["valid"] is True
    assert "bots" not in plain["checks"]
    with_bots = _audit(client, game.id, bots="true")
    assert with_bots["valid"] is True, with_bots["discrepancy"]
    assert with_bots["checks"][-1] == "bots"
    lines = [json.loads(line) for line in _export(client, game.id).splitlines()]
    moves = [line for line in lines if line["actor_kind"] == "bot" and "seat" in line["payload"]]
    assert {line["bot_level"] for line in moves} == {"random", "basic", "expert"}
    assert audit_text(_export(client, game.id).splitlines(), bots=True).valid
    refused = client.get(f"{GAMES}/{game.id}/audit", {"bots": "maybe"})
    assert refused.status_code == 400


def test_a_table_closed_before_it_filled_exports_and_audits_valid(players, auth_client):
    game = services.game_create(user=players[0], options={}, seat=0)
    assert table_close(game_id=game.id, now=timezone.now())

    text = _export(auth_client(), game.id)
    report = audit_text(text.splitlines())
    api = _audit(auth_client(), game.id)

    assert [json.loads(line)["type"] for line in text.splitlines()] == ["table_closed"]
    assert report.valid
    assert api["valid"] is True
