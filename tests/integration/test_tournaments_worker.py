"""Tournaments run by a real Celery worker: nobody pushes them along. The bots play each
turn as a task, a game's end queues its result, the last result of a round queues the
round's close, and the close pairs the next round or finishes the tournament."""

from __future__ import annotations

import time
from collections.abc import Callable
from io import StringIO

import pytest
from django.core.management import call_command

from games import selectors as game_selectors
from games.models import GameEvent, Seat
from games.rules import fairness
from tests.integration.test_celery_round_trip import running_worker
from tests.tournaments.helpers import (
    leave_to_bots,
    tournament_of_bots,
    tournament_of_players,
)
from tournaments import selectors, services
from tournaments.formats.duplicate import BoardPlayed, match_imps
from tournaments.models import (
    Board,
    Match,
    RatedGame,
    Rating,
    RatingChange,
    Team,
    Tournament,
    TournamentEvent,
    TournamentStatus,
)

pytestmark = [
    pytest.mark.services,
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.usefixtures("quiet_worker"),
]

WAIT_SECONDS = 300


@pytest.fixture
def quiet_worker():
    """A worker that logs warnings only: its output goes to a pipe read at the end, and
    a tournament's thousand task lines would fill the pipe and stall the worker."""
    with running_worker("--loglevel", "warning") as worker:
        yield worker


def wait_for(found: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while not found():
        assert time.monotonic() < deadline, "the worker did not get there in time"
        time.sleep(0.2)


def run(tournament: Tournament, organiser) -> Tournament:
    services.tournament_start(tournament_id=tournament.pk, user=organiser)

    def finished() -> bool:
        tournament.refresh_from_db()
        return tournament.status == TournamentStatus.FINISHED

    wait_for(finished)
    return tournament


def matches(tournament: Tournament) -> list[tuple[int, int, int | None, str | None]]:
    return [
        (m.round.number, m.home_id, m.away_id, m.outcome)
        for m in Match.objects.filter(round__tournament=tournament).select_related("round")
    ]


def test_an_eight_team_swiss_runs_to_its_end_without_a_rematch(user):
    tournament = run(tournament_of_bots(user, format="swiss", teams=8, rounds=3), user)
    played = matches(tournament)
    assert {number for number, *_ in played} == {1, 2, 3}
    assert all(outcome in ("home", "away", "draw") for *_, outcome in played)
    met = [frozenset((home, away)) for _, home, away, _ in played]
    assert len(met) == len(set(met)) == 12  # four matches a round, nobody met twice
    for number in (1, 2, 3):
        teams = [t for n, h, a, _ in played if n == number for t in (h, a)]
        assert len(teams) == len(set(teams)) == 8
    seeds = dict(Team.objects.filter(tournament=tournament).values_list("pk", "seed"))
    first = sorted((seeds[h], seeds[a]) for n, h, a, _ in played if n == 1)
    assert first == [(1, 5), (2, 6), (3, 7), (4, 8)]  # seeded: top half v bottom half
    table = selectors.standings_of(tournament)
    points = [line["match_points"] for line in table]
    assert points == sorted(points, reverse=True)
    assert sum(points) == 12 * 2
    # round 3 paired teams on equal points where it could: the leaders (4 points, two
    # teams after two rounds) met each other unless they had met already
    kinds = list(
        TournamentEvent.objects.filter(tournament=tournament).values_list("type", flat=True)
    )
    assert (kinds.count("round_started"), kinds.count("game_finished")) == (3, 12)
    assert kinds[-1] == "tournament_finished"


def test_a_five_team_round_robin_gives_each_team_one_bye(user):
    tournament = run(tournament_of_bots(user, format="round_robin", teams=5), user)
    played = matches(tournament)
    assert tournament.total_rounds == 5
    byes = sorted(home for _, home, away, _ in played if away is None)
    assert byes == sorted(Team.objects.filter(tournament=tournament).values_list("pk", flat=True))
    met = {frozenset((h, a)) for _, h, a, _ in played if a is not None}
    assert len(met) == 10  # every pair of five, once
    table = selectors.standings_of(tournament)
    assert sum(line["match_points"] for line in table) == 10 * 2 + 5 * 2


def test_a_knockout_seeds_the_bracket_and_crowns_the_last_team_standing(user):
    tournament = run(tournament_of_bots(user, format="knockout", teams=6), user)
    seeds = dict(Team.objects.filter(tournament=tournament).values_list("pk", "seed"))
    played = matches(tournament)
    first = [(seeds[h], None if a is None else seeds[a]) for n, h, a, _ in played if n == 1]
    assert first == [(1, None), (4, 5), (2, None), (3, 6)]
    assert tournament.total_rounds == 3
    final = [m for m in played if m[0] == 3]
    assert len(final) == 1
    _, home, away, outcome = final[0]
    champion = home if outcome == "home" else away
    events = TournamentEvent.objects.filter(tournament=tournament, type="tournament_finished")
    assert events.get().payload["winner"] == champion


def test_a_team_withdrawn_mid_swiss_is_not_paired_again(user):
    tournament = tournament_of_bots(user, format="swiss", teams=6, rounds=4)
    services.tournament_start(tournament_id=tournament.pk, user=user)
    leaving = Team.objects.filter(tournament=tournament).order_by("seed").last()
    services.team_withdraw(tournament_id=tournament.pk, team_id=leaving.pk, user=user)
    leaving.refresh_from_db()
    gone_from = leaving.withdrawn_from_round
    assert gone_from is not None
    assert gone_from >= 2

    def finished() -> bool:
        tournament.refresh_from_db()
        return tournament.status == TournamentStatus.FINISHED

    wait_for(finished)
    played = matches(tournament)
    assert all(leaving.pk not in (h, a) for n, h, a, _ in played if n >= gone_from)
    later_byes = [h for n, h, a, _ in played if n >= gone_from and a is None]
    assert len(later_byes) == len(set(later_byes)) == 4 - gone_from + 1


def test_a_rated_tournament_moves_ratings_and_a_rebuild_repeats_them(make_user):
    organiser = make_user()
    players = [make_user() for _ in range(3)]
    tournament = tournament_of_players(
        organiser, players, format="round_robin", partner="basic", rated=True
    )
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    handed: set = set()

    def finished() -> bool:
        # the players step away as each game starts: bots play their seats
        for game_id in Match.objects.filter(
            round__tournament=tournament, game__isnull=False
        ).values_list("game_id", flat=True):
            if game_id not in handed:
                leave_to_bots(game_id)
                handed.add(game_id)
        tournament.refresh_from_db()
        return tournament.status == TournamentStatus.FINISHED

    wait_for(finished)
    assert RatedGame.objects.count() == 3
    for change in RatingChange.objects.select_related("rated_game"):
        match = Match.objects.get(game_id=change.rated_game.game_id)
        home = match.home.captain_id == change.user_id
        won = match.outcome == ("home" if home else "away")
        assert (change.mu_after > change.mu_before) == won
    before = sorted(Rating.objects.values_list("user_id", "mu", "sigma", "games"))
    call_command("ratings_rebuild", stdout=StringIO())
    assert sorted(Rating.objects.values_list("user_id", "mu", "sigma", "games")) == before


def test_a_duplicate_match_deals_each_board_alike_at_both_tables_with_the_seats_swapped(
    user, make_user
):
    settings = services.Settings(name="duplicate", format="duplicate", options={}, boards=3)
    tournament = services.tournament_create(organiser=user, settings=settings)
    levels = {"home": ("random", "random"), "away": ("basic", "basic")}
    for name, pair in levels.items():
        services.bot_team_add(tournament_id=tournament.pk, user=user, name=name, levels=pair)
    tournament = run(tournament, user)
    (match,) = Match.objects.filter(round__tournament=tournament)
    assert match.home.name == "home"
    boards = list(Board.objects.filter(match=match).order_by("number"))
    assert len(boards) == 3
    entries = list(TournamentEvent.objects.filter(tournament=tournament).order_by("seq"))
    assert [e.type for e in entries[:2]] == ["boards_committed", "round_started"]
    committed = [line["commitment"] for line in entries[0].payload["boards"]]
    assert committed == [board.commitment for board in boards]
    stranger = make_user()
    for board in boards:
        tables = (board.first_game_id, board.second_game_id)
        started = [GameEvent.objects.get(game_id=g, seq=1).payload for g in tables]
        dealt = [GameEvent.objects.get(game_id=g, seq=2).payload for g in tables]
        # the same deal, seat for seat: same dealer, same hands, same stock
        assert dealt[0]["dealer"] == dealt[1]["dealer"]
        assert dealt[0]["cards"] == dealt[1]["cards"]
        assert dealt[0]["stock"] == dealt[1]["stock"]
        # with the teams' seats swapped: home holds seats 0 and 2 at the first table
        seats = [
            dict(Seat.objects.filter(game_id=g).values_list("seat", "bot_level")) for g in tables
        ]
        assert (seats[0][0], seats[0][2], seats[0][1]) == ("random", "random", "basic")
        assert (seats[1][0], seats[1][2], seats[1][1]) == ("basic", "basic", "random")
        # the secret revealed after both tables is the one committed before the pairings
        assert fairness.step(bytes.fromhex(board.revealed)).hex() == board.commitment
        assert [s["secret_chain"] for s in started] == [board.commitment] * 2
        assert [d["secret"] for d in dealt] == [board.revealed] * 2
        for game_id in tables:
            assert game_selectors.game_audit(game_id, stranger)["valid"] is True
        # each table's scores are its game's, seats 0 and 2 first
        finished = [
            GameEvent.objects.filter(game_id=g, type="game_finished").get().payload for g in tables
        ]
        assert [board.first_scores, board.second_scores] == [f["scores"] for f in finished]
    played = [BoardPlayed(tuple(b.first_scores), tuple(b.second_scores)) for b in boards]
    assert (match.home_score, match.away_score) == match_imps(played)
    home_imps, away_imps = match_imps(played)
    expected = "draw" if home_imps == away_imps else "home" if home_imps > away_imps else "away"
    assert match.outcome == expected
    kinds = [e.type for e in entries]
    assert (kinds.count("game_finished"), kinds.count("board_revealed")) == (6, 3)
    assert kinds[-1] == "tournament_finished"
