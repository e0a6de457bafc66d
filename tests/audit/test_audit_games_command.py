"""`manage.py audit_games`: filters, a progress line, a summary, exit 1 on any failure."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from games.models import GameEvent
from tests.audit.stored import play_stored, seated_table

pytestmark = [pytest.mark.services, pytest.mark.django_db]


@pytest.fixture
def games(make_user):
    """Two finished games and one still running."""
    made = []
    for seed, actions in ((1, None), (2, None), (3, 12)):
        game_id = seated_table([make_user() for _ in range(4)])
        play_stored(game_id, seed, actions=actions)
        made.append(game_id)
    return made


def _run(*args):
    out, err = io.StringIO(), io.StringIO()
    call_command("audit_games", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_valid_games_pass_with_a_progress_line_and_a_summary(games):
    out, err = _run()
    assert "audited 3 games" in out
    assert "3 valid, 0 invalid" in out
    assert "3/3 games, 0 failed" in err
    assert err.startswith("\r[")


def test_filters_choose_the_games(games):
    assert "audited 2 games" in _run("--finished", "--no-progress")[0]
    assert "audited 1 games" in _run("--game", str(games[2]), "--no-progress")[0]
    assert "audited 0 games" in _run("--since", "2999-01-01", "--no-progress")[0]
    assert "audited 3 games" in _run("--since", "2000-01-01T00:00:00Z", "--no-progress")[0]


def test_a_tampered_game_fails_the_run_and_is_named(games):
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute(
                "ALTER TABLE games_gameevent DISABLE TRIGGER games_gameevent_no_update_delete"
            )
        row = GameEvent.objects.get(game_id=games[1], seq=9)
        cursor.execute(
            "UPDATE games_gameevent SET payload = %s WHERE id = %s",
            [json.dumps({**row.payload, "forged": True}), row.pk],
        )
        if connection.vendor == "postgresql":
            cursor.execute(
                "ALTER TABLE games_gameevent ENABLE TRIGGER games_gameevent_no_update_delete"
            )
    out = io.StringIO()
    with pytest.raises(CommandError, match="1 of 3 games failed"):
        call_command("audit_games", "--no-progress", stdout=out)
    assert f"game {games[1]}: invalid at seq 9: chain" in out.getvalue()
    assert "2 valid, 1 invalid" in out.getvalue()
