"""The offline verifier: a whole log is valid; a rewritten one is caught at the seq of the
first change, named; a receipt catches a log rewritten with its hashes."""

from __future__ import annotations

import hashlib
import json

import pytest

from bench.audit_games import bot_game, forged, ndjson, played_game, rechained, rows_of
from games import rules
from games.audit.verify import audit_rows, audit_text
from games.rules.dealing import deal


@pytest.fixture(scope="module")
def game():
    return rows_of(played_game(11))


def _first(rows, kind, start=0):
    return next(i for i, row in enumerate(rows) if row["type"] == kind and i >= start)


def _found(rows):
    report = audit_rows(rows)
    assert not report.valid
    assert report.discrepancy is not None
    return report.discrepancy


@pytest.mark.parametrize("seed", range(6))
def test_a_whole_game_is_valid_and_its_result_is_the_engines(seed):
    events = played_game(seed)
    report = audit_rows(rows_of(events))
    state = rules.replay(events)
    assert report.valid, report.discrepancy
    assert report.finished
    assert (report.events, report.hands) == (len(events), state.hand_number)
    assert report.scores == state.scores
    assert report.winner == rules.summary(state).winner


def test_a_game_still_running_is_valid_and_not_finished(game):
    report = audit_rows(game[:40])
    assert report.valid
    assert not report.finished
    assert report.head_hash == game[39]["hash"]


def test_a_card_changed_with_the_chain_rewritten_is_an_illegal_action_at_its_seq(game):
    index = _first(game, "card_played", 10)
    # the card the next seat plays: in another hand, so not this seat's to play
    other = game[_first(game, "card_played", index + 1)]["payload"]["card"]
    found = _found(forged(game, index, card=other))
    assert (found.seq, found.what) == (index + 1, "illegal_action")
    assert {"type": "play", "card": game[index]["payload"]["card"]} in found.expected


def test_trick_points_changed_are_found_at_that_trick(game):
    index = _first(game, "trick_won")
    found = _found(forged(game, index, points=game[index]["payload"]["points"] + 10))
    assert (found.seq, found.what) == (index + 1, "event")


def test_a_hand_score_changed_is_found_and_named(game):
    index = _first(game, "hand_scored")
    scores = game[index]["payload"]["game_scores"]
    found = _found(forged(game, index, game_scores=[scores[0] + 10, scores[1]]))
    assert (found.seq, found.what) == (index + 1, "hand_score")
    assert found.found["game_scores"] == [scores[0] + 10, scores[1]]


def test_a_result_changed_is_found_and_named(game):
    index = _first(game, "game_finished")
    winner = game[index]["payload"]["winner"]
    found = _found(forged(game, index, winner=1 - winner))
    assert (found.seq, found.what) == (index + 1, "result")


def test_a_deal_that_does_not_match_its_revealed_seed_is_named(game):
    index = _first(game, "hand_dealt", 5)
    cards = game[index]["payload"]["cards"]
    swapped = {**cards, "0": cards["1"], "1": cards["0"]}
    found = _found(forged(game, index, cards=swapped))
    assert (found.seq, found.what) == (index + 1, "deal")


def test_a_commitment_that_does_not_match_its_seed_is_named(game):
    index = _first(game, "hand_dealt", 5)
    found = _found(forged(game, index, seed_commitment=hashlib.sha256(b"x").hexdigest()))
    assert (found.seq, found.what) == (index + 1, "seed_commitment")


def test_a_deal_from_another_seed_with_its_own_commitment_is_caught_by_the_reveal(game):
    # The forger deals from a seed of their choosing, consistent with itself: the seed
    # the hand's end reveals no longer matches.
    index = _first(game, "hand_dealt", 5)
    payload = game[index]["payload"]
    forged = rules.event_to_dict(deal(payload["hand"], payload["dealer"], bytes(32)))
    forged.pop("type"), forged.pop("v")
    changed = [dict(row) for row in game]
    changed[index] = {**changed[index], "payload": forged}
    found = _found(rechained(changed))
    assert found.seq > index + 1
    assert found.what in {"illegal_action", "seed_reveal", "event"}


def test_a_revealed_seed_changed_is_named(game):
    index = _first(game, "hand_scored")
    found = _found(forged(game, index, seed="00" * 32))
    assert (found.seq, found.what) == (index + 1, "seed_reveal")


def test_an_event_changed_without_its_hash_breaks_the_chain_there(game):
    changed = [dict(row) for row in game]
    changed[20] = {**changed[20], "payload": {**changed[20]["payload"], "seat": 9}}
    found = _found(changed)
    assert (found.seq, found.what) == (21, "chain")


def test_a_receipt_catches_a_log_rewritten_with_all_its_hashes(game):
    kept = (60, game[59]["hash"])
    assert audit_rows(game, receipts=[kept]).valid
    # The operator swaps in another game that follows the rules, chained from scratch:
    # valid on its own, but it no longer leads to what the player was shown.
    other = rows_of(played_game(12))
    assert audit_rows(other).valid
    report = audit_rows(other, receipts=[kept])
    assert not report.valid
    assert report.discrepancy is not None
    assert (report.discrepancy.seq, report.discrepancy.what) == (60, "receipt")
    assert report.discrepancy.expected == kept[1]
    # Cutting the log short of the receipt is caught too.
    short = audit_rows(game[:50], receipts=[kept])
    assert short.discrepancy is not None
    assert (short.discrepancy.what, short.discrepancy.found) == ("receipt", None)


def test_the_text_form_round_trips_and_a_bad_line_is_named(game):
    assert audit_text(ndjson(game).splitlines()).valid
    lines = ndjson(game).splitlines()
    lines[3] = "{not json"
    report = audit_text(lines)
    assert report.discrepancy is not None
    assert (report.discrepancy.seq, report.discrepancy.what) == (4, "line")
    rows = [dict(row) for row in game]
    del rows[7]["hash"]
    report = audit_rows(json.loads(json.dumps(rows)))
    assert report.discrepancy is not None
    assert (report.discrepancy.seq, report.discrepancy.what) == (8, "line")


def test_bot_moves_are_re_derived_from_their_seeds_on_request():
    rows = bot_game(31, ("random", "basic", "random", "basic"))
    report = audit_rows(rows, bots=True)
    assert report.valid, report.discrepancy
    assert report.checks[-1] == "bots"
    # A random bot's take made a pass: fine for the rules, not what the bot chose.
    index = next(
        i
        for i, row in enumerate(rows)
        if row.get("bot_level") == "random" and row["payload"].get("bid") == "take"
    )
    payload = {**rows[index]["payload"], "bid": "pass"}
    forged = rechained([*rows[:index], {**rows[index], "payload": payload}])
    assert audit_rows(forged).valid  # a log the rules accept, cut after the pass
    report = audit_rows(forged, bots=True)
    assert report.discrepancy is not None
    assert (report.discrepancy.seq, report.discrepancy.what) == (index + 1, "bot_move")
    assert report.discrepancy.found == {"type": "pass"}


def _as_version_1(row):
    """A row as a release before commit-reveal stored it (games.rules.wire.UPCASTS)."""
    added = rules.wire.UPCASTS.get((row["type"], 1))
    if added is None:
        return row
    payload = {key: value for key, value in row["payload"].items() if key not in added}
    return {**row, "schema_version": 1, "payload": payload}


def test_a_game_stored_before_commit_reveal_still_replays_and_verifies():
    rows = rechained([_as_version_1(row) for row in rows_of(played_game(3))])
    assert {row["schema_version"] for row in rows if row["type"] == "hand_dealt"} == {1}
    report = audit_rows(rows)
    assert report.valid, report.discrepancy
    assert report.finished
