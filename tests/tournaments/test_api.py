"""The tournament endpoints, every answer checked against the schema (conftest.py)."""

from __future__ import annotations

import pytest

from games import selectors as game_selectors
from tests.tournaments.helpers import play_round
from tournaments.models import Match, Tournament
from tournaments.services.registration import DEFAULT_TURN_SECONDS

pytestmark = pytest.mark.django_db

T = "/api/v1/tournaments"


def create(client, **body):
    body = {"name": "club night", "format": "swiss", "rounds": 2, **body}
    return client.post(T, body, format="json")


def test_create_read_and_list(auth_client):
    organiser = auth_client()
    answer = create(organiser, options={"target": 1}, rated=True)
    assert answer.status_code == 201, answer.content
    made = answer.json()
    assert answer["Location"] == f"{T}/{made['id']}"
    assert (made["status"], made["options"]["target"], made["teams"]) == ("registration", 1, [])
    assert organiser.get(f"{T}/{made['id']}").json() == made
    listed = organiser.get(T).json()
    assert [row["id"] for row in listed["results"]] == [made["id"]]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"options": {"target": 0}}, 422, "invalid_options"),
        ({"options": {"dealer": 1}}, 422, "invalid_options"),
        ({"options": {"turn_seconds": None}}, 422, "untimed_tournament"),
        ({"options": {"turn_seconds": 0}}, 422, "invalid_options"),
        ({"rounds": None}, 422, "invalid_tournament"),
        ({"format": "knockout"}, 422, "invalid_tournament"),
        ({"rounds": 21}, 400, "validation_failed"),
        ({"format": "ladder"}, 400, "validation_failed"),
        ({"name": 7}, 400, "validation_failed"),
    ],
)
def test_bad_settings_are_refused_and_nothing_is_made(auth_client, body, status, code):
    client = auth_client()
    answer = create(client, **body)
    assert (answer.status_code, answer.json()["code"]) == (status, code)
    assert client.get(T).json()["results"] == []


def test_a_tournament_without_a_clock_gets_the_default_one(auth_client):
    organiser = auth_client()
    untimed = create(organiser, options={"target": 1}).json()
    assert untimed["options"]["turn_seconds"] == DEFAULT_TURN_SECONDS
    timed = create(organiser, options={"turn_seconds": 20, "absent_after": 1}).json()
    assert (timed["options"]["turn_seconds"], timed["options"]["absent_after"]) == (20, 1)


def test_a_tournament_game_has_the_turn_clock(auth_client):
    organiser = auth_client()
    tid = create(organiser, options={"target": 1}, rounds=1).json()["id"]
    for number in range(2):
        organiser.post(f"{T}/{tid}/bot-teams", {"name": f"b{number}", "levels": ["random"] * 2})
    assert organiser.post(f"{T}/{tid}/start").status_code == 200
    match = Match.objects.get(round__tournament_id=tid)
    # bots play at once (their turns run no clock); a player's turn would have a deadline
    assert game_selectors.game_table(match.game_id).options["turn_seconds"] == 60


def test_a_partner_accepts_the_invitation(auth_client, make_user):
    organiser, captain_user, partner_user = auth_client(), make_user(), make_user()
    captain, partner = auth_client(captain_user), auth_client(partner_user)
    tid = create(organiser).json()["id"]
    team = captain.post(
        f"{T}/{tid}/teams", {"name": "us", "partner": partner_user.username}, format="json"
    )
    assert team.status_code == 201, team.content
    assert team.json()["status"] == "invited"
    team_id = team.json()["id"]
    # only the invited partner answers
    refused = captain.post(f"{T}/{tid}/teams/{team_id}/accept")
    assert (refused.status_code, refused.json()["code"]) == (403, "not_invited")
    accepted = partner.post(f"{T}/{tid}/teams/{team_id}/accept")
    assert accepted.json()["status"] == "registered"
    again = partner.post(f"{T}/{tid}/teams/{team_id}/accept")
    assert (again.status_code, again.json()["code"]) == (409, "invitation_not_pending")
    # the partner is in a team now: no second registration for either of them
    twice = partner.post(f"{T}/{tid}/teams", {"name": "x", "partner": captain_user.username})
    assert (twice.status_code, twice.json()["code"]) == (409, "already_registered")
    players = [p["username"] for p in organiser.get(f"{T}/{tid}").json()["teams"][0]["players"]]
    assert players == [captain_user.username, partner_user.username]


def test_registration_refusals(auth_client, make_user):
    organiser, player = auth_client(), auth_client()
    tid = create(organiser).json()["id"]
    bot = player.post(f"{T}/{tid}/teams", {"name": "b", "partner_bot": "basic"}, format="json")
    assert (bot.status_code, bot.json()["code"]) == (422, "bot_partner_refused")
    nobody = player.post(f"{T}/{tid}/teams", {"name": "b", "partner": "no-such-player"})
    assert (nobody.status_code, nobody.json()["code"]) == (404, "player_not_found")
    both = player.post(
        f"{T}/{tid}/teams", {"name": "b", "partner": "x", "partner_bot": "basic"}, format="json"
    )
    assert both.status_code == 400
    stranger = player.post(f"{T}/{tid}/bot-teams", {"name": "b", "levels": ["random", "basic"]})
    assert (stranger.status_code, stranger.json()["code"]) == (403, "not_tournament_organiser")
    huge = player.post(f"{T}/{tid}/teams/{'9' * 40}/withdraw")
    assert huge.status_code == 404
    missing = player.post(f"{T}/{tid}/teams/123456789/withdraw")
    assert (missing.status_code, missing.json()["code"]) == (404, "team_not_found")
    assert organiser.get(f"{T}/{tid}").json()["teams"] == []


# The progress feed reads on the feed's own threads (as /me/events does): they see only
# committed data.
@pytest.mark.django_db(transaction=True)
def test_start_then_rounds_standings_and_progress(auth_client, user):
    organiser = auth_client(user)
    tid = create(organiser, options={"target": 1}, rounds=2).json()["id"]
    for number in range(3):
        added = organiser.post(
            f"{T}/{tid}/bot-teams",
            {"name": f"bots {number}", "levels": ["random", "random"]},
            format="json",
        )
        assert added.status_code == 201, added.content
    refused = auth_client().post(f"{T}/{tid}/start")
    assert (refused.status_code, refused.json()["code"]) == (403, "not_tournament_organiser")
    started = organiser.post(f"{T}/{tid}/start")
    assert started.status_code == 200, started.content
    assert (started.json()["status"], started.json()["total_rounds"]) == ("running", 2)
    again = organiser.post(f"{T}/{tid}/start")
    assert (again.status_code, again.json()["code"]) == (409, "tournament_started")
    (first,) = organiser.get(f"{T}/{tid}/rounds").json()
    assert [m["away"] is None for m in first["matches"]] == [False, True]  # a bye last
    feed = organiser.get(f"{T}/{tid}/progress").json()
    assert [entry["type"] for entry in feed] == ["round_started"]
    assert feed[0]["payload"]["pairings"][0]["game_id"] == first["matches"][0]["game_id"]
    tournament = Tournament.objects.get(pk=tid)
    while tournament.status == "running":
        play_round(tournament)
    table = organiser.get(f"{T}/{tid}/standings").json()
    assert [line["rank"] for line in table] == [1, 2, 3]
    later = organiser.get(f"{T}/{tid}/progress", {"after": feed[0]["seq"]}).json()
    assert [entry["type"] for entry in later][-1] == "tournament_finished"
    assert later[-1]["payload"]["winner"] == table[0]["team"]["id"]
    bad = organiser.get(f"{T}/{tid}/progress", {"after": -1})
    assert bad.status_code == 400


def test_withdraw_before_the_start(auth_client, make_user):
    organiser = auth_client()
    tid = create(organiser, allow_bot_partners=True).json()["id"]
    player = auth_client()
    team = player.post(f"{T}/{tid}/teams", {"name": "me", "partner_bot": "basic"}).json()
    assert team["status"] == "registered"
    outsider = auth_client().post(f"{T}/{tid}/teams/{team['id']}/withdraw")
    assert (outsider.status_code, outsider.json()["code"]) == (403, "not_team_member")
    gone = player.post(f"{T}/{tid}/teams/{team['id']}/withdraw")
    assert gone.json()["status"] == "withdrawn"
    twice = player.post(f"{T}/{tid}/teams/{team['id']}/withdraw")
    assert (twice.status_code, twice.json()["code"]) == (409, "withdrawal_closed")
    few = organiser.post(f"{T}/{tid}/start")
    assert (few.status_code, few.json()["code"]) == (409, "not_enough_teams")


def test_ratings_endpoints(auth_client, user):
    client = auth_client()
    assert client.get("/api/v1/ratings").json() == []
    missing = client.get(f"/api/v1/ratings/{user.username}")
    assert (missing.status_code, missing.json()["code"]) == (404, "player_not_found")
    assert client.get("/api/v1/ratings", {"limit": 0}).status_code == 400


@pytest.mark.django_db(transaction=True)
def test_no_tournament_answer_carries_a_seed(auth_client, user):
    """The draw's seed and the games' secret seeds never leave the service this way (a
    game's cards are behind its own endpoints, for its own seats)."""
    organiser = auth_client(user)
    tid = create(organiser, options={"target": 1}, rounds=1, first_round="random").json()["id"]
    for number in range(4):
        organiser.post(
            f"{T}/{tid}/bot-teams",
            {"name": f"bots {number}", "levels": ["random", "random"]},
            format="json",
        )
    organiser.post(f"{T}/{tid}/start")
    answers = [
        organiser.get(path).content.decode()
        for path in (
            T,
            f"{T}/{tid}",
            f"{T}/{tid}/rounds",
            f"{T}/{tid}/standings",
            f"{T}/{tid}/progress",
        )
    ]
    secrets = [Tournament.objects.get(pk=tid).draw_seed]
    for match in Match.objects.filter(round__tournament_id=tid):
        state = game_selectors.table_state(match.game_id).loaded.state
        secrets += [state.game_seed, state.hand_seed]
    assert all(len(secret) >= 32 for secret in secrets)
    for text in answers:
        assert "_seed" not in text  # no draw_seed, game_seed, hand_seed (a team's seed is its rank)
        for secret in secrets:
            assert secret not in text
